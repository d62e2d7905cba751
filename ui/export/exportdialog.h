// SPDX-License-Identifier: MIT
#pragma once

#include "ui/export/figurerenderer.h"

#include <QDialog>

class QCheckBox;
class QComboBox;
class QLineEdit;
class QSpinBox;

namespace kvscope {

/// Where and how to save a figure: the file (its extension picks PNG, SVG
/// or PDF), the size (the chart's current one, 1280 × 720, 1920 × 1080 or
/// custom) or, for the report, the page (16:9 slide or A4 handout), the
/// scale (1×, 2×, 3×), the light or dark palette and the caption line.
class ExportDialog : public QDialog
{
    Q_OBJECT

public:
    enum class Kind
    {
        Chart,
        Report
    };

    ExportDialog(Kind kind, QSize currentSize, const QString &suggestedPath, bool dark, QWidget *parent);

    QString path() const;
    void setPath(const QString &path);
    FigureOptions options() const;

private:
    void browse();

    Kind m_kind;
    QSize m_current;
    QLineEdit *m_path;
    QComboBox *m_size;
    QSpinBox *m_width;
    QSpinBox *m_height;
    QComboBox *m_scale;
    QComboBox *m_theme;
    QCheckBox *m_caption;
};

} // namespace kvscope
