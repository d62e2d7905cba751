// SPDX-License-Identifier: MIT
#pragma once

#include "ui/widgets/legendstrip.h"

#include <QChartView>

namespace kvscope {

/// What every kvscope chart shares: a QChart without animations (a dragged
/// slider must redraw within the frame, never lag behind), colours from the
/// widget's palette (theme::applyToChart) renewed when the palette changes,
/// and texts renewed when the language changes. Qt's own legend is hidden:
/// a chart shows it, or hands its entries to a LegendStrip that wraps.
class ChartView : public QChartView
{
    Q_OBJECT

public:
    /// Legend entries for a LegendStrip under the chart; none for a chart
    /// that shows Qt's legend.
    virtual QList<LegendStrip::Entry> legendEntries() const { return {}; }

    /// The chart's entry in the export catalogue ("memory", "sqnr"); empty for
    /// a chart that is not exported. The window installs the export actions on
    /// every chart that names one (makeChartsExportable), so the views that
    /// show charts need not know about exporting.
    QString catalogueName() const { return m_catalogueName; }
    void setCatalogueName(const QString &name) { m_catalogueName = name; }

Q_SIGNALS:
    void legendChanged();

protected:
    ChartView(const QString &objectName, const QMargins &margins, QWidget *parent);

    void changeEvent(QEvent *event) override;
    /// Applies the palette's colours and the zoom's fonts to the chart; overrides add
    /// their series' colours and pens (theme::lineWidth) after calling it (a chart theme
    /// resets them).
    virtual void applyPalette();
    virtual void retranslate() = 0;
    /// The chart's minimum height at 100 %; the presentation zoom scales it with the
    /// fonts (else axis labels are elided to "…").
    void setBaseMinimumHeight(int height);

private:
    int m_baseMinimumHeight = 0;
    QString m_catalogueName;
};

} // namespace kvscope
