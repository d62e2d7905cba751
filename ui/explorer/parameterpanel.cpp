// SPDX-License-Identifier: MIT
#include "ui/explorer/parameterpanel.h"

#include "core/analysis/growth.h"
#include "core/common/scenariofield.h"
#include "core/common/units.h"
#include "core/engine/engine.h"
#include "core/library/library.h"
#include "core/model/imagetokens.h"
#include "core/model/inventory.h"
#include "core/output/presetlist.h"
#include "core/output/scenariolabel.h"
#include "core/plan/all2all.h"
#include "core/plan/eplb.h"
#include "core/plan/expertparallel.h"
#include "core/plan/imageworkload.h"
#include "core/plan/kvcache.h"
#include "core/plan/lora.h"
#include "core/plan/pipelineparallel.h"
#include "core/plan/speculativedecoding.h"
#include "core/plan/speed.h"
#include "core/plan/tensorparallel.h"
#include "core/precision/quantizationlabel.h"
#include "ui/state/scenariocontroller.h"
#include "ui/state/userlibrary.h"
#include "ui/widgets/defaultspinbox.h"
#include "ui/widgets/elidingcombobox.h"
#include "ui/widgets/groupedcombobox.h"
#include "ui/widgets/logsliderbox.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QEvent>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QSignalBlocker>
#include <QSlider>
#include <QSpinBox>
#include <QVBoxLayout>

namespace kvscope {

namespace {

/// A spin box whose 0 is the engine's own choice: the word 0 reads as, the unit after a value, what it sets.
void describeSpinBox(QSpinBox *box, const QString &zero, const QString &suffix, const QString &toolTip)
{
    box->setSpecialValueText(zero);
    box->setSuffix(suffix);
    box->setToolTip(toolTip);
}

/// The engine's share of GPU memory, edited in one box: vLLM's --gpu-memory-utilization, SGLang's
/// --mem-fraction-static.
ScenarioField shareField(Engine engine)
{
    return engine == Engine::Sglang ? ScenarioField::MemFractionStatic : ScenarioField::GpuMemoryUtilization;
}

QString shareToolTip(Engine engine)
{
    if (engine == Engine::Sglang)
        return ParameterPanel::tr(
                   "%1: SGLang's share of the memory free after start-up for the weights and its "
                   "token pool. The rest is left to activations and CUDA graphs.")
            .arg(optionFlag(ScenarioField::MemFractionStatic, Engine::Sglang));
    return ParameterPanel::tr("%1: the share of GPU memory vLLM may use. The rest is "
                              "left to CUDA graphs and other processes.")
        .arg(optionFlag(ScenarioField::GpuMemoryUtilization));
}

/// vLLM's "max model length", SGLang's "context length".
QString longestRequestLabel(Engine engine)
{
    return engine == Engine::Sglang ? ParameterPanel::tr("Context length")
                                    : fieldLabel(ScenarioField::MaxModelLen);
}

QString longestRequestToolTip(Engine engine)
{
    if (engine == Engine::Sglang)
        return ParameterPanel::tr("%1: the longest request. SGLang caps each request at it and at its token "
                                  "pool, and sets its default number of running requests from it.")
            .arg(optionFlag(ScenarioField::MaxModelLen, Engine::Sglang));
    return ParameterPanel::tr("%1: the longest request. Sets the maximum concurrency vLLM "
                              "reports; vLLM refuses to start if one such request does not fit.")
        .arg(optionFlag(ScenarioField::MaxModelLen));
}

/// Fills a combo with (display text, vLLM spelling) pairs.
void fillChoices(QComboBox *combo, const QStringList &choices)
{
    for (const QString &choice : choices)
        combo->addItem(choice, choice);
}

/// Label of a step on the KV precision slider.
QString precisionLabel(KvCacheDtype dtype)
{
    switch (dtype) {
    case KvCacheDtype::Float32:
        return QStringLiteral("FP32");
    case KvCacheDtype::Float16:
    case KvCacheDtype::BFloat16:
        return QStringLiteral("FP16/BF16");
    case KvCacheDtype::Q8_0:
        return QStringLiteral("Q8_0");
    case KvCacheDtype::Q4_0:
        return QStringLiteral("Q4_0");
    case KvCacheDtype::Nvfp4:
        return QStringLiteral("NVFP4");
    case KvCacheDtype::Fp4MxBlock16:
        return QStringLiteral("MXFP4-16");
    default:
        return QStringLiteral("FP8");
    }
}

void selectData(QComboBox *combo, const QVariant &data)
{
    const QSignalBlocker blocker(combo);
    combo->setCurrentIndex(std::max(0, combo->findData(data)));
}

/// `combo` offering `sizes` (text and data the number); left as it is when it offers them already.
void setSizes(QComboBox *combo, const QList<int> &sizes)
{
    bool same = combo->count() == sizes.size();
    for (int i = 0; same && i < combo->count(); ++i)
        same = combo->itemData(i).toInt() == sizes.at(i);
    if (same)
        return;
    const QSignalBlocker blocker(combo);
    combo->clear();
    for (int size : sizes)
        combo->addItem(QString::number(size), size);
}

void setFormLabel(QFormLayout *form, QWidget *field, const QString &text)
{
    if (auto *label = qobject_cast<QLabel *>(form->labelForField(field))) {
        label->setText(text);
        label->setBuddy(field);
    }
}

/// The label of a row of several controls, its shortcut on the first.
void setFormLabel(QFormLayout *form, QLayout *row, const QString &text, QWidget *buddy)
{
    if (auto *label = qobject_cast<QLabel *>(form->labelForField(row))) {
        label->setText(text);
        label->setBuddy(buddy);
    }
}

} // namespace

ParameterPanel::ParameterPanel(ScenarioController *controller, UserLibrary *library, QWidget *parent)
    : QWidget(parent), m_controller(controller), m_library(library), m_model(new GroupedComboBox(this)),
      m_gpu(new GroupedComboBox(this)), m_gpuCount(new QComboBox(this)),
      m_stageLabel(new QLabel(QStringLiteral("× PP"), this)), m_stageCount(new QComboBox(this)),
      m_parallelRow(new QHBoxLayout), m_dataParallelLabel(new QLabel(QStringLiteral("× DP"), this)),
      m_dataParallel(new QComboBox(this)), m_expertParallel(new QCheckBox(this)),
      m_dpAttention(new QCheckBox(this)), m_expertParallelSizeLabel(new QLabel(QStringLiteral("EP"), this)),
      m_expertParallelSize(new QComboBox(this)), m_eplb(new QCheckBox(this)),
      m_redundantExperts(new QComboBox(this)), m_redundantExpertsLabel(new QLabel(this)),
      m_eplbRow(new QHBoxLayout), m_dpLmHead(new QCheckBox(this)), m_denseMlpsWhole(new QCheckBox(this)),
      m_groupsRow(new QVBoxLayout), m_all2allBackend(new QComboBox(this)), m_dtype(new QComboBox(this)),
      m_quantization(new QComboBox(this)), m_groupSize(new QComboBox(this)), m_moeMxfp8(new QCheckBox(this)),
      m_kvCacheDtype(new QComboBox(this)),
      m_precision(new QSlider(Qt::Horizontal, this)), m_precisionSteps{new QLabel(this), new QLabel(this),
                                                                       new QLabel(this), new QLabel(this)},
      m_utilization(new DefaultDoubleSpinBox(this)), m_kvCacheMemory(new QSpinBox(this)),
      m_cudaGraphSize(new QSpinBox(this)), m_enforceEager(new QCheckBox(this)),
      m_warmCompileCache(new QCheckBox(this)), m_vllmRow(new QHBoxLayout), m_loraSlots(new QSpinBox(this)),
      m_loraRankLabel(new QLabel(this)), m_loraRank(new QComboBox(this)), m_loraRow(new QHBoxLayout),
      m_offloading(new QSpinBox(this)), m_offloadingBackend(new QComboBox(this)),
      m_offloadingRow(new QHBoxLayout), m_speculative(new ElidingComboBox(this)),
      m_draftTokens(new QSpinBox(this)), m_speculativeRow(new QHBoxLayout),
      m_vllmRelease(new QComboBox(this)), m_blockSize(new QComboBox(this)), m_maxModelLen(new QSpinBox(this)),
      m_batch(new LogSliderBox(this)), m_seqLen(new LogSliderBox(this)), m_promptLen(new QSpinBox(this)),
      m_sharedPrefix(new QSpinBox(this)), m_images(new QSpinBox(this)), m_imageSize(new QComboBox(this)),
      m_requestRate(new QDoubleSpinBox(this)), m_modelGroup(new QGroupBox(this)),
      m_precisionGroup(new QGroupBox(this)), m_servingGroup(new QGroupBox(this)),
      m_modelForm(new QFormLayout(m_modelGroup)), m_precisionForm(new QFormLayout(m_precisionGroup)),
      m_servingForm(new QFormLayout(m_servingGroup))
{
    m_precisionGroup->setObjectName(QStringLiteral("precisionGroup"));
    m_model->setObjectName(QStringLiteral("modelPicker"));
    m_gpu->setObjectName(QStringLiteral("gpuPicker"));
    m_gpuCount->setObjectName(QStringLiteral("gpuCount"));
    m_stageCount->setObjectName(QStringLiteral("stageCount"));
    m_stageLabel->setBuddy(m_stageCount);
    m_dataParallel->setObjectName(QStringLiteral("dataParallel"));
    m_expertParallel->setObjectName(QStringLiteral("expertParallel"));
    m_dpAttention->setObjectName(QStringLiteral("dpAttention"));
    m_dpLmHead->setObjectName(QStringLiteral("dpLmHead"));
    m_denseMlpsWhole->setObjectName(QStringLiteral("denseMlpsWhole"));
    m_expertParallelSize->setObjectName(QStringLiteral("expertParallelSize"));
    m_expertParallelSizeLabel->setBuddy(m_expertParallelSize);
    m_eplb->setObjectName(QStringLiteral("eplb"));
    m_redundantExperts->setObjectName(QStringLiteral("redundantExperts"));
    m_all2allBackend->setObjectName(QStringLiteral("all2allBackend"));
    // The backends whose buffers kvscope sizes (core/plan/all2all.h).
    for (const All2AllBackend backend : {All2AllBackend::AllgatherReducescatter, All2AllBackend::Naive,
                                         All2AllBackend::DeepepHighThroughput})
        m_all2allBackend->addItem(all2allBackendName(backend), int(backend));
    // Its choices change with the GPUs (0, 8, ... 56 on eight): as wide as the widest, up to 1,023.
    m_redundantExperts->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    m_dataParallelLabel->setBuddy(m_dataParallel);
    m_dtype->setObjectName(QStringLiteral("dtypeCombo"));
    m_quantization->setObjectName(QStringLiteral("quantizationCombo"));
    m_groupSize->setObjectName(QStringLiteral("groupSizeCombo"));
    m_moeMxfp8->setObjectName(QStringLiteral("moeMxfp8Check"));
    m_kvCacheDtype->setObjectName(QStringLiteral("kvCacheDtypeCombo"));
    m_precision->setObjectName(QStringLiteral("precisionSlider"));
    m_utilization->setObjectName(QStringLiteral("utilizationSpin"));
    m_kvCacheMemory->setObjectName(QStringLiteral("kvCacheMemorySpin"));
    m_cudaGraphSize->setObjectName(QStringLiteral("cudaGraphSizeSpin"));
    m_enforceEager->setObjectName(QStringLiteral("enforceEager"));
    m_warmCompileCache->setObjectName(QStringLiteral("warmCompileCache"));
    m_loraSlots->setObjectName(QStringLiteral("loraSlotsSpin"));
    m_loraRank->setObjectName(QStringLiteral("loraRankCombo"));
    m_loraRankLabel->setBuddy(m_loraRank);
    m_offloading->setObjectName(QStringLiteral("offloadingSpin"));
    m_offloadingBackend->setObjectName(QStringLiteral("offloadingBackendCombo"));
    m_blockSize->setObjectName(QStringLiteral("blockSizeCombo"));
    m_vllmRelease->setObjectName(QStringLiteral("vllmReleaseCombo"));
    // The default (no --vllm-version: the newest modelled), then every modelled release, newest first.
    m_vllmRelease->addItem(QString(), QString());
    for (const VllmProfile &profile : vllmProfiles()) // oldest first: each goes in just below the default
        m_vllmRelease->insertItem(1, profile.since.text(), profile.since.text());
    m_maxModelLen->setObjectName(QStringLiteral("maxModelLenSpin"));
    m_batch->setObjectName(QStringLiteral("batchSize"));
    m_batch->slider()->setObjectName(QStringLiteral("batchSlider"));
    m_batch->spinBox()->setObjectName(QStringLiteral("batchSpin"));
    m_seqLen->setObjectName(QStringLiteral("seqLen"));
    m_seqLen->slider()->setObjectName(QStringLiteral("seqLenSlider"));
    m_seqLen->spinBox()->setObjectName(QStringLiteral("seqLenSpin"));
    m_promptLen->setObjectName(QStringLiteral("promptLenSpin"));
    m_images->setObjectName(QStringLiteral("imagesSpin"));
    m_images->setRange(0, int(MaxImagesPerRequest));
    m_images->setKeyboardTracking(false);
    m_imageSize->setObjectName(QStringLiteral("imageSizeBox"));
    m_sharedPrefix->setObjectName(QStringLiteral("sharedPrefixSpin"));
    m_sharedPrefix->setSingleStep(256);
    m_sharedPrefix->setGroupSeparatorShown(true);
    m_sharedPrefix->setKeyboardTracking(false);
    m_promptLen->setSingleStep(256);
    m_promptLen->setGroupSeparatorShown(true);
    m_promptLen->setKeyboardTracking(false);
    m_requestRate->setObjectName(QStringLiteral("requestRateSpin"));
    m_requestRate->setDecimals(3);
    m_requestRate->setRange(0, 1'000'000);
    m_requestRate->setSingleStep(0.5);
    m_requestRate->setKeyboardTracking(false);

    m_model->setSearchable(true);
    buildModelList();
    buildGpuList();
    fillChoices(m_dtype, weightDtypeChoices());
    fillChoices(m_quantization, quantMethodChoices());
    for (int group : {32, 64, 128, 256})
        m_groupSize->addItem(QString::number(group), group);
    m_groupSize->addItem(QString(), -1); // per row; text set in retranslate()
    fillChoices(m_kvCacheDtype, kvCacheDtypeChoices());
    m_precision->setRange(0, 2);
    m_precision->setPageStep(1);
    m_precision->setTickPosition(QSlider::TicksBelow);
    m_precision->setTickInterval(1);
    m_utilization->setRange(0.0, 1.0); // 0: the release's default (the special text says which)
    m_utilization->setSpecialValueText(tr("default"));
    m_utilization->setSingleStep(0.01);
    m_utilization->setDecimals(2);
    m_utilization->setKeyboardTracking(false);
    m_kvCacheMemory->setRange(0, 1 << 20); // whole GiB, up to a pebibyte; 0 = profiled
    m_kvCacheMemory->setKeyboardTracking(false);
    m_cudaGraphSize->setRange(0, 1 << 16); // tokens; 0 = vLLM's default
    m_cudaGraphSize->setKeyboardTracking(false);
    m_loraSlots->setRange(0, 256);
    m_loraSlots->setKeyboardTracking(false);
    m_offloading->setRange(0, 1 << 20); // whole GiB of host memory, summed over the ranks; 0 = off
    m_offloading->setKeyboardTracking(false);
    m_speculative->setObjectName(QStringLiteral("speculativeCombo"));
    m_draftTokens->setObjectName(QStringLiteral("draftTokensSpin"));
    // Repository ids are long: the combo elides them rather than widen the panel.
    m_speculative->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_speculative->setMinimumContentsLength(8);
    m_draftTokens->setRange(1, int(MaxSpeculativeTokens));
    m_draftTokens->setValue(3);
    m_draftTokens->setKeyboardTracking(false);
    for (KvOffloadingBackend backend : {KvOffloadingBackend::Native, KvOffloadingBackend::Lmcache})
        m_offloadingBackend->addItem(kvOffloadingBackendName(backend), int(backend));
    for (std::int64_t rank : loraRanks())
        m_loraRank->addItem(QString::number(rank), qlonglong(rank));
    for (int block : {8, 16, 32, 64, 128})
        m_blockSize->addItem(QString::number(block), block);
    m_maxModelLen->setRange(0, 10'000'000);
    m_maxModelLen->setSingleStep(1024);
    m_maxModelLen->setGroupSeparatorShown(true);
    m_maxModelLen->setKeyboardTracking(false);
    m_batch->setRange(batchAxisMin(), batchAxisMax());

    m_modelForm->addRow(new QLabel(this), m_model);
    m_modelForm->addRow(new QLabel(this), m_gpu);
    // Tensor, pipeline and data parallel sizes share a row: GPUs = TP x PP x DP.
    m_parallelRow->addWidget(m_gpuCount, 1);
    m_parallelRow->addWidget(m_stageLabel);
    m_parallelRow->addWidget(m_stageCount, 1);
    m_modelForm->addRow(new QLabel(this), m_parallelRow);
    // Data-parallel ranks multiply the GPUs too (TP x PP x DP); expert parallelism lays the experts over
    // them.
    m_parallelRow->addWidget(m_dataParallelLabel);
    m_parallelRow->addWidget(m_dataParallel, 1);
    // One engine's switch at a time: vLLM's expert parallelism, SGLang's attention groups.
    auto *switches = new QHBoxLayout;
    switches->addWidget(m_expertParallel);
    switches->addWidget(m_dpAttention);
    switches->addStretch(1);
    switches->addWidget(m_expertParallelSizeLabel);
    switches->addWidget(m_expertParallelSize);
    m_modelForm->addRow(new QLabel(this), switches);
    // vLLM's load balancer on a row of its own, shown for a MoE under vLLM.
    m_eplbRow->addWidget(m_eplb);
    m_eplbRow->addWidget(m_redundantExperts);
    m_eplbRow->addWidget(m_redundantExpertsLabel);
    m_eplbRow->addStretch(1);
    m_modelForm->addRow(new QLabel(this), m_eplbRow);
    // SGLang's attention groups' two layout flags, one a line (a translation may be long), shown with the
    // groups.
    m_groupsRow->addWidget(m_dpLmHead);
    m_groupsRow->addWidget(m_denseMlpsWhole);
    m_modelForm->addRow(new QLabel(this), m_groupsRow);
    m_modelForm->addRow(new QLabel(this), m_all2allBackend);
    m_precisionForm->addRow(new QLabel(this), m_dtype);
    m_precisionForm->addRow(new QLabel(this), m_quantization);
    m_precisionForm->addRow(new QLabel(this), m_groupSize);
    m_precisionForm->addRow(new QLabel(this), m_moeMxfp8);
    m_precisionForm->addRow(new QLabel(this), m_kvCacheDtype);
    auto *precisionBox = new QWidget(this);
    auto *precisionLayout = new QVBoxLayout(precisionBox);
    precisionLayout->setContentsMargins(0, 0, 0, 0);
    precisionLayout->setSpacing(0);
    precisionLayout->addWidget(m_precision);
    auto *scale = new QHBoxLayout;
    scale->setContentsMargins(0, 0, 0, 0);
    for (QLabel *step : m_precisionSteps)
        scale->addWidget(step, 1);
    precisionLayout->addLayout(scale);
    m_precisionForm->addRow(new QLabel(this), precisionBox);
    // The release and its graphs share a row: both say how vLLM runs, and the form stays a row shorter.
    m_vllmRow->addWidget(m_vllmRelease, 1);
    m_vllmRow->addWidget(m_enforceEager);
    m_servingForm->addRow(new QLabel(this), m_vllmRow);
    m_servingForm->addRow(new QLabel(this), m_utilization);
    m_servingForm->addRow(new QLabel(this), m_kvCacheMemory);
    m_servingForm->addRow(new QLabel(this), m_cudaGraphSize);
    m_servingForm->addRow(new QLabel(this), m_warmCompileCache);
    // LoRA slots and their rank share a row, as vLLM's --max-loras and --max-lora-rank go together.
    m_loraRow->addWidget(m_loraSlots, 1);
    m_loraRow->addWidget(m_loraRankLabel);
    m_loraRow->addWidget(m_loraRank, 1);
    m_servingForm->addRow(new QLabel(this), m_loraRow);
    // The offloading buffer and its backend share a row, as vLLM's two flags go together.
    m_offloadingRow->addWidget(m_offloading, 1);
    m_offloadingRow->addWidget(m_offloadingBackend, 1);
    m_servingForm->addRow(new QLabel(this), m_offloadingRow);
    m_speculativeRow->addWidget(m_speculative, 3);
    m_speculativeRow->addWidget(m_draftTokens, 1);
    m_servingForm->addRow(new QLabel(this), m_speculativeRow);
    m_servingForm->addRow(new QLabel(this), m_blockSize);
    m_servingForm->addRow(new QLabel(this), m_maxModelLen);
    m_servingForm->addRow(new QLabel(this), m_batch);
    m_servingForm->addRow(new QLabel(this), m_seqLen);
    m_servingForm->addRow(new QLabel(this), m_promptLen);
    m_servingForm->addRow(new QLabel(this), m_sharedPrefix);
    // How many images and how large, as a benchmark's multimodal dataset gives them.
    m_servingForm->addRow(new QLabel(this), m_images);
    m_servingForm->addRow(new QLabel(this), m_imageSize);
    m_servingForm->addRow(new QLabel(this), m_requestRate);
    for (QFormLayout *form : {m_modelForm, m_precisionForm, m_servingForm})
        form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);

    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_modelGroup);
    layout->addWidget(m_precisionGroup);
    layout->addWidget(m_servingGroup);
    layout->addStretch(1);

    // Widgets -> controller
    connect(m_model, &GroupedComboBox::keyActivated, this, [this](const QString &key) {
        if (const ModelArch *model = m_library->findModel(key))
            m_controller->setModel(*model);
    });
    connect(m_gpu, &GroupedComboBox::keyActivated, this, [this](const QString &id) {
        if (id == QLatin1String(AddCustomGpuKey)) {
            m_gpu->setCurrentKey(m_controller->scenario().gpu.id); // the picker keeps the current GPU
            Q_EMIT customGpuRequested();
        } else if (const GpuSpec *gpu = m_library->findGpu(id)) {
            m_controller->setGpu(*gpu);
        }
    });
    connect(m_library, &UserLibrary::modelsChanged, this, [this] {
        buildModelList();
        m_model->setCurrentKey(m_controller->scenario().model.id);
    });
    connect(m_library, &UserLibrary::gpusChanged, this, [this] {
        buildGpuList();
        m_gpu->setCurrentKey(m_controller->scenario().gpu.id);
    });
    connect(m_gpuCount, &QComboBox::activated, this,
            [this](int index) { m_controller->setTensorParallelSize(m_gpuCount->itemData(index).toInt()); });
    connect(m_dataParallel, &QComboBox::activated, this, [this](int index) {
        m_controller->setDataParallelSize(m_dataParallel->itemData(index).toInt());
    });
    connect(m_expertParallel, &QCheckBox::toggled, m_controller, &ScenarioController::setExpertParallel);
    connect(m_dpAttention, &QCheckBox::toggled, m_controller, &ScenarioController::setDpAttention);
    connect(m_dpLmHead, &QCheckBox::toggled, m_controller, &ScenarioController::setDpLmHead);
    connect(m_denseMlpsWhole, &QCheckBox::toggled, m_controller, &ScenarioController::setDenseMlpsWhole);
    connect(m_eplb, &QCheckBox::toggled, m_controller, &ScenarioController::setEplb);
    connect(m_all2allBackend, &QComboBox::activated, this, [this](int index) {
        m_controller->setAll2AllBackend(All2AllBackend(m_all2allBackend->itemData(index).toInt()));
    });
    connect(m_redundantExperts, &QComboBox::activated, this, [this](int index) {
        m_controller->setRedundantExperts(m_redundantExperts->itemData(index).toInt());
    });
    connect(m_expertParallelSize, &QComboBox::activated, this, [this](int index) {
        m_controller->setExpertParallelSize(m_expertParallelSize->itemData(index).toInt());
    });
    connect(m_stageCount, &QComboBox::activated, this, [this](int index) {
        m_controller->setPipelineParallelSize(m_stageCount->itemData(index).toInt());
    });
    connect(m_dtype, &QComboBox::activated, this, [this](int index) {
        m_controller->setDtype(parseWeightDtype(m_dtype->itemData(index).toString()));
    });
    connect(m_quantization, &QComboBox::activated, this, &ParameterPanel::applyQuantizationChoice);
    connect(m_groupSize, &QComboBox::activated, this, &ParameterPanel::applyQuantizationChoice);
    connect(m_kvCacheDtype, &QComboBox::activated, this, [this](int index) {
        m_controller->setKvCacheDtype(parseKvCacheDtype(m_kvCacheDtype->itemData(index).toString()));
    });
    connect(m_precision, &QSlider::valueChanged, this, [this](int step) {
        int current = 0;
        m_controller->setKvCacheDtype(chartKvDtypes(m_controller->plan(), current).value(step));
    });
    connect(m_utilization, &QDoubleSpinBox::valueChanged, this, [this](double value) {
        // Through the decimal text, so 0.95 is exactly 950000 millionths; the minimum is the default. The
        // engine's own share: vLLM's --gpu-memory-utilization, SGLang's --mem-fraction-static.
        const std::int64_t ppm =
            value <= m_utilization->minimum()
                ? 0
                : parseUtilization(QString::number(value, 'f', m_utilization->decimals()));
        if (m_controller->scenario().engine == Engine::Sglang)
            m_controller->setMemFractionStaticPpm(ppm);
        else
            m_controller->setGpuMemoryUtilizationPpm(ppm);
    });
    connect(m_kvCacheMemory, &QSpinBox::valueChanged, this,
            [this](int gib) { m_controller->setKvCacheMemoryBytes(bytesOfGiB(gib)); });
    connect(m_enforceEager, &QCheckBox::toggled, m_controller, &ScenarioController::setEnforceEager);
    connect(m_moeMxfp8, &QCheckBox::toggled, m_controller, &ScenarioController::setMoeMxfp8Activations);
    connect(m_warmCompileCache, &QCheckBox::toggled, this, [this](bool warm) {
        m_controller->setCompileCache(warm ? CompileCache::Warm : CompileCache::Cold);
    });
    connect(m_cudaGraphSize, &QSpinBox::valueChanged, m_controller,
            &ScenarioController::setMaxCudagraphCaptureSize);
    const auto applyLora = [this] {
        m_controller->setLora(m_loraSlots->value(), m_loraRank->currentData().toLongLong());
    };
    connect(m_loraSlots, &QSpinBox::valueChanged, this, applyLora);
    connect(m_loraRank, &QComboBox::activated, this, applyLora);
    const auto applyOffloading = [this] {
        m_controller->setKvOffloading(std::int64_t(m_offloading->value()) * 1000, // whole GiB, in thousandths
                                      KvOffloadingBackend(m_offloadingBackend->currentData().toInt()));
    };
    connect(m_offloading, &QSpinBox::valueChanged, this, applyOffloading);
    connect(m_offloadingBackend, &QComboBox::activated, this, applyOffloading);
    const auto applySpeculative = [this] {
        const int chosen = m_speculative->currentIndex() - 1; // after "off"
        SpeculativeConfig config;
        if (chosen >= 0 && chosen < m_speculativeChoices.size()) {
            config = m_speculativeChoices.at(chosen);
            config.numSpeculativeTokens = m_draftTokens->value();
        }
        m_controller->setSpeculative(config);
    };
    connect(m_speculative, &QComboBox::activated, this, applySpeculative);
    connect(m_draftTokens, &QSpinBox::valueChanged, this, applySpeculative);
    connect(m_vllmRelease, &QComboBox::activated, this,
            [this](int index) { m_controller->setVllmVersion(m_vllmRelease->itemData(index).toString()); });
    connect(m_blockSize, &QComboBox::activated, this,
            [this](int index) { m_controller->setBlockSize(m_blockSize->itemData(index).toInt()); });
    connect(m_maxModelLen, &QSpinBox::valueChanged, this,
            [this](int value) { m_controller->setMaxModelLen(value); });
    connect(m_batch, &LogSliderBox::valueChanged, this,
            [this](std::int64_t value) { m_controller->setBatchSize(value); });
    connect(m_seqLen, &LogSliderBox::valueChanged, this,
            [this](std::int64_t value) { m_controller->setSeqLen(value); });
    connect(m_sharedPrefix, &QSpinBox::valueChanged, this,
            [this](int tokens) { m_controller->setSharedPrefixLen(tokens); });
    connect(m_images, &QSpinBox::valueChanged, this,
            [this](int images) { m_controller->setImagesPerRequest(images); });
    connect(m_imageSize, &QComboBox::activated, this, [this](int index) {
        const QSize size = m_imageSize->itemData(index).toSize();
        m_controller->setImageSize(size.width(), size.height());
    });
    connect(m_promptLen, &QSpinBox::valueChanged, this,
            [this](int value) { m_controller->setPromptLen(value); });
    connect(m_requestRate, &QDoubleSpinBox::valueChanged, this,
            [this](double value) { m_controller->setRequestRate(value); });

    // Controller -> widgets
    connect(m_controller, &ScenarioController::scenarioChanged, this, &ParameterPanel::showScenario);
    connect(m_controller, &ScenarioController::planChanged, this, &ParameterPanel::showPlan);

    retranslate();
    showScenario(m_controller->scenario());
    showPlan(m_controller->plan());
}

/// The drafter combo: "off", the drafters kvscope plans for the model, and the scenario's own
/// when it is none of them (a draft config read from a path).
void ParameterPanel::showSpeculative(const Scenario &s)
{
    const QSignalBlocker combo(m_speculative);
    const QSignalBlocker tokens(m_draftTokens);
    const SpeculativeConfig &current = s.speculative;
    if (current.enabled())
        m_draftTokens->setValue(int(current.numSpeculativeTokens));
    m_speculativeChoices = speculativeChoices(s, m_draftTokens->value());
    const auto same = [&](const SpeculativeConfig &c) {
        return c.method == current.method && c.model == current.model;
    };
    if (current.enabled() && std::none_of(m_speculativeChoices.cbegin(), m_speculativeChoices.cend(), same))
        m_speculativeChoices << current;
    m_speculative->clear();
    m_speculative->addItem(speculativeChoiceLabel({}));
    for (const SpeculativeConfig &choice : std::as_const(m_speculativeChoices)) {
        m_speculative->addItem(speculativeChoiceLabel(choice));
        // A draft's repo id outgrows the combo: the popup's tooltip spells it whole.
        m_speculative->setItemData(m_speculative->count() - 1, speculativeChoiceLabel(choice),
                                   Qt::ToolTipRole);
        if (same(choice))
            m_speculative->setCurrentIndex(m_speculative->count() - 1);
    }
    if (!current.enabled())
        m_speculative->setCurrentIndex(0);
    m_draftTokens->setEnabled(current.enabled());
}

QWidget *ParameterPanel::controlFor(ScenarioField option) const
{
    const std::pair<ScenarioField, QWidget *> controls[] = {
        {ScenarioField::Model, m_model},
        {ScenarioField::Gpu, m_gpu},
        {ScenarioField::TensorParallelSize, m_gpuCount},
        {ScenarioField::PipelineParallelSize, m_stageCount},
        {ScenarioField::DataParallelSize, m_dataParallel},
        {ScenarioField::EnableExpertParallel, m_expertParallel},
        {ScenarioField::EnableDpAttention, m_dpAttention},
        {ScenarioField::EnableDpLmHead, m_dpLmHead},
        {ScenarioField::MoeDenseTpSize, m_denseMlpsWhole},
        {ScenarioField::ExpertParallelSize, m_expertParallelSize},
        {ScenarioField::EnableEplb, m_eplb},
        {ScenarioField::EplbConfig, m_redundantExperts},
        {ScenarioField::All2AllBackend, m_all2allBackend},
        {ScenarioField::Dtype, m_dtype},
        {ScenarioField::Quantization, m_quantization},
        {ScenarioField::GroupSize, m_groupSize},
        {ScenarioField::KvCacheDtype, m_kvCacheDtype},
        {ScenarioField::GpuMemoryUtilization, m_utilization},
        {ScenarioField::MemFractionStatic, m_utilization},
        {ScenarioField::KvCacheMemoryBytes, m_kvCacheMemory},
        {ScenarioField::EnforceEager, m_enforceEager},
        {ScenarioField::MoeMxfp8Activations, m_moeMxfp8},
        {ScenarioField::CompileCache, m_warmCompileCache},
        {ScenarioField::MaxCudagraphCaptureSize, m_cudaGraphSize},
        {ScenarioField::MaxLoras, m_loraSlots},
        {ScenarioField::MaxLoraRank, m_loraRank},
        {ScenarioField::KvOffloadingSize, m_offloading},
        {ScenarioField::KvOffloadingBackend, m_offloadingBackend},
        {ScenarioField::SpeculativeConfig, m_speculative},
        {ScenarioField::VllmVersion, m_vllmRelease},
        {ScenarioField::BlockSize, m_blockSize},
        {ScenarioField::MaxModelLen, m_maxModelLen},
        {ScenarioField::BatchSize, m_batch},
        {ScenarioField::SeqLen, m_seqLen},
        {ScenarioField::PromptLen, m_promptLen},
        {ScenarioField::SharedPrefixLen, m_sharedPrefix},
        {ScenarioField::ImagesPerRequest, m_images},
        {ScenarioField::ImageSize, m_imageSize},
        {ScenarioField::RequestRate, m_requestRate},
    };
    for (const auto &[field, control] : controls)
        if (option == field)
            return control;
    return nullptr;
}

void ParameterPanel::highlightOption(std::optional<ScenarioField> option)
{
    QWidget *target = option ? controlFor(*option) : nullptr;
    m_highlighted = target ? option : std::nullopt;
    for (QFormLayout *form : {m_modelForm, m_precisionForm, m_servingForm}) {
        for (int row = 0; row < form->rowCount(); ++row) {
            QLayoutItem *field = form->itemAt(row, QFormLayout::FieldRole);
            QWidget *control = field ? field->widget() : nullptr;
            auto *label = qobject_cast<QLabel *>(form->labelForField(control));
            if (!control || !label)
                continue;
            const bool lit = control == target;
            control->setProperty("formulaHighlight", lit);
            // The label takes the selection colours: readable in every palette.
            label->setAutoFillBackground(lit);
            label->setBackgroundRole(lit ? QPalette::Highlight : QPalette::Window);
            label->setForegroundRole(lit ? QPalette::HighlightedText : QPalette::WindowText);
        }
    }
}

QWidget *ParameterPanel::modelPicker() const
{
    return m_model;
}

QWidget *ParameterPanel::gpuPicker() const
{
    return m_gpu;
}

namespace {

/// "Llama-3.1-8B  ·  8.03B  ·  128 KiB/tok" from the core's summary.
QString modelEntryText(const PresetSummary &s)
{
    QString size = formatParameterCount(s.paramsTotal);
    if (s.paramsActive != s.paramsTotal)
        size += QStringLiteral(" / ") + formatParameterCount(s.paramsActive);
    return QStringLiteral("%1  ·  %2  ·  %3/tok").arg(s.name, size, formatBytes(s.kvBytesPerTokenBf16, 0));
}

} // namespace

void ParameterPanel::buildModelList()
{
    m_model->clearEntries();
    for (const PresetFamily &family : presetsByFamily(ModelLibrary::builtin().presets())) {
        m_model->addGroup(family.family);
        for (const PresetSummary &preset : family.presets)
            m_model->addEntry(preset.id, modelEntryText(preset), preset.hfRepoIds.join(QLatin1Char('\n')),
                              preset.name);
    }
    if (!m_library->importedModels().isEmpty()) {
        m_model->addGroup(tr("Imported"));
        for (const UserLibrary::ImportedEntry &entry : m_library->importedModels()) {
            const ModelArch &m = entry.imported.model;
            QString tip =
                entry.imported.path.isEmpty() ? importKindName(entry.imported.kind) : entry.imported.path;
            if (!m.notes.isEmpty())
                tip += QLatin1Char('\n') + m.notes.join(QLatin1Char('\n'));
            m_model->addEntry(entry.key, modelEntryText(summarizePreset(m)), tip, m.name);
        }
    }
    m_model->finishEntries();
}

void ParameterPanel::buildGpuList()
{
    m_gpu->clearEntries();
    QString vendor;
    for (const GpuSpec &g : GpuLibrary::builtin().presets()) {
        if (g.vendor != vendor) {
            vendor = g.vendor;
            m_gpu->addGroup(vendor);
        }
        // The vendor heads the group, so entries drop it: "H100 SXM 80GB · 79.19 GiB".
        m_gpu->addEntry(g.id, QStringLiteral("%1  ·  %2").arg(shortGpuName(g), formatGiB(g.memoryBytes)),
                        g.notes);
    }
    m_gpu->addGroup(tr("Custom"));
    for (const GpuSpec &g : m_library->customGpus())
        m_gpu->addEntry(g.id, QStringLiteral("%1  ·  %2").arg(g.name, formatGiB(g.memoryBytes)));
    m_gpu->addEntry(QLatin1String(AddCustomGpuKey), tr("Add custom GPU…"));
    m_gpu->finishEntries();
}

void ParameterPanel::applyQuantizationChoice()
{
    std::optional<QuantizationSpec> spec = parseQuantizationChoice(
        m_quantization->currentData().toString(), m_controller->scenario().model.checkpointQuantization);
    if (spec && spec->isAwqOrGptq())
        spec->groupSize = m_groupSize->currentData().toInt();
    m_controller->setQuantization(spec);
}

void ParameterPanel::showScenario(const Scenario &s)
{
    m_precisionGroup->setTitle(tr("Precision (%1 flags)").arg(engineDisplayName(s.engine)));
    m_model->setCurrentKey(s.model.id);
    m_gpu->setCurrentKey(s.gpu.id);
    // Rebuilt only when the model's sizes change: a rebuild relays the form out, on every slider step.
    setSizes(m_gpuCount, validTensorParallelSizes(s.model));
    selectData(m_gpuCount, int(s.tensorParallelSize)); // the controller holds planned scenarios only
    setSizes(m_stageCount, validPipelineParallelSizes(s.model, s.engine));
    selectData(m_stageCount, int(s.pipelineParallelSize));
    // vLLM's; the ranks take no pipeline stages, expert parallelism needs routed experts.
    const bool vllm = s.engine == Engine::Vllm;
    setSizes(m_dataParallel, validDataParallelSizes(s));
    selectData(m_dataParallel, int(s.dataParallelSize));
    m_dataParallel->setEnabled(m_dataParallel->count() > 1);
    {
        const QSignalBlocker blocker(m_expertParallel);
        m_expertParallel->setChecked(s.enableExpertParallel);
    }
    m_expertParallel->setEnabled(vllm && (s.model.moe.enabled() || s.enableExpertParallel));
    m_expertParallel->setVisible(vllm);
    {
        const QSignalBlocker blocker(m_dpAttention);
        m_dpAttention->setChecked(s.enableDpAttention);
    }
    m_dpAttention->setVisible(!vllm);
    {
        const QSignalBlocker lmHead(m_dpLmHead);
        const QSignalBlocker dense(m_denseMlpsWhole);
        m_dpLmHead->setChecked(s.enableDpLmHead);
        m_denseMlpsWhole->setChecked(s.moeDenseTpSize == 1);
    }
    m_modelForm->setRowVisible(m_groupsRow,
                               !vllm && (sglangDpAttention(s) || s.enableDpLmHead || s.moeDenseTpSize > 0));
    // vLLM's load balancer, where its experts are divided whole among the GPUs.
    {
        const QSignalBlocker blocker(m_eplb);
        m_eplb->setChecked(s.enableEplb);
    }
    m_modelForm->setRowVisible(m_eplbRow, vllm && s.model.moe.enabled());
    m_eplb->setEnabled(s.enableEplb || eplbAccepted(s));
    setSizes(m_redundantExperts, validRedundantExpertCounts(s));
    selectData(m_redundantExperts, int(s.eplb.numRedundantExperts));
    m_redundantExperts->setVisible(vllm && s.enableEplb);
    m_redundantExperts->setEnabled(m_redundantExperts->count() > 1);
    m_redundantExpertsLabel->setVisible(m_redundantExperts->isVisibleTo(this));
    // vLLM's all-to-all backend, where its all-to-all kernels run (data-parallel ranks with EP).
    selectData(m_all2allBackend, int(s.all2allBackend));
    m_modelForm->setRowVisible(m_all2allBackend,
                               usesAll2AllKernels(s) ||
                                   s.all2allBackend != All2AllBackend::AllgatherReducescatter);
    // SGLang's --ep-size, for a MoE: the sizes that divide its GPUs and experts.
    setSizes(m_expertParallelSize, validExpertParallelSizes(s));
    selectData(m_expertParallelSize, int(s.expertParallelSize));
    m_expertParallelSize->setEnabled(m_expertParallelSize->count() > 1);
    m_expertParallelSize->setVisible(!vllm && s.model.moe.enabled());
    m_expertParallelSizeLabel->setVisible(m_expertParallelSize->isVisibleTo(this));
    // Under SGLang's attention groups the ranks divide the GPUs instead of multiplying them.
    m_dataParallelLabel->setText(vllm ? QStringLiteral("× DP") : QStringLiteral("DP"));
    selectData(m_dtype, dtypeName(s.dtype));
    selectData(m_quantization, quantizationChoiceName(s.quantization));
    // GGUF models add llama.cpp's cache types; their weights carry their own
    // quantization, so --quantization does not apply.
    QStringList kvChoices = s.model.format == ModelFormat::Gguf
                                ? kvCacheDtypeChoices() + llamaCppKvCacheDtypeChoices()
                                : kvCacheDtypeChoices();
    if (vllm) // SGLang's own FP4 format
        kvChoices.removeAll(dtypeName(KvCacheDtype::Fp4MxBlock16));
    if (m_kvCacheDtype->count() != kvChoices.size()) {
        const QSignalBlocker blocker(m_kvCacheDtype);
        m_kvCacheDtype->clear();
        fillChoices(m_kvCacheDtype, kvChoices);
    }
    selectData(m_kvCacheDtype, dtypeName(s.kvCacheDtype));
    m_quantization->setEnabled(s.model.format != ModelFormat::Gguf);
    {
        const QSignalBlocker blocker(m_utilization);
        const bool sglang = s.engine == Engine::Sglang;
        // SGLang rounds its shares to three decimals (server_args.py: round(..., 3)); vLLM's take two.
        m_utilization->setDecimals(sglang ? 3 : 2);
        m_utilization->setValue(
            QString(formatUtilization(sglang ? s.memFractionStaticPpm : s.gpuMemoryUtilizationPpm))
                .toDouble());
        setFormLabel(m_servingForm, m_utilization, fieldLabel(shareField(s.engine)));
        m_utilization->setToolTip(shareToolTip(s.engine));
        m_maxModelLen->setToolTip(longestRequestToolTip(s.engine));
        setFormLabel(m_servingForm, m_maxModelLen, longestRequestLabel(s.engine));
    }
    {
        const QSignalBlocker blocker(m_kvCacheMemory);
        m_kvCacheMemory->setValue(int(std::llround(toGiB(s.kvCacheMemoryBytes)))); // shown in whole GiB
        m_kvCacheMemory->setEnabled(s.engine == Engine::Vllm);
    }
    {
        const QSignalBlocker blocker(m_enforceEager);
        m_enforceEager->setChecked(s.enforceEager);
        m_enforceEager->setEnabled(s.engine == Engine::Vllm);
    }
    {
        const QSignalBlocker blocker(m_moeMxfp8);
        m_moeMxfp8->setChecked(s.moeMxfp8Activations);
    }
    {
        const QSignalBlocker blocker(m_warmCompileCache);
        m_warmCompileCache->setChecked(s.compileCache == CompileCache::Warm);
        m_warmCompileCache->setEnabled(s.engine == Engine::Vllm);
    }
    {
        const QSignalBlocker blocker(m_cudaGraphSize);
        m_cudaGraphSize->setValue(int(std::clamp<std::int64_t>(s.maxCudagraphCaptureSize, 0, 1 << 16)));
        m_cudaGraphSize->setEnabled(s.engine == Engine::Vllm && !s.enforceEager);
    }
    {
        const QSignalBlocker slots(m_loraSlots);
        const QSignalBlocker rank(m_loraRank);
        m_loraSlots->setValue(int(s.maxLoras));
        selectData(m_loraRank, qlonglong(s.maxLoraRank));
        m_loraSlots->setEnabled(true); // vLLM's slots, SGLang's pool
        m_loraRank->setEnabled(s.maxLoras > 0);
    }
    {
        const QSignalBlocker size(m_offloading);
        const QSignalBlocker backend(m_offloadingBackend);
        m_offloading->setValue(int(s.kvOffloadingMilliGiB / 1000)); // shown in whole GiB
        selectData(m_offloadingBackend, int(s.kvOffloadingBackend));
        m_offloading->setEnabled(s.engine == Engine::Vllm);
        m_offloadingBackend->setEnabled(s.engine == Engine::Vllm && s.kvOffloadingMilliGiB > 0);
    }
    showSpeculative(s);
    // A release between two profiles shows as the profile that plans it.
    selectData(m_vllmRelease, s.vllmVersion.trimmed().isEmpty()
                                  ? QString()
                                  : resolveVllmVersion(s.vllmVersion).profile->since.text());
    m_vllmRelease->setEnabled(s.engine == Engine::Vllm);
    selectData(m_blockSize, int(s.blockSize));
    m_blockSize->setEnabled(s.engine == Engine::Vllm); // SGLang's pages are its own (--page-size)
    {
        const QSignalBlocker blocker(m_maxModelLen);
        m_maxModelLen->setMaximum(int(std::min<std::int64_t>(s.model.maxPositionEmbeddings, 10'000'000)));
        m_maxModelLen->setValue(int(s.maxModelLen));
    }
    m_batch->setValue(s.batchSize);
    m_seqLen->setRange(sequenceAxisMin(), sequenceAxisMax(s.model));
    m_seqLen->setValue(s.seqLen);
    {
        const QSignalBlocker blocker(m_promptLen);
        m_promptLen->setRange(0, int(std::min<std::int64_t>(s.seqLen, std::numeric_limits<int>::max())));
        m_promptLen->setValue(int(std::min<std::int64_t>(s.promptLen, m_promptLen->maximum())));
    }
    {
        // Less than the sequence: a sequence is its shared prefix and a token of its own at least.
        const QSignalBlocker blocker(m_sharedPrefix);
        const int longest = int(std::min<std::int64_t>(s.seqLen - 1, std::numeric_limits<int>::max()));
        if (m_sharedPrefix->maximum() != longest)
            m_sharedPrefix->setMaximum(longest);
        m_sharedPrefix->setValue(int(std::min<std::int64_t>(s.sharedPrefixLen, m_sharedPrefix->maximum())));
    }
    showImages(s);
    {
        const QSignalBlocker blocker(m_requestRate);
        m_requestRate->setValue(formatRequestRate(s.requestRateMilli).toDouble());
    }
}

void ParameterPanel::showImages(const Scenario &s)
{
    // Common sizes, and the scenario's own when it is another (a file's, the command line's).
    QList<QSize> sizes{{448, 448},   {896, 896},   {1024, 1024}, {1280, 720},
                       {1920, 1080}, {2048, 2048}, {3840, 2160}};
    const QSize current(int(s.imageWidth), int(s.imageHeight));
    if (!sizes.contains(current))
        sizes << current;
    const QSignalBlocker images(m_images);
    const QSignalBlocker size(m_imageSize);
    if (m_imageSize->count() != sizes.size() ||
        m_imageSize->itemData(sizes.size() - 1).toSize() != sizes.last()) {
        m_imageSize->clear();
        for (const QSize &each : sizes)
            m_imageSize->addItem(formatImageSize(each.width(), each.height()), each);
    }
    m_imageSize->setCurrentIndex(int(sizes.indexOf(current)));
    m_images->setValue(int(s.imagesPerRequest));
    const bool takesImages = imageTokensModelled(s.model);
    m_images->setEnabled(takesImages);
    m_imageSize->setEnabled(takesImages && s.imagesPerRequest > 0);
}

void ParameterPanel::showPlan(const MemoryPlan &plan)
{
    // What "auto" resolved to, and the knobs that depend on the resolved method.
    m_dtype->setItemText(0, tr("auto (%1)").arg(dtypeName(plan.dtype)));
    m_kvCacheDtype->setItemText(
        0, tr("auto (%1)").arg(dtypeName(resolveKvCacheDtype(KvCacheDtype::Auto, plan.dtype))));
    const QuantizationSpec &checkpoint = m_controller->scenario().model.checkpointQuantization;
    for (int i = 0; i < m_quantization->count(); ++i)
        m_quantization->setItemText(
            i, quantizationChoiceLabel(m_quantization->itemData(i).toString(), checkpoint.method));
    const bool grouped = plan.quantization.isAwqOrGptq();
    m_groupSize->setEnabled(grouped);
    selectData(m_groupSize, grouped ? plan.quantization.groupSize : 128);
    // Only an MXFP4 MoE under vLLM has the choice; off compute capability 10.x it shows, disabled, why not.
    const Scenario &s = m_controller->scenario();
    m_precisionForm->setRowVisible(m_moeMxfp8, s.engine == Engine::Vllm &&
                                                   plan.quantization.method == QuantMethod::Mxfp4);
    m_moeMxfp8->setEnabled(offersMoeMxfp8Kernel(s, plan.quantization.method));
    {
        // vLLM's walk has three steps, llama.cpp's (GGUF models) four; a cache type off the
        // walk (nvfp4) is a step of its own while it is chosen, as the growth chart draws it.
        int current = 0;
        const QList<KvCacheDtype> walk = chartKvDtypes(plan, current);
        const QSignalBlocker blocker(m_precision);
        m_precision->setRange(0, int(walk.size()) - 1);
        m_precision->setValue(current);
        const int steps = int(walk.size());
        for (int i = 0; i < 4; ++i) {
            m_precisionSteps[i]->setVisible(i < steps);
            if (i >= steps)
                continue;
            m_precisionSteps[i]->setText(precisionLabel(walk.at(i)));
            // Labels sit under the slider's ends and middle stops.
            m_precisionSteps[i]->setAlignment(i == 0           ? Qt::AlignLeft
                                              : i == steps - 1 ? Qt::AlignRight
                                                               : Qt::AlignHCenter);
        }
    }
    m_maxModelLen->setSpecialValueText(tr("model default (%1)").arg(formatCount(plan.maxModelLen)));
    // The engine's default share (vLLM's for the release, SGLang's for the GPU and TP), resolved only when
    // none is given; the box then shows it.
    const Scenario &given = m_controller->scenario();
    const bool sglang = plan.engine == Engine::Sglang;
    if ((sglang ? given.memFractionStaticPpm : given.gpuMemoryUtilizationPpm) == 0) {
        const std::int64_t share = sglang ? plan.memFractionStaticPpm : plan.gpuMemoryUtilizationPpm;
        m_utilization->setSpecialValueText(tr("default (%1)").arg(formatUtilization(share)));
        m_utilization->setDefaultValue(QString(formatUtilization(share)).toDouble());
    }
    m_promptLen->setSpecialValueText(tr("the whole sequence (%1)").arg(formatCount(plan.seqLen)));
    // Each size as the processor counts it: the tokens one image of it takes in the prompt.
    const int at = m_imageSize->currentIndex();
    for (int i = 0; i < m_imageSize->count(); ++i) {
        const QSize size = m_imageSize->itemData(i).toSize();
        const QString name = formatImageSize(size.width(), size.height());
        const QString text = i == at && plan.imageTokensPerImage > 0
                                 ? tr("%1 · %2 tokens").arg(name, formatCount(plan.imageTokensPerImage))
                                 : name;
        if (m_imageSize->itemText(i) != text) // a changed text re-lays the panel out: only when it changes
            m_imageSize->setItemText(i, text);
    }
}

void ParameterPanel::retranslate()
{
    m_modelGroup->setTitle(tr("Model and hardware"));
    m_precisionGroup->setTitle(
        tr("Precision (%1 flags)").arg(engineDisplayName(m_controller->scenario().engine)));
    m_servingGroup->setTitle(tr("Serving"));
    setFormLabel(m_modelForm, m_model, tr("&Model"));
    setFormLabel(m_modelForm, m_gpu, tr("&GPU"));
    setFormLabel(m_modelForm, m_parallelRow, fieldLabel(ScenarioField::TensorParallelSize), m_gpuCount);
    setFormLabel(m_precisionForm, m_dtype, optionFlag(ScenarioField::Dtype));
    setFormLabel(m_precisionForm, m_quantization, optionFlag(ScenarioField::Quantization));
    setFormLabel(m_precisionForm, m_groupSize, fieldLabel(ScenarioField::GroupSize));
    setFormLabel(m_precisionForm, m_moeMxfp8, fieldLabel(ScenarioField::MoeMxfp8Activations));
    m_moeMxfp8->setText(tr("FP8 tensor cores"));
    m_moeMxfp8->setToolTip(
        tr("vLLM with VLLM_USE_FLASHINFER_MOE_MXFP4_MXFP8=1 (%1): an MXFP4 MoE's experts (gpt-oss) quantize "
           "their activations to MXFP8 and multiply on the FP8 tensor cores (FlashInfer's kernel) instead of "
           "expanding the weights to 16 bits. Speed only; vLLM offers it on compute capability 10.x GPUs "
           "(B200, GB200).")
            .arg(optionFlag(ScenarioField::MoeMxfp8Activations)));
    setFormLabel(m_precisionForm, m_kvCacheDtype, optionFlag(ScenarioField::KvCacheDtype));
    setFormLabel(m_precisionForm, m_precision->parentWidget(), tr("KV precision"));
    setFormLabel(m_servingForm, m_utilization, fieldLabel(shareField(m_controller->scenario().engine)));
    setFormLabel(m_servingForm, m_kvCacheMemory, fieldLabel(ScenarioField::KvCacheMemoryBytes));
    setFormLabel(m_servingForm, m_cudaGraphSize, fieldLabel(ScenarioField::MaxCudagraphCaptureSize));
    setFormLabel(m_servingForm, m_loraRow, fieldLabel(ScenarioField::MaxLoras), m_loraSlots);
    m_loraRankLabel->setText(tr("× rank"));
    m_loraSlots->setSpecialValueText(tr("off"));
    m_loraSlots->setToolTip(
        tr("%1 with %3: LoRA adapters held on each GPU at once. vLLM allocates every slot at "
           "load, %2 wide, for each attention and MLP projection; they count in the weights and come out "
           "of the KV cache.")
            .arg(optionFlag(ScenarioField::MaxLoras), optionFlag(ScenarioField::MaxLoraRank),
                 serverFlag(ServerOption::VllmEnableLora)));
    setFormLabel(m_servingForm, m_speculativeRow, fieldLabel(ScenarioField::SpeculativeConfig),
                 m_speculative);
    m_draftTokens->setSuffix(tr(" drafts"));
    m_speculative->setToolTip(
        tr("%1: a drafter proposes tokens that the model verifies in one pass. An EAGLE draft, the "
           "checkpoint's MTP layers or a smaller draft model add their weights and their attention layers "
           "to the KV pool; n-gram looks the drafts up in the prompt, on the CPU.")
            .arg(optionFlag(ScenarioField::SpeculativeConfig)));
    m_draftTokens->setToolTip(tr("num_speculative_tokens: drafts proposed and verified each step"));
    showSpeculative(m_controller->scenario());
    setFormLabel(m_servingForm, m_offloadingRow, fieldLabel(ScenarioField::KvOffloadingSize), m_offloading);
    describeSpinBox(
        m_offloading, tr("off"), tr(" GiB"),
        tr("%1: host memory vLLM offloads KV blocks to, summed over the tensor-parallel ranks, through %2. "
           "It keeps evicted blocks for reuse (a prefix seen again is loaded, not recomputed); it does not "
           "raise how many sequences run at once.")
            .arg(optionFlag(ScenarioField::KvOffloadingSize),
                 optionFlag(ScenarioField::KvOffloadingBackend)));
    describeSpinBox(
        m_kvCacheMemory, tr("profiled"), tr(" GiB"),
        tr("%1: the KV cache's memory per GPU, taken as given; vLLM then skips its profiled budget and %2 "
           "plays no part. \"profiled\": vLLM's default, the budget less everything before the cache.")
            .arg(optionFlag(ScenarioField::KvCacheMemoryBytes),
                 optionFlag(ScenarioField::GpuMemoryUtilization)));
    describeSpinBox(
        m_cudaGraphSize, tr("vLLM's default"), tr(" tokens"),
        tr("%1: the largest batch vLLM captures a CUDA graph for. Fewer graphs leave more of the budget "
           "for the KV cache from vLLM 0.21; larger batches then run without graphs. \"vLLM's default\": "
           "twice %2, at most 512.")
            .arg(optionFlag(ScenarioField::MaxCudagraphCaptureSize), optionFlag(ScenarioField::MaxNumSeqs)));
    m_enforceEager->setText(tr("eager"));
    m_enforceEager->setToolTip(
        tr("%1: vLLM runs without CUDA graphs. From vLLM 0.21 it then takes no CUDA-graph estimate out of "
           "the budget, so the KV cache is larger; every step launches its kernels from the host, which "
           "kvscope does not price (no speed figures).")
            .arg(optionFlag(ScenarioField::EnforceEager)));
    setFormLabel(m_servingForm, m_warmCompileCache, fieldLabel(ScenarioField::CompileCache));
    m_warmCompileCache->setText(tr("warm: a restart"));
    m_warmCompileCache->setToolTip(
        tr("%1 warm: vLLM restarts with its torch.compile cache holding the model (kept between starts, "
           "VLLM_CACHE_ROOT). On Model Runner V2 such a start holds V2's own profiling peak, smaller than a "
           "first start's, which compiles the model while profiling; V1 holds the same either way.")
            .arg(optionFlag(ScenarioField::CompileCache)));
    setFormLabel(m_servingForm, m_vllmRow, tr("vLLM release"), m_vllmRelease);
    m_vllmRelease->setItemText(0, tr("newest (%1)").arg(newestVllmProfile().since.text()));
    m_vllmRelease->setToolTip(
        tr("%1: the vLLM release whose accounting the plan follows (what it takes out of the budget, its "
           "defaults); a release between two listed ones plans as the older.")
            .arg(optionFlag(ScenarioField::VllmVersion)));
    setFormLabel(m_servingForm, m_blockSize, fieldLabel(ScenarioField::BlockSize));
    setFormLabel(m_servingForm, m_maxModelLen, longestRequestLabel(m_controller->scenario().engine));
    setFormLabel(m_servingForm, m_batch, tr("&Batch size"));
    setFormLabel(m_servingForm, m_seqLen, tr("Se&quence length"));
    setFormLabel(m_servingForm, m_promptLen, fieldLabel(ScenarioField::PromptLen));
    setFormLabel(m_servingForm, m_sharedPrefix, fieldLabel(ScenarioField::SharedPrefixLen));
    m_sharedPrefix->setSpecialValueText(tr("none"));
    m_sharedPrefix->setSuffix(tr(" tokens"));
    m_sharedPrefix->setToolTip(
        tr("%1: tokens every sequence starts with alike (a system prompt). vLLM's prefix cache holds their "
           "full blocks once, so more sequences fit; a partial last block stays each sequence's own.")
            .arg(optionFlag(ScenarioField::SharedPrefixLen)));
    setFormLabel(m_servingForm, m_images, fieldLabel(ScenarioField::ImagesPerRequest));
    setFormLabel(m_servingForm, m_imageSize, fieldLabel(ScenarioField::ImageSize));
    m_images->setSpecialValueText(tr("none"));
    m_images->setToolTip(
        tr("%1: images each request sends. Each becomes the tokens the model's image processor writes for "
           "it (by %2), held in the KV cache beside the text and prefilled with it. Models without a vision "
           "tower kvscope models take none.")
            .arg(optionFlag(ScenarioField::ImagesPerRequest), optionFlag(ScenarioField::ImageSize)));
    m_imageSize->setToolTip(tr("%1: each image's pixels before the processor resizes it")
                                .arg(optionFlag(ScenarioField::ImageSize)));
    setFormLabel(m_servingForm, m_requestRate, fieldLabel(ScenarioField::RequestRate));
    m_requestRate->setSpecialValueText(tr("closed loop"));
    m_requestRate->setSuffix(tr(" req/s"));
    m_groupSize->setItemText(m_groupSize->count() - 1, tr("per row"));

    m_model->setToolTip(
        tr("Built-in models grouped by family, with total (and active) parameters and the KV cache "
           "bytes per token at BF16. Type to search."));
    m_gpu->setToolTip(tr("The GPU and the memory its driver reports, which vLLM's budget starts from."));
    m_gpuCount->setToolTip(
        tr("%1: the model is split over this many GPUs. Figures are per GPU. "
           "KV heads are divided among GPUs, and replicated when there are more GPUs than KV "
           "heads; an MLA latent is replicated on every GPU.")
            .arg(optionFlag(ScenarioField::TensorParallelSize)));
    m_expertParallel->setText(fieldLabel(ScenarioField::EnableExpertParallel));
    m_dataParallel->setToolTip(
        tr("%1: copies of the deployment, each on its own GPUs with its own requests and KV cache "
           "(the batch is shared among them). A MoE's routed experts are split over the GPUs of "
           "all of them. Figures per GPU are one rank's; the capacity card adds the deployment's.")
            .arg(optionFlag(ScenarioField::DataParallelSize)));
    m_dpAttention->setText(fieldLabel(ScenarioField::EnableDpAttention));
    m_dpAttention->setToolTip(
        tr("%1: the %2 GPUs split into %3 attention groups, each with its own KV pool and share of the "
           "requests; the MLPs, experts and LM head stay split over all of them. Figures per GPU are "
           "one group's; the capacity card adds the deployment's.")
            .arg(optionFlag(ScenarioField::EnableDpAttention), sglangFlag(ScenarioField::TensorParallelSize),
                 sglangFlag(ScenarioField::DataParallelSize)));
    m_dpLmHead->setText(tr("LM head per group"));
    m_dpLmHead->setToolTip(
        tr("%1: the LM head split over one attention group's GPUs instead of all %2 of "
           "them: more of it on every GPU, less KV cache.")
            .arg(optionFlag(ScenarioField::EnableDpLmHead), sglangFlag(ScenarioField::TensorParallelSize)));
    m_denseMlpsWhole->setText(tr("Dense MLPs whole"));
    m_denseMlpsWhole->setToolTip(
        tr("%1 1: a DeepSeek-style model's dense layers run their MLPs whole on every GPU instead of split "
           "over %2 (the shared experts stay split): more weights on every GPU, less KV cache.")
            .arg(optionFlag(ScenarioField::MoeDenseTpSize), sglangFlag(ScenarioField::TensorParallelSize)));
    m_expertParallelSize->setToolTip(
        tr("%1: a MoE's routed experts are divided among this many of the %2 GPUs, each expert split over "
           "the %2 / %1 GPUs of its group (SGLang's FusedMoE: the experts must divide evenly).")
            .arg(optionFlag(ScenarioField::ExpertParallelSize),
                 sglangFlag(ScenarioField::TensorParallelSize)));
    setFormLabel(m_modelForm, m_all2allBackend, tr("All-to-all"));
    m_all2allBackend->setToolTip(
        tr("%1: how data-parallel ranks exchange a MoE's tokens under expert parallelism. "
           "deepep_high_throughput keeps DeepEP's 1 GiB NVLink buffer and a 32 MiB workspace on every GPU, "
           "which the KV cache gives up.")
            .arg(optionFlag(ScenarioField::All2AllBackend)));
    m_eplb->setText(QStringLiteral("EPLB"));
    m_redundantExpertsLabel->setText(tr("redundant"));
    m_eplb->setToolTip(
        tr("%1: vLLM's expert-parallel load balancer moves busy experts between the GPUs. It keeps load "
           "counters, expert maps and (from vLLM 0.12) a buffer of one layer's experts on every GPU, "
           "counted with the weights.")
            .arg(optionFlag(ScenarioField::EnableEplb)));
    m_redundantExperts->setToolTip(
        tr("%1 num_redundant_experts: extra copies of experts spread over the GPUs (vLLM needs the "
           "experts and their copies to divide evenly among them); each GPU holds that many more.")
            .arg(optionFlag(ScenarioField::EplbConfig)));
    m_expertParallel->setToolTip(
        tr("%1: a MoE's routed experts are divided whole among the TP × DP GPUs (the first GPUs "
           "take one more when they do not divide), instead of each expert being split over them.")
            .arg(optionFlag(ScenarioField::EnableExpertParallel)));
    m_stageCount->setToolTip(
        tr("%1: the layers are split into this many stages, each on the GPUs above (vLLM's split: "
           "the first stage holds the embedding, the last the head and the sampler). Every stage "
           "gets the KV blocks of the stage with the least room; figures per GPU are that stage's.")
            .arg(optionFlag(ScenarioField::PipelineParallelSize)));
    m_dtype->setToolTip(tr("%1: the floating-point type of the weights that are not quantized, and of the "
                           "activations. With %2 auto the KV cache follows it. auto = the "
                           "checkpoint's dtype (float16 for float32 checkpoints and for AWQ/GPTQ).")
                            .arg(optionFlag(ScenarioField::Dtype), optionFlag(ScenarioField::KvCacheDtype)));
    m_quantization->setToolTip(
        tr("%1: how the weights are stored (FP8, INT8, AWQ/GPTQ INT4 with scales "
           "and zero points, NF4, MXFP4). Smaller weights leave more memory for the KV cache, "
           "but the KV bytes per token do not change. auto = the checkpoint's "
           "quantization_config, as vLLM does.")
            .arg(optionFlag(ScenarioField::Quantization)));
    m_groupSize->setToolTip(tr("AWQ/GPTQ: weights per group that share one scale and zero point "
                               "(4 + 16/g + 4/g bits per weight)."));
    m_kvCacheDtype->setToolTip(
        tr("%1: the precision of the cached keys and values. This is the knob "
           "that changes the KV bytes per token: fp8 halves them versus bfloat16 and doubles "
           "the tokens the cache holds. auto follows %2.")
            .arg(optionFlag(ScenarioField::KvCacheDtype), optionFlag(ScenarioField::Dtype)));
    m_precision->setToolTip(
        tr("Walk the KV cache precision: FP32, FP16/BF16, FP8 (sets %1). Shortcut: Ctrl+K.")
            .arg(optionFlag(ScenarioField::KvCacheDtype)));
    m_utilization->setToolTip(shareToolTip(m_controller->scenario().engine));
    m_blockSize->setToolTip(tr("%1: tokens per KV cache block. Sequences hold whole blocks.")
                                .arg(optionFlag(ScenarioField::BlockSize)));
    m_maxModelLen->setToolTip(longestRequestToolTip(m_controller->scenario().engine));
    m_batch->setToolTip(tr("Sequences held in the KV cache at once. Shortcut: Ctrl+B."));
    m_seqLen->setToolTip(tr("Tokens per sequence (prompt + output). Shortcut: Ctrl+L."));
    m_promptLen->setToolTip(tr("%1: the prompt of each request. The time to first token prefills it; "
                               "shorter than the sequence, it sets the serving workload: the batch's users "
                               "each send it and read the rest of the sequence as output.")
                                .arg(optionFlag(ScenarioField::PromptLen)));
    m_requestRate->setToolTip(
        tr("%1: requests arriving a second, as vllm bench serve %1 sends them. Serving "
           "then runs with as many requests in flight as that rate keeps busy, or says "
           "the server saturates. 0: the batch's users in a closed loop, each sending a "
           "new request when the last one ends.")
            .arg(optionFlag(ScenarioField::RequestRate)));
}

void ParameterPanel::changeEvent(QEvent *event)
{
    if (event->type() == QEvent::LanguageChange) {
        retranslate();
        buildModelList(); // group titles and the custom-GPU entry are translated
        buildGpuList();
        showScenario(m_controller->scenario());
        showPlan(m_controller->plan());
    }
    QWidget::changeEvent(event);
}

} // namespace kvscope
