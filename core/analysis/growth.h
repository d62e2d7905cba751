// SPDX-License-Identifier: MIT
#pragma once

#include "core/analysis/growthoptions.h"
#include "core/plan/memoryplan.h"

#include <cstdint>
#include <optional>

#include <QList>

namespace kvscope {

struct Scenario;

/// The KV precisions the explorer walks through. vLLM: FP32 -> FP16/BF16
/// (following the resolved --dtype) -> FP8. GGUF models (llama.cpp's cache
/// types): F32 -> F16 -> Q8_0 -> Q4_0.
QList<KvCacheDtype> kvPrecisionWalk(WeightDtype resolvedDtype, ModelFormat format = ModelFormat::HfConfig);

/// Position of a resolved KV dtype on a walk: the step with the same storage
/// bits per value (fp8_e5m2 sits on the FP8 step); -1 when none matches.
int kvPrecisionStep(const QList<KvCacheDtype> &walk, KvCacheDtype resolvedKvDtype);

/// The KV dtypes a chart draws a curve for: the walk for the plan's --dtype and
/// format, the plan's own dtype on its step (or appended when off the walk);
/// `current` receives the index of the plan's curve.
QList<KvCacheDtype> chartKvDtypes(const MemoryPlan &plan, int &current);

/// `points` log-spaced integers from lo to hi plus the `extra` values in that
/// range, sorted, without repeats (the x samples of a chart).
QList<std::int64_t> logSpacedPoints(std::int64_t lo, std::int64_t hi, int points,
                                    QList<std::int64_t> extra = {});

/// Memory against sequence length or batch size for one KV dtype.
struct GrowthCurve
{
    KvCacheDtype kvCacheDtype = KvCacheDtype::BFloat16;
    QList<std::int64_t> x;
    QList<std::int64_t> kvBytes;    ///< KV cache at x
    QList<std::int64_t> totalBytes; ///< weights + activations + overhead + KV cache at x
    std::int64_t fitsUpTo = 0;      ///< largest x within the budget; -1 = no limit (all layers slide)
};

/// The scenario's model changed as `kind` says, or nothing when the model has no
/// such feature (an MHA model as if MHA).
std::optional<ModelArch> counterfactualModel(const ModelArch &model, Counterfactual kind);

/// The KV cache of a counterfactual model along the chart's axis, at the plan's KV dtype.
struct CounterfactualCurve
{
    Counterfactual kind = Counterfactual::AsIfMha;
    QList<std::int64_t> x;
    QList<std::int64_t> kvBytes;
    int kvHeads = 0;     ///< KV heads of the changed model (all GPUs)
    int cacheLayers = 0; ///< layers of the changed model that keep a per-token cache
};

/// A marked point of the growth chart. Where it lies outside the shown range it is
/// drawn at the edge (`shownX`, `shownBytes`) with an arrow pointing out.
struct GrowthMarker
{
    bool present = false;
    std::int64_t x = 0;          ///< tokens or sequences it marks
    std::int64_t bytes = 0;      ///< memory at x
    std::int64_t shownX = 0;     ///< x clamped into [rangeMin, rangeMax]
    std::int64_t shownBytes = 0; ///< bytes clamped into [0, yMaxBytes]
    int beyondX = 0;             ///< -1: left of the range, +1: right of it, 0: inside
    bool beyondTop = false;      ///< above the vertical range
};

/// Everything the growth chart draws, all computed here.
struct GrowthChartData
{
    GrowthAxis axis = GrowthAxis::SequenceLength;
    AxisScale scale = AxisScale::Logarithmic;
    std::int64_t xMin = 1; ///< the axis control's range (samples start here)
    std::int64_t xMax = 1;
    std::int64_t rangeMin = 1;    ///< the range shown: [xMin, xMax] on a log axis; from 0 on a linear one,
    std::int64_t rangeMax = 1;    ///< up to a power of two past the current point and the crossing
    QList<std::int64_t> ticks;    ///< labelled x values
    std::int64_t yMaxBytes = 0;   ///< top of the vertical axis: a whole number of ticks
    std::int64_t yTickBytes = 0;  ///< between two labelled values (1, 2 or 5 x 10^k GiB)
    GrowthMarker current;         ///< the scenario
    GrowthMarker crossing;        ///< where the total meets the budget (at budget height)
    GrowthMarker maxModelLen;     ///< --max-model-len (sequence axis only; at the top)
    Engine engine = Engine::Vllm; ///< whose flags name the markers (SGLang's --context-length)
    std::int64_t budgetBytes = 0;
    std::int64_t gpuMemoryBytes = 0;
    std::int64_t fixedBytes = 0; ///< weights + activations + overhead
    QList<GrowthCurve> curves;   ///< one per KV precision on the walk (plus the plan's, if off the walk)
    QList<CounterfactualCurve> counterfactuals; ///< when asked for: the KV line of each counterfactual model
    int currentCurve = 0;                       ///< the curve of the plan's KV dtype
    std::int64_t currentX = 0;
    /// A GPU's batch, fixed along the sequence axis: the scenario's, or one data-parallel rank's share.
    std::int64_t batchSize = 0;
    std::int64_t seqLen = 0; ///< the scenario's sequence length (fixed along the batch axis)
    std::int64_t currentKvBytes = 0;
    std::int64_t currentTotalBytes = 0;
};

/// Range of the sequence-length control: 128 tokens up to the model's
/// context, capped at 10M.
std::int64_t sequenceAxisMin();
std::int64_t sequenceAxisMax(const ModelArch &model);
/// Range of the batch control: 1 to 4096.
std::int64_t batchAxisMin();
std::int64_t batchAxisMax();

/// Samples the curves at `points` x values spaced for `scale` (plus the current x
/// and, for windowed models, the window) over the range shown, and places the markers;
/// with `counterfactuals`, adds the KV line of every counterfactual model that differs.
GrowthChartData growthChartData(const Scenario &scenario, const MemoryPlan &plan, GrowthAxis axis,
                                int points = 96, AxisScale scale = AxisScale::Logarithmic,
                                bool counterfactuals = false);

} // namespace kvscope
