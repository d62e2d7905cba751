// SPDX-License-Identifier: MIT
#include "quantization/quantsettings.h"

#include "quantization/scheme.h"
#include "settings/settingkeys.h"

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

} // namespace quantsettings
} // namespace kvscope
