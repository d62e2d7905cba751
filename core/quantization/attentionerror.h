// SPDX-License-Identifier: MIT
// What a quantized KV cache does to attention itself. The simulator's SQNR of
// K and V is the error of what the cache stores; this is the error of what the
// layer computes from it: one decode step's query attends to the cached
// tokens, o = softmax(q Kᵀ · scale) V, once with the exact cache and once with
// its quantized copy. Keys enter through the pre-softmax logits (an FP8 key's
// relative rounding becomes an absolute logit error as large as the logit),
// values through the weighted sum.
#pragma once

#include "core/quantization/densekernels.h"
#include "core/quantization/parallel.h"
#include "core/quantization/synthetic.h"

#include <cstdint>
#include <vector>

#include <QJsonObject>
#include <QList>
#include <QString>

namespace kvscope::quant {

/// The cache of one KV head, row-major [tokens, width], exact and quantized
/// (the quantized matrices have the shapes of the exact ones).
struct AttentionCache
{
    dense::ConstMatrixRef keys;
    dense::ConstMatrixRef values;
    dense::ConstMatrixRef quantizedKeys;
    dense::ConstMatrixRef quantizedValues;
};

/// The error over every query, attending to the first `contextTokens` tokens.
struct AttentionErrorAt
{
    std::int64_t contextTokens = 0;
    /// 10 log10(Σ|o|² / Σ|o - o'|²) over the queries' outputs; +inf when o' = o.
    double outputSqnrDb = 0;
    /// The share of attention that moves to other tokens: the mean over
    /// queries of ½ Σ_t |p_t - p'_t| (0: the same weights, 1: disjoint).
    double massMoved = 0;
    /// sqrt(mean (l - l')²) over queries and tokens, l = q·k · scale.
    double logitErrorRms = 0;
    /// The standard deviation of the exact logits over queries and tokens:
    /// how sharp the attention is, beside which the logit error reads.
    double logitStd = 0;
};

/// The attention error of `queries` [n, key width] at each context length
/// (ascending, each at most the cache's tokens), logits scaled by
/// `logitScale` (1/sqrt(head dim)). Sums in double. Throws kvscope::Error when
/// shapes disagree; Cancelled when the control's flag is set.
QList<AttentionErrorAt> attentionErrors(dense::ConstMatrixRef queries, const AttentionCache &cache,
                                        const QList<std::int64_t> &contextTokens, double logitScale,
                                        const RunControl &control = {});

/// One query's attention over the first tokens of a cache, token by token,
/// exact and through the quantized cache: what the error figures sum over.
struct AttentionWeights
{
    std::vector<double> logits;           ///< l_t = q·k_t · scale
    std::vector<double> quantizedLogits;  ///< l'_t, with the quantized keys
    std::vector<double> weights;          ///< p_t = softmax(l)_t
    std::vector<double> quantizedWeights; ///< p'_t = softmax(l')_t

    /// l'_t - l_t, token by token.
    std::vector<double> logitErrors() const;
};

/// `query` (the keys' width) against the first `tokens` cached tokens (at
/// least 1, at most the cache's). Throws kvscope::Error when shapes disagree.
AttentionWeights attentionWeights(const float *query, const AttentionCache &cache, std::int64_t tokens,
                                  double logitScale);

/// How the decode queries relate to the keys. Both are extremes a real head
/// lies between: the attention error depends on how sharp the attention is,
/// and that on how strongly the query uses the keys' large channels.
enum class QueryModel
{
    /// N(0, 1) in every channel: the logits are small (std about 1.7 against
    /// Compare's keys) and the attention spreads over many tokens.
    Diffuse,
    /// The keys' outlier channels at the keys' multipliers, N(0, 1) elsewhere.
    /// Massive values sit in the same low-frequency RoPE dimensions of queries
    /// and keys, not of values (Jin et al. 2025, arXiv 2502.01563; Barbero et
    /// al. 2024, arXiv 2410.06205: the lowest frequencies get the higher norm in
    /// both q and k); their products make large logits (std about 12) and
    /// sharp attention, which a key's rounding in those channels moves most.
    KeyOutliers,
};

/// "diffuse", "key_outliers" (kvscope compare --json's spelling; "key-outliers" is also read).
QString queryModelName(QueryModel model);
/// The inverse; throws kvscope::Error naming `option` and the value.
QueryModel parseQueryModel(const QString &text, const QString &option);

/// {"context_tokens", "output_sqnr_db" (null when exact), "attention_mass_moved",
/// "logit_error_rms", "logit_std"}.
QJsonObject attentionErrorToJson(const AttentionErrorAt &error);

/// `count` decode queries for the keys `keys` describes, row-major [count, keys.cols].
std::vector<float> syntheticQueries(const SyntheticSpec &keys, QueryModel model, std::int64_t count,
                                    std::uint64_t seed);

} // namespace kvscope::quant
