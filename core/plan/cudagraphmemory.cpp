// SPDX-License-Identifier: MIT
#include "core/plan/cudagraphmemory.h"

#include "core/common/checked.h"
#include "core/common/error.h"
#include "core/common/scenariofield.h"
#include "core/engine/runtime.h"
#include "core/scenario/scenario.h"

#include <algorithm>

#include <QCoreApplication>

namespace kvscope {

namespace {

/// Tokens a decode step carries for each request: one, plus the drafts a speculative step verifies.
std::int64_t decodeQueryTokens(const Scenario &s)
{
    return 1 + (s.speculative.enabled() ? s.speculative.numSpeculativeTokens : 0);
}

/// Whether the first FULL capture holds FlashAttention 3's split-KV buffers. With FULL graphs vLLM
/// fixes the splits at flash_attn_max_num_splits_for_cuda_graph = 32 "so that large enough
/// intermediate buffers are pre-allocated during capture" (FlashAttentionMetadataBuilder,
/// vllm/v1/attention/backends/flash_attn.py; FA3, so Hopper, and its MLA sibling FLASH_ATTN_MLA).
/// Other backends keep no such buffers: Triton for float32 and for the multimodal prefix LMs, whose
/// bidirectional image attention FlashAttention refuses ("partial multimodal token full attention not
/// supported", the Gemma 3 logs of the llm-d-planner sweep). gpt-oss's
/// attention sinks run through FlashAttention too, yet its logged first FULL capture is 8 MiB (the
/// llm-d-planner sweep, tests/data/vllm-logs.json log 98); kvscope follows the log there.
bool holdsSplitBuffers(const Scenario &s, const ModelArch &m, int dtypeBytes)
{
    return s.gpu.computeCapability.startsWith(QLatin1String("9.")) && dtypeBytes == 2 && !m.attentionSinks &&
           !m.multimodalPrefixLm;
}

/// Whether vLLM's default list holds `size`.
bool isDefaultSize(std::int64_t size)
{
    return size == 1 || size == 2 || size == 4 || (size >= 8 && size < 256 && size % 8 == 0) ||
           (size >= 256 && size % 16 == 0);
}

/// How many default sizes are at most `high`.
std::int64_t defaultSizesUpTo(std::int64_t high)
{
    if (high < 1)
        return 0;
    std::int64_t n = (high >= 1) + (high >= 2) + (high >= 4);
    if (high >= 8)
        n += std::min<std::int64_t>(high, 255) / 8;
    if (high >= 256)
        n += (high - 256) / 16 + 1;
    return n;
}

/// The largest default size at most `high`; 0 when none.
std::int64_t largestDefaultSizeUpTo(std::int64_t high)
{
    if (high >= 256)
        return 256 + (high - 256) / 16 * 16;
    if (high >= 8)
        return high / 8 * 8;
    return high >= 4 ? 4 : std::max<std::int64_t>(0, std::min<std::int64_t>(high, 2));
}

} // namespace

std::int64_t CudaGraphSizes::countIn(std::int64_t low, std::int64_t high) const
{
    high = std::min(high, largest);
    if (high < low)
        return 0;
    const bool extra = maxNumBatchedTokens <= largest && !isDefaultSize(maxNumBatchedTokens) &&
                       maxNumBatchedTokens >= low && maxNumBatchedTokens <= high;
    return defaultSizesUpTo(high) - defaultSizesUpTo(low - 1) + (extra ? 1 : 0);
}

std::int64_t CudaGraphSizes::largestUpTo(std::int64_t high) const
{
    high = std::min(high, largest);
    const std::int64_t size = largestDefaultSizeUpTo(high);
    return maxNumBatchedTokens <= high ? std::max(size, maxNumBatchedTokens) : size;
}

CudaGraphSizes vllmCudaGraphSizes(const Scenario &s, const ModelArch &m, std::int64_t maxNumSeqs,
                                  std::int64_t maxNumBatchedTokens)
{
    std::int64_t configured = s.maxCudagraphCaptureSize;
    if (configured <= 0)
        configured =
            m.modelType == QLatin1String("gpt_oss")
                ? 1024
                : std::min<std::int64_t>((Checked(maxNumSeqs) * decodeQueryTokens(s) * 2).value(), 512);
    return {std::min(configured, maxNumBatchedTokens), maxNumBatchedTokens};
}

CudaGraphProfile vllmCudaGraphProfile(const Scenario &s, const ModelArch &m, int tp, int dtypeBytes,
                                      std::int64_t maxNumSeqs, std::int64_t maxNumBatchedTokens)
{
    const auto tooLarge = [&] {
        return QCoreApplication::translate(
                   "kvscope::Planner", "%1 %2 and %3 %4: vLLM's CUDA graphs would take more than 2^63 bytes")
            .arg(optionFlag(ScenarioField::MaxCudagraphCaptureSize),
                 QString::number(s.maxCudagraphCaptureSize), optionFlag(ScenarioField::MaxNumBatchedTokens),
                 QString::number(maxNumBatchedTokens));
    };
    return withOverflowMessage(
        [&] {
            CudaGraphProfile p;
            const CudaGraphSizes sizes = vllmCudaGraphSizes(s, m, maxNumSeqs, maxNumBatchedTokens);
            p.largestCaptureTokens = sizes.largest;
            p.loraCases = s.maxLoras > 0 ? 2 : 1;
            p.piecewiseGraphs = (Checked(sizes.countIn(1, sizes.largest)) * p.loraCases).value();
            // FULL graphs replay uniform decode batches: the capture sizes from one request's decode tokens
            // up to max_num_seqs of them (CudagraphDispatcher.initialize_cudagraph_keys,
            // vllm/v1/cudagraph_dispatcher.py). Chunked local attention supports no FULL graph and vLLM falls
            // back to PIECEWISE (its warning "CUDAGraphMode.FULL_AND_PIECEWISE is not supported with
            // ChunkedLocalAttention", log 93).
            const std::int64_t decodeTokens = decodeQueryTokens(s);
            const std::int64_t largestDecode = (Checked(maxNumSeqs) * decodeTokens).value();
            if (m.attentionChunkSize == 0) {
                p.fullGraphs = (Checked(sizes.countIn(decodeTokens, largestDecode)) * p.loraCases).value();
                p.largestFullTokens = p.fullGraphs > 0 ? sizes.largestUpTo(largestDecode) : 0;
            }
            p.layers = m.numLayers;
            if (p.fullGraphs > 0 && holdsSplitBuffers(s, m, dtypeBytes)) {
                // [splits, tokens, heads, width] float32 partial outputs and [splits, tokens, heads] float32
                // log-sum-exps, beside the output itself; MLA attends in the latent space (kv_lora_rank
                // wide).
                const int headsOnGpu = std::max(1, m.numHeads / std::max(1, tp));
                const int width = m.usesMla() ? m.mla.kvLoraRank : m.headDim;
                const Checked rows = Checked(p.largestFullTokens) * headsOnGpu;
                constexpr int splits = 32;
                p.splitBuffersBytes = (rows * width * (splits * 4 + dtypeBytes) + rows * splits * 4).value();
            }
            p.firstCaptureBytes = std::max(VllmPiecewiseFirstCaptureBytes, p.splitBuffersBytes);
            p.perGraphBytes = (Checked(VllmCudaGraphBytesPerLayer) * p.layers).value();
            const std::int64_t furtherGraphs = std::max<std::int64_t>(0, p.piecewiseGraphs - 1) +
                                               std::max<std::int64_t>(0, p.fullGraphs - 1);
            p.estimateBytes =
                (Checked(p.firstCaptureBytes) + Checked(p.perGraphBytes) * furtherGraphs).value();
            return p;
        },
        tooLarge);
}

} // namespace kvscope
