// SPDX-License-Identifier: MIT
#include "quantization/quantsettings.h"

#include "quantization/histogram.h"
#include "quantization/scheme.h"

#include <cmath>
#include <optional>

#include <QSet>
#include <QSettings>

namespace kvscope {

namespace {

const QString SourceKey = QStringLiteral("quantization/source");
const QString KindKey = QStringLiteral("quantization/synthetic/kind");
const QString RowsKey = QStringLiteral("quantization/synthetic/rows");
const QString ColsKey = QStringLiteral("quantization/synthetic/cols");
const QString SeedKey = QStringLiteral("quantization/synthetic/seed");
const QString StdKey = QStringLiteral("quantization/synthetic/std");
const QString PathKey = QStringLiteral("quantization/file/path");
const QString TensorKey = QStringLiteral("quantization/file/tensor");
const QString SchemesKey = QStringLiteral("quantization/schemes");
const QString GroupSizeKey = QStringLiteral("quantization/groupSize");
const QString BinsKey = QStringLiteral("quantization/bins");
const QString SaturateKey = QStringLiteral("quantization/fp8Saturate");
const QString UnitScaleKey = QStringLiteral("quantization/fp8UnitScale");
const QString HistogramKey = QStringLiteral("quantization/histogram");
const QString LogYKey = QStringLiteral("quantization/logY");

const QStringList SourceChoices{QStringLiteral("synthetic"), QStringLiteral("file")};
const QStringList HistogramChoices{QStringLiteral("error"), QStringLiteral("relative")};

std::optional<qlonglong> integer(const QSettings &settings, const QString &key)
{
    bool ok = false;
    const qlonglong value = settings.value(key).toString().toLongLong(&ok);
    return ok ? std::optional<qlonglong>(value) : std::nullopt;
}

template <class T>
void readInteger(const QSettings &settings, const QString &key, qlonglong lo, qlonglong hi, T &field)
{
    if (const auto value = integer(settings, key); value && *value >= lo && *value <= hi)
        field = T(*value);
}

void readDouble(const QSettings &settings, const QString &key, double lo, double hi, double &field)
{
    bool ok = false;
    const double value = settings.value(key).toString().toDouble(&ok);
    if (ok && std::isfinite(value) && value >= lo && value <= hi)
        field = value;
}

/// Only the spellings QSettings writes: anything else (QVariant would read
/// "maybe" as true) keeps the default.
void readBool(const QSettings &settings, const QString &key, bool &field)
{
    const QString text = settings.value(key).toString();
    if (text == QLatin1String("true"))
        field = true;
    else if (text == QLatin1String("false"))
        field = false;
}

/// The position of the saved text among `choices`, or -1.
int readChoice(const QSettings &settings, const QString &key, const QStringList &choices)
{
    return int(choices.indexOf(settings.value(key).toString()));
}

/// The saved scheme names, when every one is offered and none repeats.
std::optional<QStringList> readSchemes(const QSettings &settings)
{
    if (!settings.contains(SchemesKey))
        return std::nullopt;
    // An empty list reads back as an invalid QVariant: nothing checked.
    const QStringList saved = settings.value(SchemesKey).toStringList();
    QStringList names;
    for (const quant::SchemeEntry &entry : quant::schemeEntries())
        if (saved.contains(QLatin1String(entry.name)))
            names << QLatin1String(entry.name);
    if (names.size() != saved.size() || QSet<QString>(saved.begin(), saved.end()).size() != saved.size())
        return std::nullopt;
    return names;
}

} // namespace

SchemeChoice::SchemeChoice()
{
    for (const quant::SchemeEntry &entry : quant::schemeEntries())
        if (entry.checkedByDefault)
            names << QLatin1String(entry.name);
}

namespace quantsettings {

QuantSettings load()
{
    const QSettings settings;
    QuantSettings s;
    if (const int source = readChoice(settings, SourceKey, SourceChoices); source >= 0)
        s.source.synthetic = source == 0;
    quant::SyntheticSpec &spec = s.source.spec;
    if (const int kind = readChoice(settings, KindKey, quant::syntheticKindChoices()); kind >= 0)
        spec.kind = quant::parseSyntheticKind(quant::syntheticKindChoices().at(kind));
    readInteger(settings, RowsKey, 1, quant::MaxSyntheticDimension, spec.rows);
    readInteger(settings, ColsKey, 1, quant::MaxSyntheticDimension, spec.cols);
    readInteger(settings, SeedKey, 0, MaxSyntheticSeed, spec.seed);
    readDouble(settings, StdKey, 0, MaxSyntheticStd, spec.standardDeviation);
    s.source.path = settings.value(PathKey).toString();
    s.source.tensor = settings.value(TensorKey).toString();

    if (const std::optional<QStringList> names = readSchemes(settings))
        s.schemes.names = *names;
    if (const auto group = integer(settings, GroupSizeKey); group && quant::groupSizeStops().contains(*group))
        s.schemes.groupSize = int(*group);
    readInteger(settings, BinsKey, quant::MinHistogramBins, quant::MaxHistogramBins, s.schemes.bins);
    readBool(settings, SaturateKey, s.schemes.saturate);
    readBool(settings, UnitScaleKey, s.schemes.unitScale);

    if (const int histogram = readChoice(settings, HistogramKey, HistogramChoices); histogram >= 0)
        s.relativeError = histogram == 1;
    readBool(settings, LogYKey, s.logY);
    return s;
}

void save(const QuantSettings &s)
{
    QSettings settings;
    settings.setValue(SourceKey, SourceChoices.at(s.source.synthetic ? 0 : 1));
    settings.setValue(KindKey, quant::syntheticKindName(s.source.spec.kind));
    settings.setValue(RowsKey, qlonglong(s.source.spec.rows));
    settings.setValue(ColsKey, qlonglong(s.source.spec.cols));
    settings.setValue(SeedKey, qulonglong(s.source.spec.seed));
    settings.setValue(StdKey, s.source.spec.standardDeviation);
    settings.setValue(PathKey, s.source.path);
    settings.setValue(TensorKey, s.source.tensor);
    settings.setValue(SchemesKey, s.schemes.names);
    settings.setValue(GroupSizeKey, s.schemes.groupSize);
    settings.setValue(BinsKey, s.schemes.bins);
    settings.setValue(SaturateKey, s.schemes.saturate);
    settings.setValue(UnitScaleKey, s.schemes.unitScale);
    settings.setValue(HistogramKey, HistogramChoices.at(s.relativeError ? 1 : 0));
    settings.setValue(LogYKey, s.logY);
}

} // namespace quantsettings
} // namespace kvscope
