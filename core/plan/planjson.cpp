// SPDX-License-Identifier: MIT
#include "plan/planjson.h"

#include "common/units.h"
#include "plan/scenario.h"

#include <cmath>

#include <QJsonArray>

namespace kvscope {

namespace {

double rounded(double value, int decimals)
{
    const double scale = std::pow(10.0, decimals);
    return std::round(value * scale) / scale;
}

QJsonObject componentObject(const std::int64_t (&values)[ComponentCount])
{
    QJsonObject o;
    for (int i = 0; i < ComponentCount; ++i)
        if (values[i] != 0)
            o.insert(componentName(Component(i)), qint64(values[i]));
    return o;
}

} // namespace

QJsonObject planToJson(const MemoryPlan &p)
{
    QJsonObject o;
    o.insert(QStringLiteral("model"), p.modelId);
    o.insert(QStringLiteral("model_format"),
             p.modelFormat == ModelFormat::Gguf ? QStringLiteral("gguf") : QStringLiteral("hf-config"));
    if (!p.modelFileType.isEmpty())
        o.insert(QStringLiteral("model_file_type"), p.modelFileType);
    o.insert(QStringLiteral("gpu"), p.gpuId);
    o.insert(QStringLiteral("dtype"), dtypeName(p.dtype));
    o.insert(QStringLiteral("quantization"), quantMethodName(p.quantization.method));
    o.insert(QStringLiteral("quantization_detail"), describe(p.quantization));
    o.insert(QStringLiteral("quantization_from_checkpoint"), p.quantizationFromCheckpoint);
    o.insert(QStringLiteral("kv_cache_dtype"), dtypeName(p.kvCacheDtype));
    o.insert(QStringLiteral("tensor_parallel_size"), p.tensorParallelSize);
    o.insert(QStringLiteral("gpu_memory_utilization"),
             formatUtilization(p.gpuMemoryUtilizationPpm).toDouble());
    o.insert(QStringLiteral("max_model_len"), qint64(p.maxModelLen));
    o.insert(QStringLiteral("block_size"), p.blockSize);
    o.insert(QStringLiteral("max_num_seqs"), qint64(p.maxNumSeqs));
    o.insert(QStringLiteral("max_num_batched_tokens"), qint64(p.maxNumBatchedTokens));
    o.insert(QStringLiteral("batch_size"), qint64(p.batchSize));
    o.insert(QStringLiteral("seq_len"), qint64(p.seqLen));

    o.insert(QStringLiteral("params_total"), qint64(p.params.total));
    o.insert(QStringLiteral("params_active"), qint64(p.params.active));
    o.insert(QStringLiteral("params_embedding"), qint64(p.params.embedding));
    o.insert(QStringLiteral("params_by_component"), componentObject(p.params.byComponent));

    o.insert(QStringLiteral("bits_per_weight"), rounded(p.weights.bitsPerWeight, 6));
    o.insert(QStringLiteral("quantized_bits_per_weight"), rounded(p.weights.quantizedBitsPerWeight, 6));
    o.insert(QStringLiteral("quantized_params"), qint64(p.weights.quantizedParams));
    o.insert(QStringLiteral("weights_bytes"), qint64(p.weights.bytesPerGpu));
    o.insert(QStringLiteral("weights_buffers_bytes"), qint64(p.weights.buffersBytes));
    o.insert(QStringLiteral("weights_bytes_by_component"), componentObject(p.weights.byComponent));
    o.insert(QStringLiteral("checkpoint_bytes"), qint64(p.weights.checkpointBytes));
    o.insert(QStringLiteral("weights_bytes_estimated"), qint64(p.weights.estimatedBytesPerGpu));
    o.insert(QStringLiteral("weights_source"),
             p.weights.budgetUsesMeasured ? QStringLiteral("checkpoint") : QStringLiteral("estimate"));
    if (p.weights.checkpointMeasured) {
        o.insert(QStringLiteral("checkpoint_bytes_measured"), qint64(p.weights.measuredCheckpointBytes));
        o.insert(QStringLiteral("weights_bytes_measured"), qint64(p.weights.measuredBytesPerGpu));
        o.insert(QStringLiteral("params_total_measured"), qint64(p.weights.measuredParams));
        QJsonObject byType;
        for (auto it = p.weights.measuredBytesByType.begin(); it != p.weights.measuredBytesByType.end(); ++it)
            byType.insert(it.key(), qint64(it.value()));
        o.insert(QStringLiteral("checkpoint_bytes_by_type_measured"), byType);
    }

    o.insert(QStringLiteral("kv_bytes_per_token"), qint64(p.kv.bytesPerToken));
    o.insert(QStringLiteral("kv_bytes_per_token_per_layer"), qint64(p.kv.bytesPerTokenPerLayer));
    o.insert(QStringLiteral("kv_heads_per_gpu"), p.kv.kvHeadsPerGpu);
    o.insert(QStringLiteral("kv_heads_replicated"), p.kv.headsReplicated);
    o.insert(QStringLiteral("kv_cache_bytes"), qint64(p.kv.cacheBytes));
    o.insert(QStringLiteral("kv_blocks_per_sequence"), qint64(p.kv.blocksPerSequence));
    o.insert(QStringLiteral("kv_full_layers"), p.kv.fullLayers);
    o.insert(QStringLiteral("kv_sliding_layers"), p.kv.slidingLayers);
    o.insert(QStringLiteral("kv_group_size"), p.kv.groupSize);
    o.insert(QStringLiteral("kv_groups"), p.kv.numGroups);
    o.insert(QStringLiteral("kv_available_bytes"), qint64(p.kv.availableBytes));
    o.insert(QStringLiteral("num_gpu_blocks"), qint64(p.kv.numGpuBlocks));
    o.insert(QStringLiteral("kv_capacity_tokens"), qint64(p.kv.capacityTokens));
    o.insert(QStringLiteral("blocks_per_max_request"), qint64(p.kv.blocksPerMaxRequest));
    o.insert(QStringLiteral("max_concurrency"), rounded(p.kv.maxConcurrency, 4));
    o.insert(QStringLiteral("max_model_len_that_fits"), qint64(p.kv.maxModelLenThatFits));

    o.insert(QStringLiteral("gpu_memory_bytes"), qint64(p.gpuMemoryBytes));
    o.insert(QStringLiteral("budget_bytes"), qint64(p.budgetBytes));
    o.insert(QStringLiteral("activation_bytes"), qint64(p.activationBytes));
    o.insert(QStringLiteral("overhead_bytes"), qint64(p.overheadBytes));
    o.insert(QStringLiteral("headroom_bytes"), qint64(p.headroomBytes));
    o.insert(QStringLiteral("fits"), p.fits);
    o.insert(QStringLiteral("engine_starts"), p.engineStarts);
    o.insert(QStringLiteral("largest_batch_that_fits"), qint64(p.largestBatchThatFits));
    o.insert(QStringLiteral("largest_seq_len_that_fits"), qint64(p.largestSeqLenThatFits));
    o.insert(QStringLiteral("notes"), QJsonArray::fromStringList(p.notes));
    o.insert(QStringLiteral("units"), unitsConvention());
    return o;
}

} // namespace kvscope
