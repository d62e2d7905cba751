// SPDX-License-Identifier: MIT
#include "core/plan/cudagraphmemory.h"

#include "core/common/checked.h"
#include "core/engine/runtime.h"
#include "core/scenario/scenario.h"

#include <algorithm>

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

} // namespace

std::int64_t CudaGraphProfile::estimateBytes() const
{
    const int furtherGraphs = std::max(0, piecewiseGraphs - 1) + std::max(0, fullGraphs - 1);
    return (Checked(firstCaptureBytes) + Checked(perGraphBytes) * furtherGraphs).value();
}

QList<int> vllmCudaGraphCaptureSizes(const Scenario &s, const ModelArch &m, std::int64_t maxNumSeqs,
                                     std::int64_t maxNumBatchedTokens)
{
    const bool gptOss = m.modelType == QLatin1String("gpt_oss");
    const std::int64_t configured =
        gptOss ? 1024 : std::min<std::int64_t>((Checked(maxNumSeqs) * decodeQueryTokens(s) * 2).value(), 512);
    const int largest = int(std::min(configured, maxNumBatchedTokens));
    QList<int> sizes;
    for (const int size : {1, 2, 4})
        if (size <= largest)
            sizes << size;
    for (int size = 8; size < 256 && size <= largest; size += 8)
        sizes << size;
    for (int size = 256; size <= largest; size += 16)
        sizes << size;
    if (maxNumBatchedTokens <= largest && !sizes.contains(int(maxNumBatchedTokens))) {
        sizes << int(maxNumBatchedTokens);
        std::sort(sizes.begin(), sizes.end());
    }
    return sizes;
}

CudaGraphProfile vllmCudaGraphProfile(const Scenario &s, const ModelArch &m, int tp, int dtypeBytes,
                                      std::int64_t maxNumSeqs, std::int64_t maxNumBatchedTokens)
{
    CudaGraphProfile p;
    const QList<int> sizes = vllmCudaGraphCaptureSizes(s, m, maxNumSeqs, maxNumBatchedTokens);
    p.piecewiseGraphs = int(sizes.size());
    // FULL graphs replay uniform decode batches: the capture sizes from one request's decode tokens up to
    // max_num_seqs of them (CudagraphDispatcher.get_capture_descs, vllm/v1/cudagraph_dispatcher.py).
    // Chunked local attention supports no FULL graph and vLLM falls back to PIECEWISE (its warning
    // "CUDAGraphMode.FULL_AND_PIECEWISE is not supported with ChunkedLocalAttention", log 93).
    const std::int64_t decodeTokens = decodeQueryTokens(s);
    const std::int64_t largestDecode = (Checked(maxNumSeqs) * decodeTokens).value();
    if (m.attentionChunkSize == 0)
        for (const int size : sizes)
            if (size >= decodeTokens && size <= largestDecode) {
                ++p.fullGraphs;
                p.largestFullTokens = size;
            }
    p.layers = m.numLayers;
    if (p.fullGraphs > 0 && holdsSplitBuffers(s, m, dtypeBytes)) {
        // [splits, tokens, heads, width] float32 partial outputs and [splits, tokens, heads] float32
        // log-sum-exps, beside the output itself; MLA attends in the latent space (kv_lora_rank wide).
        const int headsOnGpu = std::max(1, m.numHeads / std::max(1, tp));
        const int width = m.usesMla() ? m.mla.kvLoraRank : m.headDim;
        const Checked rows = Checked(std::int64_t(p.largestFullTokens)) * headsOnGpu;
        constexpr int splits = 32;
        p.splitBuffersBytes = (rows * width * (splits * 4 + dtypeBytes) + rows * splits * 4).value();
    }
    p.firstCaptureBytes = std::max(VllmPiecewiseFirstCaptureBytes, p.splitBuffersBytes);
    p.perGraphBytes = (Checked(VllmCudaGraphBytesPerLayer) * p.layers).value();
    return p;
}

} // namespace kvscope
