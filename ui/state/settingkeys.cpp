// SPDX-License-Identifier: MIT
#include "ui/state/settingkeys.h"

#include "core/quantization/histogram.h"
#include "core/scenario/scenario.h"
#include "ui/state/quantsettings.h"
#include "ui/state/scenariocontroller.h"
#include "ui/state/translations.h"

#include <cmath>
#include <limits>
#include <type_traits>

#include <QSet>

namespace kvscope::settings {

namespace {

// How values are written and read back, by kind. Each reader throws
// kvscope::Error with the reason a saved value is unusable.

QString text(const QVariant &saved)
{
    return saved.toString();
}

template <class T> std::function<QVariant(const T &)> asItself()
{
    return [](const T &value) { return QVariant::fromValue(value); };
}

std::function<QVariant(const QString &)> asText()
{
    return [](const QString &value) { return QVariant(value); };
}

std::function<QString(const QVariant &)> anyText()
{
    return [](const QVariant &saved) { return text(saved); };
}

/// An integer in [lo, hi], saved as its decimal text (as qlonglong: QSettings
/// would write a plain `long` as binary).
template <class T>
Setting<T> integerSetting(const char *key, T defaultValue, qlonglong lo, qlonglong hi,
                          const QString &reason = {})
{
    return {key, defaultValue,
            [](const T &value) {
                if constexpr (std::is_unsigned_v<T>)
                    return QVariant(qulonglong(value));
                else
                    return QVariant(qlonglong(value));
            },
            [lo, hi, reason](const QVariant &saved) {
                bool ok = false;
                const qlonglong value = text(saved).toLongLong(&ok);
                if (!ok || value < lo || value > hi)
                    throw Error(reason.isEmpty()
                                    ? QStringLiteral("not an integer from %1 to %2").arg(lo).arg(hi)
                                    : reason);
                return T(value);
            }};
}

/// A non-negative count; the planner checks its range with the rest of the scenario.
template <class T> Setting<T> countSetting(const char *key, T defaultValue)
{
    return integerSetting<T>(key, defaultValue, 0, qlonglong(std::numeric_limits<T>::max()),
                             QStringLiteral("not a non-negative integer"));
}

/// Only the spellings QSettings writes: anything else (QVariant would read
/// "maybe" as true) is unusable.
Setting<bool> boolSetting(const char *key, bool defaultValue)
{
    return {key, defaultValue, asItself<bool>(), [](const QVariant &saved) {
                const QString t = text(saved);
                if (t != QLatin1String("true") && t != QLatin1String("false"))
                    throw Error(QStringLiteral("expected 'true' or 'false'"));
                return t == QLatin1String("true");
            }};
}

/// A flag saved as one of two words.
Setting<bool> twoWordSetting(const char *key, bool defaultValue, const char *whenFalse, const char *whenTrue)
{
    return {key, defaultValue,
            [whenFalse, whenTrue](const bool &value) {
                return QVariant(QLatin1String(value ? whenTrue : whenFalse));
            },
            [whenFalse, whenTrue](const QVariant &saved) {
                const QString t = text(saved);
                if (t != QLatin1String(whenTrue) && t != QLatin1String(whenFalse))
                    throw Error(QStringLiteral("expected '%1' or '%2'")
                                    .arg(QLatin1String(whenFalse), QLatin1String(whenTrue)));
                return t == QLatin1String(whenTrue);
            }};
}

/// A list of maps: none saved reads back as an invalid QVariant (empty).
Setting<QVariantList> mapListSetting(const char *key, const QString &what)
{
    return {key, {}, asItself<QVariantList>(), [what](const QVariant &saved) {
                if (!saved.isValid())
                    return QVariantList();
                if (saved.typeId() != QMetaType::QVariantList)
                    throw Error(QStringLiteral("not a list of %1").arg(what));
                return saved.toList();
            }};
}

/// Bytes Qt wrote (a geometry, a splitter state); whether Qt can restore
/// them is the reader's check.
Setting<QByteArray> bytesSetting(const char *key)
{
    return {key, {}, asItself<QByteArray>(), [](const QVariant &saved) {
                if (saved.typeId() != QMetaType::QByteArray)
                    throw Error(QStringLiteral("not saved window state"));
                return saved.toByteArray();
            }};
}

ScenarioKeys makeScenarioKeys()
{
    const Scenario defaults = ScenarioController::defaultScenario();
    return {
        {"scenario/model", defaults.model.id, asText(), anyText()},
        {"scenario/gpu", defaults.gpu.id, asText(), anyText()},
        countSetting<std::int64_t>("scenario/tensorParallelSize", defaults.tensorParallelSize),
        {"scenario/dtype", defaults.dtype, [](const WeightDtype &d) { return QVariant(dtypeName(d)); },
         [](const QVariant &saved) { return parseWeightDtype(text(saved)); }},
        // No checkpoint quantization forced: "auto", as vLLM's default.
        {"scenario/quantization", QStringLiteral("auto"), asText(), anyText()},
        {"scenario/groupSize", QuantizationSpec().groupSize, asItself<int>(),
         [](const QVariant &saved) {
             bool ok = false;
             const int group = text(saved).toInt(&ok);
             if (!ok || (group <= 0 && group != -1))
                 throw Error(QStringLiteral("not a group size"));
             return group;
         }},
        {"scenario/kvCacheDtype", defaults.kvCacheDtype,
         [](const KvCacheDtype &d) { return QVariant(dtypeName(d)); },
         [](const QVariant &saved) { return parseKvCacheDtype(text(saved)); }},
        // "auto": the release's default (0), as the command line spells it.
        {"scenario/gpuMemoryUtilization", defaults.gpuMemoryUtilizationPpm,
         [](const std::int64_t &ppm) {
             return QVariant(ppm > 0 ? formatUtilization(ppm) : QStringLiteral("auto"));
         },
         [](const QVariant &saved) {
             return text(saved) == QLatin1String("auto") ? std::int64_t(0) : parseUtilization(text(saved));
         }},
        countSetting<std::int64_t>("scenario/blockSize", defaults.blockSize),
        countSetting<std::int64_t>("scenario/maxModelLen", defaults.maxModelLen),
        countSetting<std::int64_t>("scenario/batchSize", defaults.batchSize),
        countSetting<std::int64_t>("scenario/seqLen", defaults.seqLen),
        countSetting<std::int64_t>("scenario/promptLen", defaults.promptLen),
        countSetting<std::int64_t>("scenario/maxNumSeqs", defaults.maxNumSeqs),
        countSetting<std::int64_t>("scenario/maxNumBatchedTokens", defaults.maxNumBatchedTokens),
        {"scenario/mambaSsmCacheDtype", defaults.mambaSsmCacheDtype,
         [](const WeightDtype &d) { return QVariant(dtypeName(d)); },
         [](const QVariant &saved) { return parseWeightDtype(text(saved)); }},
        {"explorer/growthAxis", GrowthAxis::SequenceLength,
         [](const GrowthAxis &axis) { return QVariant(growthAxisName(axis)); },
         [](const QVariant &saved) { return parseGrowthAxis(text(saved), QStringLiteral("growth axis")); }},
        {"explorer/growthScale", AxisScale::Linear,
         [](const AxisScale &scale) { return QVariant(axisScaleName(scale)); },
         [](const QVariant &saved) { return parseAxisScale(text(saved), QStringLiteral("growth scale")); }},
        boolSetting("explorer/counterfactuals", false),
    };
}

QuantizationKeys makeQuantizationKeys()
{
    const QuantSettings defaults;
    const quant::SyntheticSpec &spec = defaults.source.spec;
    return {
        twoWordSetting("quantization/source", defaults.source.synthetic, "file", "synthetic"),
        {"quantization/synthetic/kind", spec.kind,
         [](const quant::SyntheticKind &kind) { return QVariant(quant::syntheticKindName(kind)); },
         [](const QVariant &saved) { return quant::parseSyntheticKind(text(saved)); }},
        integerSetting<std::int64_t>("quantization/synthetic/rows", spec.rows, 1,
                                     quant::MaxSyntheticDimension),
        integerSetting<std::int64_t>("quantization/synthetic/cols", spec.cols, 1,
                                     quant::MaxSyntheticDimension),
        integerSetting<std::uint64_t>("quantization/synthetic/seed", spec.seed, 0, MaxSyntheticSeed),
        {"quantization/synthetic/std", spec.standardDeviation, asItself<double>(),
         [](const QVariant &saved) {
             bool ok = false;
             const double value = text(saved).toDouble(&ok);
             if (!ok || !std::isfinite(value) || value < 0 || value > MaxSyntheticStd)
                 throw Error(QStringLiteral("not a number from 0 to %1").arg(MaxSyntheticStd));
             return value;
         }},
        {"quantization/file/path", defaults.source.path, asText(), anyText()},
        {"quantization/file/tensor", defaults.source.tensor, asText(), anyText()},
        {"quantization/schemes", defaults.schemes.names, asItself<QStringList>(),
         [](const QVariant &saved) {
             // An empty list reads back as an invalid QVariant: nothing checked.
             const QStringList names = saved.isValid() ? saved.toStringList() : QStringList();
             QStringList offered;
             for (const quant::SchemeEntry &entry : quant::schemeEntries())
                 offered << QLatin1String(entry.name);
             for (const QString &name : names)
                 if (!offered.contains(name))
                     throw Error(QStringLiteral("no scheme '%1'").arg(name));
             if (QSet<QString>(names.begin(), names.end()).size() != names.size())
                 throw Error(QStringLiteral("a scheme is named twice"));
             // In the picker's order, as the picker reports them.
             QStringList ordered;
             for (const QString &name : offered)
                 if (names.contains(name))
                     ordered << name;
             return ordered;
         }},
        {"quantization/groupSize", defaults.schemes.groupSize, asItself<int>(),
         [](const QVariant &saved) {
             bool ok = false;
             const int group = text(saved).toInt(&ok);
             if (!ok || !quant::groupSizeStops().contains(group))
                 throw Error(QStringLiteral("not a group size the picker offers"));
             return group;
         }},
        integerSetting<int>("quantization/bins", defaults.schemes.bins, quant::MinHistogramBins,
                            quant::MaxHistogramBins),
        boolSetting("quantization/fp8Saturate", defaults.schemes.saturate),
        boolSetting("quantization/fp8UnitScale", defaults.schemes.unitScale),
        twoWordSetting("quantization/histogram", defaults.relativeError, "error", "relative"),
        boolSetting("quantization/logY", defaults.logY),
    };
}

LibraryKeys makeLibraryKeys()
{
    return {
        mapListSetting("library/imported", QStringLiteral("imported models")),
        mapListSetting("library/customGpus", QStringLiteral("custom GPUs")),
        {"library/recentFiles",
         {},
         asItself<QStringList>(),
         [](const QVariant &saved) {
             // None saved reads back invalid, one path as a plain string.
             if (!saved.isValid())
                 return QStringList();
             if (saved.typeId() != QMetaType::QString && saved.typeId() != QMetaType::QStringList)
                 throw Error(QStringLiteral("not a list of paths"));
             QStringList paths = saved.toStringList();
             if (paths.contains(QString()))
                 throw Error(QStringLiteral("an empty path"));
             // No file system has a NUL in a path, and QSettings saves such a string as
             // @String(...), which reads back as a list of variants: refused here, once.
             for (const QString &path : std::as_const(paths))
                 if (path.contains(QChar(0)))
                     throw Error(QStringLiteral("a path with a NUL character"));
             return paths;
         }},
        mapListSetting("library/speedCalibrations", QStringLiteral("speed calibrations")),
        mapListSetting("library/memoryCalibrations", QStringLiteral("memory calibrations")),
    };
}

WindowKeys makeWindowKeys()
{
    return {
        bytesSetting("window/geometry"),
        bytesSetting("window/explorerSplitter"),
        countSetting<int>("window/tab", 0),
        {"ui/language", QString(), asText(),
         [](const QVariant &saved) {
             QString code = text(saved);
             if (!code.isEmpty() && !translations::available().contains(code))
                 throw Error(QStringLiteral("not a language kvscope ships (%1)")
                                 .arg(translations::available().join(QStringLiteral(", "))));
             return code;
         }},
        boolSetting("explorer/formulaPanel", false),
        {"presentation/zoom", 1.5, asItself<double>(),
         [](const QVariant &saved) {
             bool ok = false;
             const double zoom = text(saved).toDouble(&ok);
             if (!ok || !(zoom >= MinPresentationZoom && zoom <= MaxPresentationZoom))
                 throw Error(QStringLiteral("not a zoom from %1 to %2")
                                 .arg(MinPresentationZoom)
                                 .arg(MaxPresentationZoom));
             return zoom;
         }},
        "explorer/scenarioStrip",
    };
}

ComparisonKeys makeComparisonKeys()
{
    return {mapListSetting("compare/columns", QStringLiteral("comparison columns"))};
}

} // namespace

// Built on first use, after the application (and its resources) exist.

const ScenarioKeys &scenarioKeys()
{
    static const ScenarioKeys keys = makeScenarioKeys();
    return keys;
}

const QuantizationKeys &quantizationKeys()
{
    static const QuantizationKeys keys = makeQuantizationKeys();
    return keys;
}

const LibraryKeys &libraryKeys()
{
    static const LibraryKeys keys = makeLibraryKeys();
    return keys;
}

const WindowKeys &windowKeys()
{
    static const WindowKeys keys = makeWindowKeys();
    return keys;
}

const ComparisonKeys &comparisonKeys()
{
    static const ComparisonKeys keys = makeComparisonKeys();
    return keys;
}

} // namespace kvscope::settings
