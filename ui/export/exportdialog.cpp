// SPDX-License-Identifier: MIT
#include "ui/export/exportdialog.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QVBoxLayout>

namespace kvscope {

namespace {

QSpinBox *sideBox(int value, QWidget *parent)
{
    auto *box = new QSpinBox(parent);
    box->setRange(MinFigureSide, MaxFigureSide);
    box->setValue(value);
    box->setSuffix(QStringLiteral(" px"));
    return box;
}

} // namespace

ExportDialog::ExportDialog(Kind kind, QSize currentSize, const QString &suggestedPath, bool dark,
                           QWidget *parent)
    : QDialog(parent), m_kind(kind), m_current(currentSize.expandedTo(QSize(MinFigureSide, MinFigureSide))),
      m_path(new QLineEdit(suggestedPath, this)), m_size(new QComboBox(this)),
      m_width(sideBox(m_current.width(), this)), m_height(sideBox(m_current.height(), this)),
      m_scale(new QComboBox(this)), m_theme(new QComboBox(this)), m_caption(new QCheckBox(this))
{
    setObjectName(QStringLiteral("exportDialog"));
    setWindowTitle(kind == Kind::Report ? tr("Export report") : tr("Save image"));
    m_path->setObjectName(QStringLiteral("exportPath"));
    m_size->setObjectName(QStringLiteral("exportSize"));
    m_scale->setObjectName(QStringLiteral("exportScale"));
    m_theme->setObjectName(QStringLiteral("exportTheme"));
    m_caption->setObjectName(QStringLiteral("exportCaption"));

    auto *browse = new QPushButton(tr("Browse…"), this);
    connect(browse, &QPushButton::clicked, this, &ExportDialog::browse);
    auto *pathRow = new QHBoxLayout;
    pathRow->addWidget(m_path, 1);
    pathRow->addWidget(browse);

    if (kind == Kind::Report) {
        m_size->addItem(tr("Slide, 16:9 (1920 × 1080)"), int(ReportPage::Slide));
        m_size->addItem(tr("A4 handout (portrait)"), int(ReportPage::A4));
    } else {
        m_size->addItem(tr("Current (%1 × %2)").arg(m_current.width()).arg(m_current.height()), m_current);
        m_size->addItem(QStringLiteral("1280 × 720"), QSize(1280, 720));
        m_size->addItem(QStringLiteral("1920 × 1080"), QSize(1920, 1080));
        m_size->addItem(tr("Custom"), QSize());
    }
    auto *custom = new QHBoxLayout;
    custom->addWidget(m_width);
    custom->addWidget(new QLabel(QStringLiteral("×"), this));
    custom->addWidget(m_height);
    const auto showCustom = [this] {
        const bool isCustom = m_kind == Kind::Chart && !m_size->currentData().toSize().isValid();
        m_width->setEnabled(isCustom);
        m_height->setEnabled(isCustom);
    };
    connect(m_size, &QComboBox::currentIndexChanged, this, showCustom);
    showCustom();
    for (int scale = 1; scale <= 3; ++scale)
        m_scale->addItem(tr("%1× (%2 dpi)").arg(scale).arg(96 * scale), scale);
    m_theme->addItem(tr("Light"), false);
    m_theme->addItem(tr("Dark"), true);
    m_theme->setCurrentIndex(dark ? 1 : 0);
    m_caption->setText(tr("Caption line: model, GPU, precisions, batch, length, kvscope version"));
    m_caption->setChecked(true);

    auto *form = new QFormLayout;
    form->addRow(tr("File (.png, .svg, .pdf):"), pathRow);
    form->addRow(kind == Kind::Report ? tr("Page:") : tr("Size:"), m_size);
    if (kind == Kind::Chart)
        form->addRow(QString(), custom);
    form->addRow(tr("Scale:"), m_scale);
    form->addRow(tr("Theme:"), m_theme);
    form->addRow(QString(), m_caption);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Save | QDialogButtonBox::Cancel, this);
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto *layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(buttons);
}

QString ExportDialog::path() const
{
    return m_path->text().trimmed();
}

void ExportDialog::setPath(const QString &path)
{
    m_path->setText(path);
}

FigureOptions ExportDialog::options() const
{
    FigureOptions options;
    if (m_kind == Kind::Report) {
        options.page = ReportPage(m_size->currentData().toInt());
        options.size = reportPageSize(options.page);
    } else {
        const QSize chosen = m_size->currentData().toSize();
        options.size = chosen.isValid() ? chosen : QSize(m_width->value(), m_height->value());
    }
    options.scale = m_scale->currentData().toInt();
    options.dark = m_theme->currentData().toBool();
    options.caption = m_caption->isChecked();
    return options;
}

void ExportDialog::browse()
{
    const QString path = QFileDialog::getSaveFileName(
        this, windowTitle(), this->path(), tr("PNG image (*.png);;SVG image (*.svg);;PDF document (*.pdf)"));
    if (!path.isEmpty())
        m_path->setText(path);
}

} // namespace kvscope
