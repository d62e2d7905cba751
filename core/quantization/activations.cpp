// SPDX-License-Identifier: MIT
#include "core/quantization/activations.h"

#include "core/common/checked.h"
#include "core/common/error.h"
#include "core/quantization/synthetic.h"
#include "core/quantization/tensorsource.h"

#include <cmath>

namespace kvscope::quant {

namespace {

/// Mixed into the seed so that activations and weights drawn with the same seed differ.
constexpr std::uint64_t ActivationSalt = 0x61637469766174ull; // "activat"

Activations syntheticActivations(const SyntheticActivations &spec, std::int64_t channels,
                                 const RunControl &control, const QString &option)
{
    if (channels > MaxSyntheticDimension)
        throw Error(
            QStringLiteral("%1: synthetic activations are at most %2 channels wide; the weights have %3 "
                           "input channels (columns): give a .npy file of activations")
                .arg(option)
                .arg(MaxSyntheticDimension)
                .arg(channels));
    SyntheticSpec values;
    values.kind = SyntheticKind::Gaussian;
    values.rows = (Checked(spec.calibrationRows) + spec.heldOutRows).value();
    values.cols = channels;
    values.seed = spec.seed ^ ActivationSalt;
    values.standardDeviation = 1.0;
    TensorData tensor = generateSynthetic(values, control);

    Activations a;
    a.channels = channels;
    a.calibrationRows = spec.calibrationRows;
    a.heldOutRows = spec.heldOutRows;
    const float *data = tensor.floats(0, tensor.elements(), nullptr);
    a.values.assign(data, data + tensor.elements());
    const QList<ActivationOutlier> outliers =
        spec.outliers ? activationOutliers(channels, spec.seed) : QList<ActivationOutlier>();
    for (const ActivationOutlier &outlier : outliers)
        for (std::int64_t row = 0; row < values.rows; ++row) {
            float &x = a.values[size_t(row * channels + outlier.channel)];
            x = float(outlier.multiplier * (outlier.offset + double(x)));
        }
    a.description = outliers.isEmpty()
                        ? QStringLiteral("synthetic N(0, 1) in every channel, seed %1").arg(spec.seed)
                        : QStringLiteral("synthetic N(0, 1); %1 of %2 channels outliers, m (±%3 + N(0, 1)) "
                                         "with m from %4 to %5; seed %6")
                              .arg(outliers.size())
                              .arg(channels)
                              .arg(OutlierOffset)
                              .arg(SmallestOutlierMultiplier)
                              .arg(LargestOutlierMultiplier)
                              .arg(spec.seed);
    return a;
}

QString shapeText(std::int64_t rows, std::int64_t cols)
{
    return QStringLiteral("[%1, %2]").arg(rows).arg(cols);
}

Activations fileActivations(const ActivationFile &file, std::int64_t channels, const QString &option)
{
    TensorData tensor;
    try {
        tensor = openTensor(file.path);
    } catch (const Error &error) {
        throw Error(QStringLiteral("%1: %2").arg(option, error.message()));
    }
    const QString shape = shapeText(tensor.rows(), tensor.cols());
    if (tensor.cols() != channels)
        throw Error(
            QStringLiteral("%1: %2 holds activations of shape %3 [tokens, channels]; the weights have "
                           "%4 input channels (columns), so it needs %4 columns")
                .arg(option, file.path, shape)
                .arg(channels));
    if (tensor.rows() < 2 || tensor.rows() > MaxActivationRows)
        throw Error(
            QStringLiteral("%1: %2 holds %3 rows of activations (shape %4); it needs 2 to %5 (some to "
                           "calibrate on, some held out)")
                .arg(option, file.path)
                .arg(tensor.rows())
                .arg(shape)
                .arg(MaxActivationRows));
    Activations a;
    a.channels = channels;
    a.heldOutRows = ceilDiv(tensor.rows(), 8);
    a.calibrationRows = tensor.rows() - a.heldOutRows;
    a.values.resize(size_t((Checked(tensor.rows()) * channels).value()));
    const float *data = tensor.floats(0, tensor.elements(), a.values.data());
    if (data != a.values.data())
        std::copy(data, data + tensor.elements(), a.values.begin());
    for (std::int64_t i = 0; i < tensor.elements(); ++i)
        if (!std::isfinite(a.values[size_t(i)]))
            throw Error(QStringLiteral("%1: %2 holds %3 at [%4, %5]; activations must be finite")
                            .arg(option, file.path, QString::number(a.values[size_t(i)]))
                            .arg(i / channels)
                            .arg(i % channels));
    a.description = QStringLiteral("%1 (%2, %3)").arg(file.path, elementTypeName(tensor.type()), shape);
    return a;
}

} // namespace

QString ActivationSummary::text() const
{
    return QStringLiteral("%1 held-out rows of %2 (AWQ and GPTQ fit on the other %3)")
        .arg(heldOutRows)
        .arg(description)
        .arg(calibrationRows);
}

ActivationSource parseActivationSource(const QString &text, const QString &option)
{
    const QString trimmed = text.trimmed();
    if (trimmed.compare(QLatin1String("synthetic"), Qt::CaseInsensitive) == 0)
        return SyntheticActivations{};
    if (!trimmed.endsWith(QLatin1String(".npy"), Qt::CaseInsensitive))
        throw Error(QStringLiteral("%1: '%2' is neither 'synthetic' nor a .npy file").arg(option, text));
    return ActivationFile{trimmed};
}

QList<ActivationOutlier> activationOutliers(std::int64_t channels, std::uint64_t seed)
{
    const auto count =
        std::max<std::int64_t>(1, std::int64_t(std::ceil(OutlierChannelShare * double(channels))));
    const QList<std::int64_t> columns = pickColumns(seed ^ ActivationSalt, channels, count);
    QList<ActivationOutlier> outliers;
    for (qsizetype i = 0; i < columns.size(); ++i) {
        const double position = columns.size() > 1 ? double(i) / double(columns.size() - 1) : 1.0;
        outliers << ActivationOutlier{
            columns.at(i),
            SmallestOutlierMultiplier *
                std::pow(LargestOutlierMultiplier / SmallestOutlierMultiplier, position),
            (columns.at(i) % 2 == 0 ? 1.0 : -1.0) * OutlierOffset};
    }
    return outliers;
}

Activations loadActivations(const ActivationSource &source, std::int64_t channels, const RunControl &control,
                            const QString &option)
{
    if (const auto *spec = std::get_if<SyntheticActivations>(&source))
        return syntheticActivations(*spec, channels, control, option);
    return fileActivations(std::get<ActivationFile>(source), channels, option);
}

} // namespace kvscope::quant
