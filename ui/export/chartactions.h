// SPDX-License-Identifier: MIT
#pragma once

#include "ui/export/figurerenderer.h"

#include <functional>

#include <QObject>

class QAction;
class QToolButton;

namespace kvscope {

class ChartView;

/// A chart's export actions — Save image… (PNG, SVG, PDF), Copy image (PNG
/// and SVG on the clipboard), Copy data (CSV) — in its context menu and
/// behind a small button in its top-right corner. The chart is drawn again
/// from `source` through its catalogue entry, so what is saved is what the
/// command line would make from the same scenario.
class ChartExportActions : public QObject
{
    Q_OBJECT

public:
    /// Installs the actions on `chart` (which owns them); `name` is the chart's catalogue entry.
    ChartExportActions(ChartView *chart, const QString &name, std::function<ChartSource()> source);

    QString chartName() const { return m_name; }
    ChartSource source() const { return m_source(); }

    /// Writes the chart to `path` (the extension names the format); throws kvscope::Error.
    void saveImage(const QString &path, const FigureOptions &options) const;
    void copyImage() const;
    void copyData() const;

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    void askAndSave();
    void retranslate();
    void placeButton();
    void setButtonIconSize(); ///< 14 px at 100 %, grown with the presentation zoom

    ChartView *m_chart;
    QString m_name;
    std::function<ChartSource()> m_source;
    QAction *m_save;
    QAction *m_copyImage;
    QAction *m_copyData;
    QToolButton *m_button;
};

/// Makes a chart exportable (see ChartExportActions).
void makeExportable(ChartView *chart, const QString &name, std::function<ChartSource()> source);

/// Makes every chart under `view` that names its catalogue entry
/// (ChartView::catalogueName) exportable, each drawn from `source`; a chart
/// that has its actions already keeps them.
void makeChartsExportable(QWidget *view, const std::function<ChartSource()> &source);

} // namespace kvscope
