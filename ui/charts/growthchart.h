// SPDX-License-Identifier: MIT
#pragma once

#include "core/analysis/growth.h"
#include "ui/charts/chartview.h"

#include <QList>

class QCategoryAxis;
class QLineSeries;
class QScatterSeries;
class QValueAxis;

namespace kvscope {

class ChartCallout;

/// Chart 2: KV cache (one line per KV precision) and total memory against
/// sequence length or batch size on a linear or logarithmic axis, with the
/// budget line, --max-model-len, the current point, and where the total crosses
/// the budget ("fits up to ..."). A marker outside the range sits at its edge
/// with an arrow; labels have a background so no curve runs through them.
class GrowthChartView : public ChartView
{
    Q_OBJECT

public:
    explicit GrowthChartView(QWidget *parent = nullptr);

    void showGrowth(const GrowthChartData &data);

    QList<QLineSeries *> kvLines() const { return m_kvLines; }
    /// The KV line of each counterfactual model (GrowthChartData::counterfactuals), in order.
    QList<QLineSeries *> counterfactualLines() const { return m_counterfactualLines; }
    QLineSeries *budgetLine() const { return m_budget; }
    QScatterSeries *currentPoint() const { return m_current; }
    QScatterSeries *crossingPoint() const { return m_crossing; }
    QLineSeries *maxModelLenLine() const { return m_maxModelLen; }
    /// The labels of the current point, the crossing and --max-model-len.
    ChartCallout *currentLabel() const { return m_currentLabel; }
    ChartCallout *crossingLabel() const { return m_crossingLabel; }
    ChartCallout *maxModelLenLabel() const { return m_maxModelLenLabel; }
    QCategoryAxis *xAxis() const { return m_xAxis; }
    const GrowthChartData &data() const { return m_data; }
    /// The text at the crossing point ("fits up to 27,712 tokens").
    QString crossingText() const;
    QList<LegendStrip::Entry> legendEntries() const override;

protected:
    void applyPalette() override;
    void retranslate() override;

private:
    void updatePens();
    void rebuildTicks();
    void placeLabels();
    QPointF position(std::int64_t x, std::int64_t bytes) const;

    QString counterfactualName(const CounterfactualCurve &curve) const;

    QList<QLineSeries *> m_kvLines;
    QList<QLineSeries *> m_counterfactualLines;
    QLineSeries *m_total;
    QLineSeries *m_budget;
    QScatterSeries *m_current;
    QScatterSeries *m_crossing;
    QLineSeries *m_maxModelLen;
    ChartCallout *m_currentLabel;
    ChartCallout *m_crossingLabel;
    ChartCallout *m_maxModelLenLabel;
    QCategoryAxis *m_xAxis;
    QValueAxis *m_yAxis;
    GrowthChartData m_data;
};

} // namespace kvscope
