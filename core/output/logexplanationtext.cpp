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

} // namespace

LogExplanationLayout logExplanationLayout(const LogExplanation &e)
{
    LogExplanationLayout layout;
    layout.head = {{LogExplanationText::tr("Read from %1").arg(e.log.origin), e.read},
                   {LogExplanationText::tr("Assumed"), e.assumed}};
    layout.plannedAs = LogExplanationText::tr("Planned as: kvscope calc %1")
                           .arg(calcArguments(e.options).join(QLatin1Char(' ')));
    const auto add = [&](const QStringList &cells, bool differs) {
        layout.table << cells;
        layout.differs << differs;
    };
    add({LogExplanationText::tr("Per GPU"), LogExplanationText::tr("logged"), QStringLiteral("kvscope"),
         LogExplanationText::tr("difference")},
        false);
    for (const LogComponent &c : e.components)
        add({c.label, gib(c.loggedGiB), formatGiB(c.predictedBytes), difference(c)}, !c.agrees());
    const MemoryPlan &p = e.plan;
    const QString tokensDelta =
        e.loggedKvTokens && *e.loggedKvTokens > 0
            ? QStringLiteral("%1%2 %")
                  .arg(p.kv.capacityTokens >= *e.loggedKvTokens ? QStringLiteral("+") : QString())
                  .arg(100.0 * double(p.kv.capacityTokens - *e.loggedKvTokens) / double(*e.loggedKvTokens), 0,
                       'f', 2)
            : QString();
    add({LogExplanationText::tr("KV cache tokens"),
         e.loggedKvTokens ? formatCount(*e.loggedKvTokens) : QStringLiteral("—"),
         formatCount(p.kv.capacityTokens), tokensDelta},
        false);
    if (e.scenario.engine == Engine::Sglang)
        add({LogExplanationText::tr("Requests at once (max_running_requests)"),
             e.loggedMaxRunningRequests ? formatCount(*e.loggedMaxRunningRequests) : QStringLiteral("—"),
             formatCount(p.maxNumSeqs), QString()},
            false);
    else
        add({LogExplanationText::tr("Maximum concurrency"),
             e.loggedMaxConcurrency ? QStringLiteral("%1x").arg(*e.loggedMaxConcurrency, 0, 'f', 2)
                                    : QStringLiteral("—"),
             QStringLiteral("%1x").arg(p.kv.maxConcurrency, 0, 'f', 2), QString()},
            false);
    layout.why = {LogExplanationText::tr("Why the KV cache has this size"), e.explanation};
    layout.leversTitle = LogExplanationText::tr("To hold more");
    for (const KvLever &l : e.levers)
        layout.levers << LogExplanationLayout::Lever{
            LogExplanationText::tr("%1: %2 tokens (×%3)")
                .arg(l.what, formatCount(l.tokens))
                .arg(double(l.tokens) / double(std::max<std::int64_t>(1, p.kv.capacityTokens)), 0, 'f', 2),
            l.launch};
    return layout;
}

QString logExplanationText(const LogExplanation &e)
{
    const LogExplanationLayout layout = logExplanationLayout(e);
    QString out;
    const auto section = [&](const QString &title, const QStringList &lines) {
        if (lines.isEmpty())
            return;
        out += title + QLatin1Char('\n');
        for (const QString &line : lines)
            out += QStringLiteral("  ") + line + QLatin1Char('\n');
        out += QLatin1Char('\n');
    };
    for (const LogExplanationLayout::Section &s : layout.head)
        section(s.title, s.lines);
    out += layout.plannedAs + QStringLiteral("\n\n");
    for (const QStringList &cells : layout.table) {
        // Padded by display columns: a Chinese label's characters take two each.
        out +=
            QStringLiteral("  ") +
            QStringLiteral("  %1 %2 %3 %4")
                .arg(padded(cells.at(0), -46), padded(cells.at(1), 12), padded(cells.at(2), 12), cells.at(3))
                .trimmed() +
            QLatin1Char('\n');
    }
    out += QLatin1Char('\n');
    section(layout.why.title, layout.why.lines);
    QStringList levers;
    for (const LogExplanationLayout::Lever &l : layout.levers)
        levers << l.effect << QStringLiteral("  ") + l.launch;
    section(layout.leversTitle, levers);
    return out;
}

} // namespace kvscope
