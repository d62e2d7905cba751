// SPDX-License-Identifier: MIT
#include "core/plan/planner.h"

#include "core/common/checked.h"
#include "core/common/error.h"
#include "core/common/scenariofield.h"
#include "core/common/search.h"
#include "core/common/units.h"
#include "core/engine/gpusupport.h"
#include "core/engine/sglang.h"
#include "core/plan/all2all.h"
#include "core/plan/enginerules.h"
#include "core/plan/eplb.h"
#include "core/plan/expertparallel.h"
#include "core/plan/imageworkload.h"
#include "core/plan/kvcache.h"
#include "core/plan/lora.h"
#include "core/plan/pipelineparallel.h"
#include "core/plan/speculativedecoding.h"
#include "core/plan/speed.h"
#include "core/plan/tensorparallel.h"
#include "core/plan/weights.h"
#include "core/scenario/scenario.h"

#include <algorithm>
#include <limits>

#include <QCoreApplication>

namespace kvscope {

namespace {

void requirePositive(std::int64_t value, ScenarioField field)
{
    if (value <= 0)
        throw Error(QCoreApplication::translate("kvscope::Planner", "%1: must be a positive integer, got %2")
                        .arg(optionFlag(field))
                        .arg(value));
}

/// Puts the checkpoint measured from file headers beside the estimate. A GGUF
/// runtime keeps the file's blocks as they are, so its tensor bytes are the
/// weights; a safetensors checkpoint is loaded in --dtype (fp32 files halve,
/// vocabularies are padded), so the estimate stays in the budget there.
/// The components a start-up log of this very deployment measured, in place of the estimates
/// (MeasuredMemory: "calibrate from this log"); the estimates stay in the note.
void applyMeasuredMemory(const Scenario &s, MemoryPlan &plan)
{
    const MeasuredMemory &measured = s.measuredMemory;
    if (!measured.appliesTo(s) ||
        s.pipelineParallelSize > 1) // a pipeline's stages differ: one log line cannot say
        return;
    QStringList parts;
    const auto take = [&](std::int64_t logged, std::int64_t &planned, const char *what) {
        if (logged < 0)
            return;
        parts << QCoreApplication::translate("kvscope::Planner", "%1 %2 (estimated %3)")
                     .arg(QCoreApplication::translate("kvscope::Planner", what), formatGiB(logged),
                          formatGiB(planned));
        planned = logged;
    };
    take(measured.weightsBytes, plan.weights.bytesPerGpu, QT_TRANSLATE_NOOP("kvscope::Planner", "weights"));
    take(measured.activationBytes, plan.activationBytes,
         QT_TRANSLATE_NOOP("kvscope::Planner", "activation peak"));
    take(measured.nonTorchBytes, plan.overheadBytes,
         QT_TRANSLATE_NOOP("kvscope::Planner", "non-torch memory"));
    if (plan.cudaGraphBytes > 0) // only where this release takes the estimate out of the budget
        take(measured.cudaGraphBytes, plan.cudaGraphBytes,
             QT_TRANSLATE_NOOP("kvscope::Planner", "CUDA-graph estimate"));
    if (plan.engine == Engine::Sglang && measured.freeAtLoadBytes >= 0) {
        // SglangRules::applyBudget sized the budget from it; here it is only named.
        std::int64_t estimated = plan.gpuMemoryBytes - sglangPreloadBytes(s.gpu, sglangTotalGpus(s));
        take(measured.freeAtLoadBytes, estimated,
             QT_TRANSLATE_NOOP("kvscope::Planner", "memory free when the weights load"));
    }
    plan.memoryMeasuredFrom = measured.source;
    plan.notes << QCoreApplication::translate("kvscope::Planner", "measured in %1: %2")
                      .arg(measured.source, parts.join(QStringLiteral(", ")));
}

void applyMeasuredCheckpoint(const ModelArch &m, int tp, MemoryPlan &plan)
{
    WeightMemory &w = plan.weights;
    w.estimatedBytesPerGpu = w.bytesPerGpu;
    if (!m.measured.measured())
        return;
    w.checkpointMeasured = true;
    w.measuredCheckpointBytes = m.measured.bytes;
    w.measuredParams = m.measured.elements;
    w.measuredBytesByType = m.measured.bytesByType;
    w.measuredBytesPerGpu = (Checked(ceilDiv(m.measured.bytes, tp)) + w.buffersBytes).value();
    if (m.format == ModelFormat::Gguf) {
        w.bytesPerGpu = w.measuredBytesPerGpu;
        w.budgetUsesMeasured = true;
        w.checkpointBytes = m.measured.bytes;
        w.bitsPerWeight =
            m.measured.elements > 0 ? 8.0 * double(m.measured.bytes) / double(m.measured.elements) : 0;
        plan.notes << QCoreApplication::translate(
                          "kvscope::Planner",
                          "weights measured from the GGUF tensors (%1%2 bits per weight); the budget uses "
                          "them")
                          .arg(m.fileType.isEmpty() ? QString() : m.fileType + QStringLiteral(", "))
                          .arg(w.bitsPerWeight, 0, 'f', 2);
        if (tp > 1)
            plan.notes << QCoreApplication::translate(
                              "kvscope::Planner",
                              "GGUF weights under %2 %1 are divided evenly over the GPUs (an approximation)")
                              .arg(tp)
                              .arg(optionFlag(ScenarioField::TensorParallelSize));
        return;
    }
    const std::int64_t estimated = w.checkpointBytes;
    const std::int64_t difference =
        estimated > m.measured.bytes ? estimated - m.measured.bytes : m.measured.bytes - estimated;
    if (difference > m.measured.bytes / 50)
        plan.notes << QCoreApplication::translate(
                          "kvscope::Planner",
                          "the checkpoint measures %1 as stored; the estimate for %2 weights is %3 "
                          "(%5 loads weights in %4; the budget uses the estimate)")
                          .arg(formatGiB(m.measured.bytes), dtypeName(plan.dtype), formatGiB(estimated),
                               optionFlag(ScenarioField::Dtype), engineDisplayName(plan.engine));
}

/// How vLLM lays out the cache of the architectures that mix layer kinds.
void addArchitectureNotes(const ModelArch &m, MemoryPlan &plan)
{
    const KvCacheMemory &kv = plan.kv;
    if (kv.recurrentLayers > 0 && plan.engine == Engine::Vllm && plan.blockSize != plan.requestedBlockSize)
        plan.notes
            << QCoreApplication::translate(
                   "kvscope::Planner",
                   "vLLM raises the block size to %1 tokens so that one attention page (%2 B) holds one "
                   "recurrent state page (%3 B, padded by %4 %)")
                   .arg(plan.blockSize)
                   .arg(kv.pageBytes)
                   .arg(kv.stateBytesPerLayer)
                   .arg(100.0 * double(kv.pageBytes - kv.stateBytesPerLayer) / double(kv.stateBytesPerLayer),
                        0, 'f', 2);
    if (m.indexer.enabled()) {
        const std::int64_t indexer = indexerKeyBytes(m);
        plan.notes
            << QCoreApplication::translate(
                   "kvscope::Planner",
                   "DeepSeek sparse attention: %1 B of MLA latent%2 plus the indexer's %3 B key per token "
                   "and layer, in 64-token blocks (%4's sparse MLA backend)")
                   .arg(kv.bytesPerTokenPerLayer - indexer)
                   .arg(kv.fp8DsMla ? QStringLiteral(" (fp8_ds_mla)") : QString())
                   .arg(indexer)
                   .arg(engineDisplayName(plan.engine));
    }
    if (kv.chunkedLayers > 0)
        plan.notes
            << QCoreApplication::translate(
                   "kvscope::Planner",
                   "%1 chunked-local layers keep only their %2-token chunk, as vLLM's hybrid KV cache "
                   "manager allocates them; vLLM releases that disable it for Llama 4 by default count "
                   "every layer as full attention")
                   .arg(kv.chunkedLayers)
                   .arg(m.attentionChunkSize);
    if (kv.sharedLayers > 0)
        plan.notes << QCoreApplication::translate(
                          "kvscope::Planner",
                          "the last %1 layers reuse earlier layers' KV cache and hold none")
                          .arg(kv.sharedLayers);
}

void addCompatibilityNotes(const Scenario &s, MemoryPlan &plan)
{
    if (plan.dtype == WeightDtype::BFloat16 && !hasBfloat16(s.gpu) && plan.engineRefusal.isEmpty())
        plan.notes << QCoreApplication::translate(
                          "kvscope::Planner", "%1 (compute capability %2) has no bfloat16; pass %3 float16")
                          .arg(s.gpu.name, s.gpu.computeCapability, optionFlag(ScenarioField::Dtype));
    if (plan.quantization.isAwqOrGptq() && plan.dtype == WeightDtype::BFloat16)
        plan.notes << QCoreApplication::translate(
                          "kvscope::Planner",
                          "%3 runs %1 with float16 activations; %2 bfloat16 may be rejected")
                          .arg(quantMethodName(plan.quantization.method), optionFlag(ScenarioField::Dtype),
                               engineDisplayName(plan.engine));
    if (plan.quantization.method == QuantMethod::Fp8 && !s.gpu.fp8Native && !s.gpu.name.isEmpty())
        plan.notes << QCoreApplication::translate(
                          "kvscope::Planner",
                          "%1 has no FP8 tensor cores: %2 keeps FP8 weights (same memory) and runs "
                          "them weight-only through Marlin")
                          .arg(s.gpu.name, engineDisplayName(plan.engine));
    if (plan.quantization.method == QuantMethod::Mxfp4 && !s.model.moe.enabled())
        plan.notes << QCoreApplication::translate(
                          "kvscope::Planner",
                          "mxfp4 quantizes MoE experts only; %1 is dense, so its weights stay in %2")
                          .arg(s.model.name, dtypeName(plan.dtype));
}

/// Why the engine would not start: its refusal of the GPU with these precisions (it
/// stops before loading anything), the first thing in the budget that does not fit
/// (the weights, then what precedes the KV cache), else its refusal of the pool.
QString startFailure(const EngineRules &rules, const MemoryPlan &plan)
{
    if (plan.engineStarts)
        return {};
    if (!plan.engineRefusal.isEmpty())
        return plan.engineRefusal;
    if (!plan.weightsFit)
        return QCoreApplication::translate("kvscope::Planner",
                                           "the weights alone (%1 per GPU) exceed the %2 budget by %3")
            .arg(formatGiB(plan.weights.bytesPerGpu), formatGiB(plan.budgetBytes),
                 formatGiB(plan.weightsOverBudgetBytes));
    if (plan.kv.shortfallBytes > 0)
        return QCoreApplication::translate("kvscope::Planner",
                                           "weights, activations and runtime overhead exceed the %1 budget "
                                           "by %2: no room for a KV cache")
            .arg(formatGiB(plan.budgetBytes), formatGiB(plan.kv.shortfallBytes));
    return rules.refusal(plan);
}

} // namespace

void requireShare(std::int64_t ppm, ScenarioField field)
{
    if (ppm <= 0 || ppm > 1'000'000)
        throw Error(QCoreApplication::translate("kvscope::Planner", "%1: must be in (0, 1], got %2")
                        .arg(optionFlag(field), formatUtilization(ppm)));
}

KvCacheOptions kvCacheOptions(const Scenario &s, WeightDtype dtype, KvCacheDtype kvCacheDtype)
{
    KvCacheOptions o;
    o.dtype = kvCacheDtype;
    // Both checked by validateScenario: at most num_attention_heads and 4096.
    o.tensorParallelSize = int(s.tensorParallelSize);
    const std::unique_ptr<EngineRules> rules = engineRules(s);
    o.blockSize = rules->kvBlockSize(s);
    // vLLM MambaStateDtypeCalculator: --mamba-cache-dtype auto is the model dtype;
    // --mamba-ssm-cache-dtype auto follows it.
    o.convStateDtype = dtype;
    o.ssmStateDtype = s.mambaSsmCacheDtype == WeightDtype::Auto ? dtype : s.mambaSsmCacheDtype;
    // MambaBase.get_kv_cache_spec (vllm/model_executor/layers/mamba/abstract.py): any speculative
    // config's num_speculative_tokens, since Qwen3-Next's MTP (vllm-project/vllm#24526).
    if (s.engine == Engine::Vllm && s.speculative.enabled())
        o.speculativeStateBlocks = int(s.speculative.numSpeculativeTokens);
    o.workspaceBytesPerToken = rules->kvWorkspaceBytesPerToken(s, kvCacheDtype);
    o.swaPoolRatioPpm = rules->swaPoolRatioPpm(s);
    rules->shapeStatePool(s, o);
    return o;
}

ModelArch poolModel(const Scenario &s, int draftLayers)
{
    return withDraftLayers(engineRules(s)->layOut(s.model), draftLayers);
}

QuantizationSpec effectiveQuantization(const Scenario &s)
{
    if (s.quantization)
        return *s.quantization;
    return s.model.checkpointQuantization;
}

void validateScenario(const Scenario &s)
{
    const ModelArch &m = s.model;
    if (m.numLayers <= 0 || m.hiddenSize <= 0 || m.numHeads <= 0 || m.numKvHeads <= 0 || m.headDim <= 0 ||
        m.vocabSize <= 0)
        throw Error(
            QCoreApplication::translate(
                "kvscope::Planner", "%2: '%1' has no usable architecture (layers, hidden size, heads, vocab)")
                .arg(m.name, optionFlag(ScenarioField::Model)));
    if (s.gpu.memoryBytes <= 0)
        throw Error(QCoreApplication::translate("kvscope::Planner", "%2: '%1' has no memory size")
                        .arg(s.gpu.name, optionFlag(ScenarioField::Gpu)));
    requirePositive(s.batchSize, ScenarioField::BatchSize);
    requirePositive(s.seqLen, ScenarioField::SeqLen);
    requirePositive(s.blockSize, ScenarioField::BlockSize);
    requirePositive(s.tensorParallelSize, ScenarioField::TensorParallelSize);
    if (s.maxModelLen < 0)
        requirePositive(s.maxModelLen, ScenarioField::MaxModelLen);
    if (s.maxNumSeqs < 0)
        requirePositive(s.maxNumSeqs, ScenarioField::MaxNumSeqs);
    if (s.maxNumBatchedTokens < 0)
        requirePositive(s.maxNumBatchedTokens, ScenarioField::MaxNumBatchedTokens);
    if (s.kvOffloadingMilliGiB < 0)
        requirePositive(s.kvOffloadingMilliGiB, ScenarioField::KvOffloadingSize);
    if (s.kvOffloadingMilliGiB > 0 && s.engine != Engine::Vllm)
        throw Error(QCoreApplication::translate("kvscope::Planner",
                                                "%1: is a vLLM option; kvscope plans vLLM's offloading only")
                        .arg(optionFlag(ScenarioField::KvOffloadingSize)));
    if (s.kvCacheMemoryBytes < 0)
        requirePositive(s.kvCacheMemoryBytes, ScenarioField::KvCacheMemoryBytes);
    if (s.kvCacheMemoryBytes > 0 && s.engine != Engine::Vllm)
        throw Error(QCoreApplication::translate("kvscope::Planner", "%1: is a vLLM option; %2 sizes its pool "
                                                                    "from %3")
                        .arg(optionFlag(ScenarioField::KvCacheMemoryBytes), engineDisplayName(s.engine),
                             sglangFlag(ScenarioField::MemFractionStatic)));
    if (s.blockSize > 4096)
        throw Error(QCoreApplication::translate("kvscope::Planner",
                                                "%2: %1 is larger than any %3 block size (at most 4096)")
                        .arg(QString::number(s.blockSize), optionFlag(ScenarioField::BlockSize),
                             engineDisplayName(s.engine)));
    if (s.gpuMemoryUtilizationPpm != 0) // 0: the release's default
        requireShare(s.gpuMemoryUtilizationPpm, ScenarioField::GpuMemoryUtilization);
    if (s.bandwidthEfficiencyPpm != 0) // 0: the calibrated efficiency
        requireShare(s.bandwidthEfficiencyPpm, ScenarioField::BandwidthEfficiency);
    if (s.computeEfficiencyPpm != 0)
        requireShare(s.computeEfficiencyPpm, ScenarioField::ComputeEfficiency);
    if (s.promptLen < 0)
        requirePositive(s.promptLen, ScenarioField::PromptLen);
    if (s.sharedPrefixLen < 0)
        requirePositive(s.sharedPrefixLen, ScenarioField::SharedPrefixLen);
    if (s.sharedPrefixLen >= s.seqLen && s.sharedPrefixLen > 0)
        throw Error(QCoreApplication::translate(
                        "kvscope::Planner", "%3: %1 is not less than %4 %2 (a sequence is the shared prefix "
                                            "and at least one token of its own)")
                        .arg(QString::number(s.sharedPrefixLen), QString::number(s.seqLen),
                             optionFlag(ScenarioField::SharedPrefixLen), optionFlag(ScenarioField::SeqLen)));
    if (s.promptLen > s.seqLen)
        throw Error(QCoreApplication::translate("kvscope::Planner",
                                                "%3: %1 exceeds %4 %2 (a sequence is its prompt plus "
                                                "its output)")
                        .arg(QString::number(s.promptLen), QString::number(s.seqLen),
                             optionFlag(ScenarioField::PromptLen), optionFlag(ScenarioField::SeqLen)));
    if (s.maxModelLen > m.maxPositionEmbeddings)
        throw Error(QCoreApplication::translate(
                        "kvscope::Planner", "%4: %1 exceeds %2's max_position_embeddings %3 (%5 refuses it)")
                        .arg(QString::number(s.maxModelLen), m.name, QString::number(m.maxPositionEmbeddings),
                             optionFlag(ScenarioField::MaxModelLen), engineDisplayName(s.engine)));
    const QuantizationSpec q = effectiveQuantization(s);
    if (q.isAwqOrGptq() && (q.groupSize == 0 || q.groupSize < -1 || q.bits < 2 || q.bits > 8))
        throw Error(
            QCoreApplication::translate("kvscope::Planner", "%2: must be a positive integer or -1, got %1")
                .arg(QString::number(q.groupSize), optionFlag(ScenarioField::GroupSize)));
    validateTensorParallel(m, s.tensorParallelSize);
    validatePipelineParallel(m, s.pipelineParallelSize, s.engine);
    validateDataParallel(m, s.tensorParallelSize, s.pipelineParallelSize, s.dataParallelSize,
                         s.enableExpertParallel, s.engine, s.enableDpAttention);
    validateSglangExpertParallel(attentionGroupScenario(s));
    validateSglangDenseSplits(s);
    validateEplb(s);
    validateAll2AllBackend(s);
    if (s.maxLoras < 0)
        requirePositive(s.maxLoras, ScenarioField::MaxLoras);
    validateLora(s);
    validateSpeculative(s);
    engineRules(s)->validate(s);
    if (isLlamaCppKvType(s.kvCacheDtype) && m.format != ModelFormat::Gguf)
        throw Error(QCoreApplication::translate(
                        "kvscope::Planner", "%3: %1 is a llama.cpp cache type for GGUF models; %2 is not one "
                                            "(%4 offers auto, float16, bfloat16, fp8)")
                        .arg(dtypeName(s.kvCacheDtype), m.name, optionFlag(ScenarioField::KvCacheDtype),
                             engineDisplayName(s.engine)));
    if (m.format == ModelFormat::Gguf && s.quantization && s.quantization->method != QuantMethod::None)
        throw Error(
            QCoreApplication::translate("kvscope::Planner",
                                        "%4: %1 is a GGUF file whose weights are stored%2 already; its "
                                        "tensor bytes are used, so '%3' does not apply")
                .arg(m.name, m.fileType.isEmpty() ? QString() : QStringLiteral(" as ") + m.fileType,
                     quantMethodName(s.quantization->method), optionFlag(ScenarioField::Quantization)));
}

std::optional<MemoryPlan> tryPlanMemory(const Scenario &scenario)
{
    try {
        return planMemory(scenario);
    } catch (const Error &) {
        return std::nullopt;
    }
}

namespace {

/// parameterTensorBytes() for the last model and layout asked on this thread: a slider's plans ask for the
/// same list again and again, and building it was most of what replaying the load costs a plan.
QList<std::int64_t> loadTensors(const ModelArch &m, const QList<TensorGroup> &inventory,
                                const QuantizationSpec &quantization, WeightDtype dtype, int tp,
                                const ExpertPadding &padding, const ExpertPlacement &experts)
{
    struct Asked
    {
        ModelArch model;
        QuantizationSpec quantization;
        WeightDtype dtype = WeightDtype::Auto;
        int tp = 0;
        ExpertPadding padding;
        ExpertPlacement experts;
        QList<std::int64_t> tensors;
    };
    thread_local std::optional<Asked> last;
    if (last && last->tp == tp && last->dtype == dtype && last->padding == padding &&
        last->experts == experts && last->quantization == quantization && last->model == m)
        return last->tensors;
    last = Asked{m,
                 quantization,
                 dtype,
                 tp,
                 padding,
                 experts,
                 parameterTensorBytes(m, inventory, quantization, dtype, tp, padding, experts)};
    return last->tensors;
}

/// The plan of the GPUs that hold `m`'s layers (the whole model, or one pipeline stage's share
/// with its `inventory`) and `experts` of its routed experts, everything but the speed. Under
/// data parallelism the GPUs are one rank's, holding its share of --batch-size. A pipeline stage's
/// cache keeps the whole model's groups (`stageGroups`, stageKvGroupLayout).
MemoryPlan planLayers(const Scenario &s, const EngineRules &rulesRef, const ModelArch &m,
                      const QList<TensorGroup> &inventory, bool holdsSampler, const ExpertPlacement &experts,
                      const std::optional<KvGroupLayout> &stageGroups = std::nullopt)
{
    const EngineRules *rules = &rulesRef;
    const int tp = int(s.tensorParallelSize); // at most num_attention_heads (validateScenario)
    // A data-parallel rank serves its share of the requests: the deployment's, split evenly.
    const std::int64_t rankBatch = dataParallelShare(s.batchSize, s.dataParallelSize);

    MemoryPlan plan;
    plan.engine = s.engine;
    plan.engineVersion = rules->versionText();
    plan.modelId = m.id;
    plan.modelName = m.name;
    plan.gpuId = s.gpu.id;
    plan.gpuName = s.gpu.name;
    plan.modelFormat = m.format;
    plan.modelFileType = m.fileType;
    plan.quantization = effectiveQuantization(s);
    plan.quantizationFromCheckpoint = !s.quantization && plan.quantization.method != QuantMethod::None;
    WeightDtype checkpointDtype = m.checkpointDtype;
    // vLLM's AWQ/GPTQ kernels take float16; "auto" picks it for those checkpoints.
    if (s.dtype == WeightDtype::Auto && plan.quantization.isAwqOrGptq())
        checkpointDtype = WeightDtype::Float16;
    plan.dtype = rules->resolveDtype(s, checkpointDtype);
    plan.kvCacheDtype = resolveKvCacheDtype(s.kvCacheDtype, plan.dtype);
    plan.tensorParallelSize = tp;
    plan.dataParallelSize = int(s.dataParallelSize); // at most 1024 (validateDataParallel)
    plan.expertParallelSize = experts.expertParallel;
    plan.expertTensorParallelSize = experts.tensorParallel > 0 ? experts.tensorParallel : tp;
    plan.localExperts = experts.localExperts > 0 ? experts.localExperts : m.moe.numExperts;
    plan.expertPlacement = experts;
    plan.gpuMemoryUtilizationPpm = s.gpuMemoryUtilizationPpm;
    plan.maxModelLen = s.maxModelLen > 0 ? s.maxModelLen : m.maxPositionEmbeddings;
    plan.blockSize = int(s.blockSize);
    plan.requestedBlockSize = int(s.blockSize);
    rules->applyLimits(s, plan);
    plan.batchSize = s.batchSize;
    plan.rankBatchSize = rankBatch;
    const ImageWorkload images = imageWorkload(s);
    plan.imagesPerRequest = images.images;
    plan.imageTokensPerImage = images.perImage.promptTokens;
    plan.imageTokensPerSequence = images.promptTokens;
    plan.imageEmbeddingsPerSequence = images.embeddings;
    plan.seqLen = (Checked(s.seqLen) + images.promptTokens).value(); // the text and its images' tokens
    plan.speculativeMethod = s.speculative.method;
    plan.numSpeculativeTokens = s.speculative.numSpeculativeTokens;
    plan.notes = m.notes;
    plan.holdsSampler = holdsSampler;
    // Before the try below: an overflow here names its own option, not --batch-size.
    plan.encoder = rules->encoderProfile(m, plan);
    plan.activationBytes = rules->activationBytes(m, plan);

    try {
        // Parameters and weights
        plan.params = countParameters(inventory);
        plan.weights =
            weightMemory(m, inventory, plan.quantization, plan.dtype, tp, rules->expertPadding(s), experts);
        const std::int64_t storedTensorsPerGpu = plan.weights.bytesPerGpu; // before the load's own additions
        applyMeasuredCheckpoint(m, tp, plan);
        rules->sizeLoad(
            m,
            [&] {
                return loadTensors(m, inventory, plan.quantization, plan.dtype, tp, rules->expertPadding(s),
                                   experts);
            },
            plan);
        if (!plan.weights.budgetUsesMeasured) // the estimate, as the engine measures a load
            plan.weights.estimatedBytesPerGpu = plan.weights.bytesPerGpu;
        // LoRA slots are allocated with the model: vLLM's "Model loading took" includes them.
        const LoraWrapping wrapping = loraWrapping(
            s, plan.expertTensorParallelSize,
            plan.quantization.method == QuantMethod::Mxfp4 ? rules->expertPadding(s) : ExpertPadding{});
        // vLLM's --lora-dtype (LoRAConfig: auto = the model's dtype); SGLang's pool takes the model's.
        const WeightDtype loraDtype =
            s.engine == Engine::Vllm && s.loraDtype != WeightDtype::Auto ? s.loraDtype : plan.dtype;
        plan.weights.loraBytes =
            loraBufferBytes(inventory, s.maxLoras, s.maxLoraRank, bytesPerElement(loraDtype), tp, wrapping);
        // vLLM's drafter loads after the target, before the profiling run; SGLang's after the
        // target's pool, outside the static share (SglangRules::settlePool).
        const bool separateDrafter = s.engine == Engine::Sglang;
        const WeightMemory drafter = draftWeights(s, plan.quantization, plan.dtype, tp, experts);
        plan.weights.draftBytes = drafter.bytesPerGpu;
        plan.weights.draftLoadCopyBytes = sglangDraftLoadCopyBytes(s, plan.dtype, tp);
        // EPLB's state is built with the model, inside the same measurement (core/plan/eplb.h).
        // vLLM balances an MTP drafter's experts too, with a state of its own (its MoE layers).
        plan.eplbState =
            rules->eplbStateMemory(s, m.moeLayerCount(), plan.weights.byComponent[int(Component::Experts)]);
        if (s.speculative.method == SpeculativeMethod::Mtp)
            plan.eplbState +=
                rules->eplbStateMemory(s, s.model.mtpLayers, drafter.byComponent[int(Component::Experts)]);
        plan.weights.eplbBytes = plan.eplbState.inBudget ? plan.eplbState.total() : 0;
        plan.redundantExperts = physicalExpertCount(s) - m.moe.numExperts;
        if (plan.quantization.method == QuantMethod::Mxfp4)
            plan.weights.mxfp4ScaleCopyBytes = mxfp4ScaleCopyBytes(
                m, plan.dtype, plan.expertTensorParallelSize, plan.localExperts, rules->expertPadding(s));
        if (const QuantizationSpec loaded = rules->loadedQuantization(s, plan.quantization);
            loaded != plan.quantization)
            plan.weights.unpackedZeroPointBytes =
                (Checked(weightMemory(m, inventory, loaded, plan.dtype, tp, rules->expertPadding(s), experts)
                             .bytesPerGpu) -
                 storedTensorsPerGpu)
                    .value();
        plan.weights.bytesPerGpu =
            (Checked(plan.weights.bytesPerGpu) + plan.weights.loraBytes + plan.weights.eplbBytes +
             plan.weights.mxfp4ScaleCopyBytes + plan.weights.unpackedZeroPointBytes +
             (separateDrafter ? 0 : plan.weights.draftBytes))
                .value();

        // KV cache: the formula, the batch, and vLLM's pool layout
        KvCacheMemory &kv = plan.kv;
        // The drafter's attention layers join the target's in one pool (vLLM's EAGLE and MTP), or
        // keep a pool of their own (SGLang's draft worker).
        kv.draftLayers = separateDrafter ? 0 : draftCacheLayers(s);
        kv.draftPoolLayers = separateDrafter ? draftCacheLayers(s) : 0;
        const ModelArch cacheModel = withDraftLayers(m, kv.draftLayers);
        const ModelArch &km = cacheModel;
        KvCacheOptions options = kvCacheOptions(s, plan.dtype, plan.kvCacheDtype);
        options.stageGroups = stageGroups;
        const KvCacheLayout layout = kvCacheLayout(km, options);
        const KvGroupLayout &groups = layout.groups;
        plan.blockSize = layout.blockSize;
        plan.mambaCacheDtype = options.convStateDtype;
        plan.mambaSsmCacheDtype = options.ssmStateDtype;
        kv.bytesPerElement = isBlockKvType(plan.kvCacheDtype) ? 0 : bytesPerElement(plan.kvCacheDtype);
        kv.bitsPerElement = kvBitsPerElement(plan.kvCacheDtype);
        kv.kvHeadsPerGpu = kvHeadsPerGpu(m, tp);
        kv.headsReplicated = m.usesMla() ? tp > 1 : tp > m.numKvHeads;
        kv.bytesPerTokenPerLayer = layout.bytesPerTokenPerLayer;
        kv.bytesPerToken = kvBytesPerToken(km, plan.kvCacheDtype, tp);
        kv.workspaceBytesPerToken = layout.workspaceBytesPerToken;
        kv.fp8DsMla = usesFp8DsMla(m, plan.kvCacheDtype);
        kv.numKvHeads = m.numKvHeads;
        kv.numQueryHeads = m.numHeads;
        kv.keyHeadDim = m.headDim;
        kv.valueHeadDim = m.vHeadDim;
        kv.mlaLatentRank = m.mla.kvLoraRank;
        kv.mlaRopeDim = m.usesMla() ? m.mla.qkRopeHeadDim : 0;
        kv.indexerKeyBytes = indexerKeyBytes(m);
        kv.slidingWindow = groups.slidingLayers > 0 ? m.slidingWindow : 0;
        kv.attentionChunkSize = groups.chunkedLayers > 0 ? m.attentionChunkSize : 0;
        kv.cacheLayers = kvCacheLayerCount(km);
        kv.recurrentKind = m.recurrent.kind;
        kv.fullLayers = groups.fullLayers;
        kv.slidingLayers = groups.slidingLayers;
        kv.chunkedLayers = groups.chunkedLayers;
        kv.recurrentLayers = groups.recurrentLayers;
        kv.sharedLayers = groups.sharedLayers;
        kv.groupSize = groups.groupSize;
        kv.numGroups = groups.numGroups();
        kv.fullGroups = groups.fullGroups;
        kv.slidingGroups = groups.slidingGroups;
        kv.chunkedGroups = groups.chunkedGroups;
        kv.recurrentGroups = groups.recurrentGroups;
        kv.paddingLayers = groups.paddingLayers();
        kv.pageBytes = layout.pageBytes;
        const RecurrentState state =
            recurrentStatePerLayer(m, tp, options.convStateDtype, options.ssmStateDtype);
        kv.stateConvBytesPerLayer = state.convBytes;
        kv.stateSsmBytesPerLayer = state.ssmBytes;
        kv.stateBytesPerLayer = state.bytes();
        kv.stateBytesPerSequence = (Checked(state.bytes()) * groups.recurrentLayers).value();
        if (s.sharedPrefixLen > 0 && layout.swaSplit.enabled())
            throw Error(QCoreApplication::translate(
                            "kvscope::Planner", "%1: SGLang keeps %2's window layers in a pool of their own; "
                                                "kvscope plans a shared prefix for models whose layers all "
                                                "keep every token")
                            .arg(optionFlag(ScenarioField::SharedPrefixLen), m.name));
        if (s.sharedPrefixLen > 0 && (groups.numGroups() != 1 || groups.fullGroups != 1))
            throw Error(QCoreApplication::translate(
                            "kvscope::Planner", "%1: %2's layers cache in %3 groups of several kinds, whose "
                                                "prefix hits vLLM aligns to a common block; kvscope plans a "
                                                "shared prefix for models whose layers all keep every token")
                            .arg(optionFlag(ScenarioField::SharedPrefixLen), m.name)
                            .arg(groups.numGroups()));
        // A running request holds slots for the drafts it verifies and writes ahead.
        const std::int64_t slots = speculativeSlots(s);
        kv.speculativeSlots = slots;
        const auto held = [&](std::int64_t tokens) { return heldTokens(tokens, slots, plan.maxModelLen); };
        kv.blocksPerSequence = blocksPerSequence(km, layout, held(plan.seqLen));
        kv.sharedPrefixBlocks = sharedPrefixBlocks(layout, s.sharedPrefixLen, plan.seqLen);
        kv.cacheBytes = kvCacheBytes(km, layout, rankBatch, held(plan.seqLen), s.sharedPrefixLen);
        kv.stateCacheBytes = layout.bytesOf((Checked(rankBatch) * groups.recurrentGroups).value());

        // Budget, as vLLM's gpu_worker or SGLang's model runner computes it
        plan.gpuMemoryBytes = s.gpu.memoryBytes;
        rules->applyBudget(s, m, plan);
        applyMeasuredMemory(s, plan);
        kv.availableBytes = (Checked(plan.budgetBytes) - plan.weights.bytesPerGpu - plan.activationBytes -
                             plan.overheadBytes - plan.cudaGraphBytes)
                                .value();
        rules->fixKvBudget(s, plan);
        plan.headroomBytes = (Checked(kv.availableBytes) - kv.cacheBytes).value();
        plan.fits = plan.headroomBytes >= 0;
        kv.shortfallBytes = std::max<std::int64_t>(0, -kv.availableBytes);
        plan.weightsOverBudgetBytes =
            std::max<std::int64_t>(0, (Checked(plan.weights.bytesPerGpu) - plan.budgetBytes).value());
        plan.weightsFit = plan.weightsOverBudgetBytes == 0;

        // Capacity in vLLM's terms
        kv.numGpuBlocks = layout.blocksIn(kv.availableBytes);
        if (const SwaPoolSplit &split = layout.swaSplit; split.enabled()) {
            kv.swaPoolRatioPpm = split.ratioPpm;
            kv.swaPoolTokens = split.windowPoolTokens(kv.numGpuBlocks);
            kv.swaWindowTokens = split.window;
        }
        kv.blocksPerMaxRequest = blocksPerRequest(km, layout, plan.maxModelLen, plan.maxNumBatchedTokens);
        kv.capacityFromConcurrency = rules->logsCapacityAsConcurrency();
        kv.capacityTokens = kv.capacityFromConcurrency ? concurrencyTimesLengthTokens(kv, plan.maxModelLen)
                                                       : blocksPerGroupTokens(kv, layout.blockSize);
        // A shared prefix's full blocks are held once: the rest of each request is its own.
        kv.sharedRequestBlocks = sharedPrefixBlocks(layout, s.sharedPrefixLen, plan.maxModelLen - 1);
        kv.maxConcurrency = double(std::max<std::int64_t>(0, kv.numGpuBlocks - kv.sharedRequestBlocks)) /
                            double(kv.blocksPerMaxRequest - kv.sharedRequestBlocks);
        if (s.kvOffloadingMilliGiB > 0) {
            // vLLM: --kv-offloading-size is "the total buffer size summed across all TP ranks"
            // (CacheConfig.kv_offloading_size, vllm/config/cache.py): each rank keeps its share in
            // blocks of its own pool's layout.
            kv.cpuOffloadBytesPerGpu = mulDivFloor(s.kvOffloadingMilliGiB, GiB, std::int64_t(1000) * tp);
            kv.cpuBlocks = layout.blocksIn(kv.cpuOffloadBytesPerGpu);
            kv.cpuCapacityTokens = (Checked(kv.cpuBlocks / kv.numGroups) * layout.blockSize).value();
        }
        plan.engineRefusal = rules->gpuRefusal(s, plan);
        plan.engineStarts = plan.engineRefusal.isEmpty() && rules->starts(kv);
        rules->settlePool(s, plan);
        kv.maxModelLenThatFits = largestSatisfying(plan.maxModelLen, [&](std::int64_t len) {
            return blocksPerRequest(km, layout, len, plan.maxNumBatchedTokens) <= kv.numGpuBlocks;
        });

        // Inverse questions: the largest batch / sequence that still fit.
        const std::int64_t free = std::max<std::int64_t>(0, kv.availableBytes);
        const std::int64_t ownBlocks = kv.blocksPerSequence - kv.sharedPrefixBlocks;
        plan.largestBatchThatFits =
            std::max<std::int64_t>(0, layout.blocksIn(free) - kv.sharedPrefixBlocks) / ownBlocks;
        kv.attentionTokensHeld = (Checked(plan.largestBatchThatFits) * plan.seqLen).value();
        const auto seqFits = [&](std::int64_t tokens) {
            try {
                return kvCacheBytes(km, layout, rankBatch, held(tokens), s.sharedPrefixLen) <= free;
            } catch (const Error &) {
                return false; // beyond 2^63 bytes cannot fit
            }
        };
        constexpr std::int64_t unbounded = std::numeric_limits<std::int64_t>::max() / 4;
        if (groups.fullGroups == 0 && seqFits(unbounded)) {
            plan.largestSeqLenThatFits = -1; // every layer slides: memory stops growing at the window
        } else {
            // Each full group adds a block per blockSize tokens, so this bounds the answer.
            const std::int64_t blocksPerStep = (Checked(rankBatch) * std::max(1, groups.fullGroups)).value();
            const std::int64_t reach = std::max(m.slidingWindow, m.attentionChunkSize);
            const std::int64_t upper =
                std::min(unbounded, (layout.blocksIn(free) / blocksPerStep + 2) * layout.blockSize + reach +
                                        s.sharedPrefixLen);
            plan.largestSeqLenThatFits = largestSatisfying(upper, seqFits);
            // A sequence is its shared prefix, its images and at least one token more.
            if (plan.largestSeqLenThatFits <= s.sharedPrefixLen + plan.imageTokensPerSequence)
                plan.largestSeqLenThatFits = 0;
        }
    } catch (const Error &error) {
        throw Error(QCoreApplication::translate("kvscope::Planner", "%1, for %2 with %6 %3, %7 %4, %8 %5")
                        .arg(error.message(), m.name, QString::number(s.batchSize), QString::number(s.seqLen),
                             QString::number(tp), optionFlag(ScenarioField::BatchSize),
                             optionFlag(ScenarioField::SeqLen),
                             optionFlag(ScenarioField::TensorParallelSize)));
    }

    // One rank's cache is the deployment's until data parallelism adds the others' (planDataParallel).
    plan.deploymentCapacityTokens = plan.kv.capacityTokens;
    plan.deploymentMaxConcurrency = plan.kv.maxConcurrency;

    if (plan.imagesPerRequest > 0) {
        const ImageTokens &image = images.perImage;
        plan.notes
            << QCoreApplication::translate(
                   "kvscope::Planner",
                   "Images: %1 a request of %2 px; the processor resizes each to %3 px, %4 tokens in the "
                   "prompt (%5 encoder outputs); a sequence holds %6 text + %7 image tokens = %8")
                   .arg(formatCount(plan.imagesPerRequest), formatImageSize(s.imageWidth, s.imageHeight),
                        formatImageSize(image.width, image.height), formatCount(image.promptTokens),
                        formatCount(image.embeddings), formatCount(s.seqLen),
                        formatCount(plan.imageTokensPerSequence), formatCount(plan.seqLen));
    }
    if (plan.seqLen > plan.maxModelLen)
        plan.notes << QCoreApplication::translate("kvscope::Planner",
                                                  "%3 %1 exceeds %4 %2: %5 would reject such requests")
                          .arg(formatCount(plan.seqLen), formatCount(plan.maxModelLen),
                               plan.imagesPerRequest > 0
                                   ? QCoreApplication::translate("kvscope::Planner",
                                                                 "a sequence's text and images,")
                                   : optionFlag(ScenarioField::SeqLen),
                               optionFlag(ScenarioField::MaxModelLen), engineDisplayName(plan.engine));
    rules->addNotes(s, plan);
    plan.startFailure = startFailure(*rules, plan);
    if (plan.kv.headsReplicated && !m.usesMla())
        plan.notes << QCoreApplication::translate("kvscope::Planner",
                                                  "%3 %1 > %2 KV heads: each GPU holds a replicated head")
                          .arg(QString::number(tp), QString::number(m.numKvHeads),
                               optionFlag(ScenarioField::TensorParallelSize));
    if (plan.kv.paddingLayers > 0)
        plan.notes << QCoreApplication::translate(
                          "kvscope::Planner",
                          "vLLM pads its KV groups with %1 empty layer slots (hybrid layout)")
                          .arg(plan.kv.paddingLayers);
    addArchitectureNotes(m, plan);
    addCompatibilityNotes(s, plan);
    return plan;
}

/// vLLM under pipeline parallelism: each stage's worker profiles and sizes its own cache, then
/// every stage takes the fewest blocks any stage has room for (get_kv_cache_configs,
/// vllm/v1/core/kv_cache_utils.py: "Change the num_blocks of each rank to the smallest among all
/// ranks"). The plan is that stage's, with the whole model's parameters and checkpoint.
MemoryPlan planPipeline(const Scenario &s, const EngineRules &rules, const ModelArch &m)
{
    QList<MemoryPlan> stagePlans;
    QList<PipelineStagePlan> stages;
    int binding = 0;
    for (const PipelineStageLayers &layers : pipelineStages(m.numLayers, int(s.pipelineParallelSize))) {
        const ModelArch stageModel = pipelineStageModel(m, layers);
        MemoryPlan stagePlan =
            planLayers(s, rules, stageModel, pipelineStageInventory(stageModel, layers), layers.last,
                       expertPlacement(stageModel, int(s.tensorParallelSize), 1, s.enableExpertParallel),
                       stageKvGroupLayout(m, layers.firstLayer, layers.layers));
        const PipelineStagePlan stage = stageFigures(stagePlan, layers);
        const PipelineStagePlan &least = stages.isEmpty() ? stage : stages.at(binding);
        if (stage.ownBlocks < least.ownBlocks ||
            (stage.ownBlocks == least.ownBlocks && stage.availableBytes < least.availableBytes))
            binding = stage.index;
        stages << stage;
        stagePlans << stagePlan;
    }

    MemoryPlan plan = stagePlans.at(binding);
    plan.pipelineParallelSize = int(s.pipelineParallelSize);
    plan.pipelineStages = stages;
    plan.bindingStage = binding;
    // Every stage must hold the batch; the longest request and the largest batch are the least of theirs.
    for (const MemoryPlan &stage : std::as_const(stagePlans)) {
        plan.fits = plan.fits && stage.fits;
        plan.weightsFit = plan.weightsFit && stage.weightsFit;
        plan.headroomBytes = std::min(plan.headroomBytes, stage.headroomBytes);
        plan.largestBatchThatFits = std::min(plan.largestBatchThatFits, stage.largestBatchThatFits);
        plan.largestSeqLenThatFits = std::min(plan.largestSeqLenThatFits, stage.largestSeqLenThatFits);
    }

    // The model as a whole: its parameters and checkpoint, not one stage's.
    const QList<TensorGroup> inventory = tensorInventory(m);
    plan.params = countParameters(inventory);
    const WeightMemory whole = weightMemory(
        m, inventory, plan.quantization, plan.dtype, plan.tensorParallelSize, rules.expertPadding(s),
        expertPlacement(m, plan.tensorParallelSize, 1, s.enableExpertParallel));
    plan.pipelineWholeWeights = whole;
    WeightMemory &w = plan.weights;
    w.checkpointBytes = whole.checkpointBytes;
    w.quantizedParams = whole.quantizedParams;
    w.quantizedBytes = whole.quantizedBytes;
    w.quantizedStorage = whole.quantizedStorage;
    w.unquantizedParams = whole.unquantizedParams;
    w.unquantizedBytes = whole.unquantizedBytes;
    w.bitsPerWeight = whole.bitsPerWeight;
    w.quantizedBitsPerWeight = whole.quantizedBitsPerWeight;

    QStringList split;
    for (const PipelineStagePlan &stage : std::as_const(stages))
        split << QString::number(stage.layers);
    plan.notes.prepend(QCoreApplication::translate(
                           "kvscope::Planner",
                           "%1 %2: layers split %3 over the stages (vLLM's get_pp_indices); each stage's "
                           "cache holds %4 blocks, the fewest any stage has room for (stage %5); the "
                           "figures per GPU are that stage's")
                           .arg(optionFlag(ScenarioField::PipelineParallelSize))
                           .arg(plan.pipelineParallelSize)
                           .arg(split.join(QStringLiteral(", ")), formatCount(plan.kv.numGpuBlocks))
                           .arg(binding + 1));
    return plan;
}

/// vLLM under data parallelism: every rank an engine of its own that profiles and sizes its own
/// cache (DPEngineCoreProc, vllm/v1/engine/core.py) and serves its share of the requests. Ranks
/// differ only where the routed experts do not divide evenly over the EP GPUs: the first hold
/// one more (localExpertCount). The plan is the rank with the most experts; the deployment's
/// capacity is every rank's summed, and the largest batch an even split that every rank holds.
MemoryPlan planDataParallel(const Scenario &s, const EngineRules &rules, const ModelArch &m)
{
    const int tp = int(s.tensorParallelSize);
    const int dp = int(s.dataParallelSize);
    const QList<TensorGroup> inventory = tensorInventory(m);
    const bool sglangExperts = s.engine == Engine::Sglang && s.expertParallelSize > 1;
    ExpertPlacement placement =
        sglangExperts ? sglangExpertPlacement(s)
                      : expertPlacement(m, tp, dp, s.enableExpertParallel, 0, physicalExpertCount(s));
    // SGLang's data-parallel attention (tp here is one attention group's): the input embedding whole
    // on every GPU (VocabParallelEmbedding enable_tp=not is_dp_attention_enabled()), the dense MLPs,
    // shared experts and LM head over all the GPUs (DeepseekV2DecoderLayer, ParallelLMHead;
    // python/sglang/srt/models/deepseek_v2.py, qwen2_moe.py), the experts as for vLLM without EP.
    const bool attentionGroups = sglangDpAttention(s);
    if (attentionGroups) {
        placement.denseTensorParallel = sglangTotalGpus(s);
        placement.wholeEmbedding = true;
    }
    // SGLang's --moe-dense-tp-size 1 (enable_moe_dense_fully_dp, python/sglang/srt/layers/communicator.py:
    // DeepseekV2DecoderLayer's dense MLP with tp_size 1) and --enable-dp-lm-head (ParallelLMHead over the
    // attention group's GPUs, use_attn_tp_group), where the model's SGLang code honours them.
    const bool denseWhole = s.moeDenseTpSize == 1 && sglangReplicatesDenseMlps(m);
    const bool lmHeadByGroup = s.enableDpLmHead && attentionGroups && sglangSplitsLmHeadByGroup(m);
    if (denseWhole)
        placement.denseLayerMlpTensorParallel = 1;
    if (lmHeadByGroup)
        placement.lmHeadTensorParallel = tp;
    MemoryPlan plan = planLayers(s, rules, m, inventory, true, placement);
    if (s.moeDenseTpSize == 1 && !denseWhole)
        plan.notes << QCoreApplication::translate(
                          "kvscope::Planner", "%1 1 changes nothing here: SGLang's %2 has no dense layers it "
                                              "runs whole")
                          .arg(optionFlag(ScenarioField::MoeDenseTpSize), m.architecture);
    if (s.enableDpLmHead && !lmHeadByGroup)
        plan.notes << QCoreApplication::translate(
                          "kvscope::Planner", "%1 changes nothing here: SGLang's %2 does not split its LM "
                                              "head by attention group%3")
                          .arg(optionFlag(ScenarioField::EnableDpLmHead), m.architecture,
                               attentionGroups ? QString()
                                               : QCoreApplication::translate("kvscope::Planner",
                                                                             " (no attention groups: SGLang "
                                                                             "turns it off)"));
    plan.attentionDataParallel = attentionGroups;
    plan.lmHeadByAttentionGroup = lmHeadByGroup;
    plan.denseLayerMlpsWhole = denseWhole;
    const int heavier = heavierDataParallelRanks(m, tp, dp, s.enableExpertParallel, physicalExpertCount(s));
    const int lighterRanks = heavier > 0 ? dp - heavier : 0;
    int lighterExperts = 0;
    double lighterConcurrency = 0;
    if (lighterRanks > 0) {
        const MemoryPlan lighter = planLayers(
            s, rules, m, inventory, true,
            expertPlacement(m, tp, dp, s.enableExpertParallel, (dp - 1) * tp, physicalExpertCount(s)));
        lighterExperts = lighter.localExperts;
        lighterConcurrency = lighter.kv.maxConcurrency;
        plan.lighterRankCapacityTokens = lighter.kv.capacityTokens;
    }
    const int heavierRanks = dp - lighterRanks;
    plan.lighterRanks = lighterRanks;
    plan.deploymentCapacityTokens = (Checked(plan.kv.capacityTokens) * heavierRanks +
                                     Checked(plan.lighterRankCapacityTokens) * lighterRanks)
                                        .value();
    plan.deploymentMaxConcurrency = plan.kv.maxConcurrency * heavierRanks + lighterConcurrency * lighterRanks;
    plan.largestBatchThatFits = (Checked(plan.largestBatchThatFits) * dp).value();
    if (lmHeadByGroup || denseWhole) {
        QStringList layout;
        if (denseWhole)
            layout << QCoreApplication::translate("kvscope::Planner",
                                                  "%1 1: the dense layers' MLPs whole on every GPU")
                          .arg(optionFlag(ScenarioField::MoeDenseTpSize));
        if (lmHeadByGroup)
            layout << QCoreApplication::translate("kvscope::Planner", "%1: the LM head over each group's %2")
                          .arg(optionFlag(ScenarioField::EnableDpLmHead))
                          .arg(tp);
        plan.notes.prepend(layout.join(QStringLiteral("; ")));
    }
    if (attentionGroups)
        plan.notes.prepend(
            QCoreApplication::translate(
                "kvscope::Planner",
                "%1 %2 %3: SGLang's %4 GPUs in %2 attention groups of %5, each with its own KV pool and "
                "%6 of the %7 sequences, the MLPs and experts split over all %4; the figures per GPU are "
                "one group's, the deployment holds %8 tokens")
                .arg(sglangFlag(ScenarioField::DataParallelSize))
                .arg(dp)
                .arg(optionFlag(ScenarioField::EnableDpAttention))
                .arg(tp * dp)
                .arg(tp)
                .arg(formatCount(plan.rankBatchSize), formatCount(s.batchSize),
                     formatCount(plan.deploymentCapacityTokens)));
    else if (dp > 1)
        plan.notes.prepend(
            QCoreApplication::translate(
                "kvscope::Planner",
                "%1 %2: %2 engines of %3 GPU(s), each with its own KV cache and %4 of the %5 "
                "sequences; the figures per GPU are one rank's, the deployment holds %6 tokens")
                .arg(optionFlag(ScenarioField::DataParallelSize))
                .arg(dp)
                .arg(tp)
                .arg(formatCount(plan.rankBatchSize), formatCount(s.batchSize),
                     formatCount(plan.deploymentCapacityTokens)));
    if (sglangExperts)
        plan.notes.prepend(
            QCoreApplication::translate("kvscope::Planner",
                                        "%1 %2: %3's %4 routed experts a layer divided among %2 "
                                        "GPUs, %5 on this GPU%6 (SGLang's FusedMoE)")
                .arg(optionFlag(ScenarioField::ExpertParallelSize))
                .arg(plan.expertParallelSize)
                .arg(m.name)
                .arg(m.moe.numExperts)
                .arg(plan.localExperts)
                .arg(plan.expertTensorParallelSize > 1
                         ? QCoreApplication::translate("kvscope::Planner", ", each split over %1 GPUs")
                               .arg(plan.expertTensorParallelSize)
                         : QCoreApplication::translate("kvscope::Planner", ", each whole")));
    else if (plan.expertParallelSize > 1)
        plan.notes.prepend(
            QCoreApplication::translate(
                "kvscope::Planner", "%1: %2's %3 routed experts a layer divided among %4 GPUs, %5 on this "
                                    "GPU%6 (vLLM's determine_expert_map)")
                .arg(optionFlag(ScenarioField::EnableExpertParallel), m.name)
                .arg(plan.redundantExperts > 0
                         ? QCoreApplication::translate("kvscope::Planner", "%1 + %2 redundant = %3")
                               .arg(m.moe.numExperts)
                               .arg(plan.redundantExperts)
                               .arg(m.moe.numExperts + plan.redundantExperts)
                         : QString::number(m.moe.numExperts))
                .arg(plan.expertParallelSize)
                .arg(plan.localExperts)
                .arg(lighterRanks > 0
                         ? QCoreApplication::translate("kvscope::Planner", " (%1 on the last ranks)")
                               .arg(lighterExperts)
                         : QString()));
    else if (s.enableExpertParallel)
        plan.notes << QCoreApplication::translate("kvscope::Planner",
                                                  "%1 changes nothing here: %2 (vLLM uses expert parallelism "
                                                  "for routed experts over more than one GPU)")
                          .arg(optionFlag(ScenarioField::EnableExpertParallel),
                               m.moe.enabled() ? QCoreApplication::translate("kvscope::Planner", "one GPU")
                                               : QCoreApplication::translate("kvscope::Planner",
                                                                             "%1 has no routed experts")
                                                     .arg(m.name));
    return plan;
}

} // namespace

MemoryPlan planMemory(const Scenario &s)
{
    validateScenario(s);
    // Under SGLang's data-parallel attention the planner plans one attention group's GPUs.
    const Scenario planned = attentionGroupScenario(s);
    const std::unique_ptr<EngineRules> rules = engineRules(planned);
    const ModelArch laidOut = rules->layOut(planned.model);
    MemoryPlan plan = planned.pipelineParallelSize > 1 ? planPipeline(planned, *rules, laidOut)
                                                       : planDataParallel(planned, *rules, laidOut);
    plan.speed = planSpeed(planned, plan);
    return plan;
}

} // namespace kvscope
