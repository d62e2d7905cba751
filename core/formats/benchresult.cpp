// SPDX-License-Identifier: MIT
#include "core/formats/benchresult.h"

#include "core/common/error.h"
#include "core/common/jsonkeys.h"
#include "core/common/regularfile.h"

#include <algorithm>
#include <cmath>

#include <QCoreApplication>
#include <QJsonObject>
#include <QJsonValue>

namespace kvscope {

/// The translation context of the model warning (lupdate reads BenchResultText::tr):
/// the calibration dialog shows it in the window's language.
class BenchResultText
{
    Q_DECLARE_TR_FUNCTIONS(kvscope::BenchResultText)
};

namespace {

// The keys are those of vLLM's vllm/benchmarks/serve.py: main() writes
// result_json ("model_id", "num_prompts", "max_concurrency": the option, null
// when not given) merged with benchmark()'s result ("completed",
// "total_input_tokens", "total_output_tokens", and "median_itl_ms" from
// process_one_metric("itl", ...)), with json.dump.

/// Reads the fields of one result object; errors say "ORIGIN: FIELD: ...".
class ResultReader
{
public:
    ResultReader(const QJsonObject &object, const QString &origin) : m_object(object), m_origin(origin) {}

    [[noreturn]] void fail(const char *key, const QString &problem) const
    {
        failAt(m_origin, QStringLiteral("%1: %2").arg(QLatin1String(key), problem));
    }

    QJsonValue required(const char *key) const
    {
        const QJsonValue value = m_object.value(QLatin1String(key));
        if (value.isUndefined())
            fail(key, QStringLiteral("missing; not a result `vllm bench serve` saved?"));
        return value;
    }

    double number(const char *key) const
    {
        const QJsonValue value = required(key);
        if (!value.isDouble() || !std::isfinite(value.toDouble()))
            fail(key, QStringLiteral("expected a number, got %1").arg(shown(value)));
        return value.toDouble();
    }

    /// A whole number of at least `least`.
    std::int64_t count(const char *key, std::int64_t least) const
    {
        const double value = number(key);
        if (value != std::floor(value) || value < double(least) || value > 9007199254740992.0)
            fail(key, QStringLiteral("expected a whole number of at least %1, got %2")
                          .arg(least)
                          .arg(shown(m_object.value(QLatin1String(key)))));
        return std::int64_t(value);
    }

    QString text(const char *key) const
    {
        const QJsonValue value = required(key);
        if (!value.isString())
            fail(key, QStringLiteral("expected a string, got %1").arg(shown(value)));
        return value.toString();
    }

    bool isNull(const char *key) const { return required(key).isNull(); }

private:
    static QString shown(const QJsonValue &value)
    {
        if (value.isString())
            return QLatin1Char('\'') + value.toString() + QLatin1Char('\'');
        if (value.isDouble())
            return QString::number(value.toDouble(), 'g', 15);
        if (value.isBool())
            return value.toBool() ? QStringLiteral("true") : QStringLiteral("false");
        if (value.isNull())
            return QStringLiteral("null");
        return value.isArray() ? QStringLiteral("an array") : QStringLiteral("an object");
    }

    QJsonObject m_object;
    QString m_origin;
};

} // namespace

BenchResult parseBenchResult(const QByteArray &bytes, const QString &origin)
{
    const ResultReader r(parseJsonObject(bytes, origin), origin);
    BenchResult result;
    result.origin = origin;
    result.modelId = r.text("model_id");
    // Without --max-concurrency every prompt is sent at once: the server runs them all.
    result.concurrency =
        r.isNull("max_concurrency") ? r.count("num_prompts", 1) : r.count("max_concurrency", 1);
    result.medianItlMs = r.number("median_itl_ms");
    if (!(result.medianItlMs > 0))
        r.fail("median_itl_ms",
               QStringLiteral("expected a positive number of milliseconds, got %1").arg(result.medianItlMs));
    // A typical decode step: a prompt read in, half its output written.
    const std::int64_t completed = r.count("completed", 1);
    const double input = double(r.count("total_input_tokens", 0)) / double(completed);
    const double output = double(r.count("total_output_tokens", 1)) / double(completed);
    result.contextLen = std::max<std::int64_t>(1, std::llround(input + output / 2));
    return result;
}

BenchResult readBenchResult(const QString &path)
{
    return parseBenchResult(readRegularFile(path, MaxBenchResultBytes, QStringLiteral("a benchmark result")),
                            path);
}

QString benchModelMismatch(const BenchResult &result, const QString &modelId, const QString &modelName,
                           const QStringList &repoIds)
{
    const auto same = [&](const QString &name) {
        return result.modelId.compare(name, Qt::CaseInsensitive) == 0;
    };
    if (same(modelId) || same(modelName))
        return {};
    for (const QString &repo : repoIds)
        if (same(repo))
            return {};
    return BenchResultText::tr("%1: model_id '%2' is not the scenario's model (%3); the calibration uses its "
                               "figures anyway")
        .arg(result.origin, result.modelId, modelId);
}

} // namespace kvscope
