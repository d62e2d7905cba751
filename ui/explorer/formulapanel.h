// SPDX-License-Identifier: MIT
#pragma once

#include "core/analysis/formula.h"
#include "core/common/scenariofield.h"
#include "core/engine/engine.h"
#include "core/scenario/launchline.h"

#include <QTextCharFormat>
#include <QWidget>

class QLabel;
class QPushButton;
class QTextBrowser;
class QUrl;

namespace kvscope {

/// The arithmetic behind the figures, as a teacher writes it on the board: the
/// engine's launch line, then the core's formula sheet (formulaSheet()) with the
/// scenario's numbers in it, each value coloured by the kind of option it comes
/// from. Hovering a value names its option (termHovered), so the parameter panel
/// can light up the control; clicking it asks for that control (termActivated).
/// Everything is selectable and copyable as text.
class FormulaPanel : public QWidget
{
    Q_OBJECT

public:
    explicit FormulaPanel(QWidget *parent = nullptr);

    void showPlan(const Scenario &scenario, const MemoryPlan &plan);

    const FormulaSheet &sheet() const { return m_sheet; }
    const LaunchLine &launch() const { return m_launch; }
    QTextBrowser *browser() const { return m_browser; }
    QLabel *launchLabel() const { return m_launchLabel; }
    QLabel *launchCaption() const { return m_launchCaption; }
    /// The term a link of the sheet stands for ("term:LINE:TERM"), or nullptr.
    const FormulaTerm *termAt(const QUrl &link) const;
    /// The link of the first term of line `name` whose symbol is `symbol` (for tests and tools).
    QString linkOf(const QString &name, const QString &symbol) const;
    /// Wide enough for a formula line of about 56 monospace characters (a third of a
    /// 1920-pixel screen at the usual font), whatever the zoom.
    int preferredWidth() const;
    /// Sheets built from HTML so far: a slider step that keeps the sheet's shape writes its
    /// values into the one shown instead (a test's measure).
    int sheetsBuilt() const { return m_sheetsBuilt; }
    QSize sizeHint() const override;
    /// The launch line, its caveats and the sheet as plain text.
    QString plainText() const;

public Q_SLOTS:
    void copyLaunchLine();
    void copyFormulas() const;

Q_SIGNALS:
    /// The mouse is over a value that `option` sets; none when it left (or the value
    /// comes from an earlier line).
    void termHovered(std::optional<kvscope::ScenarioField> option);
    /// A value was clicked: show the control of `option`.
    void termActivated(kvscope::ScenarioField option);

protected:
    void changeEvent(QEvent *event) override;

private:
    /// A value shown in the sheet: the link of a term ("term:LINE:TERM") or the
    /// anchor name of a line's result ("result:LINE"), where it is in the
    /// document and how it is drawn.
    struct ShownValue
    {
        QString key;
        int position = 0;
        int length = 0;
        QTextCharFormat format;
    };

    void render();
    /// What the sheet shows apart from its values; a sheet of the same shape is updated in place.
    QStringList sheetShape(const QPalette &palette) const;
    /// Finds every value in the document shown (m_shownValues).
    void indexValues();
    /// Writes the sheet's values over the ones shown; false when a value has no place.
    bool writeValuesInPlace();
    void retranslate();
    QString sectionTitle(FormulaSection section) const;
    QString termToolTip(const FormulaTerm &term) const;

    QLabel *m_launchCaption;
    QLabel *m_launchLabel;
    QPushButton *m_copyLaunch;
    QLabel *m_caveats;
    QTextBrowser *m_browser;
    QPushButton *m_copyFormulas;
    FormulaSheet m_sheet;
    LaunchLine m_launch;
    QString m_sheetToolTip;
    Engine m_engine = Engine::Vllm; ///< the plan's, which the captions name
    QStringList m_shownShape;
    QList<ShownValue> m_shownValues;
    int m_sheetsBuilt = 0;
};

} // namespace kvscope
