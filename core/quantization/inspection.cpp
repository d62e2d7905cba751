// SPDX-License-Identifier: MIT
#include "core/quantization/inspection.h"

#include "core/common/error.h"
#include "core/quantization/kernels.h"

#include <vector>

namespace kvscope::quant {

QString formatNumber(double value, int digits)
{
    QString text = QString::number(value, 'g', digits);
    return text.replace(QLatin1Char('-'), QChar(0x2212)); // a real minus sign, as in printed formulas
}

QString GroupInspection::workedExample(int digits) const
{
    const int i = chosen;
    return QStringLiteral("(%1 %2 %3) × %4 = %5")
        .arg(formatNumber(codes.value(i), digits), QString(QChar(0x2212)), formatNumber(grid.zero, digits),
             formatNumber(grid.scale, digits), formatNumber(dequantized.value(i), digits));
}

std::int64_t groupsPerRow(const Scheme &scheme, std::int64_t cols)
{
    return unitLayout(scheme, 1, cols).unitsPerRow();
}

GroupInspection inspectGroup(const TensorData &tensor, const Scheme &scheme, std::int64_t row,
                             std::int64_t group, int index)
{
    if (!scheme.isInteger())
        throw Error(QStringLiteral("group inspection needs an integer scheme, not %1").arg(scheme.id()));
    const UnitLayout layout = unitLayout(scheme, tensor.rows(), tensor.cols());
    if (row < 0 || row >= tensor.rows())
        throw Error(QStringLiteral("row %1 is outside 0..%2").arg(row).arg(tensor.rows() - 1));
    if (group < 0 || group >= layout.unitsPerRow())
        throw Error(QStringLiteral("group %1 is outside 0..%2").arg(group).arg(layout.unitsPerRow() - 1));
    const std::int64_t unit = row * layout.unitsPerRow() + group;
    const std::int64_t length = layout.unitLength(unit);
    if (index < 0 || index >= length)
        throw Error(QStringLiteral("weight %1 is outside 0..%2 of the group").arg(index).arg(length - 1));

    GroupInspection g;
    g.scheme = scheme;
    g.row = row;
    g.group = group;
    g.firstColumn = group * layout.length;
    g.chosen = index;
    std::vector<float> buffer(static_cast<size_t>(length));
    const float *w = tensor.floats(layout.unitStart(unit), length, buffer.data());
    kernels::minMax(w, length, g.min, g.max);
    g.grid = intGrid(intRule(scheme), scheme.bits, g.min, g.max);
    for (std::int64_t i = 0; i < length; ++i) {
        bool clipped = false;
        const float q = intCode(w[i], g.grid, clipped);
        g.weights << w[i];
        g.codes << q;
        g.dequantized << (q - g.grid.zero) * g.grid.scale;
    }
    return g;
}

} // namespace kvscope::quant
