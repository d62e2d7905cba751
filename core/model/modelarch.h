// SPDX-License-Identifier: MIT
#pragma once

#include "model/checkpoint.h"
#include "precision/dtypes.h"
#include "precision/quantizationspec.h"

#include <cstdint>

#include <QList>
#include <QString>
#include <QStringList>

namespace kvscope {

enum class NormKind
{
    RmsNorm,
    LayerNorm
}; ///< LayerNorm carries a bias: 2h parameters instead of h
enum class MlpKind
{
    Gated,
    Plain
}; ///< gate+up+down (SwiGLU/GeGLU) or up+down

/// Where a model's description came from: a HuggingFace config.json (preset,
/// file, pasted text or model folder) or a llama.cpp GGUF file.
enum class ModelFormat
{
    HfConfig,
    Gguf
};

/// Mixture-of-experts layout (routed experts per MoE layer).
struct MoeSpec
{
    int numExperts = 0;       ///< routed experts; 0 = dense model
    int expertsPerToken = 0;  ///< top-k
    int numSharedExperts = 0; ///< always-on experts (DeepSeek)
    std::int64_t expertIntermediateSize = 0;
    std::int64_t sharedIntermediateSize = 0; ///< total width of the shared experts; 0 = shared x expert width
    bool sharedExpertGate = false;           ///< Qwen2-MoE sigmoid gate (h -> 1) on the shared expert
    int firstDenseLayers = 0;                ///< DeepSeek first_k_dense_replace
    QList<int> denseLayers;                  ///< other dense layers (mlp_only_layers, or off-step layers of
                            ///< decoder_sparse_step / moe_layer_freq), expanded by the parser
    bool routerBias = false; ///< gpt-oss router bias, DeepSeek-V3 e_score_correction_bias
    bool expertBias = false; ///< gpt-oss expert projections carry biases

    bool enabled() const { return numExperts > 0; }
    friend bool operator==(const MoeSpec &, const MoeSpec &) = default;
};

/// Multi-head latent attention (DeepSeek-V2/V3): the KV cache holds one
/// compressed latent per token and layer instead of per-head keys and values.
struct MlaSpec
{
    int kvLoraRank = 0;
    int qLoraRank = 0; ///< 0 = queries are not compressed (V2-Lite)
    int qkRopeHeadDim = 0;
    int qkNopeHeadDim = 0;
    int vHeadDim = 0;

    bool enabled() const { return kvLoraRank > 0; }
    friend bool operator==(const MlaSpec &, const MlaSpec &) = default;
};

/// A ViT-style vision tower of a multimodal checkpoint (counted, kept in --dtype).
struct VisionSpec
{
    int numLayers = 0;
    std::int64_t hiddenSize = 0;
    std::int64_t intermediateSize = 0;
    int patchSize = 0;
    int imageSize = 0;
    int numChannels = 3;
    std::int64_t projectorOutput = 0; ///< text hidden size the projector maps to

    bool enabled() const { return numLayers > 0; }
    friend bool operator==(const VisionSpec &, const VisionSpec &) = default;
};

/// Everything kvscope needs to know about a decoder-only model, read from a
/// preset or a HuggingFace config.json. Plain value; no behaviour.
struct ModelArch
{
    // Identity
    QString id;            ///< preset id, lower case ("llama-3.1-8b")
    QString name;          ///< display name ("Llama-3.1-8B")
    QString family;        ///< picker group ("Llama 3")
    QStringList hfRepoIds; ///< HuggingFace repos that resolve to this preset
    QString source;        ///< where the config came from
    QString modelType;     ///< config.json model_type
    QString architecture;  ///< config.json architectures[0]

    // Shape
    int numLayers = 0;
    std::int64_t hiddenSize = 0;
    int numHeads = 0;
    int numKvHeads = 0;
    int headDim = 0;  ///< query/key head dimension
    int vHeadDim = 0; ///< value head dimension (usually = headDim)
    std::int64_t intermediateSize = 0;
    std::int64_t vocabSize = 0;
    bool tiedEmbeddings = false;
    std::int64_t maxPositionEmbeddings = 0;
    int rotaryDim = 0;  ///< rotary dimension (head_dim x partial_rotary_factor)
    int ropeCaches = 1; ///< distinct rotary tables vLLM keeps (Gemma 3: local + global)

    // Per-family details that change the parameter count
    NormKind normKind = NormKind::RmsNorm;
    int normsPerLayer = 2; ///< 2 (pre-attn, pre-mlp); 4 in Gemma 2/3; 1 for Falcon's parallel block
    bool qkvBias = false;
    bool oBias = false;
    bool mlpBias = false;
    bool qkNorm = false;         ///< per-head RMSNorm on q and k (Qwen3, Gemma 3)
    bool attentionSinks = false; ///< gpt-oss learned sink per head
    MlpKind mlpKind = MlpKind::Gated;

    MoeSpec moe;
    MlaSpec mla;
    VisionSpec vision;

    // Sliding-window attention
    int slidingWindow = 0;     ///< tokens; 0 = none
    QList<bool> slidingLayers; ///< per layer: true = sliding window; empty = all full

    // Storage
    WeightDtype checkpointDtype = WeightDtype::Auto; ///< config torch_dtype
    QuantizationSpec checkpointQuantization;         ///< config quantization_config
    ModelFormat format = ModelFormat::HfConfig;
    MeasuredCheckpoint measured; ///< from a model folder or GGUF file; empty for presets
    QString fileType;            ///< GGUF general.file_type as llama.cpp names it ("Q4_K_M")

    // Provenance
    QString statedParamsText; ///< the card's wording ("8B", "117B total / 5.1B active")
    bool estimated = false;   ///< unknown architecture read with generic fields
    QStringList notes;

    bool isMoeLayer(int layer) const;
    bool isSlidingLayer(int layer) const;
    int slidingLayerCount() const;
    bool usesMla() const { return mla.enabled(); }
};

} // namespace kvscope
