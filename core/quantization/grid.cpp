// SPDX-License-Identifier: MIT
#include "core/quantization/grid.h"

#include "core/common/error.h"
#include "core/quantization/kernels.h"
#include "core/quantization/quantizers.h"

#include <algorithm>
#include <vector>

namespace kvscope::quant {

namespace {

struct CodeSpace
{
    int exponentBits;
    int mantissaBits;
    bool e4m3fn; ///< only S.1111.111 is NaN; otherwise the top exponent is inf/NaN
};

/// Every finite value of a format, scaled, that falls in [lo, hi].
QuantizationGrid enumerateCodes(const CodeSpace &space, double scale, double lo, double hi, int maxPoints)
{
    QuantizationGrid grid;
    grid.unit = QStringLiteral("whole tensor");
    const int bias = (1 << (space.exponentBits - 1)) - 1;
    const std::uint32_t codes = 1u << (1 + space.exponentBits + space.mantissaBits);
    const std::uint32_t topExponent = (1u << space.exponentBits) - 1u;
    const std::uint32_t mantissaMask = (1u << space.mantissaBits) - 1u;
    for (std::uint32_t code = 0; code < codes; ++code) {
        const std::uint32_t exponent = (code >> space.mantissaBits) & topExponent;
        const bool special = space.e4m3fn ? (exponent == topExponent && (code & mantissaMask) == mantissaMask)
                                          : exponent == topExponent;
        if (special)
            continue;
        const double value = decodeMinifloat(code, space.exponentBits, space.mantissaBits, bias) * scale;
        if (value < lo || value > hi || (value == 0 && code != 0))
            continue; // -0 duplicates +0
        if (grid.values.size() == maxPoints) {
            grid.values.clear();
            grid.tooDense = true;
            return grid;
        }
        grid.values << value;
    }
    std::sort(grid.values.begin(), grid.values.end());
    return grid;
}

QuantizationGrid fromPoints(const QList<double> &points, double lo, double hi, const QString &unit)
{
    QuantizationGrid grid;
    grid.unit = unit;
    for (double p : points)
        if (p >= lo && p <= hi && !grid.values.contains(p))
            grid.values << p;
    std::sort(grid.values.begin(), grid.values.end());
    return grid;
}

} // namespace

QuantizationGrid quantizationGrid(const TensorData &tensor, const TensorStats &stats, const Scheme &scheme,
                                  std::int64_t row, std::int64_t column, double lo, double hi, int maxPoints)
{
    switch (scheme.kind) {
    case SchemeKind::Fp16:
        return enumerateCodes({5, 10, false}, 1.0, lo, hi, maxPoints);
    case SchemeKind::Bf16:
        return enumerateCodes({8, 7, false}, 1.0, lo, hi, maxPoints);
    case SchemeKind::Fp8E4M3:
        return enumerateCodes({4, 3, true}, fp8Tensor(scheme, stats.amax()).scale, lo, hi, maxPoints);
    case SchemeKind::Fp8E5M2:
        return enumerateCodes({5, 2, false}, fp8Tensor(scheme, stats.amax()).scale, lo, hi, maxPoints);
    default:
        break;
    }

    row = std::clamp<std::int64_t>(row, 0, tensor.rows() - 1);
    column = std::clamp<std::int64_t>(column, 0, tensor.cols() - 1);
    const UnitLayout layout = unitLayout(scheme, tensor.rows(), tensor.cols());
    const std::int64_t unit = layout.unitOf(row * tensor.cols() + column);
    const std::int64_t length = layout.unitLength(unit);
    std::vector<float> buffer(static_cast<size_t>(length));
    float min = 0, max = 0;
    kernels::minMax(tensor.floats(layout.unitStart(unit), length, buffer.data()), length, min, max);
    const float amax = std::max(std::fabs(min), std::fabs(max));

    QList<double> points;
    QString name;
    if (scheme.isInteger()) {
        const IntGrid g = intGrid(intRule(scheme), scheme.bits, min, max);
        for (float q = g.qmin; q <= g.qmax; q += 1.0f)
            points << double((q - g.zero) * g.scale);
        name = scheme.kind == SchemeKind::Int8
                   ? QStringLiteral("row %1").arg(row)
                   : QStringLiteral("row %1, group %2").arg(row).arg(column / layout.length);
    } else if (scheme.kind == SchemeKind::Nf4) {
        for (float code : Nf4Codes)
            points << double(code * amax);
        name = QStringLiteral("block %1").arg(unit);
    } else {
        const float scale = scheme.kind == SchemeKind::Nvfp4
                                ? nvfp4Block(amax, fp8Tensor(scheme, stats.amax()).scale).scale
                            : scheme.kind == SchemeKind::Fp4MxBlock16 ? fp4MxBlock16Block(amax).scale
                                                                      : mxfp4Block(amax).scale;
        for (float v : {0.0f, 0.5f, 1.0f, 1.5f, 2.0f, 3.0f, 4.0f, 6.0f}) {
            points << double(v * scale) << double(-v * scale);
        }
        name = QStringLiteral("row %1, block %2").arg(row).arg(column / layout.length);
    }
    return fromPoints(points, lo, hi, name);
}

} // namespace kvscope::quant
