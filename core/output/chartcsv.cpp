// SPDX-License-Identifier: MIT
#include "core/output/chartcsv.h"

#include "core/common/csv.h"
#include "core/common/enumtable.h"
#include "core/output/planjson.h"
#include "core/precision/dtypes.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QStringList>

namespace kvscope {

namespace {

const EnumSpelling<Counterfactual> counterfactualKeys[] = {
    {Counterfactual::AsIfMha, "as_if_mha"},
    {Counterfactual::AsIfAllLayersFull, "as_if_all_layers_full"},
};

QByteArray counterfactualKey(Counterfactual kind)
{
    return enumName(counterfactualKeys, kind).toLatin1();
}

QString jsonText(const QJsonValue &value)
{
    switch (value.type()) {
    case QJsonValue::String:
        return value.toString();
    case QJsonValue::Bool:
        return value.toBool() ? QStringLiteral("true") : QStringLiteral("false");
    case QJsonValue::Double:
    case QJsonValue::Array:
    case QJsonValue::Object: {
        // As JSON writes it: 1.5e-05, 443456; a list joined with "; ".
        if (value.isArray()) {
            QStringList items;
            for (const QJsonValue item : value.toArray())
                items << jsonText(item);
            return items.join(QStringLiteral("; "));
        }
        const QByteArray compact = QJsonDocument(QJsonArray{value}).toJson(QJsonDocument::Compact);
        return QString::fromUtf8(compact.mid(1, compact.size() - 2));
    }
    default:
        return {};
    }
}

} // namespace

QByteArray breakdownCsv(const MemoryBreakdown &breakdown)
{
    QByteArray out = "part,bytes,beyond_budget_bytes,share_of_budget_bp\n";
    for (const BreakdownSegment &segment : breakdown.segments)
        out += csv::row({memoryPartKey(segment.part), csv::integer(segment.bytes),
                         csv::integer(segment.beyondBudgetBytes), csv::integer(segment.basisPoints)});
    out += csv::row({"budget", csv::integer(breakdown.budgetBytes), "0", "10000"});
    out += csv::row({"gpu_memory", csv::integer(breakdown.gpuMemoryBytes), "", ""});
    if (breakdown.overflowBytes > 0)
        out += csv::row({"overflow", csv::integer(breakdown.overflowBytes),
                         csv::integer(breakdown.overflowBytes), csv::integer(breakdown.overflowBasisPoints)});
    return out;
}

QByteArray growthCsv(const GrowthChartData &data)
{
    const QByteArray axis = data.axis == GrowthAxis::BatchSize ? "batch_size" : "sequence_length";
    QByteArray out = csv::row(
        {"kv_cache_dtype", axis, "kv_cache_bytes", "total_bytes", "budget_bytes", "current", "line"});
    for (int c = 0; c < data.curves.size(); ++c) {
        const GrowthCurve &curve = data.curves.at(c);
        const QByteArray dtype = dtypeName(curve.kvCacheDtype).toUtf8();
        for (qsizetype i = 0; i < curve.x.size(); ++i)
            out += csv::row({dtype, csv::integer(curve.x.at(i)), csv::integer(curve.kvBytes.at(i)),
                             csv::integer(curve.totalBytes.at(i)), csv::integer(data.budgetBytes),
                             c == data.currentCurve ? "1" : "0", "kv_cache"});
    }
    // The counterfactual lines are KV caches alone, at the plan's KV dtype: no total.
    if (data.curves.isEmpty())
        return out;
    const QByteArray planDtype = dtypeName(data.curves.at(data.currentCurve).kvCacheDtype).toUtf8();
    for (const CounterfactualCurve &curve : data.counterfactuals)
        for (qsizetype i = 0; i < curve.x.size(); ++i)
            out += csv::row({planDtype, csv::integer(curve.x.at(i)), csv::integer(curve.kvBytes.at(i)), "",
                             csv::integer(data.budgetBytes), "0", counterfactualKey(curve.kind)});
    return out;
}

QByteArray speedCsv(const SpeedChartData &data)
{
    QByteArray out = csv::row({"kv_cache_dtype", "batch_size", "tokens_per_second", "tokens_per_second_ideal",
                               "ridge_batch", "ridge_batch_ideal", "fits_up_to", "current",
                               "tokens_per_second_with_drafter"});
    for (int c = 0; c < data.curves.size(); ++c) {
        const SpeedCurve &curve = data.curves.at(c);
        const QByteArray dtype = dtypeName(curve.kvCacheDtype).toUtf8();
        for (qsizetype i = 0; i < curve.batch.size(); ++i)
            out +=
                csv::row({dtype, csv::integer(curve.batch.at(i)), csv::decimal(curve.tokensPerSecond.at(i)),
                          csv::decimal(curve.tokensPerSecondIdeal.at(i)), csv::integer(curve.ridgeBatch),
                          csv::integer(curve.ridgeBatchIdeal), csv::integer(curve.fitsUpTo),
                          c == data.currentCurve ? "1" : "0",
                          // empty without a drafter, or off the plan's curve
                          i < curve.tokensPerSecondSpeculative.size()
                              ? csv::decimal(curve.tokensPerSecondSpeculative.at(i))
                              : QByteArray()});
    }
    return out;
}

QByteArray stepBreakdownCsv(const StepBreakdownChartData &data)
{
    QByteArray out = csv::row({"pass", "term", "seconds", "share_of_pass"});
    if (!data.available)
        return out;
    for (const StepBar *bar : {&data.decode, &data.prefill}) {
        const QByteArray pass = stepPassKey(bar->pass).toLatin1();
        for (const StepSegment &segment : bar->segments)
            out += csv::row({pass, stepTermKey(segment.term).toLatin1(), csv::decimal(segment.seconds),
                             csv::decimal(segment.share)});
        out += csv::row({pass, "total", csv::decimal(bar->seconds), "1"});
    }
    return out;
}

QByteArray figuresCsv(const MemoryPlan &plan)
{
    QByteArray out = "key,value\n";
    const QJsonObject json = planToJson(plan);
    for (auto it = json.begin(); it != json.end(); ++it)
        out += csv::row({csv::field(it.key()), csv::field(jsonText(it.value()))});
    return out;
}

} // namespace kvscope
