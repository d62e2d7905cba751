// SPDX-License-Identifier: MIT
#include "ui/quantization/sourcepicker.h"

#include "core/common/error.h"
#include "core/quantization/tensorsource.h"
#include "ui/state/quantsettings.h"
#include "ui/widgets/chosentextcombobox.h"

#include <QButtonGroup>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QEvent>
#include <QFileDialog>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QRadioButton>
#include <QSpinBox>
#include <QStandardItemModel>

namespace kvscope {

namespace {

QSpinBox *sizeBox(const QString &name, QWidget *parent)
{
    auto *box = new QSpinBox(parent);
    box->setObjectName(name);
    box->setRange(1, int(quant::MaxSyntheticDimension));
    box->setValue(4096);
    box->setAccelerated(true);
    return box;
}

constexpr quant::SyntheticKind syntheticKinds[] = {
    quant::SyntheticKind::Gaussian, quant::SyntheticKind::Laplace, quant::SyntheticKind::StudentT,
    quant::SyntheticKind::Outliers};

QString kindText(quant::SyntheticKind kind)
{
    switch (kind) {
    case quant::SyntheticKind::Gaussian:
        return SourcePicker::tr("Gaussian weights");
    case quant::SyntheticKind::Laplace:
        return SourcePicker::tr("Laplace weights");
    case quant::SyntheticKind::StudentT:
        return SourcePicker::tr("Student-t weights (5 dof)");
    case quant::SyntheticKind::Outliers:
        return SourcePicker::tr("Activations with outlier channels");
    }
    return {};
}

} // namespace

SourcePicker::SourcePicker(QWidget *parent) : QGroupBox(parent)
{
    setObjectName(QStringLiteral("sourcePicker"));
    m_synthetic = new QRadioButton(this);
    m_synthetic->setObjectName(QStringLiteral("sourceSynthetic"));
    m_synthetic->setChecked(true);
    m_file = new QRadioButton(this);
    m_file->setObjectName(QStringLiteral("sourceFile"));
    auto *modes = new QButtonGroup(this);
    modes->addButton(m_synthetic);
    modes->addButton(m_file);

    m_kind = new ChosenTextComboBox(this);
    m_kind->setObjectName(QStringLiteral("syntheticKind"));
    for (quant::SyntheticKind kind : syntheticKinds)
        m_kind->addItem(QString(), int(kind)); // text set in retranslate()
    m_kind->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_kind->setMinimumContentsLength(10);
    m_rows = sizeBox(QStringLiteral("rows"), this);
    m_cols = sizeBox(QStringLiteral("cols"), this);
    m_seed = new QSpinBox(this);
    m_seed->setObjectName(QStringLiteral("seed"));
    m_seed->setRange(0, MaxSyntheticSeed);
    m_std = new QDoubleSpinBox(this);
    m_std->setObjectName(QStringLiteral("std"));
    m_std->setDecimals(4);
    m_std->setRange(0, MaxSyntheticStd);
    m_std->setSingleStep(0.005);

    m_path = new QLineEdit(this);
    m_path->setObjectName(QStringLiteral("filePath"));
    m_browse = new QPushButton(this);
    m_browse->setObjectName(QStringLiteral("browse"));
    m_tensor = new QComboBox(this);
    m_tensor->setObjectName(QStringLiteral("tensorName"));
    m_tensor->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_tensor->setMinimumContentsLength(12);
    m_fileMessage = new QLabel(this);
    m_fileMessage->setObjectName(QStringLiteral("fileMessage"));
    m_fileMessage->setWordWrap(true);
    m_fileMessage->setStyleSheet(QStringLiteral("color: #b00020"));
    m_fileMessage->hide();

    auto *size = new QHBoxLayout;
    size->addWidget(m_rows);
    size->addWidget(new QLabel(QStringLiteral("×"), this));
    size->addWidget(m_cols);
    m_kindTitle = new QLabel(this);
    m_sizeTitle = new QLabel(this);
    m_seedTitle = new QLabel(this);
    m_stdTitle = new QLabel(this);
    m_tensorTitle = new QLabel(this);
    auto *form = new QFormLayout(this);
    form->addRow(m_synthetic);
    form->addRow(m_kindTitle, m_kind);
    form->addRow(m_sizeTitle, size);
    form->addRow(m_seedTitle, m_seed);
    form->addRow(m_stdTitle, m_std);
    // Browse beside the choice, the path on a row of its own: beside the button, the field was too
    // narrow for its placeholder in Chinese.
    form->addRow(m_file, m_browse);
    form->addRow(m_path);
    form->addRow(m_tensorTitle, m_tensor);
    form->addRow(m_fileMessage);
    retranslate();

    connect(modes, &QButtonGroup::buttonToggled, this, [this](QAbstractButton *, bool checked) {
        if (!checked)
            return;
        updateEnabled();
        Q_EMIT changed();
    });
    connect(m_kind, &QComboBox::currentIndexChanged, this, &SourcePicker::changed);
    for (QSpinBox *box : {m_rows, m_cols, m_seed})
        connect(box, &QSpinBox::valueChanged, this, &SourcePicker::changed);
    connect(m_std, &QDoubleSpinBox::valueChanged, this, &SourcePicker::changed);
    connect(m_path, &QLineEdit::editingFinished, this, [this] { setFile(m_path->text()); });
    connect(m_browse, &QPushButton::clicked, this, [this] {
        const QString path = QFileDialog::getOpenFileName(this, tr("Open a tensor file"), m_path->text(),
                                                          tr("Tensors (*.safetensors *.npy);;All files (*)"));
        if (!path.isEmpty())
            setFile(path);
    });
    connect(m_tensor, &QComboBox::currentIndexChanged, this, [this] {
        if (m_file->isChecked())
            Q_EMIT changed();
    });
    updateEnabled();
}

void SourcePicker::retranslate()
{
    setTitle(tr("Tensor"));
    m_synthetic->setText(tr("Synthetic"));
    m_file->setText(tr("File"));
    for (int i = 0; i < m_kind->count(); ++i)
        m_kind->setItemText(i, kindText(quant::SyntheticKind(m_kind->itemData(i).toInt())));
    m_std->setSpecialValueText(tr("default"));
    m_std->setToolTip(
        tr("Standard deviation: 0.02 for weights (LlamaConfig.initializer_range), 1 for activations"));
    m_path->setPlaceholderText(tr(".safetensors or .npy"));
    m_browse->setText(tr("Browse…"));
    m_kindTitle->setText(tr("Kind"));
    m_sizeTitle->setText(tr("Rows × cols"));
    m_seedTitle->setText(tr("Seed"));
    m_stdTitle->setText(tr("Std"));
    m_tensorTitle->setText(tr("Tensor"));
}

void SourcePicker::changeEvent(QEvent *event)
{
    if (event->type() == QEvent::LanguageChange)
        retranslate();
    QGroupBox::changeEvent(event);
}

void SourcePicker::updateEnabled()
{
    const bool synthetic = m_synthetic->isChecked();
    for (QWidget *w : std::initializer_list<QWidget *>{m_kind, m_rows, m_cols, m_seed, m_std})
        w->setEnabled(synthetic);
    for (QWidget *w : std::initializer_list<QWidget *>{m_path, m_browse, m_tensor})
        w->setEnabled(!synthetic);
}

void SourcePicker::setFile(const QString &path)
{
    if (m_path->text() != path)
        m_path->setText(path);
    const QSignalBlocker blockModes(m_file);
    m_file->setChecked(true);
    updateEnabled();
    listTensors();
    Q_EMIT changed();
}

void SourcePicker::setSource(const QuantSource &source)
{
    m_kind->setCurrentIndex(std::max(0, m_kind->findData(int(source.spec.kind))));
    m_rows->setValue(int(source.spec.rows));
    m_cols->setValue(int(source.spec.cols));
    m_seed->setValue(int(source.spec.seed));
    m_std->setValue(source.spec.standardDeviation);
    m_path->setText(source.path);
    if (!source.synthetic && listTensors(source.tensor)) {
        m_file->setChecked(true);
    } else {
        // A file that went away (or broke) since it was saved: no error for
        // what the user did not just ask for.
        m_fileMessage->hide();
        m_synthetic->setChecked(true);
    }
    updateEnabled();
}

bool SourcePicker::listTensors(const QString &preferred)
{
    const QSignalBlocker block(m_tensor);
    m_tensor->clear();
    m_fileMessage->hide();
    int chosen = -1;
    try {
        // Only the header is read: quick even for a multi-gigabyte checkpoint.
        const QList<quant::TensorInfo> tensors = quant::listTensors(m_path->text());
        auto *model = qobject_cast<QStandardItemModel *>(m_tensor->model());
        for (const quant::TensorInfo &t : tensors) {
            m_tensor->addItem(QStringLiteral("%1  %2 %3").arg(t.name, t.dtype, t.shapeText()), t.name);
            QStandardItem *item = model->item(m_tensor->count() - 1);
            if (!t.unusableReason.isEmpty()) {
                item->setEnabled(false);
                item->setToolTip(t.unusableReason);
            } else if (chosen < 0 || t.name == preferred) {
                chosen = m_tensor->count() - 1;
            }
        }
        m_tensor->setCurrentIndex(std::max(chosen, 0));
    } catch (const Error &error) {
        m_fileMessage->setText(error.message());
        m_fileMessage->show();
    }
    return chosen >= 0;
}

QuantSource SourcePicker::source() const
{
    QuantSource s;
    s.synthetic = m_synthetic->isChecked();
    s.spec.kind = quant::SyntheticKind(m_kind->currentData().toInt());
    s.spec.rows = m_rows->value();
    s.spec.cols = m_cols->value();
    s.spec.seed = std::uint64_t(m_seed->value());
    s.spec.standardDeviation = m_std->value();
    s.path = m_path->text();
    s.tensor = m_tensor->currentData().toString();
    return s;
}

} // namespace kvscope
