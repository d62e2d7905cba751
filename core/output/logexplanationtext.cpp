// SPDX-License-Identifier: MIT
#include "core/output/logexplanationtext.h"

#include "core/analysis/logexplanation.h"
#include "core/common/textcolumns.h"
#include "core/common/units.h"
#include "core/engine/engine.h"
#include "core/scenario/scenariovalues.h"

#include <algorithm>
#include <cmath>

#include <QCoreApplication>

namespace kvscope {

/// Headings and labels, translated where a translator is installed (the window); the CLI prints English.
class LogExplanationText
{
    Q_DECLARE_TR_FUNCTIONS(kvscope::LogExplanationText)
};

namespace {

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
        .arg(c.agrees() ? QString() : LogExplanationText::tr("  differs"));
}

QString row(const QString &label, const QString &logged, const QString &planned, const QString &delta)
{
    // Padded by display columns: a Chinese label's characters take two each.
    return QStringLiteral("  %1 %2 %3 %4")
        .arg(padded(label, -46), padded(logged, 12), padded(planned, 12), delta)
        .trimmed();
}

} // namespace

QString logExplanationText(const LogExplanation &e)
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
    section(LogExplanationText::tr("Read from %1").arg(e.log.origin), e.read);
    section(LogExplanationText::tr("Assumed"), e.assumed);

    out += LogExplanationText::tr("Planned as: kvscope calc %1")
               .append(QStringLiteral("\n\n"))
               .arg(calcArguments(e.options).join(QLatin1Char(' ')));

    out += QStringLiteral("  ") +
           row(LogExplanationText::tr("Per GPU"), LogExplanationText::tr("logged"), QStringLiteral("kvscope"),
               LogExplanationText::tr("difference")) +
           QLatin1Char('\n');
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
           row(LogExplanationText::tr("KV cache tokens"),
               e.loggedKvTokens ? formatCount(*e.loggedKvTokens) : QStringLiteral("—"),
               formatCount(p.kv.capacityTokens), tokensDelta) +
           QLatin1Char('\n');
    if (e.scenario.engine == Engine::Sglang)
        out +=
            QStringLiteral("  ") +
            row(LogExplanationText::tr("Requests at once (max_running_requests)"),
                e.loggedMaxRunningRequests ? formatCount(*e.loggedMaxRunningRequests) : QStringLiteral("—"),
                formatCount(p.maxNumSeqs), QString()) +
            QStringLiteral("\n\n");
    else
        out += QStringLiteral("  ") +
               row(LogExplanationText::tr("Maximum concurrency"),
                   e.loggedMaxConcurrency ? QStringLiteral("%1x").arg(*e.loggedMaxConcurrency, 0, 'f', 2)
                                          : QStringLiteral("—"),
                   QStringLiteral("%1x").arg(p.kv.maxConcurrency, 0, 'f', 2), QString()) +
               QStringLiteral("\n\n");

    section(LogExplanationText::tr("Why the KV cache has this size"), e.explanation);
    QStringList levers;
    for (const KvLever &l : e.levers)
        levers << LogExplanationText::tr("%1: %2 tokens (×%3)")
                      .arg(l.what, formatCount(l.tokens))
                      .arg(double(l.tokens) / double(std::max<std::int64_t>(1, p.kv.capacityTokens)), 0, 'f',
                           2)
               << QStringLiteral("  ") + l.launch;
    section(LogExplanationText::tr("To hold more"), levers);
    return out;
}

} // namespace kvscope
