// SPDX-License-Identifier: MIT
#pragma once

#include "core/analysis/fixes.h"
#include "core/plan/memoryplan.h"

#include <QLabel>

namespace kvscope {

/// Says whether the scenario fits and by how much; when it does not, what alone
/// is over (the weights, say) and the changes the core proposes, each a link
/// that applies it; when it does, how far it could go. Below, the plan's notes.
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

public Q_SLOTS:
    /// Applies the proposal at `index` of fixes(): what clicking its link does.
    void chooseFix(int index);

Q_SIGNALS:
    void fixChosen(const kvscope::Scenario &scenario);

protected:
    void changeEvent(QEvent *event) override;
    void paintEvent(QPaintEvent *event) override;

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

    MemoryPlan m_plan;
    QList<Fix> m_fixes;
    bool m_fixesPending = false;
    bool m_warning = false;
    Look m_look;
};

} // namespace kvscope
