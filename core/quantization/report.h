// SPDX-License-Identifier: MIT
// Simulator results as JSON (kvscope quant --json) and histograms as CSV
// (--histogram), shared by the command line and the window's export.
#pragma once

#include "core/quantization/grid.h"
#include "core/quantization/simulator.h"
#include "core/quantization/tensorsource.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QList>
#include <QString>

namespace kvscope::quant {

/// One scheme's figures: scheme, description, source, tensor, rows, cols,
/// elements, bits_per_weight, mse, sqnr_db, output_sqnr_db (null without
/// activations), awq_alpha (AWQ only), max_abs_error, mean_abs_error,
/// cosine_similarity, clipped, clipped_share, flushed, flushed_share,
/// non_finite, fp8_scale (FP8 only), error_range. Figures that are not
/// finite (SQNR of an exact result, errors after an overflow to NaN) are null.
QJsonObject resultToJson(const SchemeResult &result, const TensorData &tensor);

/// A file's tensors: name, dtype, shape, usable, reason.
QJsonArray tensorListToJson(const QList<TensorInfo> &tensors);

/// CSV with columns histogram,scheme,bin,lower,upper,count: for each scheme
/// its "error" and "relative_error" bins, then rows "below", "above" and
/// "non_finite" (lower/upper empty) so every element is counted once, and the
/// tensor's "values" histogram (scheme empty) when given.
QByteArray histogramsCsv(const QList<SchemeResult> &results, const Histogram *values);

/// The values chart's data: histogramsCsv's "values" rows, then one row per
/// line of the quantization grid of `gridScheme`: histogram "grid", bin the
/// line's index, lower and upper its value, count empty.
QByteArray valuesCsv(const Histogram &values, const QuantizationGrid &grid, const QString &gridScheme);

/// Columns scheme,bits_per_weight,sqnr_db,mse,max_abs_error,mean_abs_error,
/// cosine_similarity,clipped_share,flushed_share: one row per scheme, figures
/// as resultToJson gives them (empty where not finite).
QByteArray resultsCsv(const QList<SchemeResult> &results);

} // namespace kvscope::quant
