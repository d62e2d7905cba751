// SPDX-License-Identifier: MIT
#include "ui/state/quantsettings.h"

#include "core/common/error.h"
#include "core/quantization/scheme.h"
#include "ui/state/settingkeys.h"

namespace kvscope {

SchemeChoice::SchemeChoice()
{
    for (const quant::SchemeEntry &entry : quant::schemeEntries())
        if (entry.checkedByDefault)
            names << QLatin1String(entry.name);
}

namespace quantsettings {

QuantSettings load(settings::SettingsReader &reader)
{
    const settings::QuantizationKeys &k = settings::quantizationKeys();
    QuantSettings s;
    s.source.synthetic = reader.read(k.synthetic);
    quant::SyntheticSpec &spec = s.source.spec;
    spec.kind = reader.read(k.kind);
    spec.rows = reader.read(k.rows);
    spec.cols = reader.read(k.cols);
    spec.seed = reader.read(k.seed);
    spec.standardDeviation = reader.read(k.standardDeviation);
    s.source.path = reader.read(k.path);
    s.source.tensor = reader.read(k.tensor);
    s.schemes.names = reader.read(k.schemes);
    s.schemes.groupSize = reader.read(k.groupSize);
    s.schemes.bins = reader.read(k.bins);
    s.schemes.saturate = reader.read(k.fp8Saturate);
    s.schemes.unitScale = reader.read(k.fp8UnitScale);
    s.relativeError = reader.read(k.relativeError);
    s.logY = reader.read(k.logY);
    return s;
}

void save(const QuantSettings &s)
{
    const settings::QuantizationKeys &k = settings::quantizationKeys();
    settings::SettingsWriter writer;
    writer.write(k.synthetic, s.source.synthetic);
    writer.write(k.kind, s.source.spec.kind);
    writer.write(k.rows, s.source.spec.rows);
    writer.write(k.cols, s.source.spec.cols);
    writer.write(k.seed, s.source.spec.seed);
    writer.write(k.standardDeviation, s.source.spec.standardDeviation);
    writer.write(k.path, s.source.path);
    writer.write(k.tensor, s.source.tensor);
    writer.write(k.schemes, s.schemes.names);
    writer.write(k.groupSize, s.schemes.groupSize);
    writer.write(k.bins, s.schemes.bins);
    writer.write(k.fp8Saturate, s.schemes.saturate);
    writer.write(k.fp8UnitScale, s.schemes.unitScale);
    writer.write(k.relativeError, s.relativeError);
    writer.write(k.logY, s.logY);
}

namespace {

const QString SyntheticPrefix = QStringLiteral("synthetic:");

} // namespace

QuantizationChoices toChoices(const QuantSettings &s)
{
    QuantizationChoices c;
    if (s.source.synthetic) {
        c.input = SyntheticPrefix + quant::syntheticKindName(s.source.spec.kind);
    } else {
        c.input = s.source.path;
        c.tensor = s.source.tensor;
    }
    c.rows = s.source.spec.rows;
    c.cols = s.source.spec.cols;
    c.seed = s.source.spec.seed;
    c.standardDeviation = s.source.spec.standardDeviation;
    c.schemes = s.schemes.names;
    c.groupSize = s.schemes.groupSize;
    c.bins = s.schemes.bins;
    c.saturate = s.schemes.saturate;
    c.unitScale = s.schemes.unitScale;
    c.relativeError = s.relativeError;
    c.logCounts = s.logY;
    return c;
}

QuantSettings fromChoices(const QuantizationChoices &c, const QString &origin)
{
    const auto refuse = [&origin](const char *field, const QString &problem) {
        throw Error(QStringLiteral("%1: quantization.%2: %3").arg(origin, QLatin1String(field), problem));
    };
    QuantSettings s;
    s.source.synthetic = c.input.startsWith(SyntheticPrefix);
    if (s.source.synthetic) {
        s.source.spec.kind = quant::parseSyntheticKind(c.input.mid(SyntheticPrefix.size()));
    } else {
        s.source.path = c.input;
        s.source.tensor = c.tensor;
    }
    s.source.spec.rows = c.rows;
    s.source.spec.cols = c.cols;
    if (c.seed > std::uint64_t(MaxSyntheticSeed))
        refuse("seed", QStringLiteral("%1 is more than the view's %2").arg(c.seed).arg(MaxSyntheticSeed));
    s.source.spec.seed = c.seed;
    if (c.standardDeviation > MaxSyntheticStd)
        refuse("std",
               QStringLiteral("%1 is more than the view's %2").arg(c.standardDeviation).arg(MaxSyntheticStd));
    s.source.spec.standardDeviation = c.standardDeviation;
    QStringList offered;
    for (const quant::SchemeEntry &entry : quant::schemeEntries())
        offered << QLatin1String(entry.name);
    for (const QString &name : c.schemes)
        if (!offered.contains(name))
            refuse("scheme", QStringLiteral("'%1' is not one the view offers (%2)")
                                 .arg(name, offered.join(QStringLiteral(", "))));
    s.schemes.names = c.schemes;
    if (!quant::groupSizeStops().contains(c.groupSize))
        refuse("group-size", QStringLiteral("%1 is not one the view offers").arg(c.groupSize));
    s.schemes.groupSize = c.groupSize;
    s.schemes.bins = c.bins;
    s.schemes.saturate = c.saturate;
    s.schemes.unitScale = c.unitScale;
    s.relativeError = c.relativeError;
    s.logY = c.logCounts;
    return s;
}

quant::QuantRequest quantRequest(const QuantizationChoices &c)
{
    QuantSource source;
    source.synthetic = c.input.startsWith(SyntheticPrefix);
    if (source.synthetic) {
        source.spec.kind = quant::parseSyntheticKind(c.input.mid(SyntheticPrefix.size()));
        source.spec.rows = c.rows;
        source.spec.cols = c.cols;
        source.spec.seed = c.seed;
        source.spec.standardDeviation = c.standardDeviation;
    } else {
        source.path = c.input;
        source.tensor = c.tensor;
    }
    quant::SchemeDefaults defaults;
    defaults.groupSize = c.groupSize;
    defaults.saturate = c.saturate;
    defaults.unitScale = c.unitScale;
    quant::QuantRequest request;
    request.source = source.selected();
    request.schemes = quant::parseSchemeList(c.schemes, defaults);
    request.options.bins = c.bins;
    return request;
}

} // namespace quantsettings
} // namespace kvscope
