// SPDX-License-Identifier: MIT
#include "ui/quantization/groupinspector.h"

#include "core/common/error.h"
#include "ui/style/theme.h"

#include <QComboBox>
#include <QEvent>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QScrollBar>
#include <QSpinBox>
#include <QTableWidget>
#include <QVBoxLayout>

namespace kvscope {

namespace {

/// Rows of the group table; a per-row scale over 4096 columns shows its start.
constexpr int MaxTableRows = 256;

QString num(double value)
{
    return quant::formatNumber(value, 4);
}

QSpinBox *positionBox(const QString &name, QWidget *parent)
{
    auto *box = new QSpinBox(parent);
    box->setObjectName(name);
    box->setRange(0, 0);
    box->setAccelerated(true);
    return box;
}

} // namespace

GroupInspector::GroupInspector(QWidget *parent) : QGroupBox(parent)
{
    m_scheme = new QComboBox(this);
    m_scheme->setObjectName(QStringLiteral("inspectScheme"));
    m_row = positionBox(QStringLiteral("inspectRow"), this);
    m_group = positionBox(QStringLiteral("inspectGroup"), this);
    m_weight = positionBox(QStringLiteral("inspectWeight"), this);
    m_range = new QLabel(this);
    m_scale = new QLabel(this);
    m_zero = new QLabel(this);
    m_code = new QLabel(this);
    m_example = new QLabel(this);
    m_example->setObjectName(QStringLiteral("workedExample"));
    theme::setScaledFont(m_example, 1.4, true);
    for (QLabel *label : {m_range, m_scale, m_zero, m_code, m_example}) {
        label->setTextInteractionFlags(Qt::TextSelectableByMouse);
        label->setWordWrap(true);
    }

    m_table = new QTableWidget(0, 4, this);
    m_table->setObjectName(QStringLiteral("groupTable"));
    m_table->verticalHeader()->hide();
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    // Not stretched: the columns' length is what they need (fitTableWidth()).
    m_table->horizontalHeader()->setStretchLastSection(false);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->setMinimumHeight(120);
    m_table->setMinimumWidth(
        m_table->fontMetrics().horizontalAdvance(QStringLiteral("0000 −0.00000 00 −0.00000")) + 40);

    m_rowTitle = new QLabel(this);
    m_groupTitle = new QLabel(this);
    m_weightTitle = new QLabel(this);
    auto *position = new QHBoxLayout;
    position->addWidget(m_rowTitle);
    position->addWidget(m_row);
    position->addWidget(m_groupTitle);
    position->addWidget(m_group);
    position->addWidget(m_weightTitle);
    position->addWidget(m_weight);
    position->addStretch();
    auto *text = new QVBoxLayout;
    for (QLabel *label : {m_range, m_scale, m_zero, m_code, m_example})
        text->addWidget(label);
    text->addStretch();
    auto *body = new QHBoxLayout;
    body->addLayout(text, 1);
    body->addWidget(m_table, 1);
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_scheme);
    layout->addLayout(position);
    layout->addLayout(body, 1);

    connect(m_scheme, &QComboBox::currentIndexChanged, this, [this] {
        updateRanges();
        refresh();
    });
    for (QSpinBox *box : {m_row, m_group})
        connect(box, &QSpinBox::valueChanged, this, [this] {
            updateRanges();
            refresh();
        });
    connect(m_weight, &QSpinBox::valueChanged, this, &GroupInspector::refresh);
    connect(m_table, &QTableWidget::currentCellChanged, this, [this](int row) {
        if (row >= 0)
            m_weight->setValue(row);
    });
    retranslate();
    refresh();
}

void GroupInspector::retranslate()
{
    setTitle(tr("INT group inspector"));
    m_table->setHorizontalHeaderLabels({tr("column"), tr("w"), tr("q"), tr("w′")});
    m_rowTitle->setText(tr("row"));
    m_groupTitle->setText(tr("group"));
    m_weightTitle->setText(tr("weight"));
    showInspection();
}

void GroupInspector::changeEvent(QEvent *event)
{
    if (event->type() == QEvent::LanguageChange)
        retranslate();
    if (event->type() == QEvent::FontChange)
        fitTableWidth();
    QGroupBox::changeEvent(event);
}

void GroupInspector::setTensor(const quant::TensorData &tensor)
{
    m_tensor = tensor;
    updateRanges();
    refresh();
}

namespace {

/// The schemes the inspector offers: the integer ones, else the fallback.
QList<quant::Scheme> inspectableSchemes(const QList<quant::Scheme> &schemes, const quant::Scheme &fallback)
{
    QList<quant::Scheme> integer;
    for (const quant::Scheme &s : schemes)
        if (s.isInteger())
            integer << s;
    if (integer.isEmpty())
        integer << fallback;
    return integer;
}

/// Index of the scheme to start with: AWQ-style INT (asymmetric), the worked example's scheme; else the
/// first.
int startIndex(const QList<quant::Scheme> &schemes)
{
    for (int i = 0; i < schemes.size(); ++i)
        if (schemes[i].kind == quant::SchemeKind::Int && !schemes[i].symmetric)
            return i;
    return 0;
}

} // namespace

quant::Scheme startingInspectedScheme(const QList<quant::Scheme> &schemes, const quant::Scheme &fallback)
{
    const QList<quant::Scheme> offered = inspectableSchemes(schemes, fallback);
    return offered.at(startIndex(offered));
}

void GroupInspector::setSchemes(const QList<quant::Scheme> &schemes, const quant::Scheme &fallback)
{
    const QList<quant::Scheme> integer = inspectableSchemes(schemes, fallback);
    if (integer == m_schemes)
        return;
    const QString current = m_scheme->currentText();
    m_schemes = integer;
    {
        const QSignalBlocker block(m_scheme);
        m_scheme->clear();
        for (const quant::Scheme &s : m_schemes)
            m_scheme->addItem(s.id());
        // Keep the user's choice; else start where startingInspectedScheme() does.
        const int keep = m_scheme->findText(current);
        m_scheme->setCurrentIndex(keep >= 0 ? keep : startIndex(m_schemes));
    }
    updateRanges();
    refresh();
}

quant::Scheme GroupInspector::scheme() const
{
    return m_schemes.value(std::max(m_scheme->currentIndex(), 0));
}

std::int64_t GroupInspector::row() const
{
    return m_row->value();
}

std::int64_t GroupInspector::group() const
{
    return m_group->value();
}

std::int64_t GroupInspector::column() const
{
    return m_inspection ? m_inspection->firstColumn + m_inspection->chosen : 0;
}

void GroupInspector::updateRanges()
{
    if (m_tensor.isNull() || m_schemes.isEmpty())
        return;
    const quant::Scheme s = scheme();
    const QSignalBlocker blockRow(m_row), blockGroup(m_group), blockWeight(m_weight);
    m_row->setMaximum(int(m_tensor.rows() - 1));
    const std::int64_t groups = quant::groupsPerRow(s, m_tensor.cols());
    m_group->setMaximum(int(groups - 1));
    const quant::UnitLayout layout = quant::unitLayout(s, m_tensor.rows(), m_tensor.cols());
    const std::int64_t length = layout.unitLength(m_row->value() * groups + m_group->value());
    m_weight->setMaximum(int(length - 1));
}

void GroupInspector::refresh()
{
    m_inspection.reset();
    m_failure.clear();
    if (!m_tensor.isNull() && !m_schemes.isEmpty()) {
        try {
            m_inspection =
                quant::inspectGroup(m_tensor, scheme(), m_row->value(), m_group->value(), m_weight->value());
        } catch (const Error &error) {
            m_failure = error.message();
        }
    }
    showInspection();
    if (!m_inspection)
        return;
    const quant::GroupInspection &g = *m_inspection;
    const int i = g.chosen;
    const int rows = std::min<int>(int(g.weights.size()), MaxTableRows);
    const QSignalBlocker block(m_table);
    m_table->setRowCount(rows);
    for (int r = 0; r < rows; ++r) {
        const QStringList cells{QString::number(g.firstColumn + r), num(g.weights[r]), num(g.codes[r]),
                                num(g.dequantized[r])};
        for (int c = 0; c < cells.size(); ++c) {
            auto *item = new QTableWidgetItem(cells[c]);
            item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
            m_table->setItem(r, c, item);
        }
    }
    if (i < rows)
        m_table->selectRow(i);
    fitTableWidth();
    Q_EMIT selectionChanged();
}

void GroupInspector::fitTableWidth()
{
    m_table->resizeColumnsToContents();
    const int columns = m_table->horizontalHeader()->length();
    const int chrome = m_table->verticalScrollBar()->sizeHint().width() + 2 * m_table->frameWidth();
    m_table->setMinimumWidth(columns + chrome);
}

void GroupInspector::showInspection()
{
    if (!m_inspection) {
        for (QLabel *label : {m_range, m_scale, m_zero, m_code})
            label->clear();
        m_example->setText(m_failure.isEmpty() ? tr("Run a simulation to inspect a group.") : m_failure);
        return;
    }
    const quant::GroupInspection &g = *m_inspection;
    const int qmax = int(g.grid.qmax);
    const int qmin = int(g.grid.qmin);
    m_range->setText(tr("Columns %1–%2: min %3, max %4")
                         .arg(g.firstColumn)
                         .arg(g.firstColumn + g.weights.size() - 1)
                         .arg(num(g.min), num(g.max)));
    switch (quant::intRule(scheme())) {
    case quant::IntRule::Awq:
        m_scale->setText(tr("scale s = (max − min) / %1 = %2").arg(qmax).arg(num(g.grid.scale)));
        m_zero->setText(
            tr("zero point z = clamp(−round(min / s), 0, %1) = %2").arg(qmax).arg(num(g.grid.zero)));
        break;
    case quant::IntRule::GptqSymmetric:
        m_scale->setText(tr("scale s = 2·max(|min|, |max|) / %1 = %2").arg(qmax).arg(num(g.grid.scale)));
        m_zero->setText(tr("zero point z = 2^(bits − 1) = %1 (symmetric)").arg(num(g.grid.zero)));
        break;
    case quant::IntRule::Int8:
        m_scale->setText(tr("scale s = max(|min|, |max|) / 127 = %1").arg(num(g.grid.scale)));
        m_zero->setText(tr("zero point z = 0 (symmetric)"));
        break;
    }
    const int i = g.chosen;
    m_code->setText(tr("w = %1 → q = clamp(round(w / s) + z, %2, %3) = %4")
                        .arg(num(g.weights[i]))
                        .arg(qmin)
                        .arg(qmax)
                        .arg(num(g.codes[i])));
    m_example->setText(tr("w′ = %1").arg(g.workedExample()));
}

} // namespace kvscope
