// SPDX-License-Identifier: MIT
#include "ui/quantization/sqnrchart.h"

#include "ui/quantization/figuresmodel.h"

#include <algorithm>
#include <cmath>
#include <utility>

#include <QBarCategoryAxis>
#include <QBarSet>
#include <QChart>
#include <QGraphicsSimpleTextItem>
#include <QHorizontalBarSeries>
#include <QValueAxis>

namespace kvscope {

SqnrChart::SqnrChart(QWidget *parent) : ChartView(QStringLiteral("sqnrChart"), QMargins(4, 4, 4, 4), parent)
{
    QChart *c = chart();
    m_series = new QHorizontalBarSeries;
    m_set = new QBarSet(QString());
    m_series->append(m_set);
    c->addSeries(m_series);
    m_categories = new QBarCategoryAxis(this);
    m_categories->setTruncateLabels(false); // "int4-sym-g128" must stay readable
    m_decibels = new QValueAxis(this);
    m_decibels->setLabelFormat(QStringLiteral("%.0f"));
    c->addAxis(m_categories, Qt::AlignLeft);
    c->addAxis(m_decibels, Qt::AlignBottom);
    m_series->attachAxis(m_categories);
    m_series->attachAxis(m_decibels);
    connect(c, &QChart::plotAreaChanged, this, &SqnrChart::placeValueLabels);
    applyPalette();
    retranslate();
}

void SqnrChart::applyPalette()
{
    ChartView::applyPalette();
    m_set->setBorderColor(m_set->color()); // the dark theme would outline the bars in white
    for (QGraphicsSimpleTextItem *label : std::as_const(m_valueLabels)) {
        label->setBrush(palette().color(QPalette::Text));
        label->setFont(m_categories->labelsFont());
    }
    placeValueLabels();
}

void SqnrChart::retranslate()
{
    // The unit and the direction on the axis: the three in the title were cut on a 1280 x 800 projector.
    chart()->setTitle(tr("SQNR by scheme"));
    m_decibels->setTitleText(tr("dB, higher is better"));
    m_set->setLabel(tr("SQNR dB"));
}

int SqnrChart::barCount() const
{
    return int(m_set->count());
}

void SqnrChart::setResults(const QList<quant::SchemeResult> &results)
{
    QStringList names;
    QList<qreal> values;
    qDeleteAll(m_valueLabels);
    m_valueLabels.clear();
    double top = 10;
    // Horizontal bars count up from the bottom: add in reverse to read top-down.
    for (qsizetype i = results.size() - 1; i >= 0; --i) {
        const quant::SchemeResult &r = results.at(i);
        names << r.scheme.id(); // ids are unique, as QBarCategoryAxis needs
        // An exact result has infinite SQNR and an overflow -inf: draw no bar.
        const double db = std::isfinite(r.metrics.sqnrDb) ? std::max(r.metrics.sqnrDb, 0.0) : 0.0;
        values << db;
        top = std::max(top, db);
        auto *label = new QGraphicsSimpleTextItem(FiguresModel::sqnrText(r.metrics.sqnrDb), chart());
        label->setBrush(palette().color(QPalette::Text));
        label->setFont(m_categories->labelsFont());
        m_valueLabels << label;
    }
    m_set->remove(0, m_set->count());
    m_set->append(values);
    m_categories->setCategories(names);
    // Ticks every 10 dB, with room above the tallest bar for its label.
    const double axisTop = std::ceil((top + 5.0) / 10.0) * 10.0;
    m_decibels->setRange(0, axisTop);
    m_decibels->setTickCount(int(axisTop / 10.0) + 1);
    placeValueLabels();
}

void SqnrChart::placeValueLabels()
{
    for (qsizetype i = 0; i < m_valueLabels.size() && i < m_set->count(); ++i) {
        QGraphicsSimpleTextItem *label = m_valueLabels.at(i);
        const QPointF end = chart()->mapToPosition(QPointF(m_set->at(i), qreal(i)), m_series);
        label->setPos(end.x() + 4, end.y() - label->boundingRect().height() / 2);
    }
}

} // namespace kvscope
