// SPDX-License-Identifier: MIT
#pragma once

#include "core/quantization/activations.h"
#include "core/quantization/simulator.h"
#include "core/quantization/tensorsource.h"

#include <optional>

#include <QList>
#include <QString>

namespace kvscope::cli {

/// The figures of each scheme as an aligned table under a line about the tensor.
QString resultsText(const quant::TensorData &tensor, const quant::TensorStats &stats,
                    const QList<quant::SchemeResult> &results,
                    const std::optional<quant::ActivationSummary> &activations = std::nullopt);

/// One line per tensor: name, dtype, shape, and why it cannot be used if so.
QString tensorListText(const QList<quant::TensorInfo> &tensors);

} // namespace kvscope::cli
