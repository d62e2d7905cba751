// SPDX-License-Identifier: MIT
#pragma once

#include "core/analysis/fixes.h"
#include "core/plan/memoryplan.h"

#include <QHash>
#include <QLabel>
#include <QTextDocument>

namespace kvscope {

/// Says whether the scenario fits and by how much; when it does not, what alone
/// is over (the weights, say) and the changes the core proposes, each a link
/// that applies it; when it does, how far it could go. Below, the plan's notes.
///
/// The banner is measured and drawn from its own copy of the text. Why: its figures change on
/// every slider step, and QLabel lays a rich text out about a dozen times for each new text (it
/// sets three settings of its document again, then lays it out for each size asked and once more
/// to put the width back), each layout shaping the text again (QTextLayout::beginLayout drops the
/// shaping). The copy is laid out once for each text and width. QLabel's own document still serves
/// the mouse and the keyboard (the proposals' links), and is laid out only when they use it.
class FitBanner : public QLabel
{
    Q_OBJECT

public:
    explicit FitBanner(QWidget *parent = nullptr);

    /// The verdict for `plan` now; its proposals follow with showFixes(). Until then the
    /// banner keeps the proposals it shows while they are of the same kind (repairs of a
    /// plan that does not fit, or the limits of one that does) and otherwise says that
    /// they are being looked for.
    void showPlan(const MemoryPlan &plan);
    void showFixes(const QList<Fix> &fixes);
    /// Both at once (a report's banner, whose proposals are known).
    void showPlan(const MemoryPlan &plan, const QList<Fix> &fixes);
    /// Whether the proposals shown are those of the plan shown.
    bool fixesPending() const { return m_fixesPending; }
    bool showsWarning() const { return m_warning; }
    const QList<Fix> &fixes() const { return m_fixes; }

    /// The banner as plain text (verdict, proposals, notes), for the clipboard.
    QString plainText() const;

    /// Words for a proposal: "4 GPUs (tensor parallel)", "AWQ INT4 weights 37.21 GiB (needs a checkpoint
    /// stored as AWQ INT4), batch 12".
    static QString fixText(const Fix &fix);

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;
    int heightForWidth(int width) const override;

public Q_SLOTS:
    /// Applies the proposal at `index` of fixes(): what clicking its link does.
    void chooseFix(int index);

Q_SIGNALS:
    void fixChosen(const kvscope::Scenario &scenario);

protected:
    void changeEvent(QEvent *event) override;
    void paintEvent(QPaintEvent *event) override;
    bool focusNextPrevChild(bool next) override;

private:
    /// How the verdict looks: every colour and the icon follow from one state, fits or not.
    struct Look
    {
        QColor accent; // the bar down the left side
        QColor tint;   // the background: the accent, faint, over the surrounding window
        QColor text;
        QColor link; // the proposals: readable on the tint
        QString icon;
        bool operator==(const Look &) const = default;
    };
    QPalette surroundingPalette() const;
    Look look() const;
    QString verdict() const;
    QString proposals() const;
    QString notes() const;
    void restyle();
    void render();
    /// The text's width inside a banner `width` wide, as QLabel computes it (margins on every side).
    int textWidthFor(int width) const;
    /// The drawn copy holding the banner's text in its font, laid out `textWidth` wide (nothing done
    /// when it already is).
    void layOutText(int textWidth) const;

    MemoryPlan m_plan;
    QList<Fix> m_fixes;
    bool m_fixesPending = false;
    bool m_warning = false;
    Look m_look;
    mutable QTextDocument m_drawn;                // the text as measured and drawn
    mutable bool m_drawnStale = true;             // the text or font changed since it was laid out
    mutable QHash<int, int> m_heightForTextWidth; // the text's height at each width asked
};

} // namespace kvscope
