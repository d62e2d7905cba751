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
    // Whether the engine started, where the log or the plan says it did not.
    const bool loggedFailure = e.log.refusedToStart || !e.log.startFailure.isEmpty();
    if (loggedFailure || !p.engineStarts) {
        const QString yes = LogExplanationText::tr("yes"), no = LogExplanationText::tr("no");
        const QString logged = loggedFailure ? no : e.loggedKvTokens ? yes : QStringLiteral("—");
        const bool differs = logged != QStringLiteral("—") && (logged == yes) != p.engineStarts;
        add({LogExplanationText::tr("Engine starts"), logged, p.engineStarts ? yes : no,
             differs ? LogExplanationText::tr("  differs").trimmed() : QString()},
            differs);
    }
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

QString logExplanationHtml(const LogExplanation &e)
{
    const LogExplanationLayout layout = logExplanationLayout(e);
    QString html;
    const auto list = [&](const QString &title, const QStringList &lines) {
        if (lines.isEmpty())
            return;
        html += QStringLiteral("<h4>%1</h4><ul>").arg(title.toHtmlEscaped());
        for (const QString &line : lines)
            html += QStringLiteral("<li>%1</li>").arg(line.toHtmlEscaped());
        html += QStringLiteral("</ul>");
    };
    // The answer first, then what it rests on: in a window the table is what is looked for.
    html += QStringLiteral("<p><code>%1</code></p>").arg(layout.plannedAs.toHtmlEscaped());
    html += QStringLiteral("<table cellspacing=\"0\" cellpadding=\"4\">");
    for (qsizetype r = 0; r < layout.table.size(); ++r) {
        const QString cell = r == 0 ? QStringLiteral("th") : QStringLiteral("td");
        html += QStringLiteral("<tr>");
        for (qsizetype c = 0; c < layout.table.at(r).size(); ++c) {
            QString text = layout.table.at(r).at(c).trimmed().toHtmlEscaped();
            if (layout.differs.at(r))
                text = QStringLiteral("<b>%1</b>").arg(text);
            html += QStringLiteral("<%1 align=\"%2\">%3</%1>")
                        .arg(cell, c == 0 ? QStringLiteral("left") : QStringLiteral("right"), text);
        }
        html += QStringLiteral("</tr>");
    }
    html += QStringLiteral("</table>");
    list(layout.why.title, layout.why.lines);
    if (!layout.levers.isEmpty()) {
        html += QStringLiteral("<h4>%1</h4><ul>").arg(layout.leversTitle.toHtmlEscaped());
        for (const LogExplanationLayout::Lever &l : layout.levers)
            html += QStringLiteral("<li>%1<br><code>%2</code></li>")
                        .arg(l.effect.toHtmlEscaped(), l.launch.toHtmlEscaped());
        html += QStringLiteral("</ul>");
    }
    for (const LogExplanationLayout::Section &s : layout.head)
        list(s.title, s.lines);
    return html;
}

} // namespace kvscope
