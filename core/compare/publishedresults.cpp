// SPDX-License-Identifier: MIT
#include "core/compare/publishedresults.h"

#include "core/common/error.h"
#include "core/library/library.h"
#include "core/model/hfconfig.h"
#include "core/scenario/scenario.h"

#include <algorithm>
#include <cmath>
#include <utility>

#include <QCoreApplication>
#include <QHash>
#include <QJsonArray>
#include <QLocale>

namespace kvscope {

QList<PublishedResult> publishedResultsFromJson(const QByteArray &json, const QString &origin)
{
    QList<PublishedResult> results;
    const QJsonArray entries = parseJsonObject(json, origin).value(u"results").toArray();
    for (qsizetype i = 0; i < entries.size(); ++i) {
        const QJsonObject o = entries.at(i).toObject();
        PublishedResult r;
        r.aspect = o.value(u"aspect").toString();
        r.format = o.value(u"format").toString();
        r.model = o.value(u"model").toString();
        r.engine = o.value(u"engine").toString();
        r.benchmark = o.value(u"benchmark").toString();
        r.higherIsBetter = o.value(u"higher_is_better").toBool(true);
        const QJsonObject baseline = o.value(u"baseline").toObject();
        const QJsonObject quantized = o.value(u"quantized").toObject();
        r.baselineLabel = baseline.value(u"label").toString();
        r.baseline = baseline.value(u"value").toDouble();
        r.quantizedLabel = quantized.value(u"label").toString();
        r.quantized = quantized.value(u"value").toDouble();
        r.note = o.value(u"note").toString();
        r.source = o.value(u"source").toString();
        const auto fail = [&](const char *field) {
            throw Error(QStringLiteral("%1: results[%2]: field '%3' missing or invalid")
                            .arg(origin)
                            .arg(i)
                            .arg(QLatin1String(field)));
        };
        if (r.aspect != QLatin1String("weights") && r.aspect != QLatin1String("kv_cache"))
            fail("aspect");
        if (r.format.isEmpty())
            fail("format");
        if (r.model.isEmpty() || r.benchmark.isEmpty())
            fail("model");
        if (!baseline.value(u"value").isDouble() || !quantized.value(u"value").isDouble())
            fail("value");
        if (!r.source.startsWith(QLatin1String("https://")))
            fail("source");
        const auto stderrOf = [&](const QJsonObject &figure) -> std::optional<double> {
            if (!figure.contains(u"stderr"))
                return std::nullopt;
            const QJsonValue v = figure.value(u"stderr");
            if (!v.isDouble() || !(v.toDouble() > 0))
                fail("stderr");
            return v.toDouble();
        };
        r.baselineStderr = stderrOf(baseline);
        r.quantizedStderr = stderrOf(quantized);
        results << r;
    }
    return results;
}

const QList<PublishedResult> &publishedResults()
{
    static const QList<PublishedResult> results =
        publishedResultsFromJson(readResource(QStringLiteral(":/quality/published-results.json")),
                                 QStringLiteral("published-results.json"));
    return results;
}

QString weightFormatKey(const Scenario &scenario, const MemoryPlan &plan)
{
    if (plan.modelFormat == ModelFormat::Gguf)
        return plan.modelFileType.isEmpty() ? QString()
                                            : QStringLiteral("gguf:") + plan.modelFileType.toLower();
    if (plan.quantization.method != QuantMethod::None)
        return quantMethodName(plan.quantization.method);
    const WeightDtype checkpoint = scenario.model.checkpointDtype == WeightDtype::Auto
                                       ? WeightDtype::BFloat16
                                       : scenario.model.checkpointDtype;
    if (plan.dtype == checkpoint || plan.dtype == WeightDtype::Float32)
        return {};
    return dtypeName(plan.dtype);
}

QString kvFormatKey(const MemoryPlan &plan)
{
    switch (plan.kvCacheDtype) {
    case KvCacheDtype::Fp8:
    case KvCacheDtype::Fp8E4M3:
        return dtypeName(KvCacheDtype::Fp8E4M3);
    case KvCacheDtype::Fp8E5M2:
    case KvCacheDtype::Nvfp4:
    case KvCacheDtype::Fp4MxBlock16:
    case KvCacheDtype::Q8_0:
    case KvCacheDtype::Q4_0:
        return dtypeName(plan.kvCacheDtype);
    case KvCacheDtype::Auto:
    case KvCacheDtype::Float32:
    case KvCacheDtype::Float16:
    case KvCacheDtype::BFloat16:
        break;
    }
    return {};
}

QString modelFamily(const ModelArch &model)
{
    // HF model_type -> the word the published results' model names use.
    static const QHash<QString, QString> families{
        {QStringLiteral("llama"), QStringLiteral("llama")},
        {QStringLiteral("llama4"), QStringLiteral("llama")},
        {QStringLiteral("llama4_text"), QStringLiteral("llama")},
        {QStringLiteral("qwen2"), QStringLiteral("qwen")},
        {QStringLiteral("qwen2_moe"), QStringLiteral("qwen")},
        {QStringLiteral("qwen3"), QStringLiteral("qwen")},
        {QStringLiteral("qwen3_moe"), QStringLiteral("qwen")},
        {QStringLiteral("qwen3_next"), QStringLiteral("qwen")},
        {QStringLiteral("mistral"), QStringLiteral("mistral")},
        {QStringLiteral("mixtral"), QStringLiteral("mixtral")},
        {QStringLiteral("gemma"), QStringLiteral("gemma")},
        {QStringLiteral("gemma2"), QStringLiteral("gemma")},
        {QStringLiteral("gemma3"), QStringLiteral("gemma")},
        {QStringLiteral("gemma3_text"), QStringLiteral("gemma")},
        {QStringLiteral("gemma3n"), QStringLiteral("gemma")},
        {QStringLiteral("gemma3n_text"), QStringLiteral("gemma")},
        {QStringLiteral("deepseek_v2"), QStringLiteral("deepseek")},
        {QStringLiteral("deepseek_v3"), QStringLiteral("deepseek")},
        {QStringLiteral("deepseek_v32"), QStringLiteral("deepseek")},
        {QStringLiteral("gpt_oss"), QStringLiteral("gpt-oss")},
        {QStringLiteral("phi"), QStringLiteral("phi")},
        {QStringLiteral("phi3"), QStringLiteral("phi")},
        {QStringLiteral("falcon"), QStringLiteral("falcon")},
        {QStringLiteral("granite"), QStringLiteral("granite")},
        {QStringLiteral("granitemoehybrid"), QStringLiteral("granite")},
    };
    return families.value(model.modelType.toLower());
}

QList<PublishedResult> publishedResultsFor(const Scenario &scenario, const MemoryPlan &plan)
{
    const QString weights = weightFormatKey(scenario, plan);
    const QString kv = kvFormatKey(plan);
    const QString family = modelFamily(scenario.model);
    QList<PublishedResult> same, other;
    for (PublishedResult r : publishedResults()) {
        const QString &wanted = r.aspect == QLatin1String("weights") ? weights : kv;
        if (wanted.isEmpty() || r.format != wanted)
            continue;
        r.sameFamily = !family.isEmpty() && r.model.contains(family, Qt::CaseInsensitive);
        (r.sameFamily ? same : other) << r;
    }
    return same + other;
}

QStringList formatsWithoutPublishedResults(const Scenario &scenario, const MemoryPlan &plan)
{
    QStringList missing;
    const QList<PublishedResult> found = publishedResultsFor(scenario, plan);
    const std::pair<QString, QString> formats[] = {
        {QStringLiteral("weights"), weightFormatKey(scenario, plan)},
        {QStringLiteral("kv_cache"), kvFormatKey(plan)}};
    for (const std::pair<QString, QString> &wanted : formats) {
        const bool measured = std::any_of(found.cbegin(), found.cend(), [&wanted](const PublishedResult &r) {
            return r.aspect == wanted.first && r.format == wanted.second;
        });
        if (!wanted.second.isEmpty() && !measured)
            missing << wanted.second;
    }
    return missing;
}

double publishedChange(const PublishedResult &r)
{
    return r.quantized - r.baseline;
}

std::optional<double> publishedChangeStderr(const PublishedResult &r)
{
    if (!r.baselineStderr || !r.quantizedStderr)
        return std::nullopt;
    return std::hypot(*r.baselineStderr, *r.quantizedStderr);
}

QString publishedChangeText(const PublishedResult &r)
{
    // As many decimals as the more precise of the two printed values.
    const auto decimals = [](double v) {
        const QString text = publishedValueText(v);
        const qsizetype point = text.indexOf(QLatin1Char('.'));
        return point < 0 || text.contains(QLatin1Char('e')) ? 0 : int(text.size() - point - 1);
    };
    const int places = std::max(decimals(r.baseline), decimals(r.quantized));
    const double change = publishedChange(r);
    const QString sign = change > 0 ? QStringLiteral("+") : change < 0 ? QStringLiteral("\u2212") : QString();
    QString text = sign + QString::number(std::fabs(change), 'f', places);
    const std::optional<double> error = publishedChangeStderr(r);
    if (error)
        text += QStringLiteral(" \u00b1 ") + QString::number(*error, 'f', std::max(places, 1));
    if (!error)
        return text; // a verdict needs the runs' uncertainty
    const bool worse = r.higherIsBetter ? change < 0 : change > 0;
    const char *verdict =
        std::fabs(change) <= 2 * *error
            ? QT_TRANSLATE_NOOP("kvscope::PublishedResults", "within twice its standard error")
        : worse ? QT_TRANSLATE_NOOP("kvscope::PublishedResults", "worse")
                : QT_TRANSLATE_NOOP("kvscope::PublishedResults", "better");
    return text + QStringLiteral(", ") + QCoreApplication::translate("kvscope::PublishedResults", verdict);
}

QJsonObject publishedResultToJson(const PublishedResult &r)
{
    QJsonObject o;
    o.insert(u"aspect", r.aspect);
    o.insert(u"format", r.format);
    o.insert(u"model", r.model);
    o.insert(u"engine", r.engine);
    o.insert(u"benchmark", r.benchmark);
    o.insert(u"higher_is_better", r.higherIsBetter);
    const auto figure = [](const QString &label, double value, const std::optional<double> &error) {
        QJsonObject f{{QStringLiteral("label"), label}, {QStringLiteral("value"), value}};
        if (error)
            f.insert(u"stderr", *error);
        return f;
    };
    o.insert(u"baseline", figure(r.baselineLabel, r.baseline, r.baselineStderr));
    o.insert(u"quantized", figure(r.quantizedLabel, r.quantized, r.quantizedStderr));
    o.insert(u"change", publishedChange(r));
    const std::optional<double> changeError = publishedChangeStderr(r);
    o.insert(u"change_stderr", changeError ? QJsonValue(*changeError) : QJsonValue(QJsonValue::Null));
    o.insert(u"note", r.note);
    o.insert(u"source", r.source);
    o.insert(u"same_family", r.sameFamily);
    return o;
}

QString publishedValueText(double value)
{
    return QString::number(value, 'g', QLocale::FloatingPointShortest);
}

} // namespace kvscope
