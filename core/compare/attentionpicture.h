// SPDX-License-Identifier: MIT
// The Quantization view's attention tab, and `kvscope export --chart
// attention`: one decode query's attention over a short context, exact and
// through an FP8 KV cache, token by token — the picture behind Compare's
// attention figures (the same KV head, queries and scales: kvhead.h), for the
// question "why does FP8 KV barely change the answer, and when would it?".
#pragma once

#include "core/model/modelarch.h"
#include "core/precision/dtypes.h"
#include "core/quantization/attentionerror.h"
#include "core/quantization/parallel.h"

#include <cstdint>

#include <QByteArray>
#include <QJsonObject>
#include <QString>

namespace kvscope {

struct AttentionPictureChoices
{
    /// The KV cache's format: fp8 (as E4M3), fp8_e4m3 or fp8_e5m2.
    KvCacheDtype format = KvCacheDtype::Fp8E4M3;
    /// The engine's per-tensor scale 1.0, or a calibrated amax / max.
    bool calibratedScale = false;
    quant::QueryModel queries = quant::QueryModel::KeyOutliers;
    /// The context the query attends to: 2 to AttentionPictureMaxTokens.
    std::int64_t tokens = 64;
    /// Which of Compare's AttentionQueries decode queries: 1 to AttentionQueries.
    int query = 1;

    friend bool operator==(const AttentionPictureChoices &, const AttentionPictureChoices &) = default;
};

inline constexpr std::int64_t AttentionPictureMaxTokens = 1024;

struct AttentionPicture
{
    AttentionPictureChoices choices;
    QString modelName;         ///< the model whose KV head this is ("Llama-3.1-8B")
    std::int64_t keyWidth = 0; ///< values a key holds (MLA: the latent's)
    double logitScale = 0;     ///< 1/sqrt(q·k width)
    double fp8Scale = 0;       ///< the per-tensor scale the keys and values were stored with
    quant::AttentionWeights weights;
    /// This query's figures at this context (Compare averages 16 queries at 1,024 tokens and more).
    quant::AttentionErrorAt error;
};

/// The picture for `model`, whose activations (and so its cache before
/// quantization) are `activations`. Throws kvscope::Error naming the field and
/// value when a choice is out of range or the format is not FP8.
AttentionPicture attentionPicture(const ModelArch &model, WeightDtype activations,
                                  const AttentionPictureChoices &choices,
                                  const quant::RunControl &control = {});

/// "Over 64 tokens: output SQNR 24.3 dB · 1.52 % of the attention moves to other tokens · ...",
/// in the application's language.
QString attentionPictureFigures(const AttentionPicture &picture);

/// {"model", "format", "scale", "queries", "query", "context_tokens", "key_width", "logit_scale",
/// "fp8_scale", "output_sqnr_db", "attention_mass_moved", "logit_error_rms", "logit_std",
/// "tokens": [{"token", "logit", "quantized_logit", "weight", "quantized_weight"}]}.
QJsonObject attentionPictureToJson(const AttentionPicture &picture);
/// One row a token: token,logit,quantized_logit,logit_error,weight,quantized_weight.
QByteArray attentionPictureCsv(const AttentionPicture &picture);

} // namespace kvscope
