// SPDX-License-Identifier: MIT
// kvscope quant: fake-quantize one tensor with one or more schemes and print
// the error figures as a table or JSON, optionally the histograms as CSV.
#include "cliio.h"
#include "commands.h"
#include "common/error.h"
#include "common/integertext.h"
#include "quantization/quantrun.h"
#include "quantization/report.h"
#include "quantization/tensorsource.h"
#include "quanttext.h"
#include "scenariooptions.h"

#include <limits>

#include <QCommandLineParser>
#include <QJsonArray>
#include <QJsonDocument>

namespace kvscope::cli {

namespace {

using namespace kvscope::quant;

const QString syntheticPrefix = QStringLiteral("synthetic:");

struct QuantOptions
{
    QCommandLineOption input{QStringLiteral("input"),
                             QStringLiteral("A .safetensors or .npy file, or synthetic:KIND with KIND one of "
                                            "%1 (default synthetic:gaussian).")
                                 .arg(syntheticKindChoices().join(QStringLiteral(", "))),
                             QStringLiteral("source"), QStringLiteral("synthetic:gaussian")};
    QCommandLineOption tensor{QStringLiteral("tensor"),
                              QStringLiteral("The tensor to read from a .safetensors file (see --list)."),
                              QStringLiteral("name")};
    QCommandLineOption list{QStringLiteral("list"),
                            QStringLiteral("List the file's tensors: name, dtype, shape.")};
    QCommandLineOption scheme{QStringLiteral("scheme"),
                              QStringLiteral("Scheme(s), repeatable or comma-separated: %1 (default int4).")
                                  .arg(schemeChoices().join(QStringLiteral(", "))),
                              QStringLiteral("scheme"), QStringLiteral("int4")};
    QCommandLineOption groupSize{
        QStringLiteral("group-size"),
        QStringLiteral("Elements per int group along a row; -1 = one group per row (default 128)."),
        QStringLiteral("G"), QStringLiteral("128")};
    QCommandLineOption rows{
        QStringLiteral("rows"),
        QStringLiteral("Synthetic tensor rows, output channels (default 4096, at most 8192)."),
        QStringLiteral("R"), QStringLiteral("4096")};
    QCommandLineOption cols{QStringLiteral("cols"),
                            QStringLiteral("Synthetic tensor columns (default 4096, at most 8192)."),
                            QStringLiteral("C"), QStringLiteral("4096")};
    QCommandLineOption seed{QStringLiteral("seed"), QStringLiteral("Synthetic tensor seed (default 0)."),
                            QStringLiteral("N"), QStringLiteral("0")};
    QCommandLineOption deviation{
        QStringLiteral("std"), QStringLiteral("Synthetic standard deviation (default 0.02; 1 for outliers)."),
        QStringLiteral("S")};
    QCommandLineOption noSaturation{
        QStringLiteral("no-saturation"),
        QStringLiteral(
            "FP8 overflow becomes NaN (e4m3) or ±inf (e5m2), as ml_dtypes, instead of ±max as vLLM.")};
    QCommandLineOption unitScale{
        QStringLiteral("unit-scale"),
        QStringLiteral(
            "FP8 with a fixed scale of 1.0 (vLLM's default KV-cache scale) instead of amax / max.")};
    QCommandLineOption bins{QStringLiteral("bins"), QStringLiteral("Histogram bins, 1..4096 (default 256)."),
                            QStringLiteral("N"), QStringLiteral("256")};
    QCommandLineOption json{QStringLiteral("json"),
                            QStringLiteral("Print JSON: one object for one scheme, an array for several.")};
    QCommandLineOption histogram{
        QStringLiteral("histogram"),
        QStringLiteral("Write the error, relative-error and value histograms as CSV."),
        QStringLiteral("file.csv")};

    QList<QCommandLineOption> all() const
    {
        return {input, tensor,    list,         scheme,    groupSize, rows, cols,
                seed,  deviation, noSaturation, unitScale, bins,      json, histogram};
    }
};

std::uint64_t parseSeed(const QString &text)
{
    bool ok = false;
    const qulonglong seed = text.trimmed().toULongLong(&ok);
    if (!ok)
        throw Error(QStringLiteral("--seed: '%1' is not a non-negative integer").arg(text));
    return seed;
}

double parseStd(const QString &text)
{
    bool ok = false;
    const double value = text.trimmed().toDouble(&ok);
    if (!ok || !(value > 0) || !std::isfinite(value))
        throw Error(QStringLiteral("--std: '%1' is not a positive number").arg(text));
    const QString problem = standardDeviationProblem(value);
    if (!problem.isEmpty())
        throw Error(QStringLiteral("--std: '%1' %2").arg(text, problem));
    return value;
}

int parseGroupSize(const QString &text)
{
    const QString option = QStringLiteral("--group-size");
    return validateGroupSize(parseInteger(text, option, std::numeric_limits<std::int64_t>::min(),
                                          std::numeric_limits<int>::max(),
                                          QStringLiteral("%1: '%2' is not an integer").arg(option, text)));
}

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

    const QuantOutcome outcome = runQuantization(request);
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
        writeOut(resultsText(tensor, outcome.tensor.stats, outcome.results));
    }
    return Success;
}

} // namespace

int runQuant(const QStringList &arguments)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral(
        "Quantize a tensor and measure the error: MSE, SQNR (10·log10 Σw²/Σ(w-w')²), max and mean "
        "absolute error, cosine similarity, clipped and flushed shares, bits per weight with scales. "
        "Rows are output channels; int groups, MXFP4 blocks run along a row."));
    parser.addHelpOption();
    const QuantOptions options;
    parser.addOptions(options.all());
    if (const std::optional<int> exitCode = parseCommandLine(parser, arguments))
        return *exitCode;
    try {
        return parser.isSet(options.list) ? listTensorsOf(parser, options) : simulate(parser, options);
    } catch (const Error &error) {
        return fail(error.message());
    }
}

} // namespace kvscope::cli
