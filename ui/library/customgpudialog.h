// SPDX-License-Identifier: MIT
#pragma once

#include "core/gpu/gpuspec.h"

#include <QDialog>

class QDialogButtonBox;
class QDoubleSpinBox;
class QLabel;
class QLineEdit;

namespace kvscope {

/// Enter an accelerator kvscope has no preset for: name, memory the runtime
/// reports (GiB), bandwidth, dense BF16 TFLOPS. Validated by the core.
class CustomGpuDialog : public QDialog
{
    Q_OBJECT

public:
    explicit CustomGpuDialog(QWidget *parent = nullptr);

    /// The GPU entered; valid after accept().
    GpuSpec gpu() const { return m_gpu; }

    void accept() override;

private:
    QLineEdit *m_name;
    QDoubleSpinBox *m_memoryGiB;
    QDoubleSpinBox *m_bandwidth;
    QDoubleSpinBox *m_tflops;
    QDoubleSpinBox *m_vectorTflops;
    QLabel *m_error;
    QDialogButtonBox *m_buttons;
    GpuSpec m_gpu;
};

} // namespace kvscope
