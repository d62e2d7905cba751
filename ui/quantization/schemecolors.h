// SPDX-License-Identifier: MIT
#pragma once

#include "quantization/scheme.h"

#include <QColor>

namespace kvscope {

/// One fixed colour per format, so a scheme looks the same in every chart
/// and overlaid histograms never share a colour (the chart theme has five).
QColor schemeColor(const quant::Scheme &scheme);

} // namespace kvscope
