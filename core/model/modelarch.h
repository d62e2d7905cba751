// SPDX-License-Identifier: MIT
#pragma once

#include "core/model/checkpoint.h"
#include "core/precision/dtypes.h"
#include "core/precision/quantizationspec.h"

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
    QList<bool> denseLayers; ///< per layer: true = dense despite the experts (mlp_only_layers, or off-step
                             ///< layers of decoder_sparse_step / moe_layer_freq); empty = none
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

/// Recurrent layers that keep a fixed state per sequence instead of a
/// per-token cache: Gated DeltaNet (Qwen3-Next linear_attention layers) and
/// Mamba-2 (Granite 4.0-H mamba layers). Shapes follow vLLM's
/// MambaStateShapeCalculator (mamba_utils.py).
enum class RecurrentKind
{
    None,
    GatedDeltaNet,
    Mamba2
};

struct RecurrentSpec
{
    RecurrentKind kind = RecurrentKind::None;
    QList<bool> layers; ///< per layer: true = recurrent (holds state, no KV cache)
    int convKernel = 0; ///< linear_conv_kernel_dim / mamba_d_conv
    // Gated DeltaNet
    int numKeyHeads = 0;   ///< linear_num_key_heads
    int numValueHeads = 0; ///< linear_num_value_heads
    int keyHeadDim = 0;    ///< linear_key_head_dim
    int valueHeadDim = 0;  ///< linear_value_head_dim
    // Mamba-2
    int numHeads = 0;                  ///< mamba_n_heads
    int headDim = 0;                   ///< mamba_d_head
    int stateSize = 0;                 ///< mamba_d_state
    int numGroups = 0;                 ///< mamba_n_groups
    std::int64_t intermediateSize = 0; ///< mamba_expand x hidden_size
    bool convBias = false;             ///< mamba_conv_bias
    bool projBias = false;             ///< mamba_proj_bias

    bool enabled() const { return kind != RecurrentKind::None; }
    int layerCount() const;
    friend bool operator==(const RecurrentSpec &, const RecurrentSpec &) = default;
};

/// DeepSeek sparse attention's lightning indexer (DeepSeek-V3.2): a key cache
/// of head_dim FP8 values plus one float32 scale per 128 values, per token and layer.
struct IndexerSpec
{
    int numHeads = 0; ///< index_n_heads
    int headDim = 0;  ///< index_head_dim
    int topK = 0;     ///< index_topk

    bool enabled() const { return headDim > 0; }
    friend bool operator==(const IndexerSpec &, const IndexerSpec &) = default;
};

/// Gemma 3n's extra decoder weights: per-layer embeddings, AltUp and LAuReL.
struct Gemma3nSpec
{
    int altupInputs = 0;                ///< altup_num_inputs
    int laurelRank = 0;                 ///< laurel_rank
    int perLayerInputSize = 0;          ///< hidden_size_per_layer_input
    std::int64_t perLayerVocabSize = 0; ///< vocab_size_per_layer_input

    bool enabled() const { return altupInputs > 0; }
    friend bool operator==(const Gemma3nSpec &, const Gemma3nSpec &) = default;
};

/// The layout of a vision tower, from vision_config's model_type (one table: visionFamily() in
/// core/model/visionconfig.cpp). Each family's tensors are listed in core/model/visiontower.cpp.
enum class VisionFamily
{
    Siglip,   ///< SigLIP (Gemma 3, LLaVA-style checkpoints): biased ViT, LayerNorm, learned positions
    Qwen25Vl, ///< Qwen2.5-VL: Conv3d patches, RMSNorm, gated MLP, 2x2 patch merger
    Qwen3Vl,  ///< Qwen3-VL: Conv3d patches, LayerNorm, learned positions, merger + DeepStack mergers
    Pixtral,  ///< Pixtral (Pixtral-12B, Mistral-Small-3.1): bias-free ViT, RMSNorm, gated MLP, 2-D RoPE
    Llama4,   ///< Llama 4: unfold patches, class token, biased ViT, pixel-shuffle adapter
    MoonVit,  ///< Kimi-VL's MoonViT: biased ViT, LayerNorm, learned 2-D positions and 2-D RoPE, 2x2 merge
    Generic,  ///< another tower, counted with SigLIP's layout and marked estimated
};

/// What maps the tower's features into the text model, beside the tower's own mergers.
enum class VisionProjector
{
    None,     ///< Qwen-VL: the merger is part of the tower
    Gemma3,   ///< mm_input_projection_weight [vision, text] + mm_soft_emb_norm
    Llava,    ///< linear_1 [text, vision x feature layers], GELU, linear_2 [text, text]
    Mistral3, ///< RMSNorm, patch merger [vision, vision x merge^2], then LLaVA's two linears
    Llama4,   ///< linear_1 [text, vision_output_dim], no bias
    KimiVl,   ///< LayerNorm, linear_1 [vision x merge^2, same], GELU, linear_2 [text, vision x merge^2]
};

/// A vision tower of a multimodal checkpoint (counted, kept in --dtype).
struct VisionSpec
{
    VisionFamily family = VisionFamily::Generic;
    VisionProjector projector = VisionProjector::None;
    int numLayers = 0;
    std::int64_t hiddenSize = 0;
    std::int64_t intermediateSize = 0;
    int patchSize = 0;
    int imageSize = 0;
    int numChannels = 3;
    int temporalPatchSize = 1;           ///< Qwen-VL's Conv3d depth (frames per patch)
    int spatialMergeSize = 1;            ///< patches merged per side (Qwen-VL, Mistral 3)
    std::int64_t positionEmbeddings = 0; ///< Qwen3-VL's learned grid (num_position_embeddings)
    int deepstackMergers = 0;            ///< Qwen3-VL: one merger per deepstack_visual_indexes entry
    std::int64_t adapterInput = 0;       ///< Llama 4: projector_input_dim (pixel-shuffle MLP)
    std::int64_t adapterOutput = 0;      ///< Llama 4: projector_output_dim
    std::int64_t visionOutput = 0;       ///< Llama 4: vision_output_dim, what linear_1 takes
    int featureLayers = 1;               ///< LLaVA: vision_feature_layer entries concatenated
    bool projectorBias = true;           ///< LLaVA / Mistral 3: multimodal_projector_bias
    bool imageNewline = false;           ///< LLaVA-NeXT: a learned row separator [text]
    std::int64_t projectorOutput = 0;    ///< text hidden size the projector maps to
    // The image processor's rules (core/model/imagetokens.cpp), from preprocessor_config.json as the
    // family's checkpoints publish it.
    std::int64_t tokensPerImage = 0; ///< Gemma 3: mm_tokens_per_image, whatever the image's size
    /// Llama 4: patches pooled into one output by the pixel shuffle, round(1 / pixel_shuffle_ratio^2).
    int pixelShuffleFactor = 0;
    std::int64_t minPixels = 0;    ///< Qwen-VL smart_resize: an image is scaled up to at least this
    std::int64_t maxPixels = 0;    ///< Qwen-VL smart_resize: and down to at most this
    std::int64_t maxPatches = 0;   ///< Kimi-VL in_token_limit: an image is scaled down to at most this many
    std::int64_t positionGrid = 0; ///< MoonViT: init_pos_emb_height x init_pos_emb_width learned positions
    // How far the tower's attention reaches (core/model/imagetokens.cpp counts the pairs it scores).
    int windowSize = 0;          ///< Qwen2.5-VL: window_size in pixels; 0 = every layer sees the image whole
    int fullAttentionLayers = 0; ///< Qwen2.5-VL: fullatt_block_indexes' layers; the others windowed
    /// vLLM loads the repository in Mistral's own format (params.json, consolidated weights) and builds
    /// the tower as PixtralForConditionalGeneration's VisionTransformer (a preset's vllm_config_format).
    bool mistralFormat = false;
    /// Every tensor-parallel rank holds the whole tower and runs it on the whole batch: the engine's
    /// layout (EngineRules::layOut), not the checkpoint's.
    bool wholeOnEveryRank = false;

    bool enabled() const { return numLayers > 0; }
    friend bool operator==(const VisionSpec &, const VisionSpec &) = default;
};

/// A repository of a preset whose config.json differs from the preset's in its
/// context length (Qwen2.5-72B-Instruct: 32,768 where the base model has 131,072).
struct RepoContext
{
    QString repo;
    std::int64_t maxPositionEmbeddings = 0;
    QString source;
    friend bool operator==(const RepoContext &, const RepoContext &) = default;
};

/// Everything kvscope needs to know about a decoder-only model, read from a
/// preset or a HuggingFace config.json. Plain value; no behaviour.
struct ModelArch
{
    // Identity
    QString id;                      ///< preset id, lower case ("llama-3.1-8b")
    QString name;                    ///< display name ("Llama-3.1-8B")
    QString family;                  ///< picker group ("Llama 3")
    QStringList hfRepoIds;           ///< HuggingFace repos that resolve to this preset; the first is served
    QList<RepoContext> repoContexts; ///< those of hfRepoIds whose own context length differs
    QString source;                  ///< where the config came from
    QString modelType;               ///< config.json model_type
    QString architecture;            ///< config.json architectures[0]

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
    /// Rows of the (scaled) rotary table: max_position_embeddings, or as rope_scaling stretches it
    /// (linear and dynamic: x factor; YaRN: original_max_position_embeddings x factor); 0 = unset.
    /// A second table (Gemma 3's local layers) is unscaled.
    std::int64_t rotaryTableRows = 0;
    /// Multimodal rope (rope_scaling or rope_parameters with an mrope_section: Qwen2-VL, Qwen2.5-VL,
    /// Qwen3-VL), whose table an engine may build longer (core/plan/weights.h).
    bool multimodalRope = false;
    /// rope_theta, rope_scaling and rope_parameters as the config gives them (compact JSON): with the
    /// sizes above, what tells two models' rotary tables apart (vLLM's get_rope caches one per key).
    QString ropeSignature;
    std::int64_t draftVocabSize = 0; ///< an EAGLE-3 draft's draft_vocab_size; 0 = not a draft
    int mtpLayers = 0; ///< multi-token-prediction layers after the decoder (num_nextn_predict_layers)

    // Per-family details that change the parameter count
    NormKind normKind = NormKind::RmsNorm;
    int normsPerLayer = 2; ///< 2 (pre-attn, pre-mlp); 4 in Gemma 2/3; 1 for Falcon's parallel block
    bool qkvBias = false;
    bool oBias = false;
    bool mlpBias = false;
    bool lmHeadBias = false;     ///< Phi's lm_head carries a bias (vocab_size)
    bool qkNorm = false;         ///< per-head RMSNorm on q and k (Qwen3, Gemma 3)
    bool attentionSinks = false; ///< gpt-oss learned sink per head
    /// Attends bidirectionally over a prompt's image tokens (vLLM's is_mm_prefix_lm: the config's own
    /// flag, else its model_type among ModelArchConfigConvertorBase's list, e.g. "gemma3").
    bool multimodalPrefixLm = false;
    MlpKind mlpKind = MlpKind::Gated;

    MoeSpec moe;
    MlaSpec mla;
    VisionSpec vision;
    RecurrentSpec recurrent;
    IndexerSpec indexer;
    Gemma3nSpec gemma3n;
    bool attentionOutputGate = false; ///< Qwen3-Next: q_proj also produces a sigmoid gate per head

    // Sliding-window attention
    int slidingWindow = 0;     ///< tokens; 0 = none
    QList<bool> slidingLayers; ///< per layer: true = sliding window; empty = all full

    // Chunked local attention (Llama 4): tokens attend within their chunk only
    int attentionChunkSize = 0; ///< attention_chunk_size; 0 = none
    QList<bool> chunkedLayers;  ///< per layer: true = chunked local attention (RoPE layers)

    // KV sharing (Gemma 3n): the last layers reuse an earlier layer's cache
    int kvSharedLayers = 0; ///< num_kv_shared_layers

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
    int moeLayerCount() const; ///< the layers with routed experts (EplbState's num_moe_layers)
    bool isChunkedLayer(int layer) const;
    bool isRecurrentLayer(int layer) const;
    bool isKvSharedLayer(int layer) const; ///< reuses an earlier layer's cache, holds none
    bool usesMla() const { return mla.enabled(); }

    friend bool operator==(const ModelArch &, const ModelArch &) = default;
};

} // namespace kvscope
