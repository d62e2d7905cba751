// SPDX-License-Identifier: MIT
#pragma once

#include "core/common/scenariofield.h"
#include "core/plan/memoryplan.h"

#include <optional>

#include <QWidget>

class QCheckBox;
class QComboBox;
class QHBoxLayout;
class QVBoxLayout;
class QDoubleSpinBox;
class QFormLayout;
class QGroupBox;
class QLabel;
class QSlider;
class QSpinBox;

namespace kvscope {

struct Scenario;

class DefaultDoubleSpinBox;
class ElidingComboBox;
class GroupedComboBox;
class LogSliderBox;
class ScenarioController;
class UserLibrary;

/// The knobs of a scenario, named as vLLM names them, bound to the controller:
/// widget changes call its setters; its scenarioChanged/planChanged refresh
/// the widgets (with signals blocked, so nothing loops).
class ParameterPanel : public QWidget
{
    Q_OBJECT

public:
    ParameterPanel(ScenarioController *controller, UserLibrary *library, QWidget *parent = nullptr);

    /// Key of the GPU picker's last entry, which asks for a custom GPU.
    static constexpr const char *AddCustomGpuKey = "add-custom-gpu";

    LogSliderBox *batchControl() const { return m_batch; }
    LogSliderBox *seqLenControl() const { return m_seqLen; }
    QWidget *modelPicker() const;
    QWidget *gpuPicker() const;
    QComboBox *kvCacheDtypeCombo() const { return m_kvCacheDtype; }
    /// The control that sets `option`, or nullptr when the panel has none.
    QWidget *controlFor(ScenarioField option) const;
    /// Lights up the control of `option` and its label (and unlights the previous one);
    /// an empty option, or one without a control, lights none.
    void highlightOption(std::optional<ScenarioField> option);
    std::optional<ScenarioField> highlightedOption() const { return m_highlighted; }

Q_SIGNALS:
    /// The user chose "Add custom GPU…" in the GPU picker.
    void customGpuRequested();

protected:
    void changeEvent(QEvent *event) override;

private:
    void buildModelList();
    void buildGpuList();
    void showScenario(const Scenario &scenario);
    void showSpeculative(const Scenario &scenario);
    /// The image count and size, and the sizes offered (the scenario's own among them).
    void showImages(const Scenario &scenario);
    void showPlan(const MemoryPlan &plan);
    void retranslate();
    void applyQuantizationChoice();

    ScenarioController *m_controller;
    UserLibrary *m_library;
    GroupedComboBox *m_model;
    GroupedComboBox *m_gpu;
    QComboBox *m_gpuCount;
    QLabel *m_stageLabel;
    QComboBox *m_stageCount;
    QHBoxLayout *m_parallelRow;
    QLabel *m_dataParallelLabel;
    QComboBox *m_dataParallel;         ///< --data-parallel-size
    QCheckBox *m_expertParallel;       ///< --enable-expert-parallel (vLLM)
    QCheckBox *m_dpAttention;          ///< --enable-dp-attention (SGLang), in the expert switch's place
    QLabel *m_expertParallelSizeLabel; ///< "EP" before SGLang's --ep-size box
    QComboBox *m_expertParallelSize;   ///< --ep-size (SGLang): GPUs the routed experts are divided among
    QCheckBox *m_eplb;                 ///< --enable-eplb (vLLM), beside the expert switch
    QComboBox *m_redundantExperts;     ///< --eplb-config's num_redundant_experts
    QLabel *m_redundantExpertsLabel;   ///< "redundant" after it
    QHBoxLayout *m_eplbRow;            ///< the balancer's row, hidden where it does not apply
    QCheckBox *m_dpLmHead;             ///< --enable-dp-lm-head (SGLang), under the attention groups
    QCheckBox *m_denseMlpsWhole;       ///< --moe-dense-tp-size 1 (SGLang), beside it
    QVBoxLayout *m_groupsRow;          ///< the attention groups' flags, one a line, shown with them
    QComboBox *m_all2allBackend;       ///< --all2all-backend (vLLM), shown where all-to-all kernels run
    QComboBox *m_dtype;
    QComboBox *m_quantization;
    QComboBox *m_groupSize;
    QCheckBox *m_moeMxfp8; ///< --moe-mxfp8-activations (vLLM): MXFP4 experts on the FP8 tensor cores
    QComboBox *m_kvCacheDtype;
    QSlider *m_precision;
    QLabel *m_precisionSteps[4];
    DefaultDoubleSpinBox *m_utilization;
    QSpinBox *m_kvCacheMemory;     ///< --kv-cache-memory-bytes in whole GiB; 0 = profiled
    QSpinBox *m_cudaGraphSize;     ///< --max-cudagraph-capture-size in tokens; 0 = vLLM's default
    QCheckBox *m_enforceEager;     ///< --enforce-eager (vLLM): no CUDA graphs
    QCheckBox *m_warmCompileCache; ///< --compile-cache warm (vLLM): a restart that loads the compiled model
    QHBoxLayout *m_vllmRow;        ///< the release and --enforce-eager
    QSpinBox *m_loraSlots;         ///< --max-loras; 0 = LoRA off
    QLabel *m_loraRankLabel;
    QComboBox *m_loraRank; ///< --max-lora-rank
    QHBoxLayout *m_loraRow;
    QSpinBox *m_offloading;         ///< --kv-offloading-size in whole GiB; 0 = off
    QComboBox *m_offloadingBackend; ///< --kv-offloading-backend
    QHBoxLayout *m_offloadingRow;
    ElidingComboBox
        *m_speculative;      ///< --speculative-config's drafter: off, the model's EAGLE drafts, MTP, n-gram
    QSpinBox *m_draftTokens; ///< its num_speculative_tokens
    QHBoxLayout *m_speculativeRow;
    QList<SpeculativeConfig> m_speculativeChoices; ///< the drafter combo's entries after "off"
    QComboBox *m_vllmRelease;                      ///< --vllm-version: the newest modelled, or one profile
    QComboBox *m_blockSize;
    QSpinBox *m_maxModelLen;
    LogSliderBox *m_batch;
    LogSliderBox *m_seqLen;
    QSpinBox *m_promptLen;
    QSpinBox *m_sharedPrefix; ///< --shared-prefix-len; 0 = none
    QSpinBox *m_images;       ///< --images-per-request; 0 = none
    QComboBox *m_imageSize;   ///< --image-size, with the tokens each image takes
    QDoubleSpinBox *m_requestRate;

    QGroupBox *m_modelGroup;
    QGroupBox *m_precisionGroup;
    QGroupBox *m_servingGroup;
    QFormLayout *m_modelForm;
    QFormLayout *m_precisionForm;
    QFormLayout *m_servingForm;
    std::optional<ScenarioField> m_highlighted;
};

} // namespace kvscope
