// SPDX-License-Identifier: MIT
#pragma once

#include "core/precision/dtypes.h"
#include "ui/widgets/legendstrip.h"

#include <QChartView>

class QLineSeries;
class QScatterSeries;

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
    /// A legend strip (a child of `parent`) that shows this chart's entries and
    /// follows them as they change.
    LegendStrip *makeLegend(QWidget *parent, const QString &objectName = {});

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
    /// Pens one line per KV precision (`dtypes`, in the lines' order; a line
    /// past them keeps bfloat16's colour) in that precision's colour, the
    /// `current` one thicker; returns the current precision's colour (the text
    /// colour when there is none), for the marks that belong to it.
    QColor penPrecisionLines(const QList<QLineSeries *> &lines, const QList<KvCacheDtype> &dtypes,
                             int current) const;
    /// A point marker in `color`, ringed in the background colour, sized with the zoom.
    void stylePoint(QScatterSeries *point, const QColor &color, double size) const;
    /// The chart's minimum height at 100 %; the presentation zoom scales it with the
    /// fonts (else axis labels are elided to "…").
    void setBaseMinimumHeight(int height);

private:
    int m_baseMinimumHeight = 0;
    QString m_catalogueName;
};

} // namespace kvscope
