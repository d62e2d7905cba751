// SPDX-License-Identifier: MIT
#pragma once

#include "charts/chartview.h"
#include "plan/growth.h"

#include <QList>

class QCategoryAxis;
class QLineSeries;
class QScatterSeries;
class QValueAxis;

namespace kvscope {

/// Chart 2: KV cache (one line per KV precision) and total memory against
/// sequence length or batch size on a log axis, with the budget line, the
/// current point, and where the total crosses the budget ("fits up to ...").
class GrowthChartView : public ChartView
{
    Q_OBJECT

public:
    explicit GrowthChartView(QWidget *parent = nullptr);

    void showGrowth(const GrowthChartData &data);

    QList<QLineSeries *> kvLines() const { return m_kvLines; }
    QLineSeries *budgetLine() const { return m_budget; }
    QScatterSeries *currentPoint() const { return m_current; }
    /// The text at the crossing point ("fits up to 27,712 tokens").
    QString crossingText() const;
    QList<LegendStrip::Entry> legendEntries() const override;

protected:
    void applyPalette() override;
    void retranslate() override;

private:
    void updatePens();
    void rebuildTicks();

    QList<QLineSeries *> m_kvLines;
    QLineSeries *m_total;
    QLineSeries *m_budget;
    QScatterSeries *m_current;
    QScatterSeries *m_crossing;
    QCategoryAxis *m_xAxis;
    QValueAxis *m_yAxis;
    GrowthChartData m_data;
};

/// Short token/sequence count for axis ticks: 512, 8K, 128K, 1M.
QString shortCount(std::int64_t value);

} // namespace kvscope
