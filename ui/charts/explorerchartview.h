// SPDX-License-Identifier: MIT
#pragma once

#include "widgets/legendstrip.h"

#include <QChartView>

namespace kvscope {

/// What the explorer's charts share: a QChart without animations (a dragged
/// slider must redraw within the frame, never lag behind), its legend replaced
/// by a LegendStrip that wraps, and new colours and texts on palette and
/// language changes.
class ExplorerChartView : public QChartView
{
    Q_OBJECT

public:
    /// Legend entries for the LegendStrip under the chart.
    virtual QList<LegendStrip::Entry> legendEntries() const = 0;

Q_SIGNALS:
    void legendChanged();

protected:
    ExplorerChartView(const QString &objectName, int minimumHeight, const QMargins &margins, QWidget *parent);

    void changeEvent(QEvent *event) override;
    virtual void applyPalette() = 0;
    virtual void retranslate() = 0;
};

} // namespace kvscope
