// SPDX-License-Identifier: MIT
// Accuracy from the scenario: what its weight format and its KV cache dtype
// cost in quantization error, simulated by the quantization simulator
// (quant::runQuantization) on tensors shaped like the model's own.
//
// The model of it (docs/methodology.md, "Accuracy"):
// - Weights: the first attention layer's o_proj [hidden, heads x v_head_dim]
//   (MoE experts' down_proj [hidden, expert width] for mxfp4, which quantizes
//   routed experts only). From a model folder with .safetensors: that tensor of
//   the checkpoint, when it is a 2-D F32/F16/BF16 tensor. Else synthetic:
//   Student-t with 5 degrees of freedom, std 0.02, four input channels (columns)
//   2.5x, 5x, 7.5x and 10x larger, rounded to the checkpoint dtype, clipped to
//   the simulator's 8192 x 8192.
// - KV cache: one KV head of one layer for 4,096 tokens, in the activation
//   dtype (--dtype): keys N(0, 1) with four channels 2.5x..10x larger, values
//   N(0, 1) without (KIVI, arXiv 2402.02750; KVQuant, arXiv 2401.18079: keys
//   have fixed outlier channels, values do not). MLA caches one latent
//   [kv_lora_rank + rope], simulated as keys. FP8 under the engine's scale
//   (vLLM: per-tensor 1.0 without calibrated k/v scales) and, beside it, a
//   calibrated amax / max scale.
//   Attention: 16 decode queries (diffuse, and on the keys' outlier
//   channels) against those keys and values extended to
//   8,192 tokens, exact and quantized, at 1,024, 4,096 and 8,192 tokens
//   (quant::attentionErrors).
// - Lossless choices (the same dtype, or a wider one) have no error: the
//   figures are std::nullopt and `lossless` is true; choices the simulator
//   cannot model (GGUF k-quants, llama.cpp q8_0/q4_0 KV, NVFP4) are
//   std::nullopt with a note.
//
// For the views: every type here is a plain value; estimateAccuracy() touches
// no widget, so run it on a worker thread (QtConcurrent) and cancel it through
// the RunControl when the scenario changes. An AccuracyCache kept by the
// caller makes a re-run after a change that leaves the formats alone (batch,
// GPU, sequence length) a lookup.
#pragma once

#include "core/document/scenariofile.h"
#include "core/plan/memoryplan.h"
#include "core/quantization/attentionerror.h"
#include "core/quantization/parallel.h"
#include "core/quantization/quantrun.h"

#include <optional>

#include <QJsonObject>
#include <QList>
#include <QMap>
#include <QMutex>
#include <QString>
#include <QStringList>

namespace kvscope {

struct Scenario;

/// The error of one simulator scheme on one tensor.
struct SimulatedError
{
    QString scheme;           ///< the simulator's id: "int4-g128", "fp8-e4m3"
    double sqnrDb = 0;        ///< 10 log10(sum w^2 / sum (w - w')^2); finite
    double relativeError = 0; ///< sqrt(sum (w - w')^2 / sum w^2) = 10^(-SQNR / 20)
    double clippedShare = 0;  ///< elements the format's range cut
    double flushedShare = 0;  ///< w != 0 but w' == 0
    double fp8Scale = 0;      ///< FP8: the per-tensor scale used; 0 for other schemes
    double signalSquares = 0; ///< sum w^2
    double errorSquares = 0;  ///< sum (w - w')^2
    /// AWQ, GPTQ: the SQNR of the layer output on held-out synthetic activations
    /// (quant::QuantOutcome); nullopt for the other schemes, simulated without activations.
    std::optional<double> outputSqnrDb;
};

/// A tensor the figures were simulated on.
struct AccuracyTensor
{
    quant::TensorSource source;
    QString stands;      ///< what it stands for: "model.layers.0.self_attn.o_proj.weight"
    QString description; ///< distribution and storage, or the file it was read from
    bool fromCheckpoint = false;
    std::int64_t rows = 0;
    std::int64_t cols = 0;
    QString clipping; ///< "[4096, 14336] clipped to [4096, 8192]"; empty when whole
};

/// What the scenario's weight format costs against the unquantized checkpoint.
struct WeightAccuracy
{
    QString format;                      ///< "AWQ int4, group 128, ...", "bfloat16 of a bfloat16 checkpoint"
    bool lossless = false;               ///< no error: the checkpoint's own dtype, or a wider one
    std::optional<SimulatedError> error; ///< nullopt when lossless or not modelled
    AccuracyTensor tensor;               ///< empty source when nothing was simulated
    QStringList notes;
};

/// One simulated attention: a query model under one of the cache's scales.
struct AttentionRun
{
    quant::QueryModel queries = quant::QueryModel::Diffuse;
    bool calibratedScale = false;          ///< FP8: amax / max instead of the engine's scale
    QList<quant::AttentionErrorAt> errors; ///< at attentionContexts()
};

/// What the scenario's KV cache dtype costs against the activations it caches.
struct KvAccuracy
{
    KvCacheDtype dtype = KvCacheDtype::BFloat16; ///< resolved
    bool lossless = false;
    bool latent = false; ///< MLA: the cache holds one latent a token, simulated in `keys`
    /// The scale the engine quantizes with ("per-tensor 1.0 ..."), empty for casts.
    QString engineScale;
    std::optional<SimulatedError> keys;   ///< under the engine's scale
    std::optional<SimulatedError> values; ///< nullopt for MLA (one latent, simulated as keys)
    std::optional<double> combinedSqnrDb; ///< over keys and values together
    /// The same with a calibrated per-tensor scale amax / max (FP8 only).
    std::optional<SimulatedError> calibratedKeys;
    std::optional<SimulatedError> calibratedValues;
    std::optional<double> calibratedCombinedSqnrDb;
    AccuracyTensor keyTensor;
    AccuracyTensor valueTensor; ///< empty source for MLA
    /// What the cache does to attention: decode queries against these keys
    /// and values, extended to the longest context, exact and quantized, at
    /// each of attentionContexts(). Diffuse queries first, then queries on the
    /// keys' outlier channels; each under the engine's scale, then (FP8) a
    /// calibrated one. Empty when lossless or not modelled.
    QList<AttentionRun> attention;
    QStringList notes;
};

/// The attention output's SQNR over KvTokens (4,096) cached tokens under the
/// engine's scale, for `queries`: the one figure kvscope compare --json's
/// kv_cache.attention_output_sqnr_db (diffuse queries) and its caveats quote.
/// nullopt when nothing was simulated or the output is exact.
std::optional<double> attentionOutputSqnrDb(const KvAccuracy &kv, quant::QueryModel queries);

/// The context lengths KvAccuracy::attention is simulated at, and its queries.
QList<std::int64_t> attentionContexts();
inline constexpr std::int64_t AttentionQueries = 16;

struct Accuracy
{
    WeightAccuracy weights;
    KvAccuracy kv;
};

/// Tensors and simulated errors kept between runs, keyed by tensor source and
/// scheme. Thread-safe; share one between the runs of a view. Keeps the last
/// few loaded tensors (each up to 256 MiB) and every result (a few numbers).
class AccuracyCache
{
public:
    std::optional<quant::LoadedTensor> tensor(const quant::TensorSource &source) const;
    void keepTensor(const quant::LoadedTensor &tensor);
    std::optional<SimulatedError> result(const quant::TensorSource &source,
                                         const quant::Scheme &scheme) const;
    void keepResult(const quant::TensorSource &source, const quant::Scheme &scheme,
                    const SimulatedError &error);
    /// Attention errors, keyed by the key tensor and the scheme (the values follow from the keys).
    std::optional<QList<quant::AttentionErrorAt>>
    attention(const quant::TensorSource &keys, const quant::Scheme &scheme, quant::QueryModel queries) const;
    void keepAttention(const quant::TensorSource &keys, const quant::Scheme &scheme,
                       quant::QueryModel queries, const QList<quant::AttentionErrorAt> &errors);
    /// Results (errors and attention errors) simulated and kept so far (a lookup adds none).
    int simulatedCount() const;

private:
    static QString key(const quant::TensorSource &source, const quant::Scheme &scheme);

    mutable QMutex m_mutex;
    QList<quant::LoadedTensor> m_tensors; ///< most recent last
    QMap<QString, SimulatedError> m_results;
    QMap<QString, QList<quant::AttentionErrorAt>> m_attention;
};

/// The accuracy figures of `scenario` (planned as `plan`): weight and KV
/// errors, simulated or taken from `cache`. Throws kvscope::Error when a
/// checkpoint tensor cannot be read, quant::Cancelled when the control's flag
/// is set. Progress goes from 0 to 1.
Accuracy estimateAccuracy(const Scenario &scenario, const MemoryPlan &plan, AccuracyCache &cache,
                          const quant::RunControl &control = {});

/// The Quantization view's "From the scenario": the scenario's weight format
/// as the view's scheme picker names it, with its group size, on the tensor
/// estimateAccuracy() simulates it on (the checkpoint's own linear layer, else
/// a synthetic one of its shape; `tensor` says which). A format that is
/// lossless gets the weights' own dtype (no error to see). The view's other
/// settings come from `base`.
struct ScenarioTensorChoice
{
    QuantizationChoices choices;
    QString format;        ///< WeightAccuracy::format
    AccuracyTensor tensor; ///< what the tensor stands for and is
    bool lossless = false; ///< the scheme is the weights' own dtype
    QStringList notes;     ///< what the view's run leaves out
};

/// Throws kvscope::Error when the weights have no scheme the view offers (GGUF
/// blocks, a format the simulator does not model).
ScenarioTensorChoice scenarioTensorChoice(const Scenario &scenario, const MemoryPlan &plan,
                                          const QuantizationChoices &base);

/// {"weights": {...}, "kv_cache": {...}}: formats, SQNR and relative error
/// (null where lossless or not modelled), tensors (source, shape, clipping),
/// the scale used and notes.
QJsonObject accuracyToJson(const Accuracy &accuracy);

} // namespace kvscope
