// SPDX-License-Identifier: MIT
#include "ui/explorer/formulapanel.h"

#include "core/common/scenariofield.h"
#include "ui/style/theme.h"
#include "ui/widgets/textshaping.h"

#include <algorithm>

#include <QClipboard>
#include <QEvent>
#include <QFontDatabase>
#include <QGuiApplication>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QScrollBar>
#include <QTextBlock>
#include <QTextBrowser>
#include <QTextCursor>
#include <QTextDocument>
#include <QUrl>
#include <QVBoxLayout>

namespace kvscope {

namespace {

const QString TermScheme = QStringLiteral("term");
/// The keys of a line's note and result among the values shown ("note:LINE", "result:LINE").
const QString NoteKey = QStringLiteral("note");
const QString ResultKey = QStringLiteral("result");

QString monospaceFamily()
{
    return QFontDatabase::systemFont(QFontDatabase::FixedFont).family();
}

/// Text in the monospace family, at the size of the text around it.
QString code(const QString &html)
{
    return QStringLiteral("<span style=\"font-family:'%1'\">%2</span>").arg(monospaceFamily(), html);
}

QString colored(const QString &html, const QColor &color, bool bold = false)
{
    return QStringLiteral("<span style=\"color:%1;%2\">%3</span>")
        .arg(color.name(), bold ? QStringLiteral("font-weight:bold;") : QString(), html);
}

} // namespace

FormulaPanel::FormulaPanel(QWidget *parent)
    : QWidget(parent), m_launchCaption(new QLabel(this)), m_launchLabel(new QLabel(this)),
      m_copyLaunch(new QPushButton(this)), m_caveats(new QLabel(this)), m_browser(new QTextBrowser(this)),
      m_copyFormulas(new QPushButton(this))
{
    setObjectName(QStringLiteral("formulaPanel"));
    m_launchLabel->setObjectName(QStringLiteral("launchLine"));
    m_copyLaunch->setObjectName(QStringLiteral("copyLaunchLineButton"));
    m_caveats->setObjectName(QStringLiteral("launchLineCaveats"));
    m_browser->setObjectName(QStringLiteral("formulaSheet"));
    m_copyFormulas->setObjectName(QStringLiteral("copyFormulasButton"));

    theme::setScaledFont(m_launchCaption, 1.0, true);
    m_launchLabel->setTextFormat(Qt::RichText);
    m_launchLabel->setWordWrap(true);
    m_launchLabel->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_caveats->setWordWrap(true);
    m_caveats->setTextInteractionFlags(Qt::TextSelectableByMouse);
    theme::setScaledFont(m_caveats, 0.9);
    m_browser->setOpenLinks(false);
    m_browser->setFrameShape(QFrame::NoFrame);
    keepTextShaping(m_browser->document()); // a step rewrites about 35 paragraphs and repaints the sheet

    auto *launchRow = new QHBoxLayout;
    launchRow->addWidget(m_launchCaption, 1);
    launchRow->addWidget(m_copyLaunch);
    auto *formulaRow = new QHBoxLayout;
    formulaRow->addStretch(1);
    formulaRow->addWidget(m_copyFormulas);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 0, 0, 0);
    layout->addLayout(launchRow);
    layout->addWidget(m_launchLabel);
    layout->addWidget(m_caveats);
    layout->addWidget(m_browser, 1);
    layout->addLayout(formulaRow);

    connect(m_browser, &QTextBrowser::highlighted, this, [this](const QUrl &link) {
        const FormulaTerm *term = termAt(link);
        // The value's own tooltip: where it comes from.
        m_browser->setToolTip(term ? termToolTip(*term) : m_sheetToolTip);
        Q_EMIT termHovered(term ? term->option : std::nullopt);
    });
    connect(m_browser, &QTextBrowser::anchorClicked, this, [this](const QUrl &link) {
        if (const FormulaTerm *term = termAt(link); term && term->option)
            Q_EMIT termActivated(*term->option);
    });
    connect(m_copyLaunch, &QPushButton::clicked, this, &FormulaPanel::copyLaunchLine);
    connect(m_copyFormulas, &QPushButton::clicked, this, &FormulaPanel::copyFormulas);
    retranslate();
}

void FormulaPanel::showPlan(const Scenario &scenario, const MemoryPlan &plan)
{
    m_sheet = formulaSheet(scenario, plan);
    m_launch = launchLine(scenario);
    if (m_engine == plan.engine) {
        render();
        return;
    }
    m_engine = plan.engine;
    retranslate(); // the captions name the engine; renders too
}

const FormulaTerm *FormulaPanel::termAt(const QUrl &link) const
{
    if (link.scheme() != TermScheme)
        return nullptr;
    const QStringList at = link.path().split(QLatin1Char(':'));
    const int line = at.value(0).toInt(), term = at.value(1, QStringLiteral("-1")).toInt();
    if (line < 0 || line >= m_sheet.lines.size() || term < 0 || term >= m_sheet.lines.at(line).terms.size())
        return nullptr;
    return &m_sheet.lines.at(line).terms.at(term);
}

QString FormulaPanel::linkOf(const QString &name, const QString &symbol) const
{
    for (qsizetype l = 0; l < m_sheet.lines.size(); ++l) {
        const FormulaLine &line = m_sheet.lines.at(l);
        if (line.name != name)
            continue;
        for (qsizetype t = 0; t < line.terms.size(); ++t)
            if (line.terms.at(t).symbol == symbol)
                return QStringLiteral("%1:%2:%3").arg(TermScheme).arg(l).arg(t);
    }
    return {};
}

void FormulaPanel::render()
{
    const QPalette pal = palette();
    const QColor muted = theme::mutedTextColor(pal);
    m_launchLabel->setText(code(m_launch.command().toHtmlEscaped()));
    m_caveats->setText(m_launch.caveats.join(QLatin1Char('\n')));
    m_caveats->setVisible(!m_launch.caveats.isEmpty());
    QPalette caveatPalette = pal;
    caveatPalette.setColor(QPalette::WindowText, muted);
    m_caveats->setPalette(caveatPalette);

    // A slider step changes the numbers, not the lines: writing them into the
    // document shown re-lays out only their lines (setHtml re-parsed and laid
    // out the whole sheet, half of a slider step's time with the panel open).
    const QStringList shape = sheetShape(pal);
    if (shape == m_shownShape && writeValuesInPlace())
        return;
    m_shownShape = shape;

    QString html;
    for (qsizetype l = 0; l < m_sheet.lines.size(); ++l) {
        const FormulaLine &line = m_sheet.lines.at(l);
        if (l == 0 || line.section != m_sheet.lines.at(l - 1).section)
            html += QStringLiteral("<h3>%1</h3>").arg(sectionTitle(line.section).toHtmlEscaped());
        QString values;
        for (const FormulaToken &token : line.tokens) {
            if (token.term < 0) {
                values += token.text.toHtmlEscaped();
                continue;
            }
            const FormulaTerm &term = line.terms.at(token.term);
            values += QStringLiteral("<a href=\"%1:%2:%3\" style=\"text-decoration:none\">%4</a>")
                          .arg(TermScheme)
                          .arg(l)
                          .arg(token.term)
                          .arg(colored(term.text.toHtmlEscaped(), theme::termColor(term.option, pal), true));
        }
        // A line in three paragraphs with no space between them, so that a step lays out
        // again only those whose values changed: the note, "name = symbolic" (never), and
        // "= values" with "= result". The space above a line is a paragraph's default.
        if (!line.note.isEmpty())
            html += QStringLiteral("<p style=\"margin-bottom:0px\">%1</p>")
                        .arg(colored(line.note.toHtmlEscaped(), muted));
        html += QStringLiteral("<p style=\"%1margin-bottom:0px\">%2</p>")
                    .arg(line.note.isEmpty() ? QString() : QStringLiteral("margin-top:0px;"),
                         code(QStringLiteral("<b>%1</b> = %2")
                                  .arg(line.name.toHtmlEscaped(),
                                       colored(line.symbolic().toHtmlEscaped(), muted))));
        html += QStringLiteral("<p style=\"margin-top:0px;margin-bottom:10px\">%1</p>")
                    .arg(code(QStringLiteral("&nbsp;&nbsp;= %1<br>&nbsp;&nbsp;= <b>%2</b>")
                                  .arg(values, line.result.text.toHtmlEscaped())));
    }
    const int scroll = m_browser->verticalScrollBar() ? m_browser->verticalScrollBar()->value() : 0;
    m_browser->setHtml(html);
    ++m_sheetsBuilt;
    m_browser->verticalScrollBar()->setValue(scroll); // a dragged slider keeps the reader's place
    indexValues();
}

QStringList FormulaPanel::sheetShape(const QPalette &palette) const
{
    // Everything the sheet's HTML holds but its values: titles, names, notes,
    // operators, each value's colour (its option) and the palette.
    QStringList shape{palette.color(QPalette::Text).name(), palette.color(QPalette::Base).name()};
    for (const FormulaLine &line : m_sheet.lines) {
        // A note says what the line shows, with the scenario's numbers (a value too),
        // or nothing: only whether it is there is the shape's.
        QString key = sectionTitle(line.section) + u'|' + line.name + u'|' +
                      (line.note.isEmpty() ? u'-' : u'+') + u'|' + line.symbolic();
        for (const FormulaToken &token : line.tokens)
            key += token.term < 0
                       ? u'|' + token.text
                       : QStringLiteral("|#%1").arg(
                             line.terms.at(token.term).option ? int(*line.terms.at(token.term).option) : -1);
        shape << key;
    }
    return shape;
}

void FormulaPanel::indexValues()
{
    // Each formula line as render() writes it: its note's paragraph, if it has one,
    // "name = symbolic", then "= values" (each term a link), a line break and "= result".
    m_shownValues.clear();
    QTextDocument *document = m_browser->document();
    // The fragment's format, not a cursor's: placing a cursor lays its line out
    // again (QTextCursor finds its x), a third of the panel's time on a step.
    const auto formatAt = [](const QTextBlock &block, int position) {
        for (auto it = block.begin(); !it.atEnd(); ++it)
            if (it.fragment().contains(position))
                return it.fragment().charFormat();
        return QTextCharFormat();
    };
    QTextBlock block = document->begin();
    for (qsizetype l = 0; l < m_sheet.lines.size(); ++l) {
        const FormulaLine &line = m_sheet.lines.at(l);
        const QString head = line.name + QStringLiteral(" = ");
        while (block.isValid() && !block.text().startsWith(head))
            block = block.next(); // a section title, a note
        const QTextBlock note = block.previous();
        const QTextBlock values = block.next();
        if (!block.isValid() || (!line.note.isEmpty() && note.text() != line.note) || !values.isValid() ||
            line.result.text.isEmpty() || !values.text().endsWith(line.result.text)) {
            m_shownValues.clear(); // not as render() wrote it: the next change rebuilds the sheet
            return;
        }
        if (!line.note.isEmpty())
            m_shownValues.append({QStringLiteral("%1:%2").arg(NoteKey).arg(l), note.position(),
                                  int(line.note.size()), formatAt(note, note.position())});
        for (auto it = values.begin(); !it.atEnd(); ++it) {
            const QTextFragment fragment = it.fragment();
            const QString link = fragment.charFormat().anchorHref();
            if (link.isEmpty())
                continue;
            // The document may keep one value in several fragments of the same format.
            if (!m_shownValues.isEmpty() && m_shownValues.last().key == link &&
                m_shownValues.last().position + m_shownValues.last().length == fragment.position())
                m_shownValues.last().length += fragment.length();
            else
                m_shownValues.append({link, fragment.position(), fragment.length(), fragment.charFormat()});
        }
        const int result = values.position() + values.length() - 1 - int(line.result.text.size());
        m_shownValues.append({QStringLiteral("%1:%2").arg(ResultKey).arg(l), result,
                              int(line.result.text.size()), formatAt(values, result)});
        block = values.next();
    }
}

bool FormulaPanel::writeValuesInPlace()
{
    const QString resultPrefix = ResultKey + u':';
    const QString notePrefix = NoteKey + u':';
    qsizetype values = m_sheet.lines.size(); // one result a line, its terms and its note
    for (const FormulaLine &line : m_sheet.lines)
        values += std::count_if(line.tokens.cbegin(), line.tokens.cend(),
                                [](const FormulaToken &token) { return token.term >= 0; }) +
                  (line.note.isEmpty() ? 0 : 1);
    if (values != m_shownValues.size())
        return false;  // a term without text left no link to find
    QStringList texts; // the new text of each value shown, in document order
    for (const ShownValue &shown : std::as_const(m_shownValues)) {
        QString text;
        if (const bool result = shown.key.startsWith(resultPrefix);
            result || shown.key.startsWith(notePrefix)) {
            const qsizetype line = shown.key.mid((result ? resultPrefix : notePrefix).size()).toLongLong();
            if (line < 0 || line >= m_sheet.lines.size())
                return false;
            text = result ? m_sheet.lines.at(line).result.text : m_sheet.lines.at(line).note;
        } else if (const FormulaTerm *term = termAt(QUrl(shown.key))) {
            text = term->text;
        } else {
            return false;
        }
        texts << text;
    }
    QTextDocument *document = m_browser->document();
    QTextCursor cursor(document);
    // One edit a paragraph whose values changed: the document lays out again all it
    // holds between an edit's first and last change, and a step changes some
    // paragraphs spread over the sheet. From the end, so that a value's new length
    // never moves one not yet written.
    int editedBlock = -1;
    for (qsizetype i = m_shownValues.size() - 1; i >= 0; --i) {
        const ShownValue &shown = m_shownValues.at(i);
        const QTextBlock block = document->findBlock(shown.position);
        if (block.text().mid(shown.position - block.position(), shown.length) == texts.at(i))
            continue;
        if (block.blockNumber() != editedBlock) {
            if (editedBlock >= 0)
                cursor.endEditBlock();
            cursor.beginEditBlock(); // before placing the cursor, which then skips laying its line out
            editedBlock = block.blockNumber();
        }
        cursor.setPosition(shown.position);
        cursor.setPosition(shown.position + shown.length, QTextCursor::KeepAnchor);
        cursor.insertText(texts.at(i), shown.format);
    }
    if (editedBlock >= 0)
        cursor.endEditBlock();
    indexValues();
    return true;
}

int FormulaPanel::preferredWidth() const
{
    QFont mono = QFontDatabase::systemFont(QFontDatabase::FixedFont);
    mono.setPointSizeF(font().pointSizeF());
    return QFontMetrics(mono).horizontalAdvance(QString(56, QLatin1Char('x'))) +
           m_browser->verticalScrollBar()->sizeHint().width() + 2 * m_browser->frameWidth() + 12;
}

QSize FormulaPanel::sizeHint() const
{
    return {preferredWidth(), QWidget::sizeHint().height()};
}

QString FormulaPanel::plainText() const
{
    return m_launch.text() + QLatin1Char('\n') + m_sheet.text();
}

void FormulaPanel::copyLaunchLine()
{
    QGuiApplication::clipboard()->setText(m_launch.command());
}

void FormulaPanel::copyFormulas() const
{
    QGuiApplication::clipboard()->setText(plainText());
}

QString FormulaPanel::termToolTip(const FormulaTerm &term) const
{
    const QString value = QStringLiteral("%1 = %2").arg(term.symbol, term.text);
    if (!term.option)
        return term.field.isEmpty()
                   ? tr("%1, from the line above").arg(value)
                   : QStringLiteral("%1 (%2)").arg(value, term.field); // a calibrated constant
    const QString option = optionFlag(*term.option);
    return term.field.isEmpty() ? tr("%1, set by %2").arg(value, option)
                                : tr("%1, set by %2 (%3)").arg(value, option, term.field);
}

QString FormulaPanel::sectionTitle(FormulaSection section) const
{
    switch (section) {
    case FormulaSection::KvCache:
        return tr("KV cache");
    case FormulaSection::Weights:
        return tr("Weights");
    case FormulaSection::Capacity:
        return tr("%1's budget and capacity").arg(engineDisplayName(m_engine));
    case FormulaSection::Speed:
        return tr("Speed: one decode step, then the first token");
    }
    return {};
}

void FormulaPanel::retranslate()
{
    const QString engine = engineDisplayName(m_engine);
    m_launchCaption->setText(tr("%1 launch line").arg(engine));
    m_launchCaption->setToolTip(
        tr("The command that starts %1 on this scenario: the flags whose values differ "
           "from its defaults.")
            .arg(engine));
    m_copyLaunch->setText(tr("Copy"));
    m_copyLaunch->setToolTip(tr("Copy the %1 command.").arg(engine));
    m_copyFormulas->setText(tr("Copy formulas"));
    m_copyFormulas->setToolTip(tr("Copy the launch line and every formula as text."));
    m_sheetToolTip = tr("Each value names the option it comes from; hover it to find that control.");
    m_browser->setToolTip(m_sheetToolTip);
    render();
}

void FormulaPanel::changeEvent(QEvent *event)
{
    // Notes are worded by the core when planned (the controller plans again on a language change);
    // section titles and colours are the panel's.
    if (event->type() == QEvent::LanguageChange)
        retranslate();
    else if (event->type() == QEvent::PaletteChange)
        render();
    QWidget::changeEvent(event);
}

} // namespace kvscope
