// SPDX-License-Identifier: MIT
#pragma once

#include "core/common/scenariofield.h"
#include "core/quantization/activationquant.h"

#include <cstdint>

#include <QString>
#include <QStringList>

namespace kvscope::quant {

/// The number formats the simulator applies (definitions and sources:
/// docs/quantization-formats.md; the "Quantization simulator: formats and metrics" table of
/// docs/methodology.md).
enum class SchemeKind
{
    Fp16,         ///< cast from float32, round-to-nearest-even
    Bf16,         ///< cast from float32, round-to-nearest-even
    Fp8E4M3,      ///< per-tensor scale amax / 448
    Fp8E5M2,      ///< per-tensor scale amax / 57344
    Int8,         ///< symmetric, one scale per row, q in [-127, 127]
    Int,          ///< 2/3/4-bit groups along the row: AWQ asymmetric or GPTQ symmetric
    Nf4,          ///< bitsandbytes: blocks of 64, absmax, 16 NF4 codes
    Mxfp4,        ///< OCP MX: blocks of 32 along the row, E8M0 scale, E2M1 elements
    Nvfp4,        ///< NVIDIA NVFP4: blocks of 16 along the row, E4M3 scale over a per-tensor scale, E2M1
    Fp4MxBlock16, ///< SGLang's fp4_mx_block16 KV cache: blocks of 16, power-of-two scale that never clips
};

/// How an Int scheme picks its codes: each group rounded to the nearest grid
/// point, or fitted to the layer's activations by the method's own algorithm
/// (core/quantization/awq.h, gptq.h; docs/quantization-formats.md).
enum class IntMethod
{
    RoundToNearest, ///< per group, the baseline both methods improve on
    Awq,            ///< activation-aware per-channel scales, then round-to-nearest (asymmetric)
    Gptq,           ///< column by column with inverse-Hessian error compensation (symmetric)
};

/// Group size meaning "one group per row" (GPTQ's group_size = -1).
inline constexpr int WholeRow = -1;

/// One scheme with its options. Value type; parse with parseScheme().
struct Scheme
{
    SchemeKind kind = SchemeKind::Int;
    int bits = 4;           ///< Int: 2, 3 or 4
    bool symmetric = false; ///< Int: GPTQ's sym=True instead of AWQ's zero point
    int groupSize = 128;    ///< Int: elements per group along a row, or WholeRow
    bool saturate = true;   ///< FP8: clamp overflow to ±max (vLLM) instead of NaN/inf (ml_dtypes)
    bool unitScale = false; ///< FP8, NVFP4: per-tensor scale 1.0 (vLLM's default KV scale), not amax/max
    IntMethod method = IntMethod::RoundToNearest; ///< Int: AWQ is asymmetric, GPTQ symmetric
    /// W8A8: how the kernel quantizes the activations the layer multiplies (the
    /// layer output's error then has theirs in it too); None for weight-only kernels.
    ActivationQuantization activations = ActivationQuantization::None;

    /// Canonical id: "fp8-e4m3", "int8", "int4-g128", "int3-sym-row", "awq-int4-g128", "nf4"...,
    /// with the activations' suffix for a W8A8 kernel ("fp8-e4m3+a-fp8-token").
    QString id() const;
    /// One line for tables and tooltips: "INT4 asymmetric (AWQ), groups of 128".
    QString description() const;

    bool isFp8() const { return kind == SchemeKind::Fp8E4M3 || kind == SchemeKind::Fp8E5M2; }
    /// True for the schemes a "(q - z) × s" group inspection applies to.
    bool isInteger() const { return kind == SchemeKind::Int || kind == SchemeKind::Int8; }
    /// True for AWQ and GPTQ, which need the layer's activations.
    bool isCalibrated() const { return kind == SchemeKind::Int && method != IntMethod::RoundToNearest; }

    friend bool operator==(const Scheme &, const Scheme &) = default;
};

/// How an integer scheme picks a group's grid from its minimum and maximum.
enum class IntRule
{
    Awq,
    GptqSymmetric,
    Int8
};

/// The rule of an integer scheme (Int or Int8).
IntRule intRule(const Scheme &scheme);

/// Options that apply to every scheme parsed from one command line or one GUI state.
struct SchemeDefaults
{
    int groupSize = 128;
    bool saturate = true;
    bool unitScale = false;
};

/// Parses "fp16", "bf16", "fp8-e4m3" (also "fp8", "fp8_e4m3"), "fp8-e5m2",
/// "int8", "int4"/"int3"/"int2" with optional "-sym" and an optional group
/// suffix "-g64" or "-row" (else defaults.groupSize), the same with an "awq-"
/// or "gptq-" prefix and without "-sym" ("awq-int4-g128"), "nf4", "mxfp4".
/// Throws kvscope::Error naming `option` and the text.
Scheme parseScheme(const QString &text, const SchemeDefaults &defaults = {},
                   const QString &option = commandFlag(CommandOption::Scheme));

/// Splits repeated and comma-separated scheme options, parses each, and drops repeats.
QList<Scheme> parseSchemeList(const QStringList &texts, const SchemeDefaults &defaults = {},
                              const QString &option = commandFlag(CommandOption::Scheme));

/// The scheme names parseScheme accepts, for help texts.
QStringList schemeChoices();

/// Checks a group size option: a positive integer of at most 2^31 - 1, or -1 (whole row).
int validateGroupSize(std::int64_t groupSize, const QString &option = optionFlag(ScenarioField::GroupSize));

/// How a scheme's scales tile a [rows, cols] tensor: runs of `length`
/// consecutive elements, restarting at each row when `rowAligned` (the last
/// run of a row, or of the tensor, may be shorter).
struct UnitLayout
{
    std::int64_t rows = 0;
    std::int64_t cols = 0;
    std::int64_t length = 1;
    bool rowAligned = true;

    std::int64_t unitsPerRow() const { return (cols + length - 1) / length; }
    std::int64_t unitCount() const;
    std::int64_t unitStart(std::int64_t unit) const;
    std::int64_t unitLength(std::int64_t unit) const;
    /// The unit holding flat element `index`.
    std::int64_t unitOf(std::int64_t index) const;
};

/// Scale units of `scheme`: a row for int8, a group for int, 64 flat elements
/// for nf4, 32 along the row for mxfp4; per-tensor formats get whole rows
/// (they have no local scale, rows are only a convenient split).
UnitLayout unitLayout(const Scheme &scheme, std::int64_t rows, std::int64_t cols);

/// Storage cost per weight in bits as a checkpoint stores it, scales and
/// zero points included: fp8 8 + 32/n (one fp32 scale), int8 8 + 32/cols,
/// AWQ/GPTQ b + (16 + b)/g (fp16 scale, b-bit zero; GPTQ sym stores zeros
/// too), nf4 4 + 32/64 (fp32 absmax, no double quantization), mxfp4 4 + 8/32.
double bitsPerWeight(const Scheme &scheme, std::int64_t rows, std::int64_t cols);

} // namespace kvscope::quant
