// SPDX-License-Identifier: MIT
#pragma once

#include "core/quantization/scheme.h"

#include <QColor>
#include <QPalette>

namespace kvscope {

/// One fixed colour per format, so a scheme looks the same in every chart
/// and overlaid histograms never share a colour (the chart theme has five).
/// The one near-black colour turns near-white on a dark palette.
QColor schemeColor(const quant::Scheme &scheme, const QPalette &palette);

} // namespace kvscope
