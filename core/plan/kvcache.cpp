// SPDX-License-Identifier: MIT
#include "core/plan/kvcache.h"

#include "core/common/checked.h"
#include "core/model/hybridconfig.h"

#include <algorithm>
#include <array>
#include <initializer_list>
#include <limits>

namespace kvscope {

namespace {

/// vLLM's kernel_block_alignment_size for hybrid attention/Mamba block sizes.
constexpr int HybridBlockAlignment = 16;
/// FlashMLASparseBackend.get_supported_kernel_block_sizes() -> [64].
constexpr int SparseMlaBlockSize = 64;
/// fp8_ds_mla and the indexer key keep one float32 scale per 128 FP8 values.
constexpr int Fp8ScaleBlock = 128;

std::int64_t fp8DsMlaBytes(const MlaSpec &mla)
{
    // 512 FP8 NoPE values + 4 float32 scales + 64 bf16 RoPE values = 656 B (flashmla_sparse.py).
    return (Checked(mla.kvLoraRank) + ceilDiv(mla.kvLoraRank, Fp8ScaleBlock) * 4 +
            Checked(mla.qkRopeHeadDim) * 2)
        .value();
}

std::int64_t exactShare(std::int64_t width, int tp)
{
    return width / std::max(1, tp); // validateTensorParallel() guarantees exact division
}

/// Blocks a chunked-local layer holds: those of the chunk the last token lies in.
std::int64_t chunkBlocksHeld(std::int64_t tokens, std::int64_t chunk, int blockSize)
{
    if (tokens <= 0 || chunk <= 0)
        return 0;
    return blocksHeld(tokens, (tokens - 1) % chunk + 1, blockSize);
}

[[noreturn]] void refuseRecurrentState(const ModelArch &model, const QString &problem)
{
    throw Error(QStringLiteral("the model's recurrent state (%1) %2")
                    .arg(recurrentStateFields(model.recurrent), problem));
}

/// recurrentStatePerLayer(), with an overflow blamed on the config fields that size the state.
std::int64_t recurrentStateBytes(const ModelArch &model, const KvCacheOptions &options)
{
    try {
        return recurrentStatePerLayer(model, options.tensorParallelSize, options.convStateDtype,
                                      options.ssmStateDtype)
            .bytes();
    } catch (const Error &) {
        refuseRecurrentState(model, QStringLiteral("exceeds 2^63 bytes per layer"));
    }
}

/// vLLM's hybrid block: the smallest multiple of 16 tokens whose attention page holds
/// one layer's recurrent state, at least `requested`; refused past int (2^31 - 1 tokens).
int hybridBlockSize(const ModelArch &model, const KvCacheLayout &layout, int requested)
{
    const std::int64_t alignedPage = (Checked(HybridBlockAlignment) * layout.bytesPerTokenPerLayer).value();
    const std::int64_t aligned = HybridBlockAlignment * ceilDiv(layout.stateBytesPerLayer, alignedPage);
    if (aligned > std::numeric_limits<int>::max())
        refuseRecurrentState(model, QStringLiteral("is %1 bytes per layer: its pages would be blocks of "
                                                   "%2 tokens, more than 2147483647")
                                        .arg(layout.stateBytesPerLayer)
                                        .arg(aligned));
    return int(std::max<std::int64_t>(requested, aligned));
}

/// SGLang's pools hold tokens, not vLLM's groups of layer slots: every attention layer in one group
/// (the recurrent states and the window pool, where there are any, are sized apart).
void keepAttentionAsOneGroup(KvGroupLayout &g)
{
    g.groupSize = g.fullLayers + g.slidingLayers + g.chunkedLayers;
    g.fullGroups = 1;
    g.slidingGroups = 0;
    g.chunkedGroups = 0;
    g.recurrentGroups = 0;
}

} // namespace

int kvHeadsPerGpu(const ModelArch &model, int tensorParallelSize)
{
    if (model.usesMla())
        return 1;
    return std::max(1, model.numKvHeads / std::max(1, tensorParallelSize));
}

std::int64_t indexerKeyBytes(const ModelArch &model)
{
    // DeepseekV32IndexerCache: head_dim FP8 values + head_dim / 128 float32 scales (uint8 page).
    const IndexerSpec &indexer = model.indexer;
    if (!indexer.enabled())
        return 0;
    return (Checked(indexer.headDim) + Checked(indexer.headDim / Fp8ScaleBlock) * 4).value();
}

bool usesFp8DsMla(const ModelArch &model, KvCacheDtype dtype)
{
    return model.usesMla() && model.indexer.enabled() && !isBlockKvType(dtype) && bytesPerElement(dtype) == 1;
}

std::int64_t kvBytesPerTokenPerLayer(const ModelArch &model, KvCacheDtype dtype, int tensorParallelSize)
{
    if (model.usesMla()) {
        const std::int64_t latent =
            usesFp8DsMla(model, dtype)
                ? fp8DsMlaBytes(model.mla)
                : kvRowBytes(dtype, (Checked(model.mla.kvLoraRank) + model.mla.qkRopeHeadDim).value());
        return (Checked(latent) + indexerKeyBytes(model)).value();
    }
    // K and V are separate rows (they are separate tensors in vLLM and llama.cpp).
    const Checked heads = kvHeadsPerGpu(model, tensorParallelSize);
    return (Checked(kvRowBytes(dtype, (heads * model.headDim).value())) +
            kvRowBytes(dtype, (heads * model.vHeadDim).value()))
        .value();
}

int kvCacheLayerCount(const ModelArch &model)
{
    int count = 0;
    for (int i = 0; i < model.numLayers; ++i)
        count += model.isRecurrentLayer(i) || model.isKvSharedLayer(i) ? 0 : 1;
    return count;
}

std::int64_t kvBytesPerToken(const ModelArch &model, KvCacheDtype dtype, int tensorParallelSize)
{
    return (Checked(kvBytesPerTokenPerLayer(model, dtype, tensorParallelSize)) * kvCacheLayerCount(model))
        .value();
}

RecurrentState recurrentStatePerLayer(const ModelArch &model, int tensorParallelSize, WeightDtype convDtype,
                                      WeightDtype ssmDtype)
{
    const RecurrentSpec &r = model.recurrent;
    const int tp = std::max(1, tensorParallelSize);
    RecurrentState state;
    Checked convWidth, ssmElements;
    switch (r.kind) {
    case RecurrentKind::None:
        return state;
    case RecurrentKind::GatedDeltaNet:
        // gated_delta_net_state_shape: conv over q, k and v; one k x v matrix per value head.
        convWidth = Checked(r.keyHeadDim) * r.numKeyHeads * 2 + Checked(r.valueHeadDim) * r.numValueHeads;
        ssmElements = Checked(exactShare(r.numValueHeads, tp)) * r.valueHeadDim * r.keyHeadDim;
        break;
    case RecurrentKind::Mamba2: {
        // mamba2_state_shape: groups are replicated up to TP when TP does not divide them.
        const std::int64_t groups = r.numGroups + (r.numGroups % tp != 0 ? tp - r.numGroups : 0);
        convWidth = Checked(r.intermediateSize) + Checked(2) * groups * r.stateSize;
        ssmElements = Checked(exactShare(r.numHeads, tp)) * r.headDim * r.stateSize;
        break;
    }
    }
    state.convBytes =
        (Checked(r.convKernel - 1) * exactShare(convWidth.value(), tp) * bytesPerElement(convDtype)).value();
    state.ssmBytes = (ssmElements * bytesPerElement(ssmDtype)).value();
    return state;
}

std::int64_t blocksHeld(std::int64_t tokens, std::int64_t window, int blockSize)
{
    if (tokens <= 0)
        return 0;
    if (window <= 0 || tokens <= window)
        return ceilDiv(tokens, blockSize);
    // Tokens [tokens - window, tokens - 1] live in the blocks between these two.
    return (tokens - 1) / blockSize - (tokens - window) / blockSize + 1;
}

namespace {

/// The layers of each kind vLLM groups apart, with the layout's counters of that kind's layers and
/// groups (KV-shared layers join none).
enum class CacheKind
{
    Shared,
    Recurrent,
    Chunked,
    Sliding,
    Full,
};

struct KindCounters
{
    CacheKind kind;
    int KvGroupLayout::*layers;
    int KvGroupLayout::*groups;
};
constexpr std::array<KindCounters, 5> KindTable{{
    {CacheKind::Shared, &KvGroupLayout::sharedLayers, nullptr},
    {CacheKind::Recurrent, &KvGroupLayout::recurrentLayers, &KvGroupLayout::recurrentGroups},
    {CacheKind::Chunked, &KvGroupLayout::chunkedLayers, &KvGroupLayout::chunkedGroups},
    {CacheKind::Sliding, &KvGroupLayout::slidingLayers, &KvGroupLayout::slidingGroups},
    {CacheKind::Full, &KvGroupLayout::fullLayers, &KvGroupLayout::fullGroups},
}};
static_assert(KindTable[std::size_t(CacheKind::Full)].kind == CacheKind::Full, "KindTable follows CacheKind");

CacheKind cacheKind(const ModelArch &model, int layer)
{
    if (model.isKvSharedLayer(layer))
        return CacheKind::Shared;
    if (model.isRecurrentLayer(layer))
        return CacheKind::Recurrent;
    if (model.isChunkedLayer(layer))
        return CacheKind::Chunked;
    if (model.isSlidingLayer(layer))
        return CacheKind::Sliding;
    return CacheKind::Full;
}

const KindCounters &countersOf(CacheKind kind)
{
    return KindTable.at(std::size_t(kind));
}

} // namespace

KvGroupLayout kvGroupLayout(const ModelArch &model)
{
    KvGroupLayout g;
    for (int i = 0; i < model.numLayers; ++i)
        ++(g.*countersOf(cacheKind(model, i)).layers);
    // vLLM: the group size is the smallest kind's layer count, or the largest
    // one when every kind is within 1.5x of the smallest (less padding).
    int minLayers = 0, maxLayers = 0;
    for (const int n : {g.fullLayers, g.slidingLayers, g.chunkedLayers, g.recurrentLayers}) {
        if (n == 0)
            continue;
        minLayers = minLayers == 0 ? n : std::min(minLayers, n);
        maxLayers = std::max(maxLayers, n);
    }
    g.groupSize = maxLayers * 2 < minLayers * 3 ? maxLayers : minLayers;
    g.groupSize = std::max(1, g.groupSize);
    g.fullGroups = int(ceilDiv(g.fullLayers, g.groupSize));
    g.slidingGroups = int(ceilDiv(g.slidingLayers, g.groupSize));
    g.chunkedGroups = int(ceilDiv(g.chunkedLayers, g.groupSize));
    g.recurrentGroups = int(ceilDiv(g.recurrentLayers, g.groupSize));
    return g;
}

KvGroupLayout stageKvGroupLayout(const ModelArch &model, int firstLayer, int layers)
{
    const KvGroupLayout whole = kvGroupLayout(model);
    KvGroupLayout stage = whole;
    stage.groupSize = 0;
    for (const KindCounters &counters : KindTable) {
        stage.*counters.layers = 0;
        const int groups = counters.groups ? whole.*counters.groups : 0;
        QList<int> keptByGroup(groups, 0);
        int position = 0; // of this kind's layers, in the model's order
        for (int layer = 0; layer < model.numLayers; ++layer) {
            if (cacheKind(model, layer) != counters.kind)
                continue;
            if (layer >= firstLayer && layer < firstLayer + layers) {
                ++(stage.*counters.layers);
                if (groups > 0)
                    ++keptByGroup[position % groups];
            }
            ++position;
        }
        for (const int kept : std::as_const(keptByGroup))
            stage.groupSize = std::max(stage.groupSize, kept);
    }
    stage.groupSize = std::max(1, stage.groupSize);
    return stage;
}

std::int64_t KvCacheLayout::poolBlockBytes() const
{
    return (Checked(pageBytes) * groups.groupSize + Checked(blockSize) * workspaceBytesPerToken).value();
}

namespace {
constexpr std::int64_t Million = 1'000'000;
} // namespace

std::int64_t SwaPoolSplit::cellMicroBytes() const
{
    return (Checked(fullTokenBytes) * Million + Checked(windowTokenBytes) * ratioPpm).value();
}

std::int64_t SwaPoolSplit::blocks(std::int64_t tokens) const
{
    if (tokens <= 0)
        return 0;
    return std::max(tokens, ceilDiv((Checked(windowTokens(tokens)) * Million).value(), ratioPpm));
}

std::int64_t SwaPoolSplit::windowPoolTokens(std::int64_t fullTokens) const
{
    return mulDivFloor(fullTokens, ratioPpm, Million);
}

std::int64_t KvCacheLayout::blocksIn(std::int64_t bytes) const
{
    if (bytes <= 0)
        return 0;
    return swaSplit.enabled() ? mulDivFloor(bytes, Million, swaSplit.cellMicroBytes())
                              : bytes / poolBlockBytes();
}

std::int64_t KvCacheLayout::bytesOf(std::int64_t blocks) const
{
    if (!swaSplit.enabled())
        return (Checked(blocks) * poolBlockBytes()).value();
    const std::int64_t cell = swaSplit.cellMicroBytes();
    const bool fraction = (Checked(blocks % Million) * cell).value() % Million != 0;
    return (Checked(mulDivFloor(blocks, cell, Million)) + (fraction ? 1 : 0)).value();
}

KvCacheLayout kvCacheLayout(const ModelArch &model, const KvCacheOptions &options)
{
    KvCacheLayout layout;
    layout.groups = options.stageGroups ? *options.stageGroups : kvGroupLayout(model);
    layout.bytesPerTokenPerLayer = kvBytesPerTokenPerLayer(model, options.dtype, options.tensorParallelSize);
    layout.stateBytesPerLayer = recurrentStateBytes(model, options);
    layout.requestedBlockSize = options.blockSize;
    // --mamba-cache-mode none: the running state and one block per draft token
    // (MambaSpec.max_memory_usage_bytes, vllm/v1/kv_cache_interface.py).
    layout.stateBlocksPerRequest = 1 + std::max(0, options.speculativeStateBlocks);
    layout.workspaceBytesPerToken = options.workspaceBytesPerToken;
    layout.blockSize = options.blockSize;
    const bool hasAttention = layout.groups.numGroups() > layout.groups.recurrentGroups;
    if (options.statesInOwnPool && layout.groups.recurrentLayers > 0 && hasAttention) {
        // The states are sized apart (SGLang's state pool).
        keepAttentionAsOneGroup(layout.groups);
        layout.stateBlocksPerRequest = 0;
    }
    if (model.indexer.enabled())
        layout.blockSize = SparseMlaBlockSize;
    else if (layout.groups.recurrentGroups > 0 && hasAttention)
        layout.blockSize = hybridBlockSize(model, layout, options.blockSize);
    layout.pageBytes = hasAttention ? (Checked(layout.blockSize) * layout.bytesPerTokenPerLayer).value()
                                    : layout.stateBytesPerLayer;
    KvGroupLayout &g = layout.groups;
    const int windowLayers = g.slidingLayers + g.chunkedLayers;
    if (options.swaPoolRatioPpm > 0 && windowLayers > 0 && g.fullLayers > 0 && g.recurrentLayers == 0) {
        // Two pools of tokens, one group: a block is a full-pool token and its share of the window pool.
        SwaPoolSplit &split = layout.swaSplit;
        split.ratioPpm = options.swaPoolRatioPpm;
        split.window = model.slidingWindow > 0 ? model.slidingWindow : model.attentionChunkSize;
        split.fullTokenBytes = (Checked(g.fullLayers) * layout.bytesPerTokenPerLayer).value();
        split.windowTokenBytes = (Checked(windowLayers) * layout.bytesPerTokenPerLayer).value();
        keepAttentionAsOneGroup(g);
    }
    return layout;
}

std::int64_t GroupBlocks::total(const KvGroupLayout &g) const
{
    return (Checked(g.fullGroups) * full + Checked(g.slidingGroups) * sliding +
            Checked(g.chunkedGroups) * chunked + Checked(g.recurrentGroups) * recurrent)
        .value();
}

GroupBlocks sequenceBlocksPerGroup(const ModelArch &model, const KvCacheLayout &layout, std::int64_t tokens)
{
    const int block = layout.blockSize;
    GroupBlocks blocks;
    if (layout.swaSplit.enabled()) {
        blocks.full = layout.swaSplit.blocks(tokens);
        return blocks;
    }
    blocks.full = blocksHeld(tokens, 0, block);
    blocks.sliding = blocksHeld(tokens, model.slidingWindow, block);
    blocks.chunked = chunkBlocksHeld(tokens, model.attentionChunkSize, block);
    blocks.recurrent = tokens > 0 ? layout.stateBlocksPerRequest : 0;
    return blocks;
}

std::int64_t blocksPerSequence(const ModelArch &model, const KvCacheLayout &layout, std::int64_t tokens)
{
    return sequenceBlocksPerGroup(model, layout, tokens).total(layout.groups);
}

std::int64_t sharedPrefixBlocks(const KvCacheLayout &layout, std::int64_t sharedPrefix, std::int64_t tokens)
{
    return std::min(sharedPrefix, tokens) / layout.blockSize;
}

std::int64_t prefixCacheHitTokens(std::int64_t sharedPrefix, std::int64_t promptLen, std::int64_t blockSize)
{
    const std::int64_t hit = std::min(sharedPrefix, promptLen - 1);
    return hit > 0 && blockSize > 0 ? hit / blockSize * blockSize : 0;
}

std::int64_t batchBlocks(const ModelArch &model, const KvCacheLayout &layout, std::int64_t batch,
                         std::int64_t tokens, std::int64_t sharedPrefix)
{
    const std::int64_t perSequence = blocksPerSequence(model, layout, tokens);
    const std::int64_t shared = batch > 0 ? sharedPrefixBlocks(layout, sharedPrefix, tokens) : 0;
    return (Checked(batch) * (perSequence - shared) + shared).value();
}

std::int64_t kvCacheBytes(const ModelArch &model, const KvCacheLayout &layout, std::int64_t batch,
                          std::int64_t tokens, std::int64_t sharedPrefix)
{
    return layout.bytesOf(batchBlocks(model, layout, batch, tokens, sharedPrefix));
}

GroupBlocks requestBlocksPerGroup(const ModelArch &model, const KvCacheLayout &layout,
                                  std::int64_t maxModelLen, std::int64_t maxNumBatchedTokens)
{
    const KvGroupLayout &g = layout.groups;
    const int block = layout.blockSize;
    GroupBlocks blocks;
    if (layout.swaSplit.enabled()) {
        // SGLang admits by free tokens: a request of max_model_len takes what it keeps.
        blocks.full = layout.swaSplit.blocks(maxModelLen);
        return blocks;
    }
    blocks.full = ceilDiv(maxModelLen, block);
    if (g.slidingGroups > 0) {
        const std::int64_t reach =
            std::min((Checked(model.slidingWindow) - 1 + maxNumBatchedTokens).value(), maxModelLen);
        blocks.sliding = ceilDiv(reach, block) + 1;
    }
    if (g.chunkedGroups > 0) {
        const std::int64_t reach =
            std::min((Checked(model.attentionChunkSize) + maxNumBatchedTokens).value(), maxModelLen);
        blocks.chunked = ceilDiv(reach, block);
    }
    // --mamba-cache-mode none (no prefix caching): one state block per group, and one per draft.
    blocks.recurrent = layout.stateBlocksPerRequest;
    return blocks;
}

std::int64_t blocksPerRequest(const ModelArch &model, const KvCacheLayout &layout, std::int64_t maxModelLen,
                              std::int64_t maxNumBatchedTokens)
{
    return requestBlocksPerGroup(model, layout, maxModelLen, maxNumBatchedTokens).total(layout.groups);
}

} // namespace kvscope
