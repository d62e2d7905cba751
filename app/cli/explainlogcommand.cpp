// SPDX-License-Identifier: MIT
// kvscope explain-log LOG [--model M] [--gpu G] [--vllm-version X.Y] [--json]: a vLLM or SGLang start-up log
// read, planned and explained (core/analysis/logexplanation.h).
#include "app/cli/cliio.h"
#include "app/cli/commands.h"
#include "core/analysis/logexplanation.h"
#include "core/gpu/customgpu.h"
#include "core/output/logexplanationjson.h"
#include "core/output/logexplanationtext.h"

#include <QCommandLineParser>
#include <QJsonDocument>

namespace kvscope::cli {

namespace {

struct ExplainLogCommandLine
{
    QCommandLineParser parser;
    QCommandLineOption model{
        QStringLiteral("model"),
        QStringLiteral("The model, when the log names none or names one kvscope has no "
                       "preset for: a preset, repository id, config.json or model folder."),
        QStringLiteral("model")};
    QCommandLineOption gpu{
        QStringLiteral("gpu"),
        QStringLiteral(
            "The GPU, when the log's total memory matches no preset or several: a preset, %1 or %2.")
            .arg(QLatin1String(PresetMemorySyntax), QLatin1String(CustomGpuSyntax)),
        QStringLiteral("gpu")};
    QCommandLineOption vllmVersion{
        QStringLiteral("vllm-version"),
        QStringLiteral("The vLLM release, when the log does not print its version line (an excerpt): x.y."),
        QStringLiteral("x.y")};
    QCommandLineOption json{QStringLiteral("json"), QStringLiteral("Print JSON instead of a table.")};

    ExplainLogCommandLine()
    {
        parser.setApplicationDescription(QStringLiteral(
            "Read a vLLM start-up log (V1 engine, 0.10 on) or an SGLang one, plan the scenario it describes "
            "and say where each GiB went (vLLM: weights, activation peak, memory outside PyTorch, CUDA "
            "graphs "
            "and the KV cache; SGLang: the memory free when the weights load, the weights and the token "
            "pool), logged beside kvscope's plan, why the KV cache has that size and what would make it "
            "larger."));
        parser.addHelpOption();
        parser.addOptions({model, gpu, vllmVersion, json});
        parser.addPositionalArgument(QStringLiteral("log"), QStringLiteral("The log file."));
    }
};

} // namespace

int runExplainLog(const QStringList &arguments)
{
    ExplainLogCommandLine commandLine;
    if (const std::optional<int> exitCode =
            parseCommandLine(commandLine.parser, arguments, Positionals::Taken))
        return *exitCode;
    const QStringList files = commandLine.parser.positionalArguments();
    if (files.size() != 1)
        return fail(QStringLiteral("explain-log: give one log file (got %1)").arg(files.size()), UsageError);
    try {
        const StartupLog log = readStartupLogFile(files.first());
        const LogOverrides overrides{commandLine.parser.value(commandLine.model),
                                     commandLine.parser.value(commandLine.gpu),
                                     commandLine.parser.value(commandLine.vllmVersion)};
        const LogExplanation explanation = explainStartupLog(log, overrides, builtinResolvers());
        if (commandLine.parser.isSet(commandLine.json))
            writeOut(QString::fromUtf8(QJsonDocument(logExplanationJson(explanation)).toJson()));
        else
            writeOut(logExplanationText(explanation));
        return Success;
    } catch (const Error &error) {
        return fail(error.message());
    }
}

} // namespace kvscope::cli
