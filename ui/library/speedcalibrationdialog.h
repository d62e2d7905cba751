// SPDX-License-Identifier: MIT
#pragma once

#include "core/plan/memoryplan.h"
#include "core/scenario/scenario.h"
#include "ui/state/userlibrary.h"

#include <optional>

#include <QDialog>

class QDialogButtonBox;
class QDoubleSpinBox;
class QLabel;
class QPushButton;
class QSpinBox;

namespace kvscope {

/// Calibrate the current GPU's speed to one inter-token latency the user
/// measured (typed in, or read from a `vllm bench serve` result): the fields
/// start from the current scenario, a line previews what the core fits, Save
/// keeps it in the library for every plan on that GPU, Forget drops it.
class SpeedCalibrationDialog : public QDialog
{
    Q_OBJECT

public:
    /// `saved`: the GPU's calibration in the library, if any (its figures fill the fields).
    SpeedCalibrationDialog(const Scenario &scenario, const MemoryPlan &plan,
                           const std::optional<UserLibrary::StoredCalibration> &saved,
                           QWidget *parent = nullptr);

    /// What to save; valid after accept().
    const UserLibrary::StoredCalibration &calibration() const { return m_calibration; }
    /// The user chose "Forget calibration" (the dialog is then rejected).
    bool forgetRequested() const { return m_forget; }

    /// Reads a benchmark result into the fields (the import button's file).
    void importBenchResult(const QString &path);
    /// The preview line as shown: what the core fits, or why it cannot.
    QString preview() const;

    void accept() override;

private:
    void updatePreview();
    void chooseBenchResult();

    Scenario m_scenario;
    MemoryPlan m_plan;
    QDoubleSpinBox *m_itl;
    QSpinBox *m_concurrency;
    QSpinBox *m_context;
    QPushButton *m_import;
    QLabel *m_warning;
    QLabel *m_preview;
    QDialogButtonBox *m_buttons;
    QPushButton *m_forgetButton;
    QString m_origin;
    bool m_fits = false;
    bool m_forget = false;
    UserLibrary::StoredCalibration m_calibration;
};

} // namespace kvscope
