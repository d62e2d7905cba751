// SPDX-License-Identifier: MIT
#pragma once

#include "ui/state/quantsource.h"

#include <QGroupBox>

class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QRadioButton;
class QSpinBox;

namespace kvscope {

/// Where the tensor comes from: a seeded synthetic kind and size, or a
/// .safetensors / .npy file and one of its tensors.
class SourcePicker : public QGroupBox
{
    Q_OBJECT

public:
    explicit SourcePicker(QWidget *parent = nullptr);

    QuantSource source() const;
    /// Switches to a file and lists its tensors (errors show under the path).
    void setFile(const QString &path);
    /// Shows a saved source. A file is taken only when it still lists a
    /// usable tensor (the saved one if it can); else the synthetic settings
    /// apply, quietly, with the path kept in its field.
    void setSource(const QuantSource &source);

Q_SIGNALS:
    void changed();

protected:
    void changeEvent(QEvent *event) override;

private:
    bool listTensors(const QString &preferred = {});
    void retranslate();
    void updateEnabled();

    QRadioButton *m_synthetic = nullptr;
    QRadioButton *m_file = nullptr;
    QComboBox *m_kind = nullptr;
    QSpinBox *m_rows = nullptr;
    QSpinBox *m_cols = nullptr;
    QSpinBox *m_seed = nullptr;
    QDoubleSpinBox *m_std = nullptr;
    QLineEdit *m_path = nullptr;
    QPushButton *m_browse = nullptr;
    QComboBox *m_tensor = nullptr;
    QLabel *m_fileMessage = nullptr;
    QLabel *m_kindTitle = nullptr;
    QLabel *m_sizeTitle = nullptr;
    QLabel *m_seedTitle = nullptr;
    QLabel *m_stdTitle = nullptr;
    QLabel *m_tensorTitle = nullptr;
};

} // namespace kvscope
