// SPDX-License-Identifier: MIT
// Every key kvscope keeps in QSettings, with its default and how its saved
// value is checked: the one catalogue. Code elsewhere names a setting
// through these tables, never by its key string. Key names and value
// spellings are those older versions wrote, so their settings still load.
#pragma once

#include "core/analysis/growthoptions.h"
#include "core/precision/dtypes.h"
#include "core/quantization/synthetic.h"
#include "ui/state/setting.h"

#include <cstdint>

#include <QByteArray>
#include <QString>
#include <QStringList>
#include <QVariantList>

namespace kvscope::settings {

/// The explorer's scenario ("scenario/...") and its growth chart's axis.
/// Defaults are those of ScenarioController::defaultScenario(); models and
/// GPUs are ids the reader resolves through the user's library.
struct ScenarioKeys
{
    Setting<QString> model;
    Setting<QString> gpu;
    Setting<std::int64_t> tensorParallelSize;
    Setting<WeightDtype> dtype;
    Setting<QString> quantization; ///< "auto" or a method name
    Setting<int> groupSize;        ///< > 0, or -1 = one group per row
    Setting<KvCacheDtype> kvCacheDtype;
    Setting<std::int64_t> gpuMemoryUtilizationPpm; ///< saved as the decimal text "0.9"
    Setting<std::int64_t> blockSize;
    Setting<std::int64_t> maxModelLen;
    Setting<std::int64_t> batchSize;
    Setting<std::int64_t> seqLen;
    Setting<std::int64_t> promptLen;           ///< 0 = the whole sequence length
    Setting<std::int64_t> maxNumSeqs;          ///< 0 = vLLM's default for the GPU
    Setting<std::int64_t> maxNumBatchedTokens; ///< 0 = vLLM's default for the GPU
    Setting<WeightDtype> mambaSsmCacheDtype;
    Setting<GrowthAxis> growthAxis; ///< "sequence" or "batch"
    Setting<AxisScale> growthScale; ///< "linear" or "log"
    Setting<bool> counterfactuals;  ///< the growth chart's "as if MHA / no window" lines
};

/// The Quantization view ("quantization/..."); defaults are QuantSettings'.
struct QuantizationKeys
{
    Setting<bool> synthetic; ///< saved as "synthetic" or "file"
    Setting<quant::SyntheticKind> kind;
    Setting<std::int64_t> rows;
    Setting<std::int64_t> cols;
    Setting<std::uint64_t> seed;
    Setting<double> standardDeviation;
    Setting<QString> path; ///< whether the file still opens is the source picker's test
    Setting<QString> tensor;
    Setting<QStringList> schemes; ///< offered names, none repeated
    Setting<int> groupSize;       ///< one of groupSizeStops()
    Setting<int> bins;
    Setting<bool> fp8Saturate;
    Setting<bool> fp8UnitScale;
    Setting<bool> relativeError; ///< saved as "error" or "relative"
    Setting<bool> logY;
};

/// What the user added to the presets ("library/..."). The lists are read
/// entry by entry: an entry that no longer imports is dropped and reported.
struct LibraryKeys
{
    Setting<QVariantList> importedModels; ///< maps: key, name, config (pasted only)
    Setting<QVariantList> customGpus;     ///< maps as gpuToVariantMap() writes them
    Setting<QStringList> recentFiles;
    Setting<QVariantList>
        speedCalibrations; ///< maps: gpu, scale_ppm, itl_ms, concurrency, context, model, date, origin
    Setting<QVariantList> memoryCalibrations; ///< maps: deployment (calc options), bytes of each part, source
};

/// The Compare view's columns ("compare/columns"): maps of kvscope calc's
/// option names to values, each a column's values on top of the scenario (what
/// a scenario file's "comparison" holds). Read column by column.
struct ComparisonKeys
{
    Setting<QVariantList> columns;
};

/// The window: geometry, splitter, tab ("window/..."), language ("ui/language"),
/// the formula panel, the presentation zoom and the scenario strip ("explorer/...").
struct WindowKeys
{
    Setting<QByteArray> geometry; ///< empty = the default size
    Setting<QByteArray> explorerSplitter;
    Setting<int> tab;
    Setting<QString> language;        ///< "en", "zh_CN", or empty = the system's
    Setting<bool> formulaPanel;       ///< the formula panel is shown
    Setting<double> presentationZoom; ///< font and line scale of presentation mode, 1 to 3
    /// The scenario strip: a QSettings array, each entry the scenario keys of one scenario.
    const char *scenarioStrip;
};

/// The presentation zoom's range and step (Ctrl + / Ctrl −).
inline constexpr double MinPresentationZoom = 1.0;
inline constexpr double MaxPresentationZoom = 3.0;
inline constexpr double PresentationZoomStep = 0.25;

const ScenarioKeys &scenarioKeys();
const QuantizationKeys &quantizationKeys();
const LibraryKeys &libraryKeys();
const WindowKeys &windowKeys();
const ComparisonKeys &comparisonKeys();

} // namespace kvscope::settings
