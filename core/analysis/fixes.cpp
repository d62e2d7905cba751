// SPDX-License-Identifier: MIT
#include "core/analysis/fixes.h"

#include "core/analysis/growth.h"
#include "core/common/checked.h"
#include "core/common/error.h"
#include "core/common/units.h"
#include "core/engine/engine.h"
#include "core/plan/expertparallel.h"
#include "core/plan/planner.h"
#include "core/plan/tensorparallel.h"

#include <algorithm>
#include <optional>

#include <QJsonObject>

namespace kvscope {

namespace {

/// How many larger GPUs a list of fixes names at most.
constexpr int MaxGpuProposals = 3;

/// A scenario being changed; each setter changes one field and records the
/// option that says so, so the two never disagree.
struct Draft
{
    Fix fix;

    Draft(FixKind kind, const Scenario &scenario, bool limit = false)
    {
        fix.kind = kind;
        fix.scenario = scenario;
        fix.limit = limit;
    }
    void record(ScenarioField option, const QJsonValue &value) { fix.changes.append({option, value}); }
    void batchSize(std::int64_t n)
    {
        fix.scenario.batchSize = n;
        record(ScenarioField::BatchSize, qint64(n));
    }
    void seqLen(std::int64_t n)
    {
        fix.scenario.seqLen = n;
        record(ScenarioField::SeqLen, qint64(n));
    }
    void maxModelLen(std::int64_t n)
    {
        fix.scenario.maxModelLen = n;
        record(ScenarioField::MaxModelLen, qint64(n));
    }
    void kvCacheDtype(KvCacheDtype dtype)
    {
        fix.scenario.kvCacheDtype = dtype;
        record(ScenarioField::KvCacheDtype, dtypeName(dtype));
    }
    void quantization(QuantMethod method)
    {
        fix.scenario.quantization = defaultSpecFor(method);
        record(ScenarioField::Quantization, quantMethodName(method));
    }
    void tensorParallelSize(int gpus)
    {
        fix.scenario.tensorParallelSize = gpus;
        record(ScenarioField::TensorParallelSize, gpus);
    }
    void dataParallelSize(int ranks)
    {
        fix.scenario.dataParallelSize = ranks;
        fix.scenario.enableExpertParallel = true;
        record(ScenarioField::DataParallelSize, ranks);
        record(ScenarioField::EnableExpertParallel, true);
    }
    void gpu(const GpuSpec &spec)
    {
        fix.scenario.gpu = spec;
        record(ScenarioField::Gpu, spec.id);
    }
    void kvCacheMemoryBytes(std::int64_t bytes)
    {
        fix.scenario.kvCacheMemoryBytes = bytes;
        record(ScenarioField::KvCacheMemoryBytes, qint64(bytes));
    }
};

/// Plans a draft and, where the change alone is not enough, settles it: the
/// largest batch that then fits, the --max-model-len the cache then holds.
std::optional<Fix> settle(Draft draft)
{
    std::optional<MemoryPlan> plan = tryPlanMemory(draft.fix.scenario);
    if (plan && !plan->fits) {
        if (plan->largestBatchThatFits < 1)
            return std::nullopt;
        draft.batchSize(plan->largestBatchThatFits);
        plan = tryPlanMemory(draft.fix.scenario);
    }
    if (plan && !plan->engineStarts) {
        const std::int64_t longest = plan->kv.maxModelLenThatFits;
        if (longest < std::max<std::int64_t>(1, plan->seqLen))
            return std::nullopt; // vLLM would reject the scenario's own requests
        draft.maxModelLen(longest);
        plan = tryPlanMemory(draft.fix.scenario);
    }
    if (!plan || !plan->works())
        return std::nullopt;
    draft.fix.plan = std::move(*plan);
    return draft.fix;
}

bool keepsBatch(const Fix &fix, const Scenario &original)
{
    return fix.scenario.batchSize == original.batchSize;
}

/// Under --kv-cache-memory-bytes vLLM takes the pool as given (GPUWorker.determine_available_memory,
/// vllm/v1/worker/gpu_worker.py): memory a change frees does not grow it. Such a change is a fix only
/// where it holds more sequences than the scenario as it is (where that pool did not fit the GPU).
bool growsAFixedPool(const Fix &fix, const Scenario &s, const MemoryPlan &plan)
{
    if (s.kvCacheMemoryBytes <= 0)
        return true;
    const std::int64_t held = plan.engineRefusal.isEmpty() ? plan.largestBatchThatFits : 0;
    return fix.plan.largestBatchThatFits > held;
}

/// How far a working scenario could go: the largest batch, the longest sequence
/// vLLM would accept.
void addLimits(const Scenario &s, const MemoryPlan &plan, QList<Fix> &fixes)
{
    if (plan.largestBatchThatFits > s.batchSize) {
        Draft draft(FixKind::BatchSize, s, true);
        draft.batchSize(plan.largestBatchThatFits);
        if (std::optional<Fix> fix = settle(draft))
            fixes << *fix;
    }
    // The plan's lengths count a sequence's images too; --seq-len is its text.
    const std::int64_t longest =
        (plan.largestSeqLenThatFits < 0 ? plan.maxModelLen
                                        : std::min(plan.largestSeqLenThatFits, plan.maxModelLen)) -
        plan.imageTokensPerSequence;
    if (longest > s.seqLen) {
        Draft draft(FixKind::SeqLen, s, true);
        draft.seqLen(longest);
        if (std::optional<Fix> fix = settle(draft))
            fixes << *fix;
    }
}

/// Less of what the scenario asks for: a smaller batch, a shorter sequence, a
/// --max-model-len the cache holds.
void addReductions(const Scenario &s, const MemoryPlan &plan, QList<Fix> &fixes)
{
    if (!plan.fits && plan.largestBatchThatFits >= 1) {
        Draft draft(FixKind::BatchSize, s);
        draft.batchSize(plan.largestBatchThatFits);
        if (std::optional<Fix> fix = settle(draft))
            fixes << *fix;
    }
    const std::int64_t longestText = plan.largestSeqLenThatFits - plan.imageTokensPerSequence;
    if (!plan.fits && longestText >= 1) {
        Draft draft(FixKind::SeqLen, s);
        draft.seqLen(longestText);
        if (std::optional<Fix> fix = settle(draft))
            fixes << *fix;
    }
    if (plan.fits && !plan.engineStarts) {
        if (std::optional<Fix> fix = settle(Draft(FixKind::MaxModelLen, s)))
            fixes << *fix;
    }
}

/// The next narrower KV precision on the walk that keeps the batch, else the first
/// that works with a smaller one; past FP8, the engines' NVFP4 cache and SGLang's
/// fp4_mx_block16 (settle() drops each where its engine refuses it: NVFP4 off Blackwell GPUs).
void addKvPrecision(const Scenario &s, const MemoryPlan &plan, QList<Fix> &fixes)
{
    const double bits = kvBitsPerElement(plan.kvCacheDtype);
    QList<KvCacheDtype> walk = kvPrecisionWalk(plan.dtype, plan.modelFormat);
    if (plan.modelFormat != ModelFormat::Gguf)
        walk << KvCacheDtype::Nvfp4;
    // SGLang's FP4 cache off Blackwell GPUs.
    if (s.engine == Engine::Sglang)
        walk << KvCacheDtype::Fp4MxBlock16;
    std::optional<Fix> smallerBatch;
    for (KvCacheDtype dtype : std::as_const(walk)) {
        if (kvBitsPerElement(dtype) >= bits)
            continue;
        Draft draft(FixKind::KvCacheDtype, s);
        // vLLM's own spelling for its FP8 cache (e4m3).
        draft.kvCacheDtype(dtype == KvCacheDtype::Fp8E4M3 ? KvCacheDtype::Fp8 : dtype);
        std::optional<Fix> fix = settle(draft);
        if (fix && keepsBatch(*fix, s)) {
            fixes << *fix;
            return;
        }
        if (fix && !smallerBatch)
            smallerBatch = std::move(fix);
    }
    if (smallerBatch)
        fixes << *smallerBatch;
}

/// Weight quantizations vLLM loads that make the weights smaller.
void addQuantizations(const Scenario &s, const MemoryPlan &plan, QList<Fix> &fixes)
{
    if (plan.modelFormat == ModelFormat::Gguf)
        return; // a GGUF file's weights are stored as they are
    const bool checkpointQuantized = s.model.checkpointQuantization.method != QuantMethod::None;
    for (QuantMethod method :
         {QuantMethod::Fp8, QuantMethod::Awq, QuantMethod::Gptq, QuantMethod::BitsAndBytesNf4}) {
        if (method == plan.quantization.method)
            continue;
        Draft draft(FixKind::Quantization, s);
        draft.quantization(method);
        std::optional<Fix> fix = settle(draft);
        if (!fix || fix->plan.weights.bytesPerGpu >= plan.weights.bytesPerGpu ||
            !growsAFixedPool(*fix, s, plan))
            continue;
        fix->needsQuantizedCheckpoint =
            checkpointQuantized || !quantizesWhileLoading(fix->plan.quantization.method);
        fixes << *fix;
    }
}

/// The smallest tensor-parallel size that works with the batch as it is; before it,
/// a smaller one that works with a smaller batch.
void addTensorParallel(const Scenario &s, QList<Fix> &fixes)
{
    bool reducedOffered = false;
    for (int gpus : validTensorParallelSizes(s.model)) {
        if (gpus <= s.tensorParallelSize)
            continue;
        Draft draft(FixKind::TensorParallel, s);
        draft.tensorParallelSize(gpus);
        std::optional<Fix> fix = settle(draft);
        if (!fix)
            continue;
        if (keepsBatch(*fix, s)) {
            fixes << *fix;
            return;
        }
        if (!reducedOffered) {
            fixes << *fix;
            reducedOffered = true;
        }
    }
}

/// For a MoE under vLLM, the fewest data-parallel ranks, the experts divided among all their GPUs,
/// that hold the batch as it is, each rank its share: where tensor parallelism repeats the cache
/// (an MLA latent, KV heads fewer than the GPUs) the way to more requests.
void addDataParallel(const Scenario &s, QList<Fix> &fixes)
{
    if (!s.model.moe.enabled() || s.engine != Engine::Vllm || s.pipelineParallelSize > 1 ||
        s.dataParallelSize > 1)
        return;
    for (int ranks : validDataParallelSizes(s.model, int(s.tensorParallelSize), true, s.engine)) {
        if (ranks <= 1)
            continue;
        Draft draft(FixKind::DataParallel, s);
        draft.dataParallelSize(ranks);
        if (std::optional<Fix> fix = settle(draft); fix && keepsBatch(*fix, s)) {
            fixes << *fix;
            return;
        }
    }
}

/// GPUs of the library with more memory, smallest first, that hold the batch as it is;
/// when none does, the one with the most memory and the batch that then fits.
void addGpus(const Scenario &s, const MemoryPlan &plan, const QList<GpuSpec> &gpus, QList<Fix> &fixes)
{
    QList<GpuSpec> larger;
    for (const GpuSpec &gpu : gpus)
        if (gpu.memoryBytes > s.gpu.memoryBytes && gpu.id != s.gpu.id)
            larger << gpu;
    std::stable_sort(larger.begin(), larger.end(),
                     [](const GpuSpec &a, const GpuSpec &b) { return a.memoryBytes < b.memoryBytes; });
    int offered = 0;
    for (const GpuSpec &gpu : larger) {
        Draft draft(FixKind::Gpu, s);
        draft.gpu(gpu);
        std::optional<Fix> fix = settle(draft);
        if (fix && keepsBatch(*fix, s) && growsAFixedPool(*fix, s, plan)) {
            fixes << *fix;
            if (++offered == MaxGpuProposals)
                return;
        }
    }
    if (offered == 0 && !larger.isEmpty()) {
        Draft draft(FixKind::Gpu, s);
        draft.gpu(larger.last());
        std::optional<Fix> fix = settle(draft);
        if (fix && growsAFixedPool(*fix, s, plan))
            fixes << *fix;
    }
}

/// A fixed pool (--kv-cache-memory-bytes) the batch does not fit: the pool it needs, in whole GiB,
/// or, past what the GPU holds beside everything else, the most it holds and the batch that then fits.
void addKvCacheMemory(const Scenario &s, const MemoryPlan &plan, QList<Fix> &fixes)
{
    if (s.kvCacheMemoryBytes <= 0)
        return;
    const std::int64_t needed = ceilDiv(plan.kv.cacheBytes, GiB) * GiB;
    const std::int64_t most = plan.wholeGpuKvBytes / GiB * GiB;
    const std::int64_t bytes = std::min(needed, most);
    if (bytes <= 0 || bytes == s.kvCacheMemoryBytes)
        return;
    Draft draft(FixKind::KvCacheMemory, s);
    draft.kvCacheMemoryBytes(bytes);
    if (std::optional<Fix> fix = settle(draft))
        fixes << *fix;
}

} // namespace

QList<Fix> proposeFixes(const Scenario &scenario, const MemoryPlan &plan, const QList<GpuSpec> &gpus)
{
    QList<Fix> fixes;
    if (plan.works()) {
        addLimits(scenario, plan, fixes);
        return fixes;
    }
    addReductions(scenario, plan, fixes);
    addKvCacheMemory(scenario, plan, fixes);
    addKvPrecision(scenario, plan, fixes);
    addQuantizations(scenario, plan, fixes);
    addTensorParallel(scenario, fixes);
    addDataParallel(scenario, fixes);
    addGpus(scenario, plan, gpus, fixes);
    return fixes;
}

} // namespace kvscope
