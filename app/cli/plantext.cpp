// SPDX-License-Identifier: MIT
#include "app/cli/plantext.h"

#include "core/common/error.h"
#include "core/common/scenariofield.h"
#include "core/common/units.h"
#include "core/engine/engine.h"
#include "core/output/plannotes.h"
#include "core/plan/speed.h"
#include "core/scenario/scenario.h"

#include <cmath>

namespace kvscope::cli {

namespace {

QString percentOf(std::int64_t part, std::int64_t whole)
{
    if (whole <= 0)
        return {};
    return QString::number(100.0 * double(part) / double(whole), 'f', 1) + QStringLiteral(" %");
}

/// Lines of text whose parts may come from a file (a model's name, a note naming
/// it): each is escaped (printableText), so no part can move the cursor or start a line.
class TextTable
{
public:
    void heading(const QString &text) { m_text += QLatin1Char('\n') + printableLine(text); }
    void row(const QString &label, const QString &value, const QString &detail = {})
    {
        QString text = QStringLiteral("  ") + label.leftJustified(26) + value.rightJustified(16);
        if (!detail.isEmpty())
            text += QStringLiteral("   ") + detail;
        m_text += printableLine(text);
    }
    void line(const QString &text) { m_text += printableLine(text); }
    QString text() const { return m_text; }

private:
    QString m_text;
};

/// Where a pass's time goes: each term that takes any, with its share of the pass.
void breakdownRows(TextTable &t, const ForwardCost &pass)
{
    for (std::size_t i = 0; i < StepTermCount; ++i) {
        const double seconds = pass.breakdown.seconds[i];
        if (seconds > 0)
            t.row(QStringLiteral("  ") + QLatin1String(stepTermLabel(StepTerm(i))), formatDuration(seconds),
                  QStringLiteral("%1 % of the step").arg(100 * seconds / pass.seconds, 0, 'f', 1));
    }
}

void speedSection(TextTable &t, const MemoryPlan &p)
{
    const SpeedPlan &s = p.speed;
    // Under tensor parallelism the GPUs of a replica step together: its tokens/s are the replica's.
    const QString replica = p.attentionDataParallel ? QStringLiteral("%1 GPUs, attention in %2 groups of %3")
                                                          .arg(p.tensorParallelSize * p.dataParallelSize)
                                                          .arg(p.dataParallelSize)
                                                          .arg(p.tensorParallelSize)
                            : p.dataParallelSize > 1
                                ? QStringLiteral("%1 GPUs: %2 data-parallel ranks of %3, a step each at once")
                                      .arg(p.gpuCount())
                                      .arg(p.dataParallelSize)
                                      .arg(p.tensorParallelSize)
                            : p.pipelineParallelSize > 1 ? QStringLiteral("%1 GPUs: %2 pipeline stages of %3")
                                                               .arg(p.gpuCount())
                                                               .arg(p.pipelineParallelSize)
                                                               .arg(p.tensorParallelSize)
                            : p.tensorParallelSize > 1
                                ? QStringLiteral("%1 GPUs in tensor parallel").arg(p.tensorParallelSize)
                                : QStringLiteral("1 GPU");
    // The efficiencies only where the step model ran (not for a layout it has no measurement of).
    t.heading(s.available ? QStringLiteral("Speed per replica (%1; step model, %2: x %3 of the bandwidth for "
                                           "weights, x %4 of the compute peak)")
                                .arg(replica, gpuGenerationName(s.generation))
                                .arg(s.bandwidthEfficiency, 0, 'g', 3)
                                .arg(s.computeEfficiency, 0, 'g', 3)
                          : QStringLiteral("Speed per replica (%1)").arg(replica));
    const QString none = QStringLiteral("—");
    // A server that does not start decodes nothing, whatever the roofline would say.
    if (!s.available || !p.engineStarts) {
        for (const char *label : {"decode step", "decode tokens/s", "time to first token"})
            t.row(QLatin1String(label), none,
                  p.engineStarts ? QStringLiteral("see notes")
                                 : QStringLiteral("the engine does not start: see the notes"));
        return;
    }
    t.row(QStringLiteral("decode step"), formatDuration(s.decode.seconds),
          QStringLiteral("%1-bound; ideal %2")
              .arg(speedBoundName(s.decode.bound), formatDuration(s.decode.idealSeconds)));
    breakdownRows(t, s.decode);
    t.row(QStringLiteral("decode tokens/s"), formatRate(s.decodeTokensPerSecond),
          QStringLiteral("%1 sequences, %2 each; ideal %3%4")
              .arg(formatCount(s.batchSize), formatRate(s.decodeTokensPerSecondPerSequence),
                   formatRate(s.decodeTokensPerSecondIdeal),
                   (s.ranks > 1 ? QStringLiteral("; %1 ranks of %2 stepping at once")
                                      .arg(s.ranks)
                                      .arg(formatCount(s.rankBatchSize))
                                : QString()) +
                       (s.decode.quantities.pipelineBatches > 1
                            ? QStringLiteral("; %1 batches of %2 in flight, one a stage")
                                  .arg(s.decode.quantities.pipelineBatches)
                                  .arg(formatCount(s.decode.quantities.sequences))
                            : QString())));
    t.row(QStringLiteral("time to first token"), formatDuration(s.prefill.seconds),
          QStringLiteral("%1-token prompt, %2-bound; ideal %3")
              .arg(formatCount(s.promptLen), speedBoundName(s.prefill.bound),
                   formatDuration(s.prefill.idealSeconds)));
    if (s.serving) {
        const ServingCost &v = *s.serving;
        t.row(QStringLiteral("serving inter-token"), formatDuration(v.interTokenSeconds),
              QStringLiteral("%1 %2, %3-token prompts, %4 out; %5 % of steps carry a %6-token prompt chunk")
                  .arg(formatCount(v.concurrency),
                       v.requestRate > 0 ? QStringLiteral("in flight") : QStringLiteral("users"),
                       formatCount(v.promptLen), formatCount(v.outputLen))
                  .arg(v.prefillStepShare * 100, 0, 'f', 1)
                  .arg(formatCount(v.prefillChunkTokens)));
        if (v.requestRate > 0)
            t.row(
                QStringLiteral("serving request rate"), QStringLiteral("%1/s").arg(v.requestRate, 0, 'g', 6),
                v.saturated ? QStringLiteral("saturated: %1 in flight complete %2 requests/s; the rest queue")
                                  .arg(formatCount(v.concurrency))
                                  .arg(v.maxRequestRate, 0, 'f', 2)
                            : QStringLiteral("%1 requests in flight on average (rate x request time)")
                                  .arg(v.requestsInFlight, 0, 'f', 2));
        t.row(QStringLiteral("serving output tokens/s"), formatRate(v.outputTokensPerSecond),
              v.saturated
                  ? QStringLiteral("first tokens wait in a growing queue; a request takes %1 once running")
                        .arg(formatDuration(v.requestSeconds))
                  : QStringLiteral("first token after %1; a request takes %2")
                        .arg(formatDuration(v.timeToFirstTokenSeconds), formatDuration(v.requestSeconds)));
    }
    if (s.speculative) {
        const SpeculativeSpeed &x = *s.speculative;
        t.row(QStringLiteral("speculative decode"), formatRate(x.tokensPerSecond),
              QStringLiteral(
                  "%1x plain decoding: %2 tokens a step (%3 drafts, each accepted with p = %4) in %5 "
                  "(verify %6 + %3 draft passes of %7)")
                  .arg(x.speedup, 0, 'f', 2)
                  .arg(x.tokensPerStep, 0, 'f', 2)
                  .arg(x.draftTokens)
                  .arg(x.acceptanceRate, 0, 'f', 3)
                  .arg(formatDuration(x.stepSeconds), formatDuration(x.verifyPass.seconds),
                       formatDuration(x.draftPass.seconds)));
        t.row(QStringLiteral("speculation pays up to"),
              x.breakEvenBatch < 0 ? QStringLiteral("every batch") : formatCount(x.breakEvenBatch - 1),
              x.breakEvenBatch < 0 ? QStringLiteral("the drafts stay cheaper than the tokens they yield")
                                   : QStringLiteral("sequences; from %1 verifying the drafts costs more than "
                                                    "they yield")
                                         .arg(formatCount(x.breakEvenBatch)));
    }
    if (s.decode.allReduceSeconds > 0)
        t.row(QStringLiteral("all-reduce per step"), formatDuration(s.decode.allReduceSeconds),
              QStringLiteral("included above; %1 GB/s interconnect").arg(s.interconnectGBs));
    if (s.expectedExperts > 0)
        t.row(QStringLiteral("experts read per layer"), QString::number(s.expectedExperts, 'f', 1),
              QStringLiteral("expected, for %1 tokens").arg(formatCount(s.batchSize)));
    t.row(QStringLiteral("compute format"), computeFormatName(s.computeFormat),
          QStringLiteral("%1 TFLOPS dense%2; %3 GB/s memory")
              .arg(s.peakTflops)
              .arg(s.weightOnly ? QStringLiteral(" (weights dequantized: weight-only)") : QString(),
                   formatCount(std::llround(s.bandwidthGBs))));
}

/// The engine's settings in its own flags: vLLM's --gpu-memory-utilization, --max-model-len and
/// --block-size, SGLang's --mem-fraction-static, --context-length and --page-size.
QString settingsLine(const MemoryPlan &p)
{
    const auto setting = [&](ScenarioField field, const QString &value) {
        return optionFlag(field, p.engine) + QLatin1Char(' ') + value;
    };
    const bool sglang = p.engine == Engine::Sglang;
    return QStringList{
        setting(ScenarioField::Dtype, dtypeName(p.dtype)),
        setting(ScenarioField::Quantization,
                quantMethodName(p.quantization.method) +
                    (p.quantizationFromCheckpoint ? QStringLiteral(" (from checkpoint)") : QString())),
        setting(ScenarioField::KvCacheDtype, dtypeName(p.kvCacheDtype)),
        sglang ? setting(ScenarioField::MemFractionStatic, formatUtilization(p.memFractionStaticPpm))
               : setting(ScenarioField::GpuMemoryUtilization, formatUtilization(p.gpuMemoryUtilizationPpm)),
        setting(ScenarioField::MaxModelLen, QString::number(p.maxModelLen)),
        setting(ScenarioField::BlockSize, QString::number(p.blockSize)),
    }
        .join(QStringLiteral("  "));
}

} // namespace

QString printableLine(const QString &text)
{
    return printableText(text) + QLatin1Char('\n');
}

QString formatRate(double perSecond)
{
    return kvscope::formatRate(perSecond, QLocale::c());
}

/// Each pipeline stage as its worker sizes its cache: vLLM gives them all the fewest blocks.
void pipelineSection(TextTable &t, const MemoryPlan &p)
{
    if (p.pipelineStages.isEmpty())
        return;
    t.heading(QStringLiteral("Pipeline stages (%1 GPU%2 each)")
                  .arg(p.tensorParallelSize)
                  .arg(p.tensorParallelSize > 1 ? QStringLiteral("s") : QString()));
    for (const PipelineStagePlan &stage : p.pipelineStages) {
        QStringList holds;
        if (stage.holdsEmbedding)
            holds << QStringLiteral("embedding");
        if (stage.holdsHead)
            holds << QStringLiteral("head and sampler");
        t.row(QStringLiteral("stage %1: layers %2-%3")
                  .arg(stage.index + 1)
                  .arg(stage.firstLayer)
                  .arg(stage.firstLayer + stage.layers - 1),
              QStringLiteral("%1 blocks").arg(formatCount(stage.ownBlocks)),
              QStringLiteral("weights %1, activations %2, overhead %3, KV %4; %5 B/token%6%7")
                  .arg(formatGiB(stage.weightBytes), formatGiB(stage.activationBytes),
                       formatGiB(stage.overheadBytes), formatGiB(stage.availableBytes),
                       formatCount(stage.kvBytesPerToken),
                       holds.isEmpty() ? QString() : QStringLiteral("; ") + holds.join(QStringLiteral(", ")),
                       stage.index == p.bindingStage ? QStringLiteral("; the fewest") : QString()));
    }
}

QString planAsText(const MemoryPlan &p)
{
    TextTable t;
    t.line(QStringLiteral("%1 on %2 x %3").arg(p.modelName, p.gpuName).arg(p.gpuCount()));
    t.line(settingsLine(p));

    t.heading(QStringLiteral("Model"));
    t.row(QStringLiteral("parameters, total"), formatCount(p.params.total));
    if (p.params.active != p.params.total)
        t.row(QStringLiteral("parameters, active/token"), formatCount(p.params.active));
    t.row(QStringLiteral("weights (checkpoint)"), formatGiB(p.weights.checkpointBytes),
          QStringLiteral("%1 bits/weight; %2")
              .arg(QString::number(p.weights.bitsPerWeight, 'f', 3),
                   p.modelFileType.isEmpty() ? describe(p.quantization)
                                             : QStringLiteral("GGUF %1").arg(p.modelFileType)));
    if (p.weights.checkpointMeasured) {
        QStringList types;
        for (auto it = p.weights.measuredBytesByType.begin(); it != p.weights.measuredBytesByType.end(); ++it)
            types << QStringLiteral("%1 %2").arg(it.key(), formatGiB(it.value()));
        t.row(QStringLiteral("measured from checkpoint"), formatGiB(p.weights.measuredCheckpointBytes),
              QStringLiteral("%1 stored elements; %2")
                  .arg(formatCount(p.weights.measuredParams), types.join(QStringLiteral(", "))));
    }
    t.row(QStringLiteral("KV bytes per token"), formatCount(p.kv.bytesPerToken),
          QStringLiteral("%1 B/layer x %2 layers%5, %3 KV head(s)/GPU%4")
              .arg(formatCount(p.kv.bytesPerTokenPerLayer))
              .arg(p.kv.cacheLayers)
              .arg(p.kv.kvHeadsPerGpu)
              .arg(p.kv.headsReplicated ? QStringLiteral(" (replicated)") : QString(),
                   p.kv.draftLayers > 0 ? QStringLiteral(" (%1 the drafter's)").arg(p.kv.draftLayers)
                                        : QString()));
    if (p.kv.workspaceBytesPerToken > 0)
        t.row(QStringLiteral("FP4 dequant workspace per token"), formatCount(p.kv.workspaceBytesPerToken),
              QStringLiteral("an FP8 K and V of one layer, shared by the layers (SGLang's FP4 pool)"));
    if (p.kv.recurrentLayers > 0)
        t.row(QStringLiteral("recurrent state per sequence"), formatBytes(p.kv.stateBytesPerSequence),
              QStringLiteral("%1 layers x %2 B (%3 SSM state)")
                      .arg(p.kv.recurrentLayers)
                      .arg(formatCount(p.kv.stateBytesPerLayer))
                      .arg(dtypeName(p.mambaSsmCacheDtype)) +
                  (p.kv.statePoolSlots > 0 ? QStringLiteral("; in SGLang's state pool")
                                           : QStringLiteral("; block size %1 (requested %2)")
                                                 .arg(p.blockSize)
                                                 .arg(p.requestedBlockSize)));
    if (p.kv.swaPoolRatioPpm > 0)
        t.row(QStringLiteral("window layers"), QString::number(p.kv.slidingLayers + p.kv.chunkedLayers),
              QStringLiteral(
                  "of %1; SGLang keeps them in a pool of their own (each a request's last %2 tokens)")
                  .arg(p.kv.fullLayers + p.kv.slidingLayers + p.kv.chunkedLayers)
                  .arg(formatCount(p.kv.swaWindowTokens)));
    else if (p.kv.slidingLayers > 0)
        t.row(QStringLiteral("sliding-window layers"), QString::number(p.kv.slidingLayers),
              QStringLiteral("of %1; vLLM groups of %2 layers, %3 groups")
                  .arg(p.kv.fullLayers + p.kv.slidingLayers)
                  .arg(p.kv.groupSize)
                  .arg(p.kv.numGroups));

    t.heading(QStringLiteral("Memory per GPU (GiB = 2^30 bytes)"));
    t.row(QStringLiteral("GPU memory"), formatGiB(p.gpuMemoryBytes));
    const bool sglang = p.engine == Engine::Sglang;
    if (sglang)
        t.row(QStringLiteral("budget"), formatGiB(p.budgetBytes),
              QStringLiteral("x %1 (%2) of the %3 free after the CUDA context")
                  .arg(formatUtilization(p.memFractionStaticPpm),
                       sglangFlag(ScenarioField::MemFractionStatic),
                       formatGiB(p.gpuMemoryBytes - p.preloadBytes)));
    else if (p.kvCacheMemoryBytes > 0)
        t.row(QStringLiteral("budget"), formatGiB(p.budgetBytes),
              QStringLiteral("everything before the KV cache + %1 (%2)")
                  .arg(formatGiB(p.kvCacheMemoryBytes), optionFlag(ScenarioField::KvCacheMemoryBytes)));
    else
        t.row(QStringLiteral("budget"), formatGiB(p.budgetBytes),
              QStringLiteral("x %1 (%2)")
                  .arg(formatUtilization(p.gpuMemoryUtilizationPpm),
                       optionFlag(ScenarioField::GpuMemoryUtilization)));
    t.row(QStringLiteral("weights"), formatGiB(p.weights.bytesPerGpu),
          percentOf(p.weights.bytesPerGpu, p.budgetBytes) +
              (p.weights.budgetUsesMeasured ? QStringLiteral(", measured from checkpoint")
               : p.weights.checkpointMeasured
                   ? QStringLiteral(", estimate (measured: %1)").arg(formatGiB(p.weights.measuredBytesPerGpu))
                   : QString()));
    if (p.weights.draftBytes > 0 && !sglang)
        t.row(QStringLiteral("  of which the drafter"), formatGiB(p.weights.draftBytes),
              QStringLiteral("%1 (%2): %3")
                  .arg(speculativeMethodName(p.speculativeMethod),
                       optionFlag(ScenarioField::SpeculativeConfig),
                       p.speculativeMethod == SpeculativeMethod::DraftModel
                           ? QStringLiteral("a whole model, its embedding and head its own")
                           : QStringLiteral("its own tensors; the embedding is the target's")));
    if (sglang) {
        // SGLang profiles nothing: activations and CUDA graphs live in what the static share leaves.
        t.row(QStringLiteral("in use before the weights"), formatGiB(p.preloadBytes),
              QStringLiteral("CUDA context%1")
                  .arg(p.tensorParallelSize > 1 ? QStringLiteral(", NCCL") : QString()));
        if (p.weights.draftBytes > 0 || p.kv.draftPoolBytes > 0) {
            t.row(QStringLiteral("drafter"), formatGiB(p.weights.draftBytes),
                  QStringLiteral("%1 (%2), loaded after the pool, outside the budget")
                      .arg(speculativeMethodName(p.speculativeMethod),
                           optionFlag(ScenarioField::SpeculativeConfig)));
            t.row(QStringLiteral("drafter's KV pool"), formatGiB(p.kv.draftPoolBytes),
                  QStringLiteral("%1 tokens x %2 layer(s), outside the budget")
                      .arg(formatCount(p.kv.capacityTokens))
                      .arg(p.kv.draftPoolLayers));
        }
        t.row(QStringLiteral("left for activations"), formatGiB(p.reserveLeftBytes),
              p.weights.draftLoadCopyBytes > 0
                  ? QStringLiteral("and CUDA graphs, outside the budget (%1 of it held while the drafter "
                                   "loads)")
                        .arg(formatGiB(p.weights.draftLoadCopyBytes))
                  : QStringLiteral("and CUDA graphs, outside the budget"));
    } else {
        t.row(QStringLiteral("activations (peak)"), formatGiB(p.activationBytes),
              percentOf(p.activationBytes, p.budgetBytes));
        t.row(QStringLiteral("runtime overhead"), formatGiB(p.overheadBytes),
              percentOf(p.overheadBytes, p.budgetBytes));
    }
    if (p.cudaGraphBytes > 0)
        t.row(QStringLiteral("CUDA graphs (estimate)"), formatGiB(p.cudaGraphBytes),
              percentOf(p.cudaGraphBytes, p.budgetBytes));
    t.row(QStringLiteral("KV cache"), formatGiB(p.kv.cacheBytes),
          QStringLiteral("%1 x %2 tokens%4, %3")
              .arg(p.rankBatchSize)
              .arg(p.seqLen)
              .arg(percentOf(p.kv.cacheBytes, p.budgetBytes),
                   p.dataParallelSize > 1 ? QStringLiteral(" (this rank's share of %1)").arg(p.batchSize)
                                          : QString()));
    t.row(QStringLiteral("headroom"), formatGiB(p.headroomBytes),
          p.fits ? QStringLiteral("fits") : QStringLiteral("DOES NOT FIT"));
    if (!p.fits)
        t.row(QStringLiteral("largest that fits"), QString(),
              QStringLiteral("batch %1 at %2 tokens, or %3 tokens at batch %4")
                  .arg(formatCount(p.largestBatchThatFits), formatCount(p.seqLen),
                       p.largestSeqLenThatFits < 0 ? QStringLiteral("any number of")
                                                   : formatCount(p.largestSeqLenThatFits),
                       formatCount(p.batchSize)));

    t.heading(sglang ? QStringLiteral("SGLang capacity")
                     : QStringLiteral("vLLM %1 capacity").arg(p.engineVersion));
    if (!p.engineStarts) {
        // A server that does not start holds nothing: no capacity, as no speed (the notes say why).
        t.row(QStringLiteral("KV capacity"), QStringLiteral("—"),
              QStringLiteral("the engine does not start: see the notes"));
    } else if (sglang) {
        t.row(QStringLiteral("KV pool memory"), formatGiB(p.kv.availableBytes));
        t.row(QStringLiteral("max_total_num_tokens"), formatCount(p.kv.capacityTokens),
              QStringLiteral("max_running_requests %1").arg(formatCount(p.maxNumSeqs)));
        if (p.kv.statePoolSlots > 0)
            t.row(QStringLiteral("state pool"), formatGiB(p.kv.statePoolBytes),
                  QStringLiteral("%1 requests' recurrent states of %2 B, sized before the KV pool")
                      .arg(formatCount(p.kv.statePoolSlots), formatCount(p.kv.stateBytesPerSequence)));
        if (p.kv.swaPoolRatioPpm > 0)
            t.row(QStringLiteral("swa_max_total_num_tokens"), formatCount(p.kv.swaPoolTokens),
                  QStringLiteral("x %1 (%2) of the full pool's, for the window layers")
                      .arg(formatUtilization(p.kv.swaPoolRatioPpm),
                           sglangFlag(ScenarioField::SwaFullTokensRatio)));
    } else {
        t.row(QStringLiteral("available KV cache memory"), formatGiB(p.kv.availableBytes));
        t.row(QStringLiteral("GPU KV cache size"),
              formatCount(p.kv.capacityTokens) + QStringLiteral(" tokens"),
              QStringLiteral("%1 blocks of %2 tokens").arg(formatCount(p.kv.numGpuBlocks)).arg(p.blockSize));
        // vLLM's figure shares the blocks evenly among the layer groups; a recurrent group takes one a
        // sequence.
        if (p.kv.numGroups > 1)
            t.row(QStringLiteral("attention tokens held"),
                  formatCount(p.kv.attentionTokensHeld) + QStringLiteral(" tokens"),
                  QStringLiteral("%1 sequences x %2 tokens; the size above is vLLM's logged figure")
                      .arg(formatCount(p.largestBatchThatFits), formatCount(p.seqLen)));
    }
    if (p.engineStarts)
        t.row(QStringLiteral("maximum concurrency"),
              QString::number(p.kv.maxConcurrency, 'f', 2) + QLatin1Char('x'),
              QStringLiteral("for %1 tokens per request").arg(formatCount(p.maxModelLen)));
    if (p.engineStarts && p.dataParallelSize > 1) {
        t.row(QStringLiteral("deployment KV cache"),
              formatCount(p.deploymentCapacityTokens) + QStringLiteral(" tokens"),
              QStringLiteral("%1 data-parallel ranks, each its own cache").arg(p.dataParallelSize));
        t.row(QStringLiteral("deployment concurrency"),
              QString::number(p.deploymentMaxConcurrency, 'f', 2) + QLatin1Char('x'),
              QStringLiteral("for %1 tokens per request").arg(formatCount(p.maxModelLen)));
    }

    pipelineSection(t, p);
    speedSection(t, p);

    const QStringList notes = planNotes(p);
    if (!notes.isEmpty()) {
        t.heading(QStringLiteral("Notes"));
        for (const QString &note : notes)
            t.line(QStringLiteral("  - ") + note);
    }
    return t.text();
}

} // namespace kvscope::cli
