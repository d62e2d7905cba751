// SPDX-License-Identifier: MIT
// Scenario files (.kvscope): a scenario with everything needed to see it
// again — the models and custom GPUs it names, the chart choices, the
// Quantization view's settings — as JSON with a format name and version:
//
//   {"format": "kvscope-scenario", "version": 1,
//    "scenario": {"model": "llama-3.1-8b", "gpu": "h100-sxm", "batch-size": 16, ...},
//    "models": [{"id": "pasted:1", "name": "...", "config": "{...}"},
//               {"id": "imported:/models/x", "path": "/models/x"}],
//    "gpus": [<custom GPUs as gpuToJson writes them>],
//    "charts": {"counterfactuals": false, "growth-axis": "sequence", "growth-scale": "linear"},
//    "quantization": {"input": "synthetic:gaussian", "scheme": ["int4"], ...},
//    "comparison": [{"kv-cache-dtype": "fp8"}, ...],
//    "speed-calibration": {"gpu": "h100-sxm", "scale": 0.93, "source": "your measurement: ..."}}
//
// "scenario" holds kvscope calc's options (core/scenario/scenariovalues.h) with
// their values as JSON strings, integers or numbers. "comparison" is a list
// of scenario overrides, one per column of a comparison; it is read,
// checked and written back, not used yet. Parsing is strict: an unknown key,
// a value of the wrong type or a newer version is an error naming the file,
// the field and the value; nothing is half-read.
#pragma once

#include "core/analysis/growthoptions.h"
#include "core/gpu/gpuspec.h"
#include "core/model/modelimport.h"
#include "core/scenario/scenario.h"
#include "core/scenario/scenariovalues.h"

#include <optional>

#include <QByteArray>
#include <QList>
#include <QString>
#include <QStringList>

namespace kvscope {

inline constexpr int ScenarioFileVersion = 1;
/// Larger files are refused before they are read (pasted configs are at most 1 MiB each).
inline constexpr qint64 MaxScenarioFileBytes = qint64(16) << 20;
/// Longest id, path or option text a file may give ("imported:" + a path of up to
/// Linux's PATH_MAX), and longest display name; longer ones are refused on read.
inline constexpr qsizetype MaxScenarioTextLength = 4200;
inline constexpr qsizetype MaxScenarioNameLength = 256;
/// Largest speed-calibration scale a file may give: beyond it any GPU's efficiency is above 1.
inline constexpr int MaxSpeedCalibrationScale = 10;

/// A model that is no preset, carried by the file: by path, or as the text of a pasted config.json.
struct CarriedModel
{
    QString id;        ///< what "model" values name: "imported:<path>", "pasted:<n>"
    QString name;      ///< display name; empty = the config's own
    QString path;      ///< a config.json, model folder or .gguf (empty for pasted text)
    QByteArray config; ///< pasted config.json text (empty for a path)

    friend bool operator==(const CarriedModel &, const CarriedModel &) = default;
};

/// The Quantization view's settings, named after kvscope quant's options
/// (the two display choices are the view's own).
struct QuantizationChoices
{
    QString input = QStringLiteral("synthetic:gaussian"); ///< synthetic:KIND or a .safetensors/.npy path
    QString tensor;                                       ///< a .safetensors file's tensor
    std::int64_t rows = 4096;
    std::int64_t cols = 4096;
    std::uint64_t seed = 0;
    double standardDeviation = 0; ///< 0 = the kind's default
    QStringList schemes{QStringLiteral("int4")};
    int groupSize = 128;
    int bins = 256;
    bool saturate = true;
    bool unitScale = false;
    bool relativeError = false; ///< histogram of (w - w') / |w| instead of w - w'
    bool logCounts = true;

    friend bool operator==(const QuantizationChoices &, const QuantizationChoices &) = default;
};

struct ScenarioDocument
{
    ScenarioValues scenario;
    QList<CarriedModel> models;
    QList<GpuSpec> gpus; ///< custom GPUs the values name
    GrowthAxis growthAxis = GrowthAxis::SequenceLength;
    AxisScale growthScale = AxisScale::Linear;
    bool counterfactuals = false; ///< the growth chart's "as if MHA / all layers full" lines
    std::optional<QuantizationChoices> quantization; ///< absent: the reader keeps its own
    QList<ScenarioValues> comparison;
    /// The speed calibration from the user's measurement ("speed-calibration":
    /// {"gpu": ..., "scale": ..., "source": ...}); absent: none.
    std::optional<MeasuredSpeedScale> speedCalibration;
};

/// The file's bytes: indented JSON, keys sorted, so equal documents give equal bytes.
QByteArray scenarioFileBytes(const ScenarioDocument &document);

/// Parses a file's bytes; throws kvscope::Error "ORIGIN: FIELD: ..." on
/// anything that is not a version-1 scenario file or on a newer version.
ScenarioDocument parseScenarioFile(const QByteArray &bytes, const QString &origin);

/// Reads and parses a file; throws kvscope::Error naming the path.
ScenarioDocument readScenarioFile(const QString &path);
/// Writes a file atomically (the old file stays on failure); throws kvscope::Error naming the path.
void writeScenarioFile(const QString &path, const ScenarioDocument &document);

/// Imports a carried model (reads the path, or parses the pasted text); its id and name are the entry's.
ImportedModel importCarriedModel(const CarriedModel &model);

/// Resolvers that find the document's carried models and custom GPUs by id first, then ask `fallback`.
ScenarioResolvers documentResolvers(const ScenarioDocument &document, const ScenarioResolvers &fallback);

/// Names an option as a field of the file's `path` ("scenario" or "comparison[1]"):
/// "scenario.batch-size" where the command line says "--batch-size".
OptionLabel fileFieldLabel(const QString &path);

/// The document's scenario, through documentResolvers(); errors are prefixed with `origin`
/// and name the file's fields.
Scenario documentScenario(const ScenarioDocument &document, const ScenarioResolvers &fallback,
                          const QString &origin);

} // namespace kvscope
