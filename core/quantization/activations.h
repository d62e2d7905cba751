// SPDX-License-Identifier: MIT
// The activations a linear layer sees, X [tokens, input channels], for the
// methods that fit weights to them (AWQ, GPTQ) and for the error of the
// layer's output Y = X W^T. Synthetic with outlier channels, or read from a
// .npy file; split into calibration rows, which the methods fit on, and
// held-out rows, which the output error is measured on.
#pragma once

#include "core/common/scenariofield.h"
#include "core/quantization/densekernels.h"
#include "core/quantization/parallel.h"

#include <cstdint>
#include <variant>
#include <vector>

#include <QList>
#include <QString>

namespace kvscope::quant {

/// The outlier model of synthetic activations (LLM.int8(), Dettmers et al. 2022,
/// arXiv 2208.07339: a few fixed hidden dimensions carry values tens of times the
/// rest; AWQ, Lin et al. 2023, arXiv 2306.00978: 0.1-1 % of the channels are
/// salient): every value N(0, 1) in ordinary channels; 0.5 % of the channels
/// (at least one, picked by the seed) are outliers, m (±2 + N(0, 1)) with the
/// multiplier m spread geometrically from 20 to 100 and a fixed sign per
/// channel: LLM.int8() finds outlier features systematic, in the same
/// dimensions across tokens, so they are strongly correlated with each other
/// (which is what GPTQ's compensation uses; with independent channels H is
/// diagonal and GPTQ is round-to-nearest).
inline constexpr double OutlierChannelShare = 0.005;
inline constexpr double SmallestOutlierMultiplier = 20.0;
inline constexpr double LargestOutlierMultiplier = 100.0;
inline constexpr double OutlierOffset = 2.0;

/// Most rows kvscope reads from an activation file (a file of 4096 channels in
/// float32 is then 1 GiB in memory).
inline constexpr std::int64_t MaxActivationRows = 65536;

/// Generated activations; their width is the weights' column count.
struct SyntheticActivations
{
    std::int64_t calibrationRows = 2048;
    std::int64_t heldOutRows = 256;
    std::uint64_t seed = 0;
    bool outliers = true; ///< false: every channel N(0, 1)

    friend bool operator==(const SyntheticActivations &, const SyntheticActivations &) = default;
};

/// Activations in a .npy file: 2-D [tokens, channels], float32, float16 or bfloat16.
/// The last eighth of its rows (rounded up) is held out, the rest calibrates.
struct ActivationFile
{
    QString path;

    friend bool operator==(const ActivationFile &, const ActivationFile &) = default;
};

using ActivationSource = std::variant<SyntheticActivations, ActivationFile>;

/// "synthetic" or a path to a .npy file; throws kvscope::Error naming `option`.
ActivationSource parseActivationSource(const QString &text,
                                       const QString &option = commandFlag(CommandOption::Activations));

/// What the output error was measured on, for reports.
struct ActivationSummary
{
    QString description;
    std::int64_t calibrationRows = 0;
    std::int64_t heldOutRows = 0;

    /// "256 held-out rows of synthetic ... (AWQ and GPTQ fitted on the other 2048)"
    QString text() const;
};

/// Loaded activations, row-major as float32: calibration rows first, then held-out rows.
struct Activations
{
    std::vector<float> values;
    std::int64_t channels = 0;
    std::int64_t calibrationRows = 0;
    std::int64_t heldOutRows = 0;
    QString description; ///< "synthetic N(0, 1), 20 of 4096 channels 20x-100x, seed 0"

    ActivationSummary summary() const { return {description, calibrationRows, heldOutRows}; }
    dense::ConstMatrixRef calibration() const { return {values.data(), calibrationRows, channels, channels}; }
    dense::ConstMatrixRef heldOut() const
    {
        return {values.data() + calibrationRows * channels, heldOutRows, channels, channels};
    }
};

/// The outlier channels of synthetic activations `channels` wide (the seed picks the columns).
struct ActivationOutlier
{
    std::int64_t channel = 0;
    double multiplier = 1;
    double offset = 0; ///< the channel's mean before the multiplier, ±OutlierOffset
};
QList<ActivationOutlier> activationOutliers(std::int64_t channels, std::uint64_t seed);

/// Generates or reads the activations of a layer whose weights have `channels`
/// columns. Throws kvscope::Error naming `option`, the file and the shapes when
/// the file cannot be read, is not [tokens, channels], has fewer than 2 or more
/// than MaxActivationRows rows, or holds a NaN or infinity; Cancelled when the
/// control's flag is set.
Activations loadActivations(const ActivationSource &source, std::int64_t channels,
                            const RunControl &control = {},
                            const QString &option = commandFlag(CommandOption::Activations));

} // namespace kvscope::quant
