// SPDX-License-Identifier: MIT
#include "plan/chartcsv.h"

#include "plan/planjson.h"
#include "precision/dtypes.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QStringList>

namespace kvscope {

namespace {

const char *partKey(MemoryPart part)
{
    switch (part) {
    case MemoryPart::Weights:
        return "weights";
    case MemoryPart::Activations:
        return "activations";
    case MemoryPart::Overhead:
        return "overhead";
    case MemoryPart::KvCache:
        return "kv_cache";
    case MemoryPart::RecurrentState:
        return "recurrent_state";
    case MemoryPart::Headroom:
        return "headroom";
    case MemoryPart::Overflow:
        return "overflow";
    }
    return "";
}

const char *counterfactualKey(Counterfactual kind)
{
    switch (kind) {
    case Counterfactual::AsIfMha:
        return "as_if_mha";
    case Counterfactual::AsIfAllLayersFull:
        return "as_if_all_layers_full";
    }
    return "";
}

QByteArray row(std::initializer_list<QByteArray> cells)
{
    QByteArray line;
    for (const QByteArray &cell : cells)
        line += (line.isEmpty() ? QByteArray() : QByteArray(",")) + cell;
    return line + '\n';
}

/// RFC 4180: a field with a comma, quote or line break is quoted, quotes doubled.
QByteArray field(const QString &text)
{
    QByteArray utf8 = text.toUtf8();
    if (!utf8.contains(',') && !utf8.contains('"') && !utf8.contains('\n') && !utf8.contains('\r'))
        return utf8;
    return '"' + utf8.replace('"', "\"\"") + '"';
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
            for (const QJsonValue &item : value.toArray())
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

QByteArray number(std::int64_t value)
{
    return QByteArray::number(qint64(value));
}

} // namespace

QByteArray breakdownCsv(const MemoryBreakdown &breakdown)
{
    QByteArray csv = "part,bytes,beyond_budget_bytes,share_of_budget_bp\n";
    for (const BreakdownSegment &segment : breakdown.segments)
        csv += row({partKey(segment.part), number(segment.bytes), number(segment.beyondBudgetBytes),
                    number(segment.basisPoints)});
    csv += row({"budget", number(breakdown.budgetBytes), "0", "10000"});
    csv += row({"gpu_memory", number(breakdown.gpuMemoryBytes), "", ""});
    if (breakdown.overflowBytes > 0)
        csv += row({"overflow", number(breakdown.overflowBytes), number(breakdown.overflowBytes),
                    number(breakdown.overflowBasisPoints)});
    return csv;
}

QByteArray growthCsv(const GrowthChartData &data)
{
    const QByteArray axis = data.axis == GrowthAxis::BatchSize ? "batch_size" : "sequence_length";
    QByteArray csv =
        row({"kv_cache_dtype", axis, "kv_cache_bytes", "total_bytes", "budget_bytes", "current", "line"});
    for (int c = 0; c < data.curves.size(); ++c) {
        const GrowthCurve &curve = data.curves.at(c);
        const QByteArray dtype = dtypeName(curve.kvCacheDtype).toUtf8();
        for (qsizetype i = 0; i < curve.x.size(); ++i)
            csv += row({dtype, number(curve.x.at(i)), number(curve.kvBytes.at(i)),
                        number(curve.totalBytes.at(i)), number(data.budgetBytes),
                        c == data.currentCurve ? "1" : "0", "kv_cache"});
    }
    // The counterfactual lines are KV caches alone, at the plan's KV dtype: no total.
    if (data.curves.isEmpty())
        return csv;
    const QByteArray planDtype = dtypeName(data.curves.at(data.currentCurve).kvCacheDtype).toUtf8();
    for (const CounterfactualCurve &curve : data.counterfactuals)
        for (qsizetype i = 0; i < curve.x.size(); ++i)
            csv += row({planDtype, number(curve.x.at(i)), number(curve.kvBytes.at(i)), "",
                        number(data.budgetBytes), "0", counterfactualKey(curve.kind)});
    return csv;
}

QByteArray figuresCsv(const MemoryPlan &plan)
{
    QByteArray csv = "key,value\n";
    const QJsonObject json = planToJson(plan);
    for (auto it = json.begin(); it != json.end(); ++it)
        csv += row({field(it.key()), field(jsonText(it.value()))});
    return csv;
}

} // namespace kvscope
