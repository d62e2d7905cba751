// SPDX-License-Identifier: MIT
#include "ui/export/chartactions.h"

#include "core/common/error.h"
#include "ui/charts/chartview.h"
#include "ui/export/exportdialog.h"
#include "ui/style/theme.h"

#include <cmath>

#include <QAction>
#include <QClipboard>
#include <QContextMenuEvent>
#include <QDir>
#include <QGuiApplication>
#include <QMenu>
#include <QMessageBox>
#include <QMimeData>
#include <QStyle>
#include <QToolButton>

namespace kvscope {

ChartExportActions::ChartExportActions(ChartView *chart, const QString &name,
                                       std::function<ChartSource()> source)
    : QObject(chart), m_chart(chart), m_name(name), m_source(std::move(source)), m_save(new QAction(chart)),
      m_copyImage(new QAction(chart)), m_copyData(new QAction(chart)), m_button(new QToolButton(chart))
{
    setObjectName(QStringLiteral("chartExport"));
    m_save->setObjectName(QStringLiteral("actionSaveImage"));
    m_copyImage->setObjectName(QStringLiteral("actionCopyImage"));
    m_copyData->setObjectName(QStringLiteral("actionCopyData"));
    chart->addActions({m_save, m_copyImage, m_copyData});
    connect(m_save, &QAction::triggered, this, &ChartExportActions::askAndSave);
    connect(m_copyImage, &QAction::triggered, this, &ChartExportActions::copyImage);
    connect(m_copyData, &QAction::triggered, this, &ChartExportActions::copyData);

    auto *menu = new QMenu(chart);
    menu->addActions({m_save, m_copyImage, m_copyData});
    m_button->setObjectName(QStringLiteral("exportButton"));
    m_button->setMenu(menu);
    m_button->setPopupMode(QToolButton::InstantPopup);
    m_button->setAutoRaise(true);
    m_button->setIcon(chart->style()->standardIcon(QStyle::SP_DialogSaveButton));
    setButtonIconSize();
    m_button->setCursor(Qt::ArrowCursor);
    // The view's viewport gets the mouse: watch both for the context menu.
    chart->installEventFilter(this);
    chart->viewport()->installEventFilter(this);
    retranslate();
    placeButton();
}

bool ChartExportActions::eventFilter(QObject *watched, QEvent *event)
{
    switch (event->type()) {
    case QEvent::ContextMenu:
        QMenu::exec(m_chart->actions(), static_cast<QContextMenuEvent *>(event)->globalPos(), nullptr,
                    m_chart);
        return true;
    case QEvent::Resize:
        if (watched == m_chart)
            placeButton();
        break;
    case QEvent::LanguageChange:
        if (watched == m_chart)
            retranslate();
        break;
    case QEvent::ApplicationFontChange: // the presentation zoom (sent to windows only,
    case QEvent::FontChange:            // the views see the font they inherit change)
        if (watched == m_chart) {
            setButtonIconSize();
            placeButton();
        }
        break;
    default:
        break;
    }
    return QObject::eventFilter(watched, event);
}

void ChartExportActions::retranslate()
{
    m_save->setText(tr("Save image…"));
    m_save->setToolTip(tr("Save the chart as PNG, SVG or PDF, at any size and scale, with a caption line."));
    m_copyImage->setText(tr("Copy image"));
    m_copyData->setText(tr("Copy data"));
    m_copyData->setToolTip(tr("Copy the chart's figures as CSV."));
    m_button->setToolTip(tr("Export this chart: save or copy it as an image, copy its data"));
}

void ChartExportActions::setButtonIconSize()
{
    const int side = int(std::lround(theme::lineWidth(14)));
    m_button->setIconSize(QSize(side, side));
}

void ChartExportActions::placeButton()
{
    m_button->adjustSize();
    m_button->move(m_chart->width() - m_button->width() - 2, 2);
    m_button->raise();
}

void ChartExportActions::saveImage(const QString &path, const FigureOptions &options) const
{
    const ChartEntry *entry = findChart(m_name);
    Q_ASSERT(entry);
    exportFigure(path, *entry, source(), options);
}

void ChartExportActions::askAndSave()
{
    const QString suggested = QDir::home().filePath(m_name + QStringLiteral(".png"));
    ExportDialog dialog(ExportDialog::Kind::Chart, m_chart->size(), suggested,
                        theme::isDark(m_chart->palette()), m_chart->window());
    if (dialog.exec() != QDialog::Accepted)
        return;
    try {
        saveImage(dialog.path(), dialog.options());
    } catch (const Error &error) {
        QMessageBox::warning(m_chart->window(), tr("Cannot save the image"), error.message());
    }
}

void ChartExportActions::copyImage() const
{
    const ChartEntry *entry = findChart(m_name);
    FigureOptions options;
    options.size = m_chart->size().expandedTo(QSize(MinFigureSide, MinFigureSide));
    options.scale = std::max(1, int(std::lround(m_chart->devicePixelRatioF())));
    options.dark = theme::isDark(m_chart->palette());
    try {
        const ChartSource current = source();
        auto *data = new QMimeData;
        data->setImageData(renderFigureImage(*entry, current, options));
        data->setData(QStringLiteral("image/svg+xml"),
                      renderFigure(*entry, current, options, FigureFormat::Svg));
        QGuiApplication::clipboard()->setMimeData(data);
    } catch (const Error &error) {
        QMessageBox::warning(m_chart->window(), tr("Cannot copy the image"), error.message());
    }
}

void ChartExportActions::copyData() const
{
    try {
        QGuiApplication::clipboard()->setText(QString::fromUtf8(findChart(m_name)->csv(source())));
    } catch (const Error &error) {
        QMessageBox::warning(m_chart->window(), tr("Cannot copy the data"), error.message());
    }
}

void makeExportable(ChartView *chart, const QString &name, std::function<ChartSource()> source)
{
    Q_ASSERT(findChart(name));
    new ChartExportActions(chart, name, std::move(source));
}

void makeChartsExportable(QWidget *view, const std::function<ChartSource()> &source)
{
    const QList<ChartView *> charts = view->findChildren<ChartView *>();
    for (ChartView *chart : charts)
        if (!chart->catalogueName().isEmpty() && !chart->findChild<ChartExportActions *>())
            makeExportable(chart, chart->catalogueName(), source);
}

} // namespace kvscope
