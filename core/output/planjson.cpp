// SPDX-License-Identifier: MIT
#include "core/output/planjson.h"

#include "core/common/units.h"
#include "core/output/plannotes.h"
#include "core/output/scenariolabel.h"
#include "core/plan/speed.h"
#include "core/scenario/scenario.h"

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

/// Seconds per step term, rounded to the nanosecond; the terms add up to the pass.
QJsonObject breakdownObject(const StepBreakdown &breakdown)
{
    QJsonObject o;
    for (std::size_t i = 0; i < StepTermCount; ++i)
        o.insert(stepTermKey(StepTerm(i)), rounded(breakdown.seconds[i], 9));
    return o;
}

/// Steady-state serving figures; null without a prompt shorter than --seq-len.
QJsonValue servingObject(const std::optional<ServingCost> &serving)
{
    if (!serving)
        return QJsonValue::Null;
    const ServingCost &s = *serving;
    QJsonObject o;
    o.insert(QStringLiteral("concurrency"), qint64(s.concurrency));
    o.insert(QStringLiteral("prompt_len"), qint64(s.promptLen));
    o.insert(QStringLiteral("output_len"), qint64(s.outputLen));
    o.insert(QStringLiteral("token_budget"), qint64(s.tokenBudget));
    o.insert(QStringLiteral("prefill_cached_tokens"), qint64(s.cachedPromptTokens));
    o.insert(QStringLiteral("prefill_steps_per_request"), qint64(s.prefillStepsPerRequest));
    o.insert(QStringLiteral("steps_per_request"), qint64(s.stepsPerRequest));
    o.insert(QStringLiteral("decoding_sequences"), qint64(s.decodingSequences));
    o.insert(QStringLiteral("prefill_chunk_tokens"), qint64(s.prefillChunkTokens));
    o.insert(QStringLiteral("prefill_step_share"), rounded(s.prefillStepShare, 6));
    o.insert(QStringLiteral("decode_step_seconds"), rounded(s.decodeStep.seconds, 9));
    o.insert(QStringLiteral("mixed_step_seconds"), rounded(s.mixedStep.seconds, 9));
    o.insert(QStringLiteral("mean_step_breakdown_seconds"), breakdownObject(s.meanStep));
    o.insert(QStringLiteral("inter_token_latency_seconds"), rounded(s.interTokenSeconds, 9));
    // A saturated server's queue grows without end: its first tokens have no steady value.
    o.insert(QStringLiteral("time_to_first_token_seconds"),
             s.saturated ? QJsonValue(QJsonValue::Null) : QJsonValue(rounded(s.timeToFirstTokenSeconds, 9)));
    o.insert(QStringLiteral("request_seconds"), rounded(s.requestSeconds, 9));
    o.insert(QStringLiteral("output_tokens_per_second"), rounded(s.outputTokensPerSecond, 3));
    const bool openLoop = s.requestRate > 0;
    const auto openLoopValue = [&](double value, int digits) {
        return openLoop ? QJsonValue(rounded(value, digits)) : QJsonValue(QJsonValue::Null);
    };
    o.insert(QStringLiteral("request_rate"), openLoopValue(s.requestRate, 3));
    o.insert(QStringLiteral("requests_in_flight"), openLoopValue(s.requestsInFlight, 3));
    o.insert(QStringLiteral("saturated"), s.saturated);
    o.insert(QStringLiteral("max_request_rate"),
             s.saturated ? QJsonValue(rounded(s.maxRequestRate, 3)) : QJsonValue(QJsonValue::Null));
    return o;
}

/// Decoding with the drafter: null without speculative decoding or an acceptance rate.
QJsonValue speculativeObject(const std::optional<SpeculativeSpeed> &speculative)
{
    if (!speculative)
        return QJsonValue::Null;
    const SpeculativeSpeed &x = *speculative;
    return QJsonObject{
        {QStringLiteral("draft_tokens"), qint64(x.draftTokens)},
        {QStringLiteral("acceptance_rate"), rounded(x.acceptanceRate, 4)},
        {QStringLiteral("acceptance_source"), x.acceptanceSource},
        {QStringLiteral("tokens_per_step"), rounded(x.tokensPerStep, 4)},
        {QStringLiteral("verify_pass_seconds"), rounded(x.verifyPass.seconds, 9)},
        {QStringLiteral("verify_pass_breakdown_seconds"), breakdownObject(x.verifyPass.breakdown)},
        {QStringLiteral("draft_pass_seconds"), rounded(x.draftPass.seconds, 9)},
        {QStringLiteral("step_seconds"), rounded(x.stepSeconds, 9)},
        {QStringLiteral("tokens_per_second"), rounded(x.tokensPerSecond, 3)},
        {QStringLiteral("tokens_per_second_per_sequence"), rounded(x.tokensPerSecondPerSequence, 3)},
        {QStringLiteral("speedup"), rounded(x.speedup, 4)},
        {QStringLiteral("break_even_batch"), qint64(x.breakEvenBatch)},
    };
}

/// The speed figures; null where the GPU lacks a figure the roofline needs (or,
/// when `shown` is false, where nothing runs).
void insertSpeed(QJsonObject &o, const SpeedPlan &s, bool shown)
{
    const auto put = [&](const char *key, const QJsonValue &value) {
        o.insert(QLatin1String(key), s.available && shown ? value : QJsonValue(QJsonValue::Null));
    };
    o.insert(QStringLiteral("prompt_len"), qint64(s.promptLen));
    o.insert(QStringLiteral("prefill_cached_tokens"), qint64(s.cachedPromptTokens));
    o.insert(QStringLiteral("bandwidth_efficiency"), rounded(s.bandwidthEfficiency, 4));
    o.insert(QStringLiteral("kv_bandwidth_efficiency"), rounded(s.kvBandwidthEfficiency, 4));
    o.insert(QStringLiteral("compute_efficiency"), rounded(s.computeEfficiency, 4));
    o.insert(QStringLiteral("gpu_generation"), gpuGenerationName(s.generation));
    o.insert(QStringLiteral("weight_kernel"), weightKernelName(s.weightKernel));
    o.insert(QStringLiteral("moe_kernel"), s.decode.quantities.moeLayers > 0
                                               ? QJsonValue(moeKernelName(s.moeKernel))
                                               : QJsonValue(QJsonValue::Null));
    o.insert(QStringLiteral("compute_format"), computeFormatName(s.computeFormat));
    o.insert(QStringLiteral("compute_weight_only"), s.weightOnly);
    put("decode_step_seconds", rounded(s.decode.seconds, 9));
    put("decode_step_breakdown_seconds", breakdownObject(s.decode.breakdown));
    put("decode_step_seconds_ideal", rounded(s.decode.idealSeconds, 9));
    put("decode_tokens_per_second", rounded(s.decodeTokensPerSecond, 3));
    put("decode_tokens_per_second_per_sequence", rounded(s.decodeTokensPerSecondPerSequence, 3));
    put("decode_tokens_per_second_ideal", rounded(s.decodeTokensPerSecondIdeal, 3));
    put("decode_bound", speedBoundName(s.decode.bound));
    put("decode_bytes_per_step", qint64(s.decode.bytes()));
    put("decode_flops_per_step", std::round(s.decode.flops()));
    put("decode_allreduce_seconds", rounded(s.decode.allReduceSeconds, 9));
    put("decode_ridge_batch", qint64(s.ridgeBatch));
    put("decode_ridge_batch_ideal", qint64(s.ridgeBatchIdeal));
    if (s.expectedExperts > 0)
        put("decode_experts_touched", rounded(s.expectedExperts, 4));
    put("prefill_seconds", rounded(s.prefill.seconds, 9));
    put("prefill_breakdown_seconds", breakdownObject(s.prefill.breakdown));
    put("prefill_seconds_ideal", rounded(s.prefill.idealSeconds, 9));
    put("prefill_bound", speedBoundName(s.prefill.bound));
    put("prefill_bytes", qint64(s.prefill.bytes()));
    put("prefill_flops", std::round(s.prefill.flops()));
    if (s.encoderFlopsPerImage > 0)
        put("vision_encoder_flops_per_image", std::round(s.encoderFlopsPerImage));
    put("serving", servingObject(s.serving));
    put("speculative_decoding", speculativeObject(s.speculative));
}

/// Each stage's worker: its layers, what its GPUs hold and the blocks its memory had room for.
QJsonArray pipelineStagesJson(const MemoryPlan &p)
{
    QJsonArray stages;
    for (const PipelineStagePlan &stage : p.pipelineStages)
        stages.append(QJsonObject{
            {QStringLiteral("stage"), stage.index},
            {QStringLiteral("first_layer"), stage.firstLayer},
            {QStringLiteral("layers"), stage.layers},
            {QStringLiteral("holds_embedding"), stage.holdsEmbedding},
            {QStringLiteral("holds_head"), stage.holdsHead},
            {QStringLiteral("weights_bytes"), qint64(stage.weightBytes)},
            {QStringLiteral("activation_bytes"), qint64(stage.activationBytes)},
            {QStringLiteral("overhead_bytes"), qint64(stage.overheadBytes)},
            {QStringLiteral("available_kv_bytes"), qint64(stage.availableBytes)},
            {QStringLiteral("kv_bytes_per_token"), qint64(stage.kvBytesPerToken)},
            {QStringLiteral("own_blocks"), qint64(stage.ownBlocks)},
            {QStringLiteral("binding"), stage.index == p.bindingStage},
        });
    return stages;
}

} // namespace

QJsonObject planToJson(const MemoryPlan &p)
{
    // A server that does not start holds nothing: its capacity is null, as its speed is.
    const auto running = [&p](const QJsonValue &value) {
        return p.engineStarts ? value : QJsonValue(QJsonValue::Null);
    };
    QJsonObject o;
    o.insert(QStringLiteral("model"), p.modelId);
    o.insert(QStringLiteral("model_format"),
             p.modelFormat == ModelFormat::Gguf ? QStringLiteral("gguf") : QStringLiteral("hf-config"));
    if (!p.modelFileType.isEmpty())
        o.insert(QStringLiteral("model_file_type"), p.modelFileType);
    o.insert(QStringLiteral("gpu"), p.gpuId);
    const ResolvedPrecisions precisions = resolvedPrecisions(p);
    o.insert(QStringLiteral("dtype"), precisions.dtype);
    o.insert(QStringLiteral("quantization"), precisions.quantization);
    o.insert(QStringLiteral("quantization_detail"), describe(p.quantization));
    o.insert(QStringLiteral("quantization_from_checkpoint"), p.quantizationFromCheckpoint);
    o.insert(QStringLiteral("kv_cache_dtype"), precisions.kvCacheDtype);
    o.insert(QStringLiteral("tensor_parallel_size"), p.tensorParallelSize);
    o.insert(QStringLiteral("pipeline_parallel_size"), p.pipelineParallelSize);
    o.insert(QStringLiteral("data_parallel_size"), p.dataParallelSize);
    o.insert(QStringLiteral("enable_dp_attention"), p.attentionDataParallel);
    o.insert(QStringLiteral("enable_dp_lm_head"), p.lmHeadByAttentionGroup);
    o.insert(QStringLiteral("dense_mlps_whole"), p.denseLayerMlpsWhole);
    o.insert(QStringLiteral("expert_parallel_size"), p.expertParallelSize);
    o.insert(QStringLiteral("routed_experts_per_gpu"), p.localExperts);
    o.insert(QStringLiteral("redundant_experts"), p.redundantExperts);
    o.insert(QStringLiteral("all2all_buffer_bytes"), qint64(p.all2allBufferBytes));
    o.insert(QStringLiteral("all_reduce_rms_norm_fused"), p.allReduceRmsNormFused);
    o.insert(QStringLiteral("model_runner_v2"), p.modelRunnerV2);
    o.insert(QStringLiteral("compile_cache_warm"), p.warmCompileCache);
    if (p.kvCacheMemoryBytes > 0) {
        o.insert(QStringLiteral("kv_cache_memory_bytes"), qint64(p.kvCacheMemoryBytes));
        o.insert(QStringLiteral("profiled_kv_cache_bytes"), qint64(p.profiledKvBytes));
        o.insert(QStringLiteral("whole_gpu_kv_cache_bytes"), qint64(p.wholeGpuKvBytes));
    }
    if (!p.pipelineStages.isEmpty())
        o.insert(QStringLiteral("pipeline_stages"), pipelineStagesJson(p));
    o.insert(QStringLiteral("engine"), engineName(p.engine));
    o.insert(QStringLiteral("engine_version"),
             p.engineVersion.isEmpty() ? QJsonValue(QJsonValue::Null) : QJsonValue(p.engineVersion));
    if (p.engine == Engine::Sglang) {
        o.insert(QStringLiteral("gpu_memory_utilization"), QJsonValue::Null);
        o.insert(QStringLiteral("mem_fraction_static"), formatUtilization(p.memFractionStaticPpm).toDouble());
        o.insert(QStringLiteral("preload_bytes"), qint64(p.preloadBytes));
        // What the static share leaves once the drafter (weights, pool) has loaded.
        o.insert(QStringLiteral("reserve_left_bytes"), qint64(p.reserveLeftBytes));
        o.insert(QStringLiteral("draft_pool_layers"), p.kv.draftPoolLayers);
        o.insert(QStringLiteral("draft_pool_bytes"), qint64(p.kv.draftPoolBytes));
        o.insert(QStringLiteral("draft_load_copy_bytes"), qint64(p.weights.draftLoadCopyBytes));
    } else
        o.insert(QStringLiteral("gpu_memory_utilization"),
                 formatUtilization(p.gpuMemoryUtilizationPpm).toDouble());
    o.insert(QStringLiteral("max_model_len"), qint64(p.maxModelLen));
    o.insert(QStringLiteral("block_size"), p.blockSize);
    o.insert(QStringLiteral("requested_block_size"), p.requestedBlockSize);
    o.insert(QStringLiteral("max_num_seqs"), qint64(p.maxNumSeqs));
    o.insert(QStringLiteral("max_num_batched_tokens"), qint64(p.maxNumBatchedTokens));
    o.insert(QStringLiteral("batch_size"), qint64(p.batchSize));
    o.insert(QStringLiteral("rank_batch_size"), qint64(p.rankBatchSize)); // one data-parallel rank's share
    o.insert(QStringLiteral("seq_len"), qint64(p.seqLen)); // text and image tokens a sequence holds
    o.insert(QStringLiteral("images_per_request"), qint64(p.imagesPerRequest));
    o.insert(QStringLiteral("image_tokens_per_image"), qint64(p.imageTokensPerImage));
    o.insert(QStringLiteral("image_tokens_per_sequence"), qint64(p.imageTokensPerSequence));
    o.insert(QStringLiteral("image_embeddings_per_sequence"), qint64(p.imageEmbeddingsPerSequence));
    // vLLM's encoder cache and what its profiling run encodes (zero for a text model and under SGLang).
    o.insert(QStringLiteral("encoder_cache_size"), qint64(p.encoder.budget));
    o.insert(QStringLiteral("encoder_profile_items"), qint64(p.encoder.items));
    o.insert(QStringLiteral("encoder_outputs_bytes"), qint64(p.encoder.heldBytes));
    o.insert(QStringLiteral("encoder_pixel_bytes"), qint64(p.encoder.pixelBytes));
    o.insert(QStringLiteral("encoder_tower_peak_bytes"), qint64(p.encoder.towerPeakBytes));

    o.insert(QStringLiteral("params_total"), qint64(p.params.total));
    o.insert(QStringLiteral("params_active"), qint64(p.params.active));
    o.insert(QStringLiteral("params_embedding"), qint64(p.params.embedding));
    o.insert(QStringLiteral("params_by_component"), componentObject(p.params.byComponent));

    o.insert(QStringLiteral("bits_per_weight"), rounded(p.weights.bitsPerWeight, 6));
    o.insert(QStringLiteral("quantized_bits_per_weight"), rounded(p.weights.quantizedBitsPerWeight, 6));
    o.insert(QStringLiteral("quantized_params"), qint64(p.weights.quantizedParams));
    o.insert(QStringLiteral("weights_bytes"), qint64(p.weights.bytesPerGpu));
    o.insert(QStringLiteral("weights_buffers_bytes"), qint64(p.weights.buffersBytes));
    o.insert(QStringLiteral("weights_load_slack_bytes"), qint64(p.weights.loadSlackBytes));
    o.insert(QStringLiteral("weights_mxfp4_scale_copy_bytes"), qint64(p.weights.mxfp4ScaleCopyBytes));
    o.insert(QStringLiteral("weights_unpacked_zero_point_bytes"), qint64(p.weights.unpackedZeroPointBytes));
    o.insert(QStringLiteral("lora_bytes"), qint64(p.weights.loraBytes));
    o.insert(QStringLiteral("eplb_bytes"), qint64(p.weights.eplbBytes));
    if (p.eplbState.total() > 0)
        o.insert(QStringLiteral("eplb_state_bytes"),
                 QJsonObject{{QStringLiteral("expert_buffer"), qint64(p.eplbState.expertBufferBytes)},
                             {QStringLiteral("load_counters"), qint64(p.eplbState.loadCounterBytes)},
                             {QStringLiteral("expert_maps"), qint64(p.eplbState.mapBytes)},
                             {QStringLiteral("in_budget"), p.eplbState.inBudget}});
    o.insert(QStringLiteral("speculative_method"), speculativeMethodName(p.speculativeMethod));
    o.insert(QStringLiteral("num_speculative_tokens"), qint64(p.numSpeculativeTokens));
    o.insert(QStringLiteral("draft_weights_bytes"), qint64(p.weights.draftBytes));
    o.insert(QStringLiteral("draft_kv_layers"), p.kv.draftLayers);
    o.insert(QStringLiteral("speculative_slots_per_request"), qint64(p.kv.speculativeSlots));
    o.insert(QStringLiteral("shared_prefix_blocks"), qint64(p.kv.sharedPrefixBlocks));
    if (p.kv.statePoolSlots > 0) {
        o.insert(QStringLiteral("state_pool_slots"), qint64(p.kv.statePoolSlots));
        o.insert(QStringLiteral("state_pool_bytes"), qint64(p.kv.statePoolBytes));
    }
    if (p.kv.swaPoolRatioPpm > 0) {
        o.insert(QStringLiteral("swa_full_tokens_ratio"), formatUtilization(p.kv.swaPoolRatioPpm).toDouble());
        o.insert(QStringLiteral("swa_pool_tokens"), running(qint64(p.kv.swaPoolTokens)));
        o.insert(QStringLiteral("swa_window_tokens"), qint64(p.kv.swaWindowTokens));
    }
    if (p.kv.cpuOffloadBytesPerGpu > 0) {
        o.insert(QStringLiteral("cpu_offload_bytes_per_gpu"), qint64(p.kv.cpuOffloadBytesPerGpu));
        o.insert(QStringLiteral("cpu_kv_capacity_tokens"), running(qint64(p.kv.cpuCapacityTokens)));
    }
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
    o.insert(QStringLiteral("kv_workspace_bytes_per_token"), qint64(p.kv.workspaceBytesPerToken));
    o.insert(QStringLiteral("kv_heads_per_gpu"), p.kv.kvHeadsPerGpu);
    o.insert(QStringLiteral("kv_heads_replicated"), p.kv.headsReplicated);
    o.insert(QStringLiteral("kv_cache_bytes"), qint64(p.kv.cacheBytes));
    o.insert(QStringLiteral("kv_blocks_per_sequence"), qint64(p.kv.blocksPerSequence));
    o.insert(QStringLiteral("kv_full_layers"), p.kv.fullLayers);
    o.insert(QStringLiteral("kv_sliding_layers"), p.kv.slidingLayers);
    o.insert(QStringLiteral("kv_chunked_layers"), p.kv.chunkedLayers);
    o.insert(QStringLiteral("kv_recurrent_layers"), p.kv.recurrentLayers);
    o.insert(QStringLiteral("kv_shared_layers"), p.kv.sharedLayers);
    o.insert(QStringLiteral("kv_page_bytes"), qint64(p.kv.pageBytes));
    o.insert(QStringLiteral("kv_cache_layout"),
             p.kv.fp8DsMla ? QStringLiteral("fp8_ds_mla") : dtypeName(p.kvCacheDtype));
    o.insert(QStringLiteral("state_bytes_per_sequence"), qint64(p.kv.stateBytesPerSequence));
    o.insert(QStringLiteral("state_bytes_per_layer"), qint64(p.kv.stateBytesPerLayer));
    o.insert(QStringLiteral("state_cache_bytes"), qint64(p.kv.stateCacheBytes));
    o.insert(QStringLiteral("mamba_cache_dtype"), dtypeName(p.mambaCacheDtype));
    o.insert(QStringLiteral("mamba_ssm_cache_dtype"), dtypeName(p.mambaSsmCacheDtype));
    o.insert(QStringLiteral("kv_group_size"), p.kv.groupSize);
    o.insert(QStringLiteral("kv_groups"), p.kv.numGroups);
    o.insert(QStringLiteral("kv_available_bytes"), qint64(p.kv.availableBytes));
    o.insert(QStringLiteral("num_gpu_blocks"), qint64(p.kv.numGpuBlocks));
    o.insert(QStringLiteral("kv_capacity_tokens"), running(qint64(p.kv.capacityTokens)));
    o.insert(QStringLiteral("kv_attention_tokens_held"), running(qint64(p.kv.attentionTokensHeld)));
    o.insert(QStringLiteral("blocks_per_max_request"), qint64(p.kv.blocksPerMaxRequest));
    o.insert(QStringLiteral("max_concurrency"), running(rounded(p.kv.maxConcurrency, 4)));
    // Every data-parallel rank's cache together (the rank's own at one rank).
    o.insert(QStringLiteral("deployment_kv_capacity_tokens"), running(qint64(p.deploymentCapacityTokens)));
    o.insert(QStringLiteral("deployment_max_concurrency"), running(rounded(p.deploymentMaxConcurrency, 4)));
    o.insert(QStringLiteral("max_model_len_that_fits"), qint64(p.kv.maxModelLenThatFits));

    o.insert(QStringLiteral("gpu_memory_bytes"), qint64(p.gpuMemoryBytes));
    o.insert(QStringLiteral("budget_bytes"), qint64(p.budgetBytes));
    o.insert(QStringLiteral("activation_bytes"), qint64(p.activationBytes));
    o.insert(QStringLiteral("overhead_bytes"), qint64(p.overheadBytes));
    o.insert(QStringLiteral("cuda_graph_bytes"), qint64(p.cudaGraphBytes));
    o.insert(QStringLiteral("memory_measured_from"), p.memoryMeasuredFrom.isEmpty()
                                                         ? QJsonValue(QJsonValue::Null)
                                                         : QJsonValue(p.memoryMeasuredFrom));
    o.insert(QStringLiteral("headroom_bytes"), qint64(p.headroomBytes));
    o.insert(QStringLiteral("fits"), p.fits);
    o.insert(QStringLiteral("engine_starts"), p.engineStarts);
    // Why the engine refuses this GPU with these precisions; null when it does not.
    o.insert(QStringLiteral("engine_refusal"),
             p.engineRefusal.isEmpty() ? QJsonValue(QJsonValue::Null) : QJsonValue(p.engineRefusal));
    o.insert(QStringLiteral("start_failure"),
             p.engineStarts ? QJsonValue(QJsonValue::Null) : QJsonValue(p.startFailure));
    o.insert(QStringLiteral("largest_batch_that_fits"), qint64(p.largestBatchThatFits));
    o.insert(QStringLiteral("largest_seq_len_that_fits"), qint64(p.largestSeqLenThatFits));
    insertSpeed(o, p.speed, p.engineStarts);
    o.insert(QStringLiteral("decode_sequences_at_once"), qint64(p.speed.batchSize));
    o.insert(QStringLiteral("notes"), QJsonArray::fromStringList(planNotes(p)));
    o.insert(QStringLiteral("units"), unitsConvention());
    return o;
}

} // namespace kvscope
