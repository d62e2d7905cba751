// SPDX-License-Identifier: MIT
// kvscope quant: fake-quantize one tensor with one or more schemes and print
// the error figures as a table or JSON, optionally the histograms as CSV.
#include "app/cli/quantcommand.h"

#include "app/cli/cliio.h"
#include "app/cli/commands.h"
#include "app/cli/quanttext.h"
#include "core/common/atomicfile.h"
#include "core/common/error.h"
#include "core/common/integertext.h"
#include "core/quantization/quantrun.h"
#include "core/quantization/report.h"
#include "core/quantization/tensorsource.h"
#include "core/scenario/scenario.h"

#include <limits>

#include <QCommandLineParser>
#include <QJsonArray>
#include <QJsonDocument>

namespace kvscope::cli {

namespace {

using namespace kvscope::quant;

const QString syntheticPrefix = QStringLiteral("synthetic:");

TensorSource inputSource(const QCommandLineParser &parser, const QuantOptions &o)
{
    const QString input = parser.value(o.input);
    if (!input.startsWith(syntheticPrefix))
        return TensorFile{input, parser.value(o.tensor)};
    if (parser.isSet(o.tensor))
        throw Error(QStringLiteral("--tensor: a synthetic input has no named tensors"));
    SyntheticSpec spec;
    spec.kind = parseSyntheticKind(input.mid(syntheticPrefix.size()));
    spec.rows = parsePositive(parser.value(o.rows), QStringLiteral("--rows"));
    spec.cols = parsePositive(parser.value(o.cols), QStringLiteral("--cols"));
    spec.seed = parseSeed(parser.value(o.seed));
    if (parser.isSet(o.deviation))
        spec.standardDeviation = parseStd(parser.value(o.deviation));
    return spec;
}

int listTensorsOf(const QCommandLineParser &parser, const QuantOptions &o)
{
    const QString input = parser.value(o.input);
    if (input.startsWith(syntheticPrefix))
        throw Error(
            QStringLiteral("--list: a synthetic input has no tensor list; give a .safetensors or .npy file"));
    const QList<TensorInfo> tensors = listTensors(input);
    if (parser.isSet(o.json))
        writeOut(QString::fromUtf8(QJsonDocument(tensorListToJson(tensors)).toJson()));
    else
        writeOut(tensorListText(tensors));
    return Success;
}

int simulate(const QCommandLineParser &parser, const QuantOptions &o)
{
    const QuantOutcome outcome = runQuantization(quantRequest(parser, o));
    const TensorData &tensor = outcome.tensor.data;
    // The CSV goes first: if it cannot be written, nothing reaches stdout.
    if (parser.isSet(o.histogram))
        writeFileAtomically(parser.value(o.histogram), histogramsCsv(outcome.results, &*outcome.values));
    if (parser.isSet(o.json)) {
        QJsonArray array;
        for (const SchemeResult &r : outcome.results)
            array << resultToJson(r, tensor);
        const QJsonDocument doc =
            array.size() == 1 ? QJsonDocument(array.first().toObject()) : QJsonDocument(array);
        writeOut(QString::fromUtf8(doc.toJson(QJsonDocument::Indented)));
    } else {
        writeOut(resultsText(tensor, outcome.tensor.stats, outcome.results, outcome.activations));
    }
    return Success;
}

} // namespace

QuantCommandLine::QuantCommandLine()
{
    parser.setApplicationDescription(QStringLiteral(
        "Quantize a tensor and measure the error: MSE, SQNR (10·log10 Σw²/Σ(w-w')²), max and mean "
        "absolute error, cosine similarity, clipped and flushed shares, bits per weight with scales; with "
        "activations, the SQNR of the layer output. Rows are output channels; int groups, MXFP4 blocks run "
        "along a row. awq-* and gptq-* fit the weights to the activations (AWQ's scale search, GPTQ's error "
        "compensation)."));
    parser.addHelpOption();
    parser.addOptions(options.all());
}

QuantRequest quantRequest(const QCommandLineParser &parser, const QuantOptions &o)
{
    SchemeDefaults defaults;
    defaults.groupSize = parseGroupSize(parser.value(o.groupSize));
    defaults.saturate = !parser.isSet(o.noSaturation);
    defaults.unitScale = parser.isSet(o.unitScale);
    QuantRequest request;
    request.schemes = parseSchemeList(parser.values(o.scheme), defaults);
    const std::int64_t bins = parsePositive(parser.value(o.bins), QStringLiteral("--bins"));
    if (bins > MaxHistogramBins)
        throw Error(QStringLiteral("--bins: %1 is more than %2").arg(bins).arg(MaxHistogramBins));
    request.options.bins = int(bins);
    // The relative-error and value histograms only go to the CSV.
    request.options.relativeHistogram = parser.isSet(o.histogram);
    request.valueHistogram = parser.isSet(o.histogram);
    request.source = inputSource(parser, o);
    if (parser.isSet(o.activations))
        request.activations = parseActivationSource(parser.value(o.activations));
    return request;
}

int runQuant(const QStringList &arguments)
{
    QuantCommandLine commandLine;
    const QCommandLineParser &parser = commandLine.parser;
    const QuantOptions &options = commandLine.options;
    if (const std::optional<int> exitCode = parseCommandLine(commandLine.parser, arguments))
        return *exitCode;
    try {
        return parser.isSet(options.list) ? listTensorsOf(parser, options) : simulate(parser, options);
    } catch (const Error &error) {
        return fail(error.message());
    }
}

} // namespace kvscope::cli
