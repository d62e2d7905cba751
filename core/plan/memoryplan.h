// SPDX-License-Identifier: MIT
#pragma once

#include "core/engine/engine.h"
#include "core/engine/runtime.h"
#include "core/model/inventory.h"
#include "core/model/modelarch.h"
#include "core/plan/cudagraphmemory.h"
#include "core/plan/eplb.h"
#include "core/plan/expertparallel.h"
#include "core/plan/speedplan.h"
#include "core/precision/dtypes.h"
#include "core/precision/quantizationspec.h"
#include "core/scenario/speculativeconfig.h"

#include <cstdint>

#include <QMap>
#include <QString>
#include <QStringList>

namespace kvscope {

/// Weight memory. Byte figures are per GPU unless named "total".
struct WeightMemory
{
    std::int64_t bytesPerGpu = 0;                 ///< parameters on one GPU plus buffers
    std::int64_t buffersBytes = 0;                ///< rotary cos/sin tables vLLM allocates with the model
    WeightDtype buffersDtype = WeightDtype::Auto; ///< their element type (--dtype; float32 under SGLang)
    /// What the engine's measure of the load adds to the parameters and buffers (core/plan/loadreplay.h): for
    /// SGLang the caching allocator's segments they do not fill (it measures free GPU memory), for vLLM the
    /// blocks they hold whole (torch.cuda.memory_allocated()); in bytesPerGpu
    std::int64_t loadSlackBytes = 0;
    std::int64_t loraBytes =
        0; ///< LoRA slots allocated at load (--max-loras x --max-lora-rank); in bytesPerGpu
    /// vLLM's EPLB state (--enable-eplb): a buffer of one layer's local experts, load counters and
    /// expert maps, built with the model (core/plan/eplb.h); in bytesPerGpu
    std::int64_t eplbBytes = 0;
    /// vLLM on Hopper: the MXFP4 expert scales' swizzled copy kept beside the checkpoint's, and the
    /// expert biases' growth to float32 (weights.h, mxfp4ScaleCopyBytes); in bytesPerGpu
    std::int64_t mxfp4ScaleCopyBytes = 0;
    /// AWQ's zero points as vLLM's Machete kernel holds them, pre-scaled in the activation dtype, beyond
    /// the checkpoint's packed ones (VllmRules::loadedQuantization); in bytesPerGpu
    std::int64_t unpackedZeroPointBytes = 0;
    std::int64_t draftBytes =
        0; ///< the speculative drafter's own weights (--speculative-config); in bytesPerGpu under vLLM,
           ///< beside it under SGLang (loaded after the pool, outside --mem-fraction-static)
    /// SGLang: the drafter's copies of the target's embedding (and head) it holds while its pool is
    /// allocated, until EAGLEWorker shares the target's (set_embed, set_embed_and_head).
    std::int64_t draftLoadCopyBytes = 0;
    std::int64_t byComponent[ComponentCount] = {}; ///< per GPU, parameters only
    std::int64_t checkpointBytes = 0;   ///< whole model as stored (unsharded, no padding, no buffers)
    std::int64_t quantizedParams = 0;   ///< parameters stored by the quantization method
    std::int64_t quantizedBytes = 0;    ///< their bytes, scales and zero points included
    MatrixStorage quantizedStorage;     ///< quantizedBytes split: weights, scales, zero points, other
    std::int64_t unquantizedParams = 0; ///< parameters left in --dtype (embeddings, lm_head, norms...)
    std::int64_t unquantizedBytes = 0;  ///< their bytes as stored
    double bitsPerWeight = 0;           ///< checkpointBytes x 8 / all parameters
    double quantizedBitsPerWeight = 0;  ///< over the quantized parameters only

    // The checkpoint measured from its file headers (model folder, GGUF), beside the estimate.
    std::int64_t estimatedBytesPerGpu = 0;    ///< the estimate from architecture, --dtype and quantization
    bool checkpointMeasured = false;          ///< the fields below were read from file headers
    std::int64_t measuredCheckpointBytes = 0; ///< tensor bytes as stored
    std::int64_t measuredBytesPerGpu = 0;     ///< measured / TP (rounded up) + buffers
    std::int64_t measuredParams = 0;          ///< elements as stored (see MeasuredCheckpoint::elements)
    QMap<QString, std::int64_t> measuredBytesByType; ///< "BF16", "Q4_K"... -> bytes as stored
    bool budgetUsesMeasured = false;                 ///< GGUF: bytesPerGpu is the measured figure

    /// This GPU's shards of the model's parameters: bytesPerGpu without the buffers, LoRA slots, EPLB
    /// state and drafter beside them.
    std::int64_t parameterBytesPerGpu() const
    {
        return bytesPerGpu - buffersBytes - loadSlackBytes - loraBytes - eplbBytes - mxfp4ScaleCopyBytes -
               draftBytes;
    }
};

/// The KV cache: formula, the batch held, and vLLM's paged capacity.
struct KvCacheMemory
{
    int bytesPerElement = 0;                ///< 0 for llama.cpp block types (q8_0, q4_0)
    double bitsPerElement = 0;              ///< storage bits per cached value (q8_0: 8.5)
    int kvHeadsPerGpu = 0;                  ///< heads per GPU (1 latent for MLA)
    bool headsReplicated = false;           ///< TP > KV heads, or MLA under TP
    std::int64_t bytesPerTokenPerLayer = 0; ///< one layer, one token, one GPU
    std::int64_t bytesPerToken = 0;         ///< every layer, no window, no block rounding
    std::int64_t cacheBytes = 0;            ///< --batch-size x --seq-len, windows and whole blocks applied
    std::int64_t blocksPerSequence = 0;     ///< blocks one sequence of --seq-len holds, summed over layers
    std::int64_t sharedPrefixBlocks = 0;  ///< of those, the --shared-prefix-len blocks every sequence shares
    std::int64_t sharedRequestBlocks = 0; ///< the shared blocks of one --max-model-len request (held once)
    int draftLayers = 0;                  ///< the drafter's attention layers in the pool (in cacheLayers)
    /// SGLang: the drafter's layers in a pool of their own with the target pool's token count
    /// (draft_runner_cache_size), outside --mem-fraction-static; 0 under vLLM.
    int draftPoolLayers = 0;
    std::int64_t draftPoolBytes = 0;   ///< that pool: tokens x its layers x bytes a token and layer
    std::int64_t speculativeSlots = 0; ///< token slots a running request holds beyond its tokens
    /// SGLang's hybrid SWA pool: the window layers' own pool, this many millionths of the full
    /// pool's tokens (0: one pool), its tokens and the window each layer keeps
    int swaPoolRatioPpm = 0;
    std::int64_t swaPoolTokens = 0;
    std::int64_t swaWindowTokens = 0;
    /// SGLang: the recurrent layers' states in a pool of their own, sized before the KV pool (0 under
    /// vLLM, whose blocks hold them): requests' worth of state, and its bytes
    std::int64_t statePoolSlots = 0;
    std::int64_t statePoolBytes = 0;

    bool fp8DsMla = false; ///< DeepSeek-V3.2 latent stored as fp8_ds_mla (656 B)

    // The structure behind the per-token figure, for the words that explain it
    int numKvHeads = 0;    ///< the model's KV heads (all GPUs)
    int numQueryHeads = 0; ///< attention heads (queries)
    int keyHeadDim = 0;    ///< dimensions of one key head
    int valueHeadDim = 0;  ///< dimensions of one value head
    int mlaLatentRank = 0; ///< MLA kv_lora_rank; 0 = not MLA
    int mlaRopeDim = 0;    ///< MLA qk_rope_head_dim
    /// Bytes the pool adds per token beyond its layers' pages: SGLang's FP4 cache keeps one FP8 K
    /// and V of a layer per token as the prompt pass's dequantization workspace
    std::int64_t workspaceBytesPerToken = 0;
    std::int64_t indexerKeyBytes = 0; ///< DeepSeek sparse attention's key per token and layer
    int slidingWindow = 0;            ///< tokens a sliding layer keeps (0 = none)
    int attentionChunkSize = 0;       ///< tokens a chunked-local layer keeps (0 = none)

    // vLLM's grouping of layers that share KV tensors (hybrid models)
    int cacheLayers = 0; ///< layers that hold a per-token cache (full + sliding + chunked)
    int fullLayers = 0;
    int slidingLayers = 0;
    int chunkedLayers = 0;   ///< Llama 4 chunked local attention
    int recurrentLayers = 0; ///< Gated DeltaNet / Mamba-2: fixed state, no per-token cache
    int sharedLayers = 0;    ///< Gemma 3n: reuse an earlier layer's cache, hold none
    int groupSize = 0;       ///< layers per KV cache group (a pipeline stage: its fullest group's)
    int numGroups = 0;
    int fullGroups = 0; ///< groups of each kind (a pipeline stage keeps the whole model's)
    int slidingGroups = 0;
    int chunkedGroups = 0;
    int recurrentGroups = 0;
    int paddingLayers = 0;      ///< empty layer slots vLLM pads groups with
    std::int64_t pageBytes = 0; ///< one block of one layer (a recurrent state page is padded to it)

    // Recurrent state (per GPU, per sequence; fixed, does not grow with tokens)
    RecurrentKind recurrentKind = RecurrentKind::None;
    std::int64_t stateConvBytesPerLayer = 0; ///< causal-conv window of one layer
    std::int64_t stateSsmBytesPerLayer = 0;  ///< recurrent matrix of one layer
    std::int64_t stateBytesPerLayer = 0;     ///< conv + SSM, before page padding
    std::int64_t stateBytesPerSequence = 0;  ///< over every recurrent layer, before page padding
    std::int64_t stateCacheBytes = 0; ///< the batch's state blocks in the pool (padded; part of cacheBytes)

    // Capacity, as vLLM logs it at start-up
    std::int64_t availableBytes = 0; ///< budget - weights - activations - overhead - graphs (may be negative)
    std::int64_t numGpuBlocks = 0;
    std::int64_t capacityTokens = 0; ///< "GPU KV cache size: N tokens"
    /// capacityTokens is the maximum concurrency x --max-model-len (vLLM 0.21 on), not the blocks
    /// per group x the block size
    bool capacityFromConcurrency = false;
    /// Tokens the pool holds as whole --seq-len sequences (largest batch that fits x --seq-len).
    /// A hybrid model's logged capacity divides the blocks evenly among its layer groups, though
    /// a recurrent group takes one block per sequence: this is what its attention really holds.
    std::int64_t attentionTokensHeld = 0;
    std::int64_t blocksPerMaxRequest = 0; ///< blocks one --max-model-len request reserves
    double maxConcurrency = 0;            ///< "Maximum concurrency for M tokens per request: X"
    std::int64_t maxModelLenThatFits =
        0;                           ///< longest request the cache can hold (vLLM's hint when it refuses)
    std::int64_t shortfallBytes = 0; ///< weights + activations + overhead beyond the budget (0 if within)

    // CPU offloading (vLLM --kv-offloading-size): blocks kept in host memory for reuse
    std::int64_t cpuOffloadBytesPerGpu = 0; ///< the buffer's share of one rank (0: no offloading)
    std::int64_t cpuBlocks = 0;             ///< whole blocks of this pool's layout it holds
    std::int64_t cpuCapacityTokens = 0;     ///< cpuBlocks / groups x block: tokens it keeps for reuse
};

/// One pipeline stage as vLLM's worker for it sizes its KV cache (per GPU of the stage).
struct PipelineStagePlan
{
    int index = 0;
    int firstLayer = 0; ///< decoder layers [firstLayer, firstLayer + layers)
    int layers = 0;
    bool holdsEmbedding = false;      ///< the input embedding (the first stage; the last too for a tied head)
    bool holdsHead = false;           ///< the final norm, lm_head and the sampler (the last stage)
    std::int64_t weightBytes = 0;     ///< parameters and buffers on one GPU of the stage
    std::int64_t activationBytes = 0; ///< its profiling run's peak
    std::int64_t overheadBytes = 0;   ///< non-torch memory and the CUDA-graph estimate
    std::int64_t availableBytes = 0;  ///< left for its KV cache (may be negative)
    std::int64_t kvBytesPerToken = 0; ///< its layers' cache per token, one GPU
    std::int64_t cacheBytes = 0;      ///< the batch's cache on its layers (--batch-size x --seq-len)
    std::int64_t ownBlocks = 0;       ///< blocks its memory holds, before vLLM takes the fewest of all stages
};

/// Every output of a plan. Computed once by planMemory(); the CLI and the GUI
/// only format these fields.
struct MemoryPlan
{
    // Resolved inputs
    QString modelId;
    QString modelName;
    QString gpuId;
    QString gpuName;
    Engine engine = Engine::Vllm;
    QString engineVersion; ///< the vLLM profile planned ("0.21"); empty for SGLang
    ModelFormat modelFormat = ModelFormat::HfConfig;
    QString modelFileType; ///< GGUF general.file_type ("Q4_K_M")
    WeightDtype dtype = WeightDtype::BFloat16;
    KvCacheDtype kvCacheDtype = KvCacheDtype::BFloat16;
    QuantizationSpec quantization;
    bool quantizationFromCheckpoint = false;
    int tensorParallelSize = 1;
    int pipelineParallelSize = 1; ///< stages; each runs on tensorParallelSize GPUs
    /// --data-parallel-size: engines, each on its own GPUs with its own requests and KV cache; the
    /// plan's per-GPU figures are one rank's (the one holding the most routed experts).
    int dataParallelSize = 1;
    /// SGLang's --enable-dp-attention: the ranks are attention groups within --tp-size's GPUs (then
    /// tensorParallelSize is one group's, --tp-size / --dp-size), not copies of the deployment.
    bool attentionDataParallel = false;
    /// SGLang's --enable-dp-lm-head as it applies: the LM head split over one attention group's GPUs.
    bool lmHeadByAttentionGroup = false;
    /// SGLang's --moe-dense-tp-size 1 as it applies: the dense layers' MLPs whole on every GPU.
    bool denseLayerMlpsWhole = false;
    int expertParallelSize = 1;       ///< GPUs the routed experts are divided among (1: none)
    int expertTensorParallelSize = 1; ///< GPUs each routed expert's matrices are split over
    int localExperts = 0;             ///< routed experts per MoE layer on the GPU planned; 0 = not a MoE
    int redundantExperts = 0;         ///< EPLB's redundant experts a layer over all GPUs (--eplb-config)
    ExpertPlacement expertPlacement;  ///< where this GPU's routed experts come from (the fields above)
    /// The all-to-all backend's buffers on this GPU (--all2all-backend; in overheadBytes)
    std::int64_t all2allBufferBytes = 0;
    /// vLLM fuses each all-reduce with the next RMSNorm through FlashInfer here (VllmProfile::
    /// fusesAllReduceRmsNorm): the memory outside PyTorch in overheadBytes is NVLink's multi-GPU figure.
    bool allReduceRmsNormFused = false;
    EplbStateMemory eplbState; ///< EPLB's state on this GPU (weights.eplbBytes is its total)
    /// The deployment's KV cache over its data-parallel ranks, each rank's own summed (equal to
    /// the rank's at one rank): tokens, and requests of --max-model-len at once.
    std::int64_t deploymentCapacityTokens = 0;
    double deploymentMaxConcurrency = 0;
    /// The data-parallel ranks whose GPUs hold one routed expert fewer (the experts do not divide
    /// evenly), and the tokens each of their caches holds; 0 when every rank is the planned one.
    int lighterRanks = 0;
    std::int64_t lighterRankCapacityTokens = 0;
    std::int64_t gpuMemoryUtilizationPpm = 0;
    std::int64_t maxModelLen = 0;
    int blockSize = 16;          ///< effective: vLLM raises it for hybrid recurrent models, 64 for sparse MLA
    int requestedBlockSize = 16; ///< --block-size as given
    WeightDtype mambaCacheDtype = WeightDtype::BFloat16;    ///< conv state dtype (auto: --dtype)
    WeightDtype mambaSsmCacheDtype = WeightDtype::BFloat16; ///< SSM state dtype (auto: conv dtype)
    std::int64_t maxNumSeqs = 0;
    std::int64_t maxNumBatchedTokens = 0;
    std::int64_t batchSize = 0;     ///< the deployment's concurrent sequences (--batch-size)
    std::int64_t rankBatchSize = 0; ///< those one data-parallel rank holds: the batch split evenly
    /// The tokens each sequence holds: --seq-len's text and its images' tokens (imageTokensPerSequence).
    std::int64_t seqLen = 0;
    std::int64_t imagesPerRequest = 0;           ///< --images-per-request
    std::int64_t imageTokensPerImage = 0;        ///< prompt tokens of one image, markers included
    std::int64_t imageTokensPerSequence = 0;     ///< all of a request's images' prompt tokens
    std::int64_t imageEmbeddingsPerSequence = 0; ///< the vision tower's outputs for them
    SpeculativeMethod speculativeMethod = SpeculativeMethod::None; ///< --speculative-config's method
    std::int64_t numSpeculativeTokens = 0;                         ///< its num_speculative_tokens

    ParameterCounts params;
    WeightMemory weights;
    KvCacheMemory kv;

    std::int64_t gpuMemoryBytes = 0;  ///< what the runtime reports for one GPU
    std::int64_t budgetBytes = 0;     ///< gpuMemoryBytes x --gpu-memory-utilization
    std::int64_t activationBytes = 0; ///< peak of vLLM's profiling run
    EncoderProfile encoder;           ///< a multimodal model's encoder in that run (held in the peak)
    bool holdsSampler = true;         ///< the GPUs run the sampler (not a pipeline stage before the last)
    std::int64_t overheadBytes = 0;   ///< non-torch memory: CUDA context, NCCL buffers
    std::int64_t cudaGraphBytes = 0;  ///< CUDA-graph estimate vLLM subtracts (v0.21 on); 0 when not counted
    /// The graphs vLLM would capture and its estimate of them, whether or not this release subtracts it
    /// (vLLM only; empty off CUDA). cudaGraphBytes is its estimateBytes where the release subtracts it.
    CudaGraphProfile cudaGraphProfile;
    /// The budget holds kvscope's estimate of the graphs (not none, not a log's measured figure).
    bool cudaGraphsEstimated() const
    {
        return cudaGraphBytes > 0 && cudaGraphBytes == cudaGraphProfile.estimateBytes;
    }
    /// vLLM runs the model on its Model Runner V2 (runsOnModelRunnerV2, core/plan/vllmrules.h).
    bool modelRunnerV2 = false;
    /// The start loads the compiled model from vLLM's compile cache (--compile-cache warm): on Model
    /// Runner V2 the profiling peak is then modelRunnerV2WarmPeakBytes()'s (core/engine/runtime.h).
    bool warmCompileCache = false;
    /// Where the weights, activation peak, non-torch memory and CUDA-graph estimate were measured
    /// (a start-up log of this deployment, Scenario::measuredMemory); empty: kvscope's estimates.
    QString memoryMeasuredFrom;
    std::int64_t memFractionStaticPpm = 0; ///< SGLang: the --mem-fraction-static applied (0 for vLLM)
    /// --kv-cache-memory-bytes as given (0: profiled). vLLM then takes the KV cache's bytes as given,
    /// and the budget is what the GPU holds: everything before the cache plus that.
    std::int64_t kvCacheMemoryBytes = 0;
    /// With --kv-cache-memory-bytes, what vLLM's profiling would have left for the KV cache at
    /// --gpu-memory-utilization, and what the GPU's whole memory leaves (vLLM's start-up log suggests
    /// both); 0 otherwise.
    std::int64_t profiledKvBytes = 0;
    std::int64_t wholeGpuKvBytes = 0;
    std::int64_t preloadBytes = 0; ///< SGLang: memory in use before the weights load (outside the budget)
    /// SGLang: what is left outside the static share for activations and CUDA graphs once the drafter
    /// (its weights and its pool) has loaded: GPU - preload - budget - drafter (signed).
    std::int64_t reserveLeftBytes = 0;
    std::int64_t headroomBytes =
        0;                  ///< budget - weights - activations - overhead - graphs - KV cache (signed)
    bool fits = false;      ///< headroom >= 0
    bool weightsFit = true; ///< the weights alone are within the budget
    std::int64_t weightsOverBudgetBytes = 0; ///< weights beyond the budget (0 if within)
    bool engineStarts = false;               ///< one --max-model-len request fits in the KV cache
    /// Why the engine refuses this GPU with these precisions before sizing anything
    /// (then engineStarts is false); empty when it does not.
    QString engineRefusal;
    /// Why the engine would not start, in the planner's words (empty when it starts): the
    /// weights over the budget, no room left for a KV cache, or the engine's own refusal.
    QString startFailure;
    /// The scenario runs: it fits and the engine starts.
    bool works() const { return fits && engineStarts; }

    std::int64_t largestBatchThatFits = 0;  ///< at --seq-len, everything else unchanged
    std::int64_t largestSeqLenThatFits = 0; ///< at --batch-size, everything else unchanged

    /// Assumptions and warnings worth showing, in the language of the translator installed when
    /// planned (the CLI installs none: English).
    QStringList notes;

    /// Under pipeline parallelism, every stage (empty for one stage). The plan's per-GPU figures
    /// (weights, activations, overhead, the KV cache and its capacity) are those of
    /// `bindingStage`, the stage with the fewest KV blocks: vLLM gives every stage that many
    /// (get_kv_cache_configs, vllm/v1/core/kv_cache_utils.py).
    QList<PipelineStagePlan> pipelineStages;
    int bindingStage = 0;
    /// Under pipeline parallelism, the whole model's weights on one tensor-parallel rank (`weights` is the
    /// binding stage's): what a token's pass through every stage reads, for the speed model.
    WeightMemory pipelineWholeWeights;

    SpeedPlan speed; ///< decode and prefill speed (planSpeed()), with its own notes

    /// Every GPU the deployment takes: each data-parallel rank's stages' tensor-parallel groups.
    int gpuCount() const { return tensorParallelSize * pipelineParallelSize * dataParallelSize; }

    /// Runtime overhead and the CUDA-graph estimate together: the memory bar's overhead part.
    std::int64_t overheadWithGraphsBytes() const { return overheadBytes + cudaGraphBytes; }
};

} // namespace kvscope
