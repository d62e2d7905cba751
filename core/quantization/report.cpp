// SPDX-License-Identifier: MIT
#include "core/quantization/report.h"

#include <cmath>

namespace kvscope::quant {

namespace {

QJsonValue number(double value)
{
    return std::isfinite(value) ? QJsonValue(value) : QJsonValue(QJsonValue::Null);
}

QJsonArray shapeArray(const QList<std::int64_t> &shape)
{
    QJsonArray array;
    for (std::int64_t d : shape)
        array << qint64(d);
    return array;
}

void appendHistogram(QByteArray &csv, const char *kind, const QString &scheme, const Histogram &h)
{
    const QByteArray prefix = QByteArray(kind) + ',' + scheme.toUtf8() + ',';
    for (int bin = 0; bin < h.bins(); ++bin)
        csv += prefix + QByteArray::number(bin) + ',' + QByteArray::number(h.binLower(bin), 'g', 10) + ',' +
               QByteArray::number(h.binLower(bin + 1), 'g', 10) + ',' + QByteArray::number(h.counts[bin]) +
               '\n';
    csv += prefix + "below,," + QByteArray::number(h.lo, 'g', 10) + ',' + QByteArray::number(h.below) + '\n';
    csv += prefix + "above," + QByteArray::number(h.hi, 'g', 10) + ",," + QByteArray::number(h.above) + '\n';
    csv += prefix + "non_finite,,," + QByteArray::number(h.nonFinite) + '\n';
}

} // namespace

QJsonObject resultToJson(const SchemeResult &result, const TensorData &tensor)
{
    const ErrorMetrics &m = result.metrics;
    QJsonObject o;
    o.insert(QLatin1String("scheme"), result.scheme.id());
    o.insert(QLatin1String("description"), result.scheme.description());
    o.insert(QLatin1String("source"), tensor.origin());
    o.insert(QLatin1String("tensor"), tensor.name());
    o.insert(QLatin1String("rows"), qint64(result.rows));
    o.insert(QLatin1String("cols"), qint64(result.cols));
    o.insert(QLatin1String("elements"), qint64(m.elements));
    o.insert(QLatin1String("bits_per_weight"), result.bitsPerWeight);
    o.insert(QLatin1String("mse"), number(m.mse));
    o.insert(QLatin1String("sqnr_db"), number(m.sqnrDb));
    o.insert(QLatin1String("output_sqnr_db"),
             result.outputSqnrDb ? number(*result.outputSqnrDb) : QJsonValue(QJsonValue::Null));
    if (result.scheme.isCalibrated() && result.scheme.method == IntMethod::Awq)
        o.insert(QLatin1String("awq_alpha"), result.awqAlpha);
    o.insert(QLatin1String("max_abs_error"), number(m.maxAbsError));
    o.insert(QLatin1String("mean_abs_error"), number(m.meanAbsError));
    o.insert(QLatin1String("cosine_similarity"), number(m.cosineSimilarity));
    o.insert(QLatin1String("clipped"), qint64(m.clipped));
    o.insert(QLatin1String("clipped_share"), m.clippedShare());
    o.insert(QLatin1String("flushed"), qint64(m.flushed));
    o.insert(QLatin1String("flushed_share"), m.flushedShare());
    o.insert(QLatin1String("non_finite"), qint64(m.nonFinite));
    if (result.scheme.isFp8()) {
        o.insert(QLatin1String("fp8_scale"), result.tensorScale);
        o.insert(QLatin1String("saturate"), result.scheme.saturate);
    }
    o.insert(QLatin1String("error_range"), QJsonArray{result.error.lo, result.error.hi});
    return o;
}

QJsonArray tensorListToJson(const QList<TensorInfo> &tensors)
{
    QJsonArray array;
    for (const TensorInfo &t : tensors) {
        QJsonObject o;
        o.insert(QLatin1String("name"), t.name);
        o.insert(QLatin1String("dtype"), t.dtype);
        o.insert(QLatin1String("shape"), shapeArray(t.shape));
        o.insert(QLatin1String("usable"), t.unusableReason.isEmpty());
        if (!t.unusableReason.isEmpty())
            o.insert(QLatin1String("reason"), t.unusableReason);
        array << o;
    }
    return array;
}

QByteArray histogramsCsv(const QList<SchemeResult> &results, const Histogram *values)
{
    QByteArray csv = "histogram,scheme,bin,lower,upper,count\n";
    for (const SchemeResult &r : results) {
        appendHistogram(csv, "error", r.scheme.id(), r.error);
        if (r.relativeError.bins() > 0)
            appendHistogram(csv, "relative_error", r.scheme.id(), r.relativeError);
    }
    if (values)
        appendHistogram(csv, "values", QString(), *values);
    return csv;
}

QByteArray valuesCsv(const Histogram &values, const QuantizationGrid &grid, const QString &gridScheme)
{
    QByteArray csv = histogramsCsv({}, &values);
    const QByteArray prefix = "grid," + gridScheme.toUtf8() + ',';
    for (qsizetype i = 0; i < grid.values.size(); ++i) {
        const QByteArray value = QByteArray::number(grid.values.at(i), 'g', 10);
        csv += prefix + QByteArray::number(i) + ',' + value + ',' + value + ",\n";
    }
    return csv;
}

QByteArray resultsCsv(const QList<SchemeResult> &results)
{
    QByteArray csv = "scheme,bits_per_weight,sqnr_db,mse,max_abs_error,mean_abs_error,cosine_similarity,"
                     "clipped_share,flushed_share\n";
    const auto figure = [](double value) {
        return std::isfinite(value) ? QByteArray::number(value, 'g', 10) : QByteArray();
    };
    for (const SchemeResult &r : results) {
        const ErrorMetrics &m = r.metrics;
        csv += r.scheme.id().toUtf8() + ',' + figure(r.bitsPerWeight) + ',' + figure(m.sqnrDb) + ',' +
               figure(m.mse) + ',' + figure(m.maxAbsError) + ',' + figure(m.meanAbsError) + ',' +
               figure(m.cosineSimilarity) + ',' + figure(m.clippedShare()) + ',' + figure(m.flushedShare()) +
               '\n';
    }
    return csv;
}

} // namespace kvscope::quant
