// SPDX-License-Identifier: MIT
#include "core/quantization/attentionerror.h"

#include "core/common/enumtable.h"
#include "core/common/error.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace kvscope::quant {

namespace {

constexpr EnumSpelling<QueryModel> queryModelSpellings[] = {
    {QueryModel::Diffuse, "diffuse"},
    {QueryModel::KeyOutliers, "key_outliers", {"key-outliers"}},
};

/// One query's sums at one context length.
struct QuerySums
{
    double output = 0;       ///< Σ o²
    double outputError = 0;  ///< Σ (o - o')²
    double massMoved = 0;    ///< ½ Σ |p - p'|
    double logits = 0;       ///< Σ l
    double logitSquares = 0; ///< Σ l²
    double logitErrors = 0;  ///< Σ (l - l')²
};

/// q·k of every cached row, scaled.
void logitsOf(const float *query, dense::ConstMatrixRef keys, std::int64_t tokens, double scale,
              std::vector<double> &out)
{
    for (std::int64_t t = 0; t < tokens; ++t) {
        const float *key = keys.data + t * keys.stride;
        double dot = 0;
#pragma omp simd reduction(+ : dot)
        for (std::int64_t c = 0; c < keys.cols; ++c)
            dot += double(query[c]) * double(key[c]);
        out[size_t(t)] = dot * scale;
    }
}

/// softmax(l) V over a growing prefix of the tokens in one pass, with the
/// running-maximum rescaling of FlashAttention (Dao et al. 2022, arXiv
/// 2205.14135): a longer context adds its own tokens to the shorter one's sums.
class PrefixAttention
{
public:
    explicit PrefixAttention(std::int64_t width) : m_sum(static_cast<size_t>(width), 0.0) {}

    /// Adds tokens [from, to).
    void add(const std::vector<double> &logits, dense::ConstMatrixRef values, std::int64_t from,
             std::int64_t to)
    {
        double *sum = m_sum.data();
        for (std::int64_t t = from; t < to; ++t) {
            const double logit = logits[size_t(t)];
            if (logit > m_largest) {
                const double rescale = std::exp(m_largest - logit); // 0 for the first token
                m_normalizer *= rescale;
                for (double &v : m_sum)
                    v *= rescale;
                m_largest = logit;
            }
            const double weight = std::exp(logit - m_largest);
            m_normalizer += weight;
            const float *value = values.data + t * values.stride;
#pragma omp simd
            for (std::int64_t c = 0; c < values.cols; ++c)
                sum[c] += weight * double(value[c]);
        }
    }
    /// The softmax weight of a token with this logit among the tokens added.
    double weight(double logit) const
    {
        return std::exp(logit - m_largest) / m_normalizer;
    }
    /// Σ_t p_t v_t, component c.
    double output(size_t c) const
    {
        return m_sum[c] / m_normalizer;
    }

private:
    double m_largest = -std::numeric_limits<double>::infinity();
    double m_normalizer = 0;
    std::vector<double> m_sum;
};

void requireShapes(dense::ConstMatrixRef queries, const AttentionCache &cache,
                   const QList<std::int64_t> &contextTokens)
{
    const auto same = [](dense::ConstMatrixRef a, dense::ConstMatrixRef b) {
        return a.rows == b.rows && a.cols == b.cols;
    };
    if (queries.cols != cache.keys.cols || cache.keys.rows != cache.values.rows ||
        !same(cache.keys, cache.quantizedKeys) || !same(cache.values, cache.quantizedValues))
        throw Error(
            QStringLiteral("attention: queries [%1, %2], keys [%3, %4] and values [%5, %6] do not fit")
                .arg(queries.rows)
                .arg(queries.cols)
                .arg(cache.keys.rows)
                .arg(cache.keys.cols)
                .arg(cache.values.rows)
                .arg(cache.values.cols));
    for (qsizetype i = 0; i < contextTokens.size(); ++i)
        if (contextTokens.at(i) < 1 || contextTokens.at(i) > cache.keys.rows ||
            (i > 0 && contextTokens.at(i) <= contextTokens.at(i - 1)))
            throw Error(QStringLiteral("attention: context lengths must rise from 1 to the %1 cached tokens")
                            .arg(cache.keys.rows));
}

} // namespace

QList<AttentionErrorAt> attentionErrors(dense::ConstMatrixRef queries, const AttentionCache &cache,
                                        const QList<std::int64_t> &contextTokens, double logitScale,
                                        const RunControl &control)
{
    requireShapes(queries, cache, contextTokens);
    if (contextTokens.isEmpty() || queries.rows == 0)
        return {};
    const std::int64_t longest = contextTokens.last();
    const auto contexts = size_t(contextTokens.size());
    // Sums per query and context, reduced in query order afterwards: the same
    // figures whatever thread ran which query.
    std::vector<QuerySums> sums(size_t(queries.rows) * contexts);
    parallelChunks(
        queries.rows, workerCount(queries.rows),
        [&](std::int64_t query, int) {
            const float *q = queries.data + query * queries.stride;
            std::vector<double> logits(static_cast<size_t>(longest));
            std::vector<double> quantizedLogits(static_cast<size_t>(longest));
            // The shorter contexts are prefixes: their logits are the longest one's.
            logitsOf(q, cache.keys, longest, logitScale, logits);
            logitsOf(q, cache.quantizedKeys, longest, logitScale, quantizedLogits);
            PrefixAttention exact(cache.values.cols);
            PrefixAttention quantized(cache.values.cols);
            QuerySums prefix; // the logit sums over the tokens before this context's end
            std::int64_t from = 0;
            for (size_t i = 0; i < contexts; ++i) {
                const std::int64_t tokens = contextTokens.at(qsizetype(i));
                for (std::int64_t t = from; t < tokens; ++t) {
                    const double l = logits[size_t(t)];
                    prefix.logits += l;
                    prefix.logitSquares += l * l;
                    prefix.logitErrors += (l - quantizedLogits[size_t(t)]) * (l - quantizedLogits[size_t(t)]);
                }
                exact.add(logits, cache.values, from, tokens);
                quantized.add(quantizedLogits, cache.quantizedValues, from, tokens);
                from = tokens;
                QuerySums &s = sums[size_t(query) * contexts + i];
                s = prefix;
                for (size_t c = 0; c < size_t(cache.values.cols); ++c) {
                    const double o = exact.output(c);
                    s.output += o * o;
                    s.outputError += (o - quantized.output(c)) * (o - quantized.output(c));
                }
                for (std::int64_t t = 0; t < tokens; ++t)
                    s.massMoved += 0.5 * std::fabs(exact.weight(logits[size_t(t)]) -
                                                   quantized.weight(quantizedLogits[size_t(t)]));
            }
        },
        control);

    QList<AttentionErrorAt> errors;
    for (size_t i = 0; i < contexts; ++i) {
        AttentionErrorAt at;
        at.contextTokens = contextTokens.at(qsizetype(i));
        QuerySums total;
        for (std::int64_t query = 0; query < queries.rows; ++query) {
            const QuerySums &s = sums[size_t(query) * contexts + i];
            total.output += s.output;
            total.outputError += s.outputError;
            total.massMoved += s.massMoved;
            total.logits += s.logits;
            total.logitSquares += s.logitSquares;
            total.logitErrors += s.logitErrors;
        }
        const double logitCount = double(queries.rows) * double(at.contextTokens);
        const double meanLogit = total.logits / logitCount;
        at.massMoved = total.massMoved / double(queries.rows);
        at.outputSqnrDb = total.outputError == 0 ? std::numeric_limits<double>::infinity()
                                                 : 10.0 * std::log10(total.output / total.outputError);
        at.logitErrorRms = std::sqrt(total.logitErrors / logitCount);
        at.logitStd = std::sqrt(std::max(0.0, total.logitSquares / logitCount - meanLogit * meanLogit));
        errors << at;
    }
    control.report(1.0);
    return errors;
}

QString queryModelName(QueryModel model)
{
    return enumName(queryModelSpellings, model);
}

QueryModel parseQueryModel(const QString &text, const QString &option)
{
    if (const std::optional<QueryModel> model = enumValue(queryModelSpellings, text.trimmed().toLower()))
        return *model;
    throw Error(QStringLiteral("%1: unknown queries '%2' (choose one of: %3)")
                    .arg(option, text, enumChoices(queryModelSpellings).join(QStringLiteral(", "))));
}

QJsonObject attentionErrorToJson(const AttentionErrorAt &e)
{
    QJsonObject o;
    o.insert(u"context_tokens", qint64(e.contextTokens));
    o.insert(u"output_sqnr_db",
             std::isfinite(e.outputSqnrDb) ? QJsonValue(e.outputSqnrDb) : QJsonValue(QJsonValue::Null));
    o.insert(u"attention_mass_moved", e.massMoved);
    o.insert(u"logit_error_rms", e.logitErrorRms);
    o.insert(u"logit_std", e.logitStd);
    return o;
}

std::vector<double> AttentionWeights::logitErrors() const
{
    std::vector<double> errors(logits.size());
    for (size_t t = 0; t < errors.size(); ++t)
        errors[t] = quantizedLogits[t] - logits[t];
    return errors;
}

AttentionWeights attentionWeights(const float *query, const AttentionCache &cache, std::int64_t tokens,
                                  double logitScale)
{
    requireShapes({query, 1, cache.keys.cols, cache.keys.cols}, cache, {tokens});
    AttentionWeights w;
    w.logits.resize(static_cast<size_t>(tokens));
    w.quantizedLogits.resize(static_cast<size_t>(tokens));
    logitsOf(query, cache.keys, tokens, logitScale, w.logits);
    logitsOf(query, cache.quantizedKeys, tokens, logitScale, w.quantizedLogits);
    PrefixAttention exact(cache.values.cols);
    PrefixAttention quantized(cache.values.cols);
    exact.add(w.logits, cache.values, 0, tokens);
    quantized.add(w.quantizedLogits, cache.quantizedValues, 0, tokens);
    for (std::int64_t t = 0; t < tokens; ++t) {
        w.weights.push_back(exact.weight(w.logits[size_t(t)]));
        w.quantizedWeights.push_back(quantized.weight(w.quantizedLogits[size_t(t)]));
    }
    return w;
}

std::vector<float> syntheticQueries(const SyntheticSpec &keys, QueryModel model, std::int64_t count,
                                    std::uint64_t seed)
{
    SyntheticSpec spec;
    spec.kind = SyntheticKind::Gaussian;
    spec.rows = count;
    spec.cols = keys.cols;
    spec.seed = seed;
    spec.standardDeviation = 1.0;
    const TensorData drawn = generateSynthetic(spec);
    const float *values = drawn.floats(0, drawn.elements(), nullptr);
    std::vector<float> queries(values, values + drawn.elements());
    if (model == QueryModel::Diffuse)
        return queries;
    for (const OutlierChannel &channel : outlierChannels(keys))
        for (std::int64_t row = 0; row < count; ++row)
            queries[size_t(row * keys.cols + channel.column)] *= float(channel.multiplier);
    return queries;
}

} // namespace kvscope::quant
