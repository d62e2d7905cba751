// SPDX-License-Identifier: MIT
#include "core/quantization/scheme.h"

#include "core/common/enumtable.h"
#include "core/common/error.h"
#include "core/common/integertext.h"

#include <functional>
#include <limits>

#include <QRegularExpression>

namespace kvscope::quant {

namespace {

/// The kinds with one fixed spelling; SchemeKind::Int has a family of them
/// ("int4-sym-g64"), written by Scheme::id() and read by parseScheme().
constexpr EnumSpelling<SchemeKind> fixedKindSpellings[] = {
    {SchemeKind::Fp16, "fp16", {"float16"}},
    {SchemeKind::Bf16, "bf16", {"bfloat16"}},
    {SchemeKind::Fp8E4M3, "fp8-e4m3", {"fp8", "fp8_e4m3"}},
    {SchemeKind::Fp8E5M2, "fp8-e5m2", {"fp8_e5m2"}},
    {SchemeKind::Int8, "int8"},
    {SchemeKind::Nf4, "nf4"},
    {SchemeKind::Mxfp4, "mxfp4"},
    {SchemeKind::Nvfp4, "nvfp4"},
    {SchemeKind::Fp4MxBlock16, "fp4-mx-block16", {"fp4_mx_block16"}},
};

QString groupSuffix(int groupSize)
{
    return groupSize == WholeRow ? QStringLiteral("row") : QStringLiteral("g%1").arg(groupSize);
}

/// The prefix of a calibrated method's ids: "awq-", "gptq-", or none.
QString methodPrefix(IntMethod method)
{
    switch (method) {
    case IntMethod::RoundToNearest:
        break;
    case IntMethod::Awq:
        return QStringLiteral("awq-");
    case IntMethod::Gptq:
        return QStringLiteral("gptq-");
    }
    return {};
}

[[noreturn]] void unknownScheme(const QString &option, const QString &text)
{
    throw Error(QStringLiteral("%1: unknown scheme '%2' (choose from %3)")
                    .arg(option, text, schemeChoices().join(QStringLiteral(", "))));
}

} // namespace

QString Scheme::id() const
{
    const QString activationSuffix = activationQuantizationSuffix(activations);
    if (kind == SchemeKind::Int)
        return QStringLiteral("%1int%2%3-%4")
                   .arg(methodPrefix(method))
                   .arg(bits)
                   .arg(symmetric && method == IntMethod::RoundToNearest ? QStringLiteral("-sym") : QString())
                   .arg(groupSuffix(groupSize)) +
               activationSuffix;
    return enumName(fixedKindSpellings, kind) + activationSuffix;
}

QString Scheme::description() const
{
    if (activations != ActivationQuantization::None) {
        Scheme weights = *this;
        weights.activations = ActivationQuantization::None;
        return QStringLiteral("%1; %2").arg(weights.description(),
                                            activationQuantizationDescription(activations));
    }
    const QString fp8Options = QStringLiteral("%1, %2").arg(
        unitScale ? QStringLiteral("scale 1.0") : QStringLiteral("per-tensor scale"),
        saturate ? QStringLiteral("saturating") : QStringLiteral("overflow to NaN/inf"));
    switch (kind) {
    case SchemeKind::Fp16:
        return QStringLiteral("FP16, round-to-nearest-even from FP32");
    case SchemeKind::Bf16:
        return QStringLiteral("BF16, round-to-nearest-even from FP32");
    case SchemeKind::Fp8E4M3:
        return QStringLiteral("FP8 E4M3 (max 448), %1").arg(fp8Options);
    case SchemeKind::Fp8E5M2:
        return QStringLiteral("FP8 E5M2 (max 57344), %1").arg(fp8Options);
    case SchemeKind::Int8:
        return QStringLiteral("INT8 symmetric, one scale per row");
    case SchemeKind::Int: {
        const QString groups = groupSize == WholeRow ? QStringLiteral("one group per row")
                                                     : QStringLiteral("groups of %1").arg(groupSize);
        if (method == IntMethod::Awq)
            return QStringLiteral("INT%1 asymmetric, AWQ (scales searched on the activations), %2")
                .arg(bits)
                .arg(groups);
        if (method == IntMethod::Gptq)
            return QStringLiteral("INT%1 symmetric, GPTQ (error compensation on the activations), %2")
                .arg(bits)
                .arg(groups);
        return QStringLiteral("INT%1 %2, %3")
            .arg(bits)
            .arg(symmetric ? QStringLiteral("symmetric (GPTQ)") : QStringLiteral("asymmetric (AWQ)"))
            .arg(groups);
    }
    case SchemeKind::Nf4:
        return QStringLiteral("NF4 (bitsandbytes), blocks of 64");
    case SchemeKind::Mxfp4:
        return QStringLiteral("MXFP4 (OCP MX), E2M1 in blocks of 32");
    case SchemeKind::Nvfp4:
        return QStringLiteral("NVFP4, E2M1 in blocks of 16 with an FP8 E4M3 scale");
    case SchemeKind::Fp4MxBlock16:
        return QStringLiteral("FP4 MX block 16 (SGLang's KV cache), E2M1 in blocks of 16 with a "
                              "power-of-two scale");
    }
    return {};
}

IntRule intRule(const Scheme &scheme)
{
    if (scheme.kind == SchemeKind::Int8)
        return IntRule::Int8;
    return scheme.symmetric ? IntRule::GptqSymmetric : IntRule::Awq;
}

QStringList schemeChoices()
{
    // In the order of SchemeKind, the int family where SchemeKind::Int stands.
    const auto beforeInt = [](SchemeKind kind) { return kind < SchemeKind::Int; };
    QStringList choices = enumChoices(fixedKindSpellings, beforeInt);
    for (int bits : {4, 3, 2})
        choices << QStringLiteral("int%1[-sym][-gN|-row]").arg(bits);
    for (const char *method : {"awq", "gptq"})
        for (int bits : {4, 3, 2})
            choices << QStringLiteral("%1-int%2[-gN|-row]").arg(QLatin1String(method)).arg(bits);
    return choices + enumChoices(fixedKindSpellings, std::not_fn(beforeInt)) +
           QStringList{QStringLiteral("fp8-e4m3+a-fp8-token"), QStringLiteral("fp8-e4m3+a-fp8-g128"),
                       QStringLiteral("int8+a-int8-token"), QStringLiteral("mxfp4+a-mxfp8")};
}

int validateGroupSize(std::int64_t groupSize, const QString &option)
{
    if (groupSize != WholeRow && groupSize < 1)
        throw Error(QStringLiteral("%1: %2 is not a group size (a positive number of elements, or -1 for one "
                                   "group per row)")
                        .arg(option)
                        .arg(groupSize));
    if (groupSize > std::numeric_limits<int>::max())
        throw Error(QStringLiteral("%1: %2 is larger than %3")
                        .arg(option)
                        .arg(groupSize)
                        .arg(std::numeric_limits<int>::max()));
    return int(groupSize);
}

namespace {

/// The weight format of a scheme name without its activations' suffix.
Scheme parseWeightScheme(const QString &text, const QString &name, const SchemeDefaults &defaults,
                         const QString &option)
{
    Scheme scheme;
    scheme.saturate = defaults.saturate;
    scheme.unitScale = defaults.unitScale;
    scheme.groupSize = defaults.groupSize;

    if (const auto kind = enumValue(fixedKindSpellings, name)) {
        scheme.kind = *kind;
        return scheme;
    }

    static const QRegularExpression intPattern(
        QStringLiteral("^(?:(awq|gptq)-)?int([234])(-sym)?(?:-(?:g(\\d+)|(row)))?$"));
    const QRegularExpressionMatch match = intPattern.match(name);
    if (!match.hasMatch())
        unknownScheme(option, text);
    scheme.kind = SchemeKind::Int;
    scheme.bits = match.captured(2).toInt();
    scheme.symmetric = match.hasCaptured(3);
    if (match.hasCaptured(1)) {
        if (scheme.symmetric)
            throw Error(QStringLiteral("%1: '%2': the method sets the grid (AWQ asymmetric with zero points, "
                                       "GPTQ symmetric, as AutoGPTQ's default); drop '-sym'")
                            .arg(option, text));
        scheme.method = match.captured(1) == QLatin1String("awq") ? IntMethod::Awq : IntMethod::Gptq;
        scheme.symmetric = scheme.method == IntMethod::Gptq;
    }
    if (match.hasCaptured(5)) {
        scheme.groupSize = WholeRow;
    } else if (match.hasCaptured(4)) {
        const IntegerText group = IntegerText::read(match.captured(4));
        if (group.above(std::numeric_limits<int>::max()))
            throw Error(QStringLiteral("%1: '%2' has group size %3, larger than %4")
                            .arg(option, text, match.captured(4))
                            .arg(std::numeric_limits<int>::max()));
        if (group.value < 1)
            throw Error(QStringLiteral("%1: '%2' has group size %3; it must be a positive number of elements")
                            .arg(option, text, match.captured(4)));
        scheme.groupSize = int(group.value);
    }
    validateGroupSize(scheme.groupSize, option);
    return scheme;
}

} // namespace

Scheme parseScheme(const QString &text, const SchemeDefaults &defaults, const QString &option)
{
    QString name = text.trimmed().toLower();
    // A W8A8 kernel's activations: "fp8-e4m3+a-fp8-token", "int8+a-int8-token".
    ActivationQuantization activations = ActivationQuantization::None;
    if (const qsizetype plus = name.indexOf(QLatin1Char('+')); plus >= 0) {
        const std::optional<ActivationQuantization> how = activationQuantizationFromSuffix(name.mid(plus));
        if (!how)
            throw Error(QStringLiteral("%1: '%2': unknown activation quantization '%3' (choose +a-fp8-token, "
                                       "+a-fp8-g128, +a-int8-token or +a-mxfp8)")
                            .arg(option, text, name.mid(plus)));
        activations = *how;
        name = name.left(plus);
    }
    Scheme scheme = parseWeightScheme(text, name, defaults, option);
    if (activations != ActivationQuantization::None) {
        // The weights each kind of activations multiplies in the engines' kernels: vLLM's W8A8 kernels,
        // and FlashInfer's MXFP4 x MXFP8 MoE kernel.
        struct Pairing
        {
            SchemeKind weights;
            const char *activationsName;
            const char *weightsName;
        };
        const Pairing pairing =
            activations == ActivationQuantization::Int8PerToken ? Pairing{SchemeKind::Int8, "INT8", "int8"}
            : activations == ActivationQuantization::Mxfp8      ? Pairing{SchemeKind::Mxfp4, "MXFP8", "mxfp4"}
                                                           : Pairing{SchemeKind::Fp8E4M3, "FP8", "fp8-e4m3"};
        if (scheme.kind != pairing.weights)
            throw Error(QStringLiteral("%1: '%2': %3 activations pair with %4 weights, as the engines' "
                                       "kernels run them")
                            .arg(option, text, QLatin1String(pairing.activationsName),
                                 QLatin1String(pairing.weightsName)));
        scheme.activations = activations;
    }
    return scheme;
}

QList<Scheme> parseSchemeList(const QStringList &texts, const SchemeDefaults &defaults, const QString &option)
{
    QList<Scheme> schemes;
    for (const QString &text : texts) {
        for (const QString &part : text.split(QLatin1Char(','), Qt::SkipEmptyParts)) {
            const Scheme scheme = parseScheme(part, defaults, option);
            if (!schemes.contains(scheme))
                schemes << scheme;
        }
    }
    if (schemes.isEmpty())
        throw Error(QStringLiteral("%1: no scheme given").arg(option));
    return schemes;
}

std::int64_t UnitLayout::unitCount() const
{
    if (rowAligned)
        return rows * unitsPerRow();
    return (rows * cols + length - 1) / length;
}

std::int64_t UnitLayout::unitStart(std::int64_t unit) const
{
    if (!rowAligned)
        return unit * length;
    const std::int64_t perRow = unitsPerRow();
    return (unit / perRow) * cols + (unit % perRow) * length;
}

std::int64_t UnitLayout::unitLength(std::int64_t unit) const
{
    if (!rowAligned)
        return std::min(length, rows * cols - unit * length);
    const std::int64_t column = (unit % unitsPerRow()) * length;
    return std::min(length, cols - column);
}

std::int64_t UnitLayout::unitOf(std::int64_t index) const
{
    if (!rowAligned)
        return index / length;
    return (index / cols) * unitsPerRow() + (index % cols) / length;
}

UnitLayout unitLayout(const Scheme &scheme, std::int64_t rows, std::int64_t cols)
{
    UnitLayout layout;
    layout.rows = rows;
    layout.cols = cols;
    layout.length = cols;
    switch (scheme.kind) {
    case SchemeKind::Int:
        if (scheme.groupSize != WholeRow)
            layout.length = std::min<std::int64_t>(scheme.groupSize, cols);
        break;
    case SchemeKind::Nf4:
        layout.length = 64;
        layout.rowAligned = false; // bitsandbytes blocks the flattened tensor
        break;
    case SchemeKind::Mxfp4:
        layout.length = std::min<std::int64_t>(32, cols);
        break;
    case SchemeKind::Nvfp4:
    case SchemeKind::Fp4MxBlock16:
        layout.length = std::min<std::int64_t>(16, cols);
        break;
    default:
        break;
    }
    return layout;
}

double bitsPerWeight(const Scheme &scheme, std::int64_t rows, std::int64_t cols)
{
    const double elements = double(rows) * double(cols);
    const double units = double(unitLayout(scheme, rows, cols).unitCount());
    switch (scheme.kind) {
    case SchemeKind::Fp16:
    case SchemeKind::Bf16:
        return 16.0;
    case SchemeKind::Fp8E4M3:
    case SchemeKind::Fp8E5M2:
        return 8.0 + 32.0 / elements;
    case SchemeKind::Int8:
        return 8.0 + 32.0 * units / elements;
    case SchemeKind::Int:
        return scheme.bits + (16.0 + scheme.bits) * units / elements;
    case SchemeKind::Nf4:
        return 4.0 + 32.0 * units / elements;
    case SchemeKind::Mxfp4:
    case SchemeKind::Fp4MxBlock16:
        return 4.0 + 8.0 * units / elements;
    case SchemeKind::Nvfp4:
        return 4.0 + (8.0 * units + 32.0) / elements;
    }
    return 0.0;
}

} // namespace kvscope::quant
