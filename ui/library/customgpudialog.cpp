// SPDX-License-Identifier: MIT
#include "ui/library/customgpudialog.h"

#include "core/common/error.h"
#include "core/common/units.h"
#include "core/gpu/customgpu.h"

#include <cmath>

#include <QDialogButtonBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>

namespace kvscope {

CustomGpuDialog::CustomGpuDialog(QWidget *parent)
    : QDialog(parent), m_name(new QLineEdit(this)), m_memoryGiB(new QDoubleSpinBox(this)),
      m_bandwidth(new QDoubleSpinBox(this)), m_tflops(new QDoubleSpinBox(this)),
      m_vectorTflops(new QDoubleSpinBox(this)), m_error(new QLabel(this)),
      m_buttons(new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this))
{
    setWindowTitle(tr("Custom GPU"));
    m_name->setObjectName(QStringLiteral("customGpuName"));
    m_memoryGiB->setObjectName(QStringLiteral("customGpuMemory"));
    m_bandwidth->setObjectName(QStringLiteral("customGpuBandwidth"));
    m_tflops->setObjectName(QStringLiteral("customGpuTflops"));
    m_vectorTflops->setObjectName(QStringLiteral("customGpuVectorTflops"));
    m_name->setPlaceholderText(tr("e.g. My workstation GPU"));
    m_memoryGiB->setRange(0.5, 4096);
    m_memoryGiB->setDecimals(2);
    m_memoryGiB->setValue(24);
    m_memoryGiB->setSuffix(QStringLiteral(" GiB"));
    // A rate of 0 is "unknown": the speed model then leaves it out or stands in for it, and says so.
    const auto rate = [](QDoubleSpinBox *box, const QString &unit) {
        box->setRange(0, 100'000);
        box->setSuffix(unit);
        box->setSpecialValueText(tr("unknown"));
    };
    rate(m_bandwidth, QStringLiteral(" GB/s"));
    rate(m_tflops, QStringLiteral(" TFLOPS"));
    rate(m_vectorTflops, QStringLiteral(" TFLOPS"));
    m_vectorTflops->setToolTip(tr("The datasheet's FP32 (non-tensor) rate: AWQ and GPTQ kernels unpack their "
                                  "weights on these units"));
    m_error->setWordWrap(true);
    m_error->setObjectName(QStringLiteral("customGpuError"));

    auto *form = new QFormLayout(this);
    form->addRow(tr("Name"), m_name);
    form->addRow(tr("Memory the driver reports"), m_memoryGiB);
    form->addRow(tr("Memory bandwidth"), m_bandwidth);
    form->addRow(tr("Dense BF16 compute"), m_tflops);
    form->addRow(tr("FP32 vector compute"), m_vectorTflops);
    auto *hint = new QLabel(tr("Enter the memory CUDA/ROCm reports (nvidia-smi's total, a little below the "
                               "marketed size); vLLM's budget starts from it. %1")
                                .arg(unitsConvention()),
                            this);
    hint->setWordWrap(true);
    form->addRow(hint);
    form->addRow(m_error);
    form->addRow(m_buttons);
    connect(m_buttons, &QDialogButtonBox::accepted, this, &CustomGpuDialog::accept);
    connect(m_buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
}

void CustomGpuDialog::accept()
{
    try {
        CustomGpuInput input;
        input.name = m_name->text().trimmed();
        // The spin box holds two decimals of GiB: exact in MiB.
        input.memoryBytes = std::llround(m_memoryGiB->value() * 1024.0) * MiB;
        input.bandwidthGBs = m_bandwidth->value();
        if (m_tflops->value() > 0)
            input.tflopsBf16 = m_tflops->value();
        if (m_vectorTflops->value() > 0)
            input.tflopsFp32Vector = m_vectorTflops->value();
        m_gpu = customGpu(input);
    } catch (const Error &error) {
        m_error->setText(error.message()); // the dialog stays open with what was typed
        return;
    }
    QDialog::accept();
}

} // namespace kvscope
