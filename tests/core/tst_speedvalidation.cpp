// SPDX-License-Identifier: MIT
// The step model's constants against public serving-speed measurements
// (tests/data/serving-speed-measurements.json, each row with its source):
// refitted here on the calibration sources, they must be the constants kvscope
// plans with (core/plan/speedconstants.cpp); the held-out sources are predicted
// within the stated bounds; every miss beyond ±25 % is explained in the data
// file; and docs/speed-validation.md is exactly what this code computes.
#include "core/common/error.h"
#include "core/engine/engine.h"
#include "core/library/library.h"
#include "core/plan/speed.h"
#include "core/precision/dtypes.h"
#include "tests/core/allreducetimings.h"
#include "tests/core/generateddoc.h"
#include "tests/core/median.h"
#include "tests/core/moekerneltimings.h"
#include "tests/core/speedobservations.h"
#include "tests/filewriters.h"
#include "tests/sourcetree.h"

#include <algorithm>
#include <cmath>
#include <iterator>

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLocale>
#include <QMap>
#include <QTemporaryDir>
#include <QTest>

using namespace kvscope;
using namespace kvscope::validation;

namespace {

double relativeError(const Observation &o, const SpeedConstants &c)
{
    return (predictedSeconds(o, c) - o.seconds) / o.seconds;
}

bool close(double a, double b)
{
    return std::abs(a - b) <= 1e-9 + 5e-3 * std::abs(b);
}

bool close(const std::optional<double> &a, const std::optional<double> &b)
{
    return a.has_value() == b.has_value() && (!a || close(*a, *b));
}

/// The fitted constants as C++, to paste into core/plan/speedconstants.cpp.
QString asCode(const SpeedConstants &c)
{
    QString out;
    for (std::size_t g = 0; g < GpuGenerationCount; ++g)
        if (c.weightBandwidthEfficiency[g])
            out += QStringLiteral("    efficiency[std::size_t(GpuGeneration::%1)] = %2;\n")
                       .arg(gpuGenerationName(GpuGeneration(g)))
                       .arg(*c.weightBandwidthEfficiency[g], 0, 'g', 4);
    for (std::size_t k = 0; k < WeightKernelCount; ++k)
        if (c.dequantizationCost[k])
            out += QStringLiteral("    cost[%1 (%2)] = %3;\n")
                       .arg(k)
                       .arg(weightKernelName(WeightKernel(k)))
                       .arg(*c.dequantizationCost[k], 0, 'g', 4);
    out +=
        QStringLiteral("    kv %1, fp8 kv %2, compute %3, all-reduce %4, moe %5, step %6 %7, sequence %8 %9, "
                       "request %10 %11, routed token %12\n")
            .arg(c.kvBandwidthEfficiency, 0, 'g', 4)
            .arg(c.fp8KvCost, 0, 'g', 4)
            .arg(c.computeEfficiency, 0, 'g', 4)
            .arg(c.allReduceLatencySeconds, 0, 'g', 4)
            .arg(c.moeLayerSeconds, 0, 'g', 4)
            .arg(c.stepSeconds[0], 0, 'g', 4)
            .arg(c.stepSeconds[1], 0, 'g', 4)
            .arg(c.sequenceSeconds[0], 0, 'g', 4)
            .arg(c.sequenceSeconds[1], 0, 'g', 4)
            .arg(c.requestSeconds[0], 0, 'g', 4)
            .arg(c.requestSeconds[1], 0, 'g', 4)
            .arg(c.routedTokenSeconds, 0, 'g', 4);
    return out;
}

bool sameConstants(const SpeedConstants &a, const SpeedConstants &b)
{
    for (std::size_t g = 0; g < GpuGenerationCount; ++g)
        if (!close(a.weightBandwidthEfficiency[g], b.weightBandwidthEfficiency[g]))
            return false;
    for (std::size_t k = 0; k < WeightKernelCount; ++k)
        if (!close(a.dequantizationCost[k], b.dequantizationCost[k]))
            return false;
    for (std::size_t e = 0; e < EngineCount; ++e)
        if (!close(a.stepSeconds[e], b.stepSeconds[e]) ||
            !close(a.sequenceSeconds[e], b.sequenceSeconds[e]) ||
            !close(a.requestSeconds[e], b.requestSeconds[e]))
            return false;
    return close(a.kvBandwidthEfficiency, b.kvBandwidthEfficiency) && close(a.fp8KvCost, b.fp8KvCost) &&
           close(a.computeEfficiency, b.computeEfficiency) &&
           close(a.allReduceLatencySeconds, b.allReduceLatencySeconds) &&
           close(a.moeLayerSeconds, b.moeLayerSeconds) && close(a.routedTokenSeconds, b.routedTokenSeconds);
}

struct Summary
{
    int rows = 0;
    int within25 = 0;
    double medianError = 0;
};

Summary summarise(const QList<Observation> &observations, Split split, const SpeedConstants &c)
{
    Summary s;
    QList<double> errors;
    for (const Observation &o : observations) {
        if (o.split != split)
            continue;
        const double e = std::abs(relativeError(o, c));
        errors.push_back(e);
        s.within25 += e <= 0.25 ? 1 : 0;
    }
    s.rows = int(errors.size());
    s.medianError = median(errors);
    return s;
}

/// Held-out MoE decode steps and runs at batch 8 or less, where the roofline was 2-6x too fast.
struct SmallBatchMoe
{
    int rows = 0;
    int within30 = 0;
};

SmallBatchMoe smallBatchMoe(const QList<Observation> &observations, const SpeedConstants &c)
{
    SmallBatchMoe moe;
    for (const Observation &o : observations)
        if (o.split == Split::HeldOut && o.tags.contains(QLatin1String("moe")) && o.sequences <= 8 &&
            !measuresPrefillOnly(o.measured)) {
            ++moe.rows;
            moe.within30 += std::abs(relativeError(o, c)) <= 0.30 ? 1 : 0;
        }
    return moe;
}

QString milliseconds(double seconds)
{
    return QString::number(seconds * 1000, 'f', seconds < 1 ? 2 : 0);
}

QString signedPercent(double ratio)
{
    return QString::asprintf("%+.1f %%", ratio * 100);
}

QString precisionOf(const Observation &o)
{
    const SpeedModel model(o.scenario, o.plan);
    SpeedPlan described;
    model.describe(described);
    QString text = weightKernelName(described.weightKernel);
    if (isFp8(o.plan.kvCacheDtype))
        text += QStringLiteral(", fp8 KV");
    return text;
}

QString measuredName(Measured m)
{
    switch (m) {
    case Measured::DecodeStep:
        return QStringLiteral("step");
    case Measured::ServingStep:
        return QStringLiteral("serving step");
    case Measured::EndToEnd:
        return QStringLiteral("run");
    case Measured::FirstToken:
        return QStringLiteral("TTFT");
    case Measured::FirstTokenUnderLoad:
        return QStringLiteral("TTFT at a request rate");
    case Measured::PrefillPass:
        return QStringLiteral("prefill pass");
    case Measured::ServingRequest:
        return QStringLiteral("request at a concurrency");
    }
    return {};
}

QString observationTable(const QList<Observation> &observations, Split split, const SpeedConstants &c)
{
    QString out = QStringLiteral("| Observation | What | Engine | GPU | TP | Batch | Weights | Measured ms | "
                                 "kvscope ms | Error |\n|---|---|---|---|---|---|---|---|---|---|\n");
    for (const Observation &o : observations) {
        if (o.split != split)
            continue;
        const double predicted = predictedSeconds(o, c);
        out += QStringLiteral("| [%1](%2) | %3 | %4 | %5 | %6 | %7 | %8 | %9 | %10 | %11 |\n")
                   .arg(markdownCell(o.id), o.source, measuredName(o.measured), engineName(o.scenario.engine),
                        o.scenario.gpu.id, QString::number(o.plan.tensorParallelSize),
                        QString::number(o.sequences), markdownCell(precisionOf(o)), milliseconds(o.seconds))
                   .arg(milliseconds(predicted), signedPercent((predicted - o.seconds) / o.seconds));
    }
    return out;
}

QString missTable(const QList<Observation> &observations, const SpeedConstants &c)
{
    QString out = QStringLiteral("| Observation | Error | Why |\n|---|---|---|\n");
    for (const Observation &o : observations) {
        if (o.split == Split::Outside)
            continue;
        const double error = relativeError(o, c);
        if (std::abs(error) > 0.25)
            out += QStringLiteral("| %1 | %2 | %3 |\n")
                       .arg(markdownCell(o.id), signedPercent(error), markdownCell(o.explainedMiss));
    }
    return out;
}

QString constantsTable(const SpeedConstants &c)
{
    QString out = QStringLiteral("| Constant | Value |\n|---|---|\n");
    const auto row = [&](const QString &name, const QString &value) {
        out += QStringLiteral("| %1 | %2 |\n").arg(name, value);
    };
    for (std::size_t g = 0; g < GpuGenerationCount; ++g)
        row(QStringLiteral("weight-read bandwidth efficiency, %1").arg(gpuGenerationName(GpuGeneration(g))),
            c.weightBandwidthEfficiency[g]
                ? QString::number(*c.weightBandwidthEfficiency[g], 'f', 3)
                : QStringLiteral("no calibration row: the median, %1").arg(standInEfficiency(c), 0, 'f', 3));
    for (std::size_t k = 1; k < WeightKernelCount; ++k)
        row(QStringLiteral("dequantization cost, %1 kernels").arg(weightKernelName(WeightKernel(k))),
            !c.dequantizationCost[k] ? QStringLiteral("no calibration row: priced as %1")
                                           .arg(weightKernelName(standInKernel(WeightKernel(k))))
            : dequantizesOnVectorUnits(WeightKernel(k))
                ? QStringLiteral("%1 vector operations per weight byte")
                      .arg(*c.dequantizationCost[k], 0, 'f', 3)
                : QStringLiteral("%1 s per second of reading").arg(*c.dequantizationCost[k], 0, 'f', 3));
    row(QStringLiteral("KV-read bandwidth efficiency"), QString::number(c.kvBandwidthEfficiency, 'f', 3));
    row(QStringLiteral("FP8 KV dequantization cost"), QString::number(c.fp8KvCost, 'f', 3));
    row(QStringLiteral("compute efficiency"), QString::number(c.computeEfficiency, 'f', 3));
    row(QStringLiteral("all-reduce latency (vLLM's kernel timings, not fitted)"),
        QStringLiteral("%1 µs").arg(c.allReduceLatencySeconds * 1e6, 0, 'f', 1));
    row(QStringLiteral("MoE layer overhead (the engines' kernel timings, not fitted)"),
        QStringLiteral("%1 µs").arg(c.moeLayerSeconds * 1e6, 0, 'f', 1));
    row(QStringLiteral("MoE cost per routed token and layer"),
        QStringLiteral("%1 ns").arg(c.routedTokenSeconds * 1e9, 0, 'f', 1));
    for (std::size_t e = 0; e < EngineCount; ++e) {
        const QString engine = engineName(Engine(e));
        row(QStringLiteral("%1 per step").arg(engine),
            QStringLiteral("%1 ms").arg(c.stepSeconds[e] * 1e3, 0, 'f', 3));
        row(QStringLiteral("%1 per sequence").arg(engine),
            QStringLiteral("%1 µs").arg(c.sequenceSeconds[e] * 1e6, 0, 'f', 1));
        row(QStringLiteral("%1 per new request").arg(engine),
            QStringLiteral("%1 ms").arg(c.requestSeconds[e] * 1e3, 0, 'f', 1));
    }
    return out;
}

/// Two rows of a source that differ in one setting (the data file's "pair"):
/// the measured and predicted ratio of the first row's time to the other's.
struct PairRatio
{
    QString key;
    const Observation *first = nullptr;
    const Observation *other = nullptr;
    double measured = 0;
    double predicted = 0;
    double error() const { return (predicted - measured) / measured; }
    bool heldOut() const { return first->split == Split::HeldOut && other->split == Split::HeldOut; }
};

/// The settings whose speed-up the issue of trust is about: an FP8 KV cache
/// against a 16-bit one, 4-bit weight-only weights against 16-bit ones (same TP).
enum class PairKind
{
    Fp8Kv,
    Int4Weights,
    Other,
};

PairKind pairKind(const PairRatio &p)
{
    const MemoryPlan &a = p.first->plan, &b = p.other->plan;
    if (isFp8(a.kvCacheDtype) != isFp8(b.kvCacheDtype))
        return PairKind::Fp8Kv;
    SpeedPlan first, other;
    SpeedModel(p.first->scenario, a).describe(first);
    SpeedModel(p.other->scenario, b).describe(other);
    const bool fourBitOther =
        other.weightKernel == WeightKernel::FourBitWeightOnly || other.weightKernel == WeightKernel::Machete;
    if (first.weightKernel == WeightKernel::SixteenBit && fourBitOther &&
        a.tensorParallelSize == b.tensorParallelSize)
        return PairKind::Int4Weights;
    return PairKind::Other;
}

QList<PairRatio> pairRatios(const QList<Observation> &observations, const SpeedConstants &c)
{
    QMap<QString, QList<const Observation *>> pairs;
    for (const Observation &o : observations)
        if (!o.pair.isEmpty() && o.split != Split::Outside && !measuresPrefillOnly(o.measured))
            pairs[o.pair] << &o;
    QList<PairRatio> out;
    for (auto it = pairs.cbegin(); it != pairs.cend(); ++it) {
        const QList<const Observation *> &rows = it.value();
        for (qsizetype i = 1; i < rows.size(); ++i)
            out.append({it.key(), rows[0], rows[i], rows[0]->seconds / rows[i]->seconds,
                        predictedSeconds(*rows[0], c) / predictedSeconds(*rows[i], c)});
    }
    return out;
}

/// The target for speed-up ratios.
constexpr double PairTolerance = 0.15;

QString pairTable(const QList<PairRatio> &pairs)
{
    QString out = QStringLiteral(
        "| Pair | Set | Rows | Measured ratio | kvscope ratio | Error |\n|---|---|---|---|---|---|\n");
    for (const PairRatio &p : pairs)
        out += QStringLiteral("| %1 | %2 | %3 / %4 | %5 | %6 | %7 |\n")
                   .arg(markdownCell(p.key),
                        p.heldOut() ? QStringLiteral("held out") : QStringLiteral("calibration"),
                        markdownCell(p.first->id), markdownCell(p.other->id))
                   .arg(p.measured, 0, 'f', 3)
                   .arg(p.predicted, 0, 'f', 3)
                   .arg(signedPercent(p.error()));
    return out;
}

/// "FP8 KV cache: 8 of 8 calibration pairs and none held out within ±15 %; ...".
QString pairSummary(const QList<PairRatio> &pairs)
{
    QStringList parts;
    for (const auto &[kind, name] :
         {std::pair{PairKind::Fp8Kv, "FP8 KV cache against 16-bit"},
          std::pair{PairKind::Int4Weights, "4-bit weight-only against 16-bit weights"}}) {
        int counts[2] = {}, within[2] = {};
        for (const PairRatio &p : pairs)
            if (pairKind(p) == kind) {
                ++counts[p.heldOut()];
                within[p.heldOut()] += std::abs(p.error()) <= PairTolerance ? 1 : 0;
            }
        parts << QStringLiteral("%1: %2 of %3 calibration and %4 of %5 held-out pairs")
                     .arg(QLatin1String(name))
                     .arg(within[0])
                     .arg(counts[0])
                     .arg(within[1])
                     .arg(counts[1]);
    }
    return QStringLiteral("Speed-up ratios within ±15 % of measured — %1.\n")
        .arg(parts.join(QStringLiteral("; ")));
}

/// The kernel timings' mean latency beyond their bytes.
double meanLatencyBeyondTransfer(const QList<AllReduceTiming> &timings, const GpuSpec &links)
{
    double sum = 0;
    for (const AllReduceTiming &t : timings)
        sum += latencyBeyondTransfer(t, links);
    return timings.isEmpty() ? 0 : sum / double(timings.size());
}

QString microseconds(double seconds)
{
    return QString::number(seconds * 1e6, 'f', 2);
}

/// The all-reduce latency kvscope prices, from vLLM's own timings of the kernel.
QString allReduceSection(const QList<AllReduceTiming> &timings, const GpuSpec &links,
                         const SpeedConstants &priced)
{
    QString out =
        QStringLiteral(
            "\n## All-reduce latency\n\n"
            "The latency of one tensor-parallel all-reduce is not fitted on the observations: it is "
            "vLLM's own timings of the all-reduce it runs for decode-sized messages over NVLink, its "
            "custom all-reduce (`tests/data/allreduce-latency-measurements.json`: vLLM's "
            "`benchmarks/kernels/benchmark_device_communicators.py`, ten all-reduces replayed in one "
            "CUDA graph, and SGLang's unit test of the same kernel without CUDA graphs), each less "
            "kvscope's transfer time for its message on an %1's links (%2 GB/s over both directions; "
            "`allReduceTransferSeconds`, core/plan/speed.h). The tables that do not name their GPU "
            "are taken on the same links.\n\n"
            "| Timing | GPU | GPUs | Message | Measured µs | Transfer µs | Latency µs |\n"
            "|---|---|---|---|---|---|---|\n")
            .arg(links.name)
            .arg(links.interconnectGBs.value_or(0), 0, 'f', 0);
    for (const AllReduceTiming &t : timings) {
        const double latency = latencyBeyondTransfer(t, links);
        out += QStringLiteral("| [%1](%2) | %3 | %4 | %5 B | %6 | %7 | %8 |\n")
                   .arg(t.id, t.source, t.gpu.isEmpty() ? QStringLiteral("not stated") : t.gpu)
                   .arg(t.gpus)
                   .arg(QLocale(QLocale::English).toString(qint64(t.messageBytes)))
                   .arg(microseconds(t.seconds), microseconds(t.seconds - latency), microseconds(latency));
    }
    out +=
        QStringLiteral("\nTheir mean, %1 µs, is the latency kvscope prices. What the timings do not cover: "
                       "B200s, A100s and GPUs without NVLink (priced with the same latency), and releases "
                       "after September 2025, when vLLM's pull requests measured them.\n")
            .arg(microseconds(priced.allReduceLatencySeconds));
    return out;
}

/// The cost per MoE layer kvscope prices, from the engines' timings of their fused MoE kernel.
QString moeLayerSection(const QList<MoeKernelTiming> &timings, const SpeedConstants &priced)
{
    QString out = QStringLiteral(
        "\n## MoE layer cost\n\n"
        "The cost each MoE layer adds beyond its expert reads is not fitted on the observations either: "
        "it is the engines' own timings of their fused MoE kernel "
        "(`tests/data/moe-kernel-timings.json`: vLLM's `benchmarks/kernels/benchmark_moe.py` and SGLang's "
        "copy of it, ten calls of the layer replayed in one CUDA graph: routing, sorting the routed "
        "copies into blocks per expert, both grouped GEMMs, the activation and the weighted sum). From "
        "each timing kvscope takes what it prices itself: the bytes of the experts the tokens are expected "
        "to touch, read at the GPU generation's fitted efficiency with the kernel's dequantization cost, "
        "and the routed copies (tokens × top-k) at the fitted cost per routed token. What is left of the "
        "one-token timings, a decode-sized layer whose reads are short, is the layer's own cost. The "
        "rows at more tokens check the whole: reads, the layer's cost and the copies against the "
        "timing.\n\n"
        "| Timing | GPU | Weights | Experts (top-k) | Hidden × intermediate | Tokens | Measured µs | "
        "Reads µs | Copies µs | Left µs | kvscope µs | Error |\n"
        "|---|---|---|---|---|---|---|---|---|---|---|---|\n");
    QList<double> errors;
    int within25 = 0;
    for (const MoeKernelTiming &t : timings) {
        const double reads = expertReadSeconds(t, priced);
        const double copies = double(t.tokens) * double(t.topK) * priced.routedTokenSeconds;
        const double predicted = reads + priced.moeLayerSeconds + copies;
        const double error = predicted / t.seconds - 1;
        errors.push_back(std::abs(error));
        within25 += std::abs(error) <= 0.25 ? 1 : 0;
        out +=
            QStringLiteral("| [%1](%2) | %3 | %4 | %5 (%6) | %7 × %8 | %9 | %10 | %11 | %12 | %13 | %14 "
                           "| %15 |\n")
                .arg(t.id, t.source, t.gpu.id, weightKernelName(t.kernel))
                .arg(t.experts)
                .arg(t.topK)
                .arg(t.hiddenSize)
                .arg(t.intermediatePerGpu)
                .arg(t.tokens)
                .arg(microseconds(t.seconds), microseconds(reads), microseconds(copies),
                     microseconds(t.seconds - reads - copies), microseconds(predicted), signedPercent(error));
    }
    out +=
        QStringLiteral(
            "\nThe median of what the one-token timings leave, %1 µs, is the cost per MoE layer kvscope "
            "prices, on every MoE kernel: the timings of FlashInfer's TensorRT-LLM MoE that name their "
            "shape and GPU ran on a B300, which kvscope has no preset for, and leave 22 to 38 µs beyond "
            "their reads at one token, the same range (the data file lists them with the timings left "
            "out and why). Over all %2 timings kvscope's layer is within ±25 % on %3, median |error| "
            "%4 %. Its misses: the A100's layer at 16 to 64 tokens (kvscope up to a third long: the kernel "
            "streams the experts at a larger share of the A100's bandwidth than Ampere's efficiency, "
            "fitted on whole serving steps, gives it), and SGLang's DeepSeek-R1 layer on a B200 at 1 to 4 "
            "tokens (a third short: 43 to 51 µs beyond the reads, the 128 × 128 block-FP8 Triton kernel "
            "untuned there, which is why that pull request moved the B200 to FlashInfer's TensorRT-LLM "
            "MoE).\n")
            .arg(microseconds(priced.moeLayerSeconds))
            .arg(timings.size())
            .arg(within25)
            .arg(100 * median(errors), 0, 'f', 1);
    return out;
}

/// What a routed copy costs on each MoE kernel family, from the kernels' own timings at large token counts.
QString routedCopySection(const QList<RoutedCopyTiming> &timings, const SpeedConstants &priced)
{
    QString out = QStringLiteral(
        "\n### Routed copies\n\n"
        "The cost per routed copy is fitted on the observations, whose MoE runs are the fused MoE of vLLM "
        "and SGLang (Triton), which sorts the copies into blocks per expert and gathers and sums them in "
        "kernels of their own. Two timings of one layer at large token counts, past its reads, give what "
        "one more copy adds on each kernel family (`routed_copy_timings` in the same file; the FLOPs are "
        "the two grouped GEMMs', 6 × hidden × intermediate a copy):\n\n"
        "| Timing | MoE kernel | GPU | Copies a token on the GPU | MFLOP a copy | Tokens | Measured µs | "
        "ns a copy more |\n"
        "|---|---|---|---|---|---|---|---|\n");
    QList<RoutedCopyTiming> flashInfer;
    for (const RoutedCopyTiming &t : timings) {
        if (t.kernel == MoeKernel::TrtllmFp4)
            flashInfer.push_back(t);
        out += QStringLiteral("| [%1](%2) | %3 | %4 | %5 | %6 | %7 → %8 | %9 → %10 | %11 |\n")
                   .arg(t.id, t.source, moeKernelName(t.kernel), t.gpu)
                   .arg(t.copiesPerToken, 0, 'g', 3)
                   .arg(t.flopsPerCopy() / 1e6, 0, 'f', 1)
                   .arg(t.fewerTokens)
                   .arg(t.moreTokens)
                   .arg(microseconds(t.fewerSeconds), microseconds(t.moreSeconds))
                   .arg(t.secondsPerCopy() * 1e9, 0, 'f', 2);
    }
    const CopyCostLine line = copyCostLine(flashInfer);
    out +=
        QStringLiteral(
            "\nFlashInfer's TensorRT-LLM FP4 MoE adds per copy what its FLOPs take at one rate: through its "
            "two shapes, four times apart in FLOPs a copy, the time a copy adds is %1 ns plus its FLOPs at "
            "%2 TFLOPS. Nothing is left per copy beyond its FLOPs, so kvscope prices this kernel's copies "
            "(MXFP4 experts on compute capability 10.x, vLLM's and SGLang's default there) by their FLOPs "
            "alone, in the compute term, and the fitted %3 ns a copy only on the fused MoE that sorts "
            "them, whose own timing adds %4 ns a copy at 2,048 to 4,096 tokens, and on the kernels priced "
            "as it (FlashInfer's FP8 block-scale MoE among them: the calibration's DeepSeek-R1 prompt "
            "passes, which fit the cost, run it, and no large-token timing of it is in the data). Both "
            "FlashInfer timings "
            "ran on Blackwell Ultra parts (B300, GB300), which kvscope has no preset for: their FP4 rate "
            "is not the B200's, but a cost per copy that does not grow with the FLOPs would show on any "
            "of them.\n")
            .arg(line.fixedSeconds * 1e9, 0, 'f', 2)
            .arg(line.secondsPerFlop > 0 ? 1e-12 / line.secondsPerFlop : 0.0, 0, 'f', 0)
            .arg(priced.routedTokenSeconds * 1e9, 0, 'f', 1)
            .arg(
                [&] {
                    for (const RoutedCopyTiming &t : timings)
                        if (t.kernel == MoeKernel::FusedMoe)
                            return t.secondsPerCopy() * 1e9;
                    return 0.0;
                }(),
                0, 'f', 1);
    return out;
}

/// Both kernel-timed constants, and what the observations say were they fitted with the rest
/// instead (`free`: that fit).
QString kernelTimingSections(const QList<AllReduceTiming> &allReduces, const GpuSpec &links,
                             const QList<MoeKernelTiming> &moeLayers, const QList<RoutedCopyTiming> &copies,
                             const QList<Observation> &observations, const SpeedConstants &priced,
                             const SpeedConstants &free)
{
    const Summary calibration = summarise(observations, Split::Calibration, free);
    const Summary heldOut = summarise(observations, Split::HeldOut, free);
    const SmallBatchMoe moe = smallBatchMoe(observations, free);
    return allReduceSection(allReduces, links, priced) + moeLayerSection(moeLayers, priced) +
           routedCopySection(copies, priced) +
           QStringLiteral(
               "\n### Fitted instead\n\n"
               "Fitted with the other constants instead, as kvscope did before, the all-reduce latency "
               "comes out %1 µs and the MoE layer cost %2 µs: the end-to-end calibration rows hardly tell "
               "them from the other costs their tensor-parallel and MoE runs carry, and take those up "
               "with them. That fit gives the calibration rows %3 of %4 within ±25 % (median %5 %), the "
               "held-out ones %6 of %7 (median %8 %) and the held-out MoE rows at batch 8 or less %9 of "
               "%10 within ±30 %, with Hopper's weight-read efficiency at %11 and vLLM's and SGLang's "
               "costs per step at %12 and %13 ms.\n")
               .arg(microseconds(free.allReduceLatencySeconds), microseconds(free.moeLayerSeconds))
               .arg(calibration.within25)
               .arg(calibration.rows)
               .arg(100 * calibration.medianError, 0, 'f', 1)
               .arg(heldOut.within25)
               .arg(heldOut.rows)
               .arg(100 * heldOut.medianError, 0, 'f', 1)
               .arg(moe.within30)
               .arg(moe.rows)
               .arg(free.weightBandwidthEfficiency[std::size_t(GpuGeneration::Hopper)].value_or(0), 0, 'f', 3)
               .arg(free.stepSeconds[std::size_t(Engine::Vllm)] * 1e3, 0, 'f', 3)
               .arg(free.stepSeconds[std::size_t(Engine::Sglang)] * 1e3, 0, 'f', 3);
}

QString speedValidationTables(const QList<Observation> &observations, const SpeedConstants &c,
                              const QString &kernelTimingSections)
{
    const Summary calibration = summarise(observations, Split::Calibration, c);
    const Summary heldOut = summarise(observations, Split::HeldOut, c);
    const auto line = [](const QString &name, const Summary &s) {
        return QStringLiteral("| %1 | %2 | %3 (%4 %) | %5 % |\n")
            .arg(name)
            .arg(s.rows)
            .arg(s.within25)
            .arg(100.0 * s.within25 / std::max(1, s.rows), 0, 'f', 0)
            .arg(100 * s.medianError, 0, 'f', 1);
    };
    QString out =
        QStringLiteral("\n## Summary\n\n| Set | Observations | Within ±25 % | Median \\|error\\| |\n"
                       "|---|---|---|---|\n");
    out += line(QStringLiteral("Calibration"), calibration) + line(QStringLiteral("Held out"), heldOut);
    const SmallBatchMoe moe = smallBatchMoe(observations, c);
    out += QStringLiteral(
               "\nHeld-out MoE observations at batch 8 or less (decode steps and runs): %1 of %2 within "
               "±30 %.\n")
               .arg(moe.within30)
               .arg(moe.rows);
    const QList<PairRatio> pairs = pairRatios(observations, c);
    out += QStringLiteral("\n") + pairSummary(pairs);
    out += QStringLiteral("\n## Constants\n\nFitted on the calibration observations only.\n\n") +
           constantsTable(c);
    out += kernelTimingSections;
    out += QStringLiteral(
               "\n## Misses and why\n\nEvery calibration or held-out observation outside ±25 %.\n\n") +
           missTable(observations, c);
    out += QStringLiteral("\n## Pairs\n\nRows of one source that differ in one setting: the speed-up kvscope "
                          "predicts against the measured one.\n\n") +
           pairTable(pairs);
    out += QStringLiteral("\n## Calibration observations\n\n") +
           observationTable(observations, Split::Calibration, c);
    out +=
        QStringLiteral("\n## Held-out observations\n\n") + observationTable(observations, Split::HeldOut, c);
    out += QStringLiteral("\n## Outside the model\n\n| Observation | Why |\n|---|---|\n");
    for (const Observation &o : observations)
        if (o.split == Split::Outside)
            out += QStringLiteral("| %1 | %2 |\n").arg(markdownCell(o.id), markdownCell(o.outsideReason));
    return out;
}

GeneratedDocument speedValidationDocument()
{
    return {
        QStringLiteral("docs/speed-validation.md"),
        test::sourceTreePath(QStringLiteral("docs/speed-validation.md")),
        QStringLiteral("KVSCOPE_WRITE_SPEED_VALIDATION"),
        QStringLiteral("<!-- BEGIN GENERATED by tests/core/tst_speedvalidation: do not edit by hand -->")};
}

} // namespace

class TestSpeedValidation : public QObject
{
    Q_OBJECT

    QList<Observation> m_observations;
    SpeedConstants m_fitted;
    QList<AllReduceTiming> m_allReduceTimings;
    GpuSpec m_timingLinks; ///< the links the kernel timings are taken on
    QList<MoeKernelTiming> m_moeTimings;
    QList<RoutedCopyTiming> m_copyTimings;
    SpeedConstants m_freeKernels; ///< the fit with the all-reduce latency and MoE layer cost fitted too

private Q_SLOTS:
    void initTestCase()
    {
        try {
            m_observations = readObservations(
                test::sourceTreePath(QStringLiteral("tests/data/serving-speed-measurements.json")));
            // The all-reduce latency is vLLM's kernel timings', held while the rest is fitted.
            m_allReduceTimings = readAllReduceTimings(
                test::sourceTreePath(QStringLiteral("tests/data/allreduce-latency-measurements.json")));
            m_timingLinks = resolveGpu(QStringLiteral("h100-sxm"));
            // So is the cost per MoE layer, the engines' timings of their fused MoE less its reads at
            // the fitted efficiencies: refitted until the two agree.
            m_moeTimings = readMoeKernelTimings(
                test::sourceTreePath(QStringLiteral("tests/data/moe-kernel-timings.json")));
            m_copyTimings = readRoutedCopyTimings(
                test::sourceTreePath(QStringLiteral("tests/data/moe-kernel-timings.json")));
            SpeedConstants fit = calibratedSpeedConstants();
            fit.allReduceLatencySeconds = meanLatencyBeyondTransfer(m_allReduceTimings, m_timingLinks);
            for (int round = 0; round < 4; ++round) {
                fit.moeLayerSeconds = oneTokenLayerCost(m_moeTimings, fit);
                fit = fitConstants(m_observations, fit, FitHold::KernelTimings);
            }
            m_fitted = fit;
            m_freeKernels = fitConstants(m_observations, calibratedSpeedConstants());
        } catch (const Error &error) {
            QFAIL(qPrintable(error.message()));
        }
        QVERIFY(m_observations.size() >= 100);
    }

    void constantsAreTheFit()
    {
        QVERIFY2(sameConstants(m_fitted, calibratedSpeedConstants()),
                 qPrintable(QStringLiteral("core/plan/speedconstants.cpp differs from the fit:\n") +
                            asCode(m_fitted) + QStringLiteral("in the code:\n") +
                            asCode(calibratedSpeedConstants())));
    }

    void prefillPassIsTheForwardPassesAlone()
    {
        // sglang.bench_one_batch's "Prefill. latency: 0.28894 s" for 16 prompts
        // of 512 tokens (sglang PR #14764): the forward passes over the batch,
        // timed in-process, with no request reaching a server.
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString path = dir.filePath(QStringLiteral("one-row.json"));
        const QJsonObject benchOneBatch{
            {QStringLiteral("id"), QStringLiteral("bench_one_batch")},
            {QStringLiteral("source"), QStringLiteral("https://github.com/sgl-project/sglang/pull/14764")},
            {QStringLiteral("engine"), QStringLiteral("sglang")},
            {QStringLiteral("gpu"), QStringLiteral("h200")},
            {QStringLiteral("model"), QStringLiteral("deepseek-v3")},
            {QStringLiteral("dtype"), QStringLiteral("bfloat16")},
            {QStringLiteral("quantization"), QStringLiteral("fp8")},
            {QStringLiteral("kv_cache_dtype"), QStringLiteral("auto")},
            {QStringLiteral("tensor_parallel_size"), 8},
            {QStringLiteral("batch_size"), 16},
            {QStringLiteral("prompt_len"), 512},
            {QStringLiteral("output_len"), 512},
            {QStringLiteral("prefill_ms"), 288.94},
        };
        QVERIFY(test::writeFile(
            path, QJsonDocument(QJsonObject{{QStringLiteral("measurements"), QJsonArray{benchOneBatch}}})
                      .toJson()));
        const QList<Observation> rows = readObservations(path);
        QCOMPARE(rows.size(), 1);
        const Observation &row = rows.first();
        QCOMPARE(row.measured, Measured::PrefillPass);
        QCOMPARE(row.id, QStringLiteral("bench_one_batch (prefill pass)"));
        QCOMPARE(row.sequences, 16);
        QCOMPARE(row.promptLen, 512);
        QCOMPARE(row.seconds, 0.28894);
        // With a per-request cost of 1 s the same passes as times to first token
        // would carry 16 x 1 s = 16 s of request handling; the prefill pass none.
        SpeedConstants expensiveRequests = calibratedSpeedConstants();
        expensiveRequests.requestSeconds[std::size_t(Engine::Sglang)] = 1.0;
        const double withRequests =
            SpeedModel(row.scenario, row.plan, expensiveRequests).prefill(512, 16).seconds;
        QVERIFY(std::abs(predictedSeconds(row, expensiveRequests) - (withRequests - 16.0)) < 1e-9);
        QVERIFY(std::abs(predictedSeconds(row, expensiveRequests) -
                         predictedSeconds(row, calibratedSpeedConstants())) < 1e-9);
    }

    void heldOutWithinBounds()
    {
        // The held-out sources' standing (docs/speed-validation.md) may not fall
        // below where it stood when the SGLang cookbook's DeepSeek-V3.1 rows on
        // eight MI300X (the first AMD GPU measured, 2-3x slower than kvscope's
        // stand-in efficiency and NVIDIA-fitted costs) joined the held-out
        // sources: median 19.9 %, 71 of 112 (63 %) within ±25 %. Before them: 18.3 %
        // and 71 of 100 (71 %). vLLM issue 30326's two gpt-oss-120b runs (8 H200s, 8 and
        // 128 users; +20.3 % and -22.6 %) then moved the median to 20.1 %, 73 of 114, and the vLLM
        // recipes' Qwen3-Next run at 256 users (-53.3 %, the per-sequence cost no calibration row
        // above 64 users informs) to 20.2 %, 73 of 115. vLLM's documented FP8-KV runs of Qwen3-4B on an
        // L4 (8 rows within +10 %, the first held-out FP8-KV pairs) then moved them to 19.4 %, 81 of 123
        // (66 %), and GPUStack's Qwen3-8B runs on an H100 (vLLM 0.11 and SGLang 0.5.3, BF16 and FP8 weights,
        // within 7 %) to 19.0 %, 84 of 126 (67 %), and an RTX 4090 sweep (vLLM 0.25.1, Qwen2.5-7B, BF16 and
        // online FP8 at 8 to 128 users; the FP8 steps at 64 and 128 users explained misses) to 18.3 %, 92 of
        // 136 (68 %), and three more single-setting runs (Qwen3-8B on an H100 in BF16 and FP8 with vLLM 0.20;
        // Qwen3-30B-A3B on an H200; Qwen3-8B on two A100s) to 18.0 %, 97 of 142 (68 %). Planning SGLang's
        // hybrid SWA pool then brought in gpt-oss-120b's and Llama 4's SGLang rows (15, 5 within: gpt-oss's
        // steps are shorter than the fixed costs fitted on DeepSeek-R1 alone), 18.7 %, 102 of 157 (65 %).
        // Planning SGLang's state pool then brought in Qwen3-Next's SGLang rows (one calibration source,
        // refitting the constants; 17 held-out rows, their busy steps and first tokens longer than priced),
        // 18.8 %, 108 of 174 (62 %). Two AMD sources then joined: AMD's Llama-3.1-70B runs on eight MI300X
        // under vLLM 0.10 (6 rows, all within 20 %) and InferenceX's DeepSeek-R1 on eight MI325X under SGLang
        // 0.5.19 (5 rows, 34 to 47 % short, as the cookbook's MI300X DeepSeek rows are), 19.0 %, 114 of 185
        // (62 %, 0.616; the median 0.1903). Modelling pipeline stages then brought in a blog's tensor- and
        // pipeline-parallel runs of Qwen3-32B on two RTX PRO 6000 (6 rows, the pipeline's within 11 %; the
        // tensor-parallel prompt's all-reduces over a cross-socket path an explained miss), 18.6 %, 119 of
        // 191 (62 %, 0.623; the median 0.1862). An Ada lab's Qwen2.5-7B runs under vLLM 0.27.1 at one user
        // (an RTX 4090 and, quoted, an L4: BF16 and FP8 within 3 % on the stand-in efficiency, GPTQ-Int4
        // explained misses) then gave 18.5 %, 122 of 196 (62 %, 0.622; the median 0.1848); with the same
        // lab's Qwen3-8B runs, 18.0 %, 132 of 208. Pricing weight-only dequantization as vector operations
        // per weight byte (bandwidth over the FP32 vector rate) then brought the Ada GPTQ and AWQ rows within
        // 8 %: 16.8 %, 134 of 208 (64 %, 0.644; the median 0.1684). A Neural Magic sample's A10 pair then
        // tested that rule where no row had (Llama-3-8B in FP16 and GPTQ on Marlin at one request a second:
        // both steps within 11 %, the speed-up within 1.3 %; both first tokens, under vLLM 0.5's request
        // handling, explained misses): 16.8 %, 136 of 212 (64 %, 0.6415). A cost per token routed to an
        // expert in each MoE layer (fitted on the calibration's prompt passes, DeepSeek-R1's) then gave
        // 13.0 %, 143 of 212 (67 %, 0.6745; the median 0.1303). Five Neural Magic model cards (vLLM
        // 0.7.2, one request at a time, BF16 against INT8 W8A8, FP8 and W4A16 on an A100 and an H100;
        // 240 rows) and a fourth tt-inference-server report (Qwen3-1.7B on an A100, 8 rows) then gave
        // 12.5 %, 333 of 460 (72 %, 0.7239; the median 0.1250): the A100 rows agree, the H100 W4A16
        // rows (Machete, which kvscope prices as Marlin) and the cards' longest shape are explained
        // misses. Machete as a weight kernel of its own (GPTQ and W4A16 under vLLM on Hopper, fitted on a
        // Red Hat demo's H200 runs, a calibration source whose other rows refit every constant) then gave
        // 10.5 %, 370 of 460 (80 %, 0.8043; the median 0.1048). InferenceX's DeepSeek-R1 on eight H200s
        // under SGLang 0.5.12 (10 rows at 4 to 64 users, within +20 %) then gave 380 of 470 (0.8085).
        // SemiAnalysis InferenceMAX's gpt-oss-120b sweep under vLLM 0.13 (150 rows: B200, H100 and H200,
        // TP 1 to 8, 4 to 128 users; 33 within 25 %) then gave 14.3 %, 413 of 620 (67 %, 0.6661; the
        // median 0.1434): its single-H200 runs agree, its runs on more GPUs show vLLM's all-reduces
        // costing far less than kvscope's fitted 20.3 us, and its B200 runs use a MoE kernel and async
        // scheduling kvscope does not model (the rows' explanations). The targets, 15 % and 80 %, are
        // missed again on this larger held-out set. Machete's AWQ zero points, read with the weights
        // (2 B a group from vLLM 0.18 on Hopper), then refitted its cost on the calibration's AWQ and GPTQ
        // rows from 1.395 to 1.364, which moved the held-out symmetric W4A16 runs ~1 % faster and the
        // median to 0.1445; the share is unchanged. The first current-vLLM sweep of one dense model at TP 1,
        // 2 and 4 (Qwen2.5-7B on A100-40GB under vLLM 0.27.1, 12 rows, held out) then gave 15.1 %, 421 of 632
        // (0.6661; the median 0.1505): its steps are 22 to 28 % long, Ampere's efficiency being fitted on
        // vLLM 0.4-0.6 runs and the all-reduce on runs that carry other costs (the rows' explanations).
        // The all-reduce latency then came from vLLM's kernel timings (9.00 us) instead of the fit
        // (20.3 us), the rest refitted: 465 of 632 (0.7358) and MoE at batch 8 or less 69 of 109 (was 44),
        // the median 0.1564 (the Hopper efficiency fell to 0.829 with it, moving single-GPU Hopper rows).
        // The B200 rows of that sweep then ran FlashInfer's MXFP4 x MXFP8 MoE kernel as their server did
        // (--moe-mxfp8-activations, no constant refitted): 473 of 632 (0.7484), MoE at batch 8 or less 75
        // of 109, the median 0.1555.
        // The cost per MoE layer then came from the engines' timings of their fused MoE kernel (26.4 us,
        // tests/data/moe-kernel-timings.json) instead of the fit (40.1 us), the rest refitted: 476 of 632
        // (0.7532), MoE at batch 8 or less 89 of 109, the median 0.1401. MXFP4 experts off compute capability
        // 10.x then unpacked on the vector units as the 4-bit Marlin kernels are (Marlin's MXFP4 kernel or
        // Triton's matmul_ogs), the rest refitted: 489 of 632 (0.7737), the median 0.1360. FlashInfer's
        // TensorRT-LLM MoE (MXFP4 experts on 10.x) then paid no cost per routed copy beyond its FLOPs, as its
        // own timings show (docs/speed-validation.md, 'Routed copies'), the rest refitted: 515 of 632
        // (0.8149), MoE at batch 8 or less 91 of 109, the median 0.1302.
        // The floors below are the measured figures, so that a change that worsens them fails.
        const Summary s = summarise(m_observations, Split::HeldOut, calibratedSpeedConstants());
        qInfo("held out: median %.4f, %d of %d within 25 %%", s.medianError, int(s.within25), int(s.rows));
        QVERIFY(s.rows >= 632);
        QVERIFY2(s.medianError <= 0.1303, qPrintable(QString::number(s.medianError)));
        QVERIFY2(s.within25 >= 0.8148 * s.rows,
                 qPrintable(QStringLiteral("%1 of %2").arg(s.within25).arg(s.rows)));
        const SmallBatchMoe moe = smallBatchMoe(m_observations, calibratedSpeedConstants());
        QVERIFY2(moe.within30 >= 91, qPrintable(QStringLiteral("%1 of %2").arg(moe.within30).arg(moe.rows)));
    }

    void kernelTimingsExceedTheirTransfer()
    {
        // Every timing must leave a positive latency once its bytes are priced: a transfer term
        // longer than the measured all-reduce would mean kvscope over-prices the links.
        QVERIFY(m_allReduceTimings.size() >= 4);
        for (const AllReduceTiming &t : m_allReduceTimings)
            QVERIFY2(latencyBeyondTransfer(t, m_timingLinks) > 0, qPrintable(t.id));
        // Held, the latency is the timings' (7, 10, 10 and 13 us less 1.17, 1.75, 1.75 and 1.94 us of
        // transfer at 2, 4, 4 and 6 GPUs: 8.35 us by hand).
        // The latency is the timings' mean: 7, 10, 13 and 10 us less 1.17, 1.75, 1.94 and 1.75 us of
        // transfer (512 KiB among 2, 4, 6 and 4 GPUs), and SGLang's nine, 8.5 to 11.8 us less at most
        // 0.51 us: 117.0 us over 13 rows, 9.00 us, by hand.
        QVERIFY(std::abs(m_fitted.allReduceLatencySeconds - 9.00e-6) < 0.01e-6);
    }

    void moeLayerCostIsWhatTheTimingsLeave()
    {
        QVERIFY(m_moeTimings.size() >= 8);
        // SGLang's Qwen3-235B-A22B layer at one token on an H200, 31.70 us (sgl-project/sglang#11730):
        // 8 of 128 FP8 experts of 3 x 4096 x 192 bytes, 18,874,368 B, take 3.932 us at 4,800 GB/s. At an
        // efficiency of 0.8 and a dequantization cost of 0.1 they price 4.915 + 0.393 = 5.308 us, and
        // 8 routed copies at 50 ns 0.4 us: 25.99 us left, by hand.
        const auto row =
            std::find_if(m_moeTimings.cbegin(), m_moeTimings.cend(), [](const MoeKernelTiming &t) {
                return t.source.endsWith(QLatin1String("sglang/pull/11730")) && t.tokens == 1;
            });
        QVERIFY(row != m_moeTimings.cend());
        SpeedConstants c;
        c.weightBandwidthEfficiency[std::size_t(GpuGeneration::Hopper)] = 0.8;
        c.dequantizationCost[std::size_t(WeightKernel::Fp8)] = 0.1;
        c.routedTokenSeconds = 50e-9;
        QVERIFY(std::abs(expertReadSeconds(*row, c) - 5.308e-6) < 0.001e-6);
        QVERIFY(std::abs(layerCostBeyondReads(*row, c) - 25.99e-6) < 0.01e-6);
        // Every one-token timing leaves a positive cost once its reads are priced as fitted, and the
        // cost kvscope prices is the median of what they leave, at the constants it was fitted with.
        for (const MoeKernelTiming &t : m_moeTimings)
            if (t.tokens == 1)
                QVERIFY2(layerCostBeyondReads(t, m_fitted) > 0, qPrintable(t.id));
        QVERIFY2(std::abs(m_fitted.moeLayerSeconds - oneTokenLayerCost(m_moeTimings, m_fitted)) < 0.05e-6,
                 qPrintable(QStringLiteral("%1 us against %2 us")
                                .arg(m_fitted.moeLayerSeconds * 1e6)
                                .arg(oneTokenLayerCost(m_moeTimings, m_fitted) * 1e6)));
    }

    void routedCopiesCostWhatTheirKernelSorts()
    {
        // vLLM #24700's Triton fused MoE on an H100 (Qwen3-30B-A3B FP8, top 8 of 128): 911.64 us at 2,048
        // tokens, 1,647.57 us at 4,096, so 735.93 us for 16,384 more copies, 44.92 ns each, by hand.
        const auto triton =
            std::find_if(m_copyTimings.cbegin(), m_copyTimings.cend(),
                         [](const RoutedCopyTiming &t) { return t.kernel == MoeKernel::FusedMoe; });
        QVERIFY(triton != m_copyTimings.cend());
        QVERIFY(std::abs(triton->secondsPerCopy() - 44.92e-9) < 0.01e-9);
        // The fitted cost per copy is of that kernel's size: its copies are not free.
        QVERIFY2(triton->secondsPerCopy() > 0.5 * m_fitted.routedTokenSeconds,
                 qPrintable(QStringLiteral("%1 ns a copy timed, %2 fitted")
                                .arg(triton->secondsPerCopy() * 1e9)
                                .arg(m_fitted.routedTokenSeconds * 1e9)));
        // FlashInfer's TensorRT-LLM FP4 MoE: what a copy adds grows with its FLOPs and leaves no cost of its
        // own, under a twentieth of the fitted one, which is why kvscope prices those copies at zero.
        QList<RoutedCopyTiming> flashInfer;
        std::copy_if(m_copyTimings.cbegin(), m_copyTimings.cend(), std::back_inserter(flashInfer),
                     [](const RoutedCopyTiming &t) { return t.kernel == MoeKernel::TrtllmFp4; });
        QVERIFY(flashInfer.size() >= 2);
        const CopyCostLine line = copyCostLine(flashInfer);
        QVERIFY(line.secondsPerFlop > 0);
        QVERIFY2(std::abs(line.fixedSeconds) < 0.05 * m_fitted.routedTokenSeconds,
                 qPrintable(QStringLiteral("%1 ns a copy beyond the FLOPs").arg(line.fixedSeconds * 1e9)));
    }

    void everyMissIsExplained()
    {
        for (const Observation &o : m_observations) {
            if (o.split == Split::Outside)
                continue;
            const double error = relativeError(o, calibratedSpeedConstants());
            QVERIFY2(std::abs(error) <= 0.25 || !o.explainedMiss.isEmpty(),
                     qPrintable(QStringLiteral("%1: %2 % and no explanation in the data file")
                                    .arg(o.id)
                                    .arg(error * 100, 0, 'f', 1)));
        }
    }

    void everySpeedUpMissIsExplained()
    {
        // An FP8-KV or INT4 speed-up off by more than 15 % needs the data
        // file's explanation on the row that differs.
        for (const PairRatio &p : pairRatios(m_observations, calibratedSpeedConstants()))
            if (pairKind(p) != PairKind::Other)
                QVERIFY2(std::abs(p.error()) <= PairTolerance || !p.other->explainedMiss.isEmpty(),
                         qPrintable(QStringLiteral("%1: %2 / %3 speed-up %4 % off and no explanation")
                                        .arg(p.key, p.first->id, p.other->id)
                                        .arg(p.error() * 100, 0, 'f', 1)));
    }

    void documentIsCurrent()
    {
        try {
            const QString stale = checkGeneratedSection(
                speedValidationDocument(),
                speedValidationTables(m_observations, calibratedSpeedConstants(),
                                      kernelTimingSections(m_allReduceTimings, m_timingLinks, m_moeTimings,
                                                           m_copyTimings, m_observations,
                                                           calibratedSpeedConstants(), m_freeKernels)),
                QStringLiteral("build/tests/core/tst_speedvalidation"));
            QVERIFY2(stale.isEmpty(), qPrintable(stale));
        } catch (const Error &error) {
            QFAIL(qPrintable(error.message()));
        }
    }
};

QTEST_GUILESS_MAIN(TestSpeedValidation)
#include "tst_speedvalidation.moc"
