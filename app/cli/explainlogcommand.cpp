// SPDX-License-Identifier: MIT
// kvscope explain-log LOG [--model M] [--gpu G] [--json]: a vLLM start-up log
// read, planned and explained (core/analysis/logexplanation.h).
#include "app/cli/cliio.h"
#include "app/cli/commands.h"
#include "core/analysis/logexplanation.h"
#include "core/common/units.h"
#include "core/output/logexplanationjson.h"

#include <cmath>

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
        QStringLiteral("The GPU, when the log's total memory matches no preset or several: a "
                       "preset or custom:MEMORY_GIB[:BANDWIDTH_GBS[:TFLOPS_BF16]]."),
        QStringLiteral("gpu")};
    QCommandLineOption json{QStringLiteral("json"), QStringLiteral("Print JSON instead of a table.")};

    ExplainLogCommandLine()
    {
        parser.setApplicationDescription(QStringLiteral(
            "Read a vLLM start-up log (V1 engine, 0.10 on), plan the scenario it describes and say where "
            "each "
            "GiB went: weights, activation peak, memory outside PyTorch, CUDA graphs and the KV cache, "
            "logged "
            "beside kvscope's plan, why the KV cache has that size and what would make it larger."));
        parser.addHelpOption();
        parser.addOptions({model, gpu, json});
        parser.addPositionalArgument(QStringLiteral("log"), QStringLiteral("The log file."));
    }
};

QString gib(const std::optional<double> &value)
{
    return value ? QStringLiteral("%1 GiB").arg(*value, 0, 'f', 2) : QStringLiteral("—");
}

QString difference(const LogComponent &c)
{
    if (!c.loggedGiB)
        return {};
    // Hundredths, as the log prints: no "-0.00".
    const double delta = double(std::llround((toGiB(c.predictedBytes) - *c.loggedGiB) * 100)) / 100;
    return QStringLiteral("%1%2 GiB%3")
        .arg(delta > 0 ? QStringLiteral("+") : QString())
        .arg(delta, 0, 'f', 2)
        .arg(c.agrees() ? QString() : QStringLiteral("  differs"));
}

QString row(const QString &label, const QString &logged, const QString &planned, const QString &delta)
{
    return QStringLiteral("  %1 %2 %3 %4")
        .arg(label, -46)
        .arg(logged, 12)
        .arg(planned, 12)
        .arg(delta)
        .trimmed();
}

QString explanationText(const LogExplanation &e)
{
    QString out;
    const auto section = [&](const QString &title, const QStringList &lines) {
        if (lines.isEmpty())
            return;
        out += title + QLatin1Char('\n');
        for (const QString &line : lines)
            out += QStringLiteral("  ") + line + QLatin1Char('\n');
        out += QLatin1Char('\n');
    };
    section(QStringLiteral("Read from %1").arg(e.log.origin), e.read);
    section(QStringLiteral("Assumed"), e.assumed);

    out += QStringLiteral("Planned as: kvscope calc %1\n\n")
               .arg(calcArguments(e.options).join(QLatin1Char(' ')));

    out += QStringLiteral("  %1 %2 %3 %4\n")
               .arg(QStringLiteral("Per GPU"), -46)
               .arg(QStringLiteral("logged"), 12)
               .arg(QStringLiteral("kvscope"), 12)
               .arg(QStringLiteral("difference"));
    for (const LogComponent &c : e.components)
        out += QStringLiteral("  ") +
               row(c.label, gib(c.loggedGiB), formatGiB(c.predictedBytes), difference(c)) + QLatin1Char('\n');
    const MemoryPlan &p = e.plan;
    const QString tokensDelta =
        e.loggedKvTokens && *e.loggedKvTokens > 0
            ? QStringLiteral("%1%2 %")
                  .arg(p.kv.capacityTokens >= *e.loggedKvTokens ? QStringLiteral("+") : QString())
                  .arg(100.0 * double(p.kv.capacityTokens - *e.loggedKvTokens) / double(*e.loggedKvTokens), 0,
                       'f', 2)
            : QString();
    out += QStringLiteral("  ") +
           row(QStringLiteral("KV cache tokens"),
               e.loggedKvTokens ? formatCount(*e.loggedKvTokens) : QStringLiteral("—"),
               formatCount(p.kv.capacityTokens), tokensDelta) +
           QLatin1Char('\n');
    out += QStringLiteral("  ") +
           row(QStringLiteral("Maximum concurrency"),
               e.loggedMaxConcurrency ? QStringLiteral("%1x").arg(*e.loggedMaxConcurrency, 0, 'f', 2)
                                      : QStringLiteral("—"),
               QStringLiteral("%1x").arg(p.kv.maxConcurrency, 0, 'f', 2), QString()) +
           QStringLiteral("\n\n");

    section(QStringLiteral("Why the KV cache has this size"), e.explanation);
    QStringList levers;
    for (const KvLever &l : e.levers)
        levers << QStringLiteral("%1: %2 tokens (×%3)")
                      .arg(l.what, formatCount(l.tokens))
                      .arg(double(l.tokens) / double(std::max<std::int64_t>(1, p.kv.capacityTokens)), 0, 'f',
                           2)
               << QStringLiteral("  ") + l.launch;
    section(QStringLiteral("To hold more"), levers);
    return out;
}

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
                                     commandLine.parser.value(commandLine.gpu)};
        const LogExplanation explanation = explainStartupLog(log, overrides, builtinResolvers());
        if (commandLine.parser.isSet(commandLine.json))
            writeOut(QString::fromUtf8(QJsonDocument(logExplanationJson(explanation)).toJson()));
        else
            writeOut(explanationText(explanation));
        return Success;
    } catch (const Error &error) {
        return fail(error.message());
    }
}

} // namespace kvscope::cli
