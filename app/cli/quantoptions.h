// SPDX-License-Identifier: MIT
// kvscope quant's options, shared with kvscope export (the quantization charts).
#pragma once

#include "core/document/scenariofile.h"
#include "core/quantization/scheme.h"
#include "core/quantization/synthetic.h"

#include <cstdint>

#include <QCommandLineOption>
#include <QCommandLineParser>
#include <QList>

namespace kvscope::cli {

struct QuantOptions
{
    QCommandLineOption input{QStringLiteral("input"),
                             QStringLiteral("A .safetensors or .npy file, or synthetic:KIND with KIND one of "
                                            "%1 (default synthetic:gaussian).")
                                 .arg(quant::syntheticKindChoices().join(QStringLiteral(", "))),
                             QStringLiteral("source"), QStringLiteral("synthetic:gaussian")};
    QCommandLineOption tensor{QStringLiteral("tensor"),
                              QStringLiteral("The tensor to read from a .safetensors file (see --list)."),
                              QStringLiteral("name")};
    QCommandLineOption list{QStringLiteral("list"),
                            QStringLiteral("List the file's tensors: name, dtype, shape.")};
    QCommandLineOption scheme{QStringLiteral("scheme"),
                              QStringLiteral("Scheme(s), repeatable or comma-separated: %1 (default int4).")
                                  .arg(quant::schemeChoices().join(QStringLiteral(", "))),
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
        QStringLiteral(
            "Write the error, relative-error and value histograms as CSV (- for standard output)."),
        QStringLiteral("file.csv")};

    /// What choose the simulation and its display, for `kvscope export`
    /// (which has --group-size from calc's options, and no --list, --json or --histogram).
    QList<QCommandLineOption> simulation() const
    {
        return {input, tensor, scheme, rows, cols, seed, deviation, noSaturation, unitScale, bins};
    }

    QCommandLineOption activations{
        QStringLiteral("activations"),
        QStringLiteral(
            "The layer's activations [tokens, input channels]: synthetic (2,048 calibration + 256 "
            "held-out rows, 0.5 % outlier channels 20x-100x) or a .npy file (the last eighth of its "
            "rows held out). AWQ and GPTQ fit on the calibration rows; every scheme gets the SQNR of "
            "the layer output Y = X W^T on the held-out rows. Default: synthetic when a scheme is "
            "awq-* or gptq-*, else no output error."),
        QStringLiteral("synthetic|file.npy")};

    QList<QCommandLineOption> all() const
    {
        return {input,     tensor,       list,      scheme, groupSize, rows,      cols,       seed,
                deviation, noSaturation, unitScale, bins,   json,      histogram, activations};
    }
};

/// "--seed 7"; throws kvscope::Error naming the option.
std::uint64_t parseSeed(const QString &text);
/// "--std 0.02": a positive number.
double parseStd(const QString &text);
/// "--group-size 64" or -1 (one group per row).
int parseGroupSize(const QString &text);

/// The quantization choices of `base` with the options given on the command
/// line in their place (`groupSize` names the option that sets the group).
QuantizationChoices quantizationChoices(const QCommandLineParser &parser, const QuantOptions &options,
                                        const QCommandLineOption &groupSize, QuantizationChoices base);

} // namespace kvscope::cli
