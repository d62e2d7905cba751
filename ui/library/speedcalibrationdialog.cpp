// SPDX-License-Identifier: MIT
#include "ui/library/speedcalibrationdialog.h"

#include "core/common/error.h"
#include "core/common/units.h"
#include "core/formats/benchresult.h"
#include "core/plan/planner.h"
#include "core/plan/speedcalibration.h"

#include <algorithm>
#include <climits>
#include <cmath>

#include <QDate>
#include <QDialogButtonBox>
#include <QDoubleSpinBox>
#include <QFileDialog>
#include <QFormLayout>
#include <QLabel>
#include <QLocale>
#include <QPushButton>
#include <QSpinBox>

namespace kvscope {

namespace {

const QString TypedIn = QStringLiteral("typed in");

int clampedToInt(std::int64_t value)
{
    return int(std::clamp<std::int64_t>(value, 1, INT_MAX));
}

} // namespace

SpeedCalibrationDialog::SpeedCalibrationDialog(const Scenario &scenario, const MemoryPlan &plan,
                                               const std::optional<UserLibrary::StoredCalibration> &saved,
                                               QWidget *parent)
    : QDialog(parent), m_scenario(scenario), m_plan(plan), m_itl(new QDoubleSpinBox(this)),
      m_concurrency(new QSpinBox(this)), m_context(new QSpinBox(this)), m_import(new QPushButton(this)),
      m_warning(new QLabel(this)), m_preview(new QLabel(this)),
      m_buttons(new QDialogButtonBox(QDialogButtonBox::Save | QDialogButtonBox::Cancel, this)),
      m_forgetButton(m_buttons->addButton(tr("Forget calibration"), QDialogButtonBox::DestructiveRole)),
      m_origin(saved ? saved->origin : TypedIn)
{
    setWindowTitle(tr("Calibrate speed to your measurement"));
    m_itl->setObjectName(QStringLiteral("calibrationItl"));
    m_concurrency->setObjectName(QStringLiteral("calibrationConcurrency"));
    m_context->setObjectName(QStringLiteral("calibrationContext"));
    m_import->setObjectName(QStringLiteral("calibrationImport"));
    m_preview->setObjectName(QStringLiteral("calibrationPreview"));
    m_warning->setObjectName(QStringLiteral("calibrationWarning"));
    m_forgetButton->setObjectName(QStringLiteral("calibrationForget"));
    m_itl->setRange(0.001, 1e6);
    m_itl->setDecimals(3);
    m_itl->setSuffix(QStringLiteral(" ms"));
    m_concurrency->setRange(1, INT_MAX);
    m_context->setRange(1, INT_MAX);
    m_context->setSuffix(tr(" tokens"));
    // The saved measurement, else this scenario as the public calibration predicts it.
    m_itl->setValue(saved ? saved->measuredItlMs : plan.speed.decode.seconds * 1e3);
    m_concurrency->setValue(clampedToInt(saved ? saved->concurrency : scenario.batchSize));
    m_context->setValue(clampedToInt(saved ? saved->contextLen : scenario.seqLen));
    m_import->setText(tr("Import vllm bench serve result…"));
    m_forgetButton->setEnabled(saved.has_value());
    for (QLabel *label : {m_warning, m_preview}) {
        label->setWordWrap(true);
        label->setTextInteractionFlags(Qt::TextSelectableByMouse);
    }
    m_warning->hide();

    auto *form = new QFormLayout(this);
    form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    // The preview's length changes with every value (a refusal takes three lines): the
    // dialog follows its contents, so no line is ever cut.
    form->setSizeConstraint(QLayout::SetFixedSize);
    auto *gpu = new QLabel(scenario.gpu.name, this);
    gpu->setWordWrap(true);
    form->addRow(tr("GPU"), gpu);
    form->addRow(tr("Measured inter-token latency"), m_itl);
    form->addRow(tr("Concurrency (sequences decoding)"), m_concurrency);
    form->addRow(tr("Context per sequence"), m_context);
    form->addRow(m_import);
    auto *hint =
        new QLabel(tr("One number is fitted: a scale on both bandwidth efficiencies of this GPU, so that "
                      "the model's decode step at this concurrency and context equals your measurement. "
                      "Use the median inter-token latency; every later plan on this GPU uses it."),
                   this);
    hint->setWordWrap(true);
    // Wide enough for the preview line at two lines, whatever the language.
    const int lineWidth = fontMetrics().horizontalAdvance(QLatin1Char('x')) * 72;
    for (QLabel *label : {hint, m_warning, m_preview})
        label->setMinimumWidth(lineWidth);
    form->addRow(hint);
    form->addRow(m_warning);
    form->addRow(m_preview);
    form->addRow(m_buttons);

    connect(m_itl, &QDoubleSpinBox::valueChanged, this, &SpeedCalibrationDialog::updatePreview);
    connect(m_concurrency, &QSpinBox::valueChanged, this, &SpeedCalibrationDialog::updatePreview);
    connect(m_context, &QSpinBox::valueChanged, this, &SpeedCalibrationDialog::updatePreview);
    connect(m_import, &QPushButton::clicked, this, &SpeedCalibrationDialog::chooseBenchResult);
    connect(m_buttons, &QDialogButtonBox::accepted, this, &SpeedCalibrationDialog::accept);
    connect(m_buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(m_forgetButton, &QPushButton::clicked, this, [this] {
        m_forget = true;
        reject();
    });
    updatePreview();
}

void SpeedCalibrationDialog::updatePreview()
{
    const SpeedMeasurement measured{m_itl->value() / 1e3, m_concurrency->value(), m_context->value(),
                                    tr("Measurement")};
    try {
        const SpeedCalibration c = calibrateSpeed(m_scenario, m_plan, measured);
        Scenario calibrated = m_scenario;
        calibrated.speedCalibration = {m_scenario.gpu.id, c.scalePpm, QString()};
        const double step = planMemory(calibrated).speed.decode.seconds;
        const QLocale locale;
        m_preview->setText(tr("%1: weights at %2 % of the datasheet bandwidth (public calibration %3 %); "
                              "this scenario's step %4 ms")
                               .arg(m_scenario.gpu.name,
                                    formatDecimal(100 * c.weightBandwidthEfficiency, 0, locale),
                                    formatDecimal(100 * c.publicWeightBandwidthEfficiency, 0, locale),
                                    formatDecimal(step * 1e3, 2, locale)));
        m_calibration = {
            m_scenario.gpu.id,  c.scalePpm,          m_itl->value(),       m_concurrency->value(),
            m_context->value(), m_scenario.model.id, QDate::currentDate(), m_origin};
        m_fits = true;
    } catch (const Error &error) {
        m_preview->setText(error.message());
        m_fits = false;
    }
    m_buttons->button(QDialogButtonBox::Save)->setEnabled(m_fits);
}

void SpeedCalibrationDialog::importBenchResult(const QString &path)
{
    try {
        const BenchResult result = readBenchResult(path);
        m_origin = path;
        const QString mismatch = benchModelMismatch(result, m_scenario.model.id, m_scenario.model.name,
                                                    m_scenario.model.hfRepoIds);
        m_warning->setText(mismatch);
        m_warning->setVisible(!mismatch.isEmpty());
        const QSignalBlocker itl(m_itl), concurrency(m_concurrency), context(m_context);
        m_itl->setValue(result.medianItlMs);
        m_concurrency->setValue(clampedToInt(result.concurrency));
        m_context->setValue(clampedToInt(result.contextLen));
    } catch (const Error &error) {
        m_warning->setText(error.message()); // the fields keep what they held
        m_warning->show();
    }
    updatePreview();
}

void SpeedCalibrationDialog::chooseBenchResult()
{
    const QString path = QFileDialog::getOpenFileName(this, tr("Import vllm bench serve result"), QString(),
                                                      tr("Benchmark results (*.json);;All files (*)"));
    if (!path.isEmpty())
        importBenchResult(path);
}

QString SpeedCalibrationDialog::preview() const
{
    return m_preview->text();
}

void SpeedCalibrationDialog::accept()
{
    if (m_fits)
        QDialog::accept();
}

} // namespace kvscope
