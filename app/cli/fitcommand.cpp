// SPDX-License-Identifier: MIT
// kvscope fit: the configurations that serve N concurrent requests of L tokens.
#include "app/cli/cliio.h"
#include "app/cli/commands.h"
#include "app/cli/plantext.h"
#include "core/analysis/fit.h"
#include "core/common/error.h"
#include "core/common/units.h"
#include "core/library/library.h"
#include "core/plan/speed.h"
#include "core/scenario/scenariovalues.h"

#include <algorithm>
#include <cmath>

#include <QCommandLineParser>
#include <QJsonDocument>

namespace kvscope::cli {

namespace {

/// The options that fix the base scenario, by their calc names: read by calc's rules
/// (an SGLang spelling under vLLM is refused, as calc refuses it).
constexpr const char *baseOptions[] = {"model",
                                       "engine",
                                       "vllm-version",
                                       "dtype",
                                       "gpu-memory-utilization",
                                       "mem-fraction-static",
                                       "max-model-len",
                                       "context-length",
                                       "speculative-config",
                                       "draft-acceptance-rate",
                                       "images-per-request",
                                       "image-size"};

/// "8 x h100-sxm", with "pp2" for pipeline stages, "dp8 ep" for data-parallel ranks or "dp8 attention" for
/// SGLang's attention groups.
QString layoutColumn(const MemoryPlan &p)
{
    QString text = QStringLiteral("%1 x %2").arg(p.gpuCount()).arg(p.gpuId);
    if (p.pipelineParallelSize > 1)
        text += QStringLiteral(" pp%1").arg(p.pipelineParallelSize);
    if (p.dataParallelSize > 1)
        text += QStringLiteral(" dp%1%2")
                    .arg(p.dataParallelSize)
                    .arg(p.attentionDataParallel    ? QStringLiteral(" attention")
                         : p.expertParallelSize > 1 ? QStringLiteral(" ep")
                                                    : QString());
    return text;
}

/// `layoutWidth`: the GPUs column's width, its longest entry's (at least the header's 20).
QString rowText(int rank, const FitRow &row, int layoutWidth)
{
    const MemoryPlan &p = row.plan;
    const QString speed =
        p.speed.available ? formatCount(std::llround(emittedTokensPerSecond(p.speed))) : QStringLiteral("—");
    return QStringLiteral("%1  %2  %3  %4  %5  %6  %7  %8  %9\n     %10\n")
        .arg(QString::number(rank).rightJustified(2), layoutColumn(p).leftJustified(layoutWidth),
             quantMethodName(p.quantization.method).leftJustified(12),
             dtypeName(p.kvCacheDtype).leftJustified(9), formatCount(p.maxModelLen).rightJustified(9),
             formatCount(row.maxConcurrency).rightJustified(8),
             formatCount(p.deploymentCapacityTokens).rightJustified(12),
             formatGiB(p.headroomBytes).rightJustified(9), speed.rightJustified(8))
        .arg(row.command);
}

QString resultText(const FitQuery &q, const FitResult &result, qsizetype shown)
{
    QString text = printableLine(
        QStringLiteral("%1 request(s)%2 of %3 on %4%5")
            .arg(formatCount(q.concurrency),
                 q.maxModelLen > 0 ? QStringLiteral(" of %1 tokens").arg(formatCount(q.maxModelLen))
                                   : QStringLiteral(" at the longest context"),
                 q.base.model.name, engineDisplayName(q.base.engine),
                 q.base.engine == Engine::Vllm
                     ? QLatin1Char(' ') + resolveVllmVersion(q.base.vllmVersion).profile->since.text()
                     : QString()));
    if (result.fits.isEmpty())
        return text + printableLine(result.reason);
    const qsizetype rows = std::min(shown, result.fits.size());
    qsizetype layoutWidth = 20;
    for (qsizetype i = 0; i < rows; ++i)
        layoutWidth = std::max(layoutWidth, layoutColumn(result.fits.at(i).plan).size());
    text += QStringLiteral(
                " #  %1  weights       KV cache   max len  requests    KV tokens   headroom  decode/s\n")
                .arg(QStringLiteral("GPUs").leftJustified(layoutWidth));
    for (qsizetype i = 0; i < rows; ++i)
        text += rowText(int(i + 1), result.fits.at(i), int(layoutWidth));
    if (result.fits.size() > shown)
        text += QStringLiteral("... %1 more (--limit)\n").arg(result.fits.size() - shown);
    return text;
}

} // namespace

int runFit(const QStringList &arguments)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral(
        "Find the GPUs, tensor-parallel sizes (and, for vLLM, pipeline stages) and precisions that serve "
        "N concurrent requests of L tokens, best first: fewest GPUs (fewer stages first), then (without "
        "--max-model-len) the longest context, "
        "then the least GPU memory, then the fastest decode (--rank-by speed: the fastest decode first). "
        "Each "
        "with its launch line."));
    parser.addHelpOption();
    const auto option = [&](const char *name, const QString &help, const char *value = nullptr,
                            const QString &fallback = {}) {
        QCommandLineOption o(QLatin1String(name), help);
        if (value)
            o.setValueName(QLatin1String(value));
        if (!fallback.isEmpty())
            o.setDefaultValue(fallback);
        parser.addOption(o);
        return o;
    };
    option("model", QStringLiteral("Preset id, HuggingFace repo id, or a path (as calc)."), "model");
    const QCommandLineOption concurrency =
        option("concurrency", QStringLiteral("Requests served at once (required)."), "n");
    option(
        "max-model-len",
        QStringLiteral("Tokens per request; without it (or `auto`), the longest each configuration allows."),
        "n");
    option("context-length", QStringLiteral("SGLang's name for --max-model-len."), "n");
    const QCommandLineOption gpus =
        option("gpu", QStringLiteral("A GPU to consider (repeatable; default: every NVIDIA and AMD preset)."),
               "gpu");
    const QCommandLineOption maxGpus =
        option("max-gpus",
               QStringLiteral("Most GPUs a configuration takes (tensor-parallel size x pipeline stages)."),
               "n", QStringLiteral("8"));
    const QCommandLineOption quantizations =
        option("quantization",
               QStringLiteral(
                   "A weight quantization to consider (repeatable; default: the checkpoint's, and fp8 for a "
                   "16-bit checkpoint)."),
               "method");
    const QCommandLineOption kvDtypes =
        option("kv-cache-dtype",
               QStringLiteral("A KV cache dtype to consider (repeatable; default: auto and fp8)."), "dtype");
    option("engine", QStringLiteral("vllm or sglang."), "name", QStringLiteral("vllm"));
    option("vllm-version", QStringLiteral("vLLM release to model (as calc)."), "x.y");
    option("dtype", QStringLiteral("Weights/activations dtype (as calc)."), "dtype");
    option("gpu-memory-utilization",
           QStringLiteral("vLLM's share of GPU memory (default: the release's, 0.92 from 0.21, 0.9 before)."),
           "ratio");
    option("mem-fraction-static", QStringLiteral("SGLang's static share (default: SGLang's for the GPU)."),
           "ratio");
    option("speculative-config",
           QStringLiteral(
               "vLLM: the drafter every configuration runs (as calc); its weights and KV layers count, "
               "and decode speed is with it."),
           "json");
    option("draft-acceptance-rate", QStringLiteral("The chance each draft is accepted (as calc)."), "rate");
    option("images-per-request",
           QStringLiteral("Images each request sends (as calc): their tokens count in --max-model-len."),
           "n");
    option("image-size", QStringLiteral("Each image's pixels, WIDTHxHEIGHT (as calc; default 1024x1024)."),
           "wxh");
    const QCommandLineOption rankBy = option(
        "rank-by",
        QStringLiteral("The order: memory (fewest GPUs, least memory, then speed) or speed (the fastest "
                       "decode at --concurrency first, from the step model)."),
        "order", fitRankingName(FitRanking::Memory));
    const QCommandLineOption limit =
        option("limit", QStringLiteral("Configurations shown, best first."), "n", QStringLiteral("10"));
    const QCommandLineOption json(QStringLiteral("json"), QStringLiteral("Print one JSON object."));
    parser.addOption(json);

    if (const std::optional<int> exitCode = parseCommandLine(parser, arguments))
        return *exitCode;
    try {
        if (!parser.isSet(QStringLiteral("model")))
            throw Error(QStringLiteral("--model: not given"));
        if (!parser.isSet(concurrency))
            throw Error(QStringLiteral("--concurrency: not given"));
        ScenarioValues values;
        for (const char *name : baseOptions)
            if (parser.isSet(QLatin1String(name)) || qstrcmp(name, "engine") == 0) // engine has a default
                values.insert(QLatin1String(name), parser.value(QLatin1String(name)));
        const QList<GpuSpec> candidates = [&] {
            QList<GpuSpec> out;
            for (const QString &name : parser.values(gpus))
                out << resolveGpu(name);
            return out.isEmpty() ? servingGpus(GpuLibrary::builtin().presets()) : out;
        }();
        values.insert(QStringLiteral("gpu"), candidates.isEmpty() ? QString() : candidates.first().id);

        FitQuery q;
        q.base = scenarioFromValues(values, builtinResolvers());
        q.gpus = candidates;
        q.concurrency = parsePositive(parser.value(concurrency), QStringLiteral("--concurrency"));
        // `auto` (calc's word for the default) asks for the longest length, as leaving the option out does.
        q.maxModelLen = q.base.maxModelLen;
        q.maxGpus = parsePositive(parser.value(maxGpus), QStringLiteral("--max-gpus"));
        for (const QString &method : parser.values(quantizations))
            q.quantizations << parseQuantizationChoice(method.trimmed().toLower(),
                                                       q.base.model.checkpointQuantization);
        for (const QString &dtype : parser.values(kvDtypes))
            q.kvCacheDtypes << parseKvCacheDtype(dtype);
        q.ranking = parseFitRanking(parser.value(rankBy));
        const qsizetype shown = qsizetype(parsePositive(parser.value(limit), QStringLiteral("--limit")));

        FitResult result = findFits(q);
        if (parser.isSet(json)) {
            result.fits = result.fits.mid(0, shown);
            writeOut(QString::fromUtf8(QJsonDocument(fitToJson(q, result)).toJson(QJsonDocument::Indented)));
        } else
            writeOut(resultText(q, result, shown));
        return Success;
    } catch (const Error &error) {
        return fail(error.message());
    }
}

} // namespace kvscope::cli
