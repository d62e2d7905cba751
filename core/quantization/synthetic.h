// SPDX-License-Identifier: MIT
#pragma once

#include "core/common/scenariofield.h"
#include "core/quantization/parallel.h"
#include "core/quantization/tensordata.h"

#include <cstdint>

#include <QList>
#include <QString>
#include <QStringList>

namespace kvscope::quant {

/// Distributions of the synthetic tensors.
enum class SyntheticKind
{
    Gaussian, ///< weights ~ N(0, std²); std 0.02 = LlamaConfig.initializer_range
    Laplace,  ///< heavier-tailed weights with the same std
    StudentT, ///< Student-t with 5 degrees of freedom, scaled to the std
    Outliers, ///< activations/keys: N(0, std²), std 1, with a few fixed channels 20-100x larger
};

/// Largest rows or columns of a synthetic tensor.
inline constexpr std::int64_t MaxSyntheticDimension = 8192;

/// Standard deviations whose samples float32 holds: from its smallest normal value,
/// 2^-126, to 2^108, 2^20 below its largest (room for the Student-t tail and the
/// 100x outlier channels).
inline constexpr double SmallestSyntheticStd = 0x1p-126;
inline constexpr double LargestSyntheticStd = 0x1p108;

/// What is wrong with `deviation` as a standard deviation ("is below ..."), or an
/// empty string when it is one float32 samples can have (0 stands for the default).
QString standardDeviationProblem(double deviation);

struct SyntheticSpec
{
    SyntheticKind kind = SyntheticKind::Gaussian;
    std::int64_t rows = 4096;
    std::int64_t cols = 4096;
    std::uint64_t seed = 0;
    double standardDeviation = 0; ///< 0 = the kind's default (0.02, or 1.0 for Outliers)
    /// Outlier input channels of any kind: > 0 scales four columns (chosen by the seed)
    /// by channelScale x 0.25, 0.5, 0.75 and 1; 0 = the kind's own (Outliers: 20, 45,
    /// 70, 100; the others none).
    double channelScale = 0;
    /// Values rounded to this type after drawing (still held as float32), as a
    /// checkpoint or an activation in bf16/fp16 holds them; Float32 = not rounded.
    ElementType storedAs = ElementType::Float32;

    double effectiveStd() const;
    /// "synthetic:gaussian"
    QString origin() const;

    friend bool operator==(const SyntheticSpec &, const SyntheticSpec &) = default;
};

/// One outlier channel (a column, as hidden-state features are).
struct OutlierChannel
{
    std::int64_t column = 0;
    double multiplier = 1;
};

QString syntheticKindName(SyntheticKind kind);
QStringList syntheticKindChoices();
/// "gaussian", "laplace", "student-t", "outliers"; throws kvscope::Error naming `option`.
SyntheticKind parseSyntheticKind(const QString &text,
                                 const QString &option = commandFlag(CommandOption::Input));

/// Checks sizes (1..8192), std (see standardDeviationProblem) and channel scale (> 0 and
/// finite, or 0); throws kvscope::Error naming the option.
void validate(const SyntheticSpec &spec);

/// The outlier channels of a tensor: four distinct columns picked from the
/// seed (fewer when the tensor is narrower), scaled by channelScale x 0.25,
/// 0.5, 0.75, 1, or for an Outliers tensor by 20, 45, 70 and 100 (LLM.int8():
/// a few fixed feature dimensions, tens of times larger;
/// docs/quantization-formats.md §9). Empty when the spec has none.
QList<OutlierChannel> outlierChannels(const SyntheticSpec &spec);

/// `count` distinct columns of [0, cols) drawn from the seed (SplitMix64), in
/// the order drawn; all of them when count >= cols.
QList<std::int64_t> pickColumns(std::uint64_t seed, std::int64_t cols, std::int64_t count);

/// Generates the tensor, rows in parallel. Reproducible: the same spec gives
/// the same values whatever the thread count (each row has its own
/// xoshiro256** stream seeded by SplitMix64 from the seed and the row).
TensorData generateSynthetic(const SyntheticSpec &spec, const RunControl &control = {});

} // namespace kvscope::quant
