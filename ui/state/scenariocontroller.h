// SPDX-License-Identifier: MIT
#pragma once

#include "core/analysis/growthoptions.h"
#include "core/plan/memoryplan.h"
#include "core/scenario/scenario.h"

#include <functional>
#include <optional>

#include <QObject>

namespace kvscope {

/// Owns the current Scenario and its MemoryPlan. Widgets call the setters;
/// every accepted change re-plans (microseconds, on the GUI thread) and
/// emits scenarioChanged then planChanged. A change the core rejects leaves
/// the state as it was and emits errorOccurred with the core's message.
class ScenarioController : public QObject
{
    Q_OBJECT

public:
    explicit ScenarioController(QObject *parent = nullptr);

    const Scenario &scenario() const { return m_scenario; }
    const MemoryPlan &plan() const { return m_plan; }
    GrowthAxis growthAxis() const { return m_growthAxis; }
    AxisScale growthScale() const { return m_growthScale; }
    /// The growth chart draws the "as if MHA" and "as if no sliding window" lines.
    bool counterfactuals() const { return m_counterfactuals; }

    /// The explorer's default: Llama-3.1-8B on one H100 SXM, BF16, batch 16, 8k tokens.
    static Scenario defaultScenario();

    /// Replaces the whole scenario; returns false (state kept) if the core rejects it.
    bool setScenario(const Scenario &scenario);

    void setModel(const ModelArch &model);
    void setGpu(const GpuSpec &gpu);
    void setTensorParallelSize(int gpus);
    void setPipelineParallelSize(int stages);
    void setDataParallelSize(int ranks);
    void setExpertParallel(bool enabled);
    void setDpAttention(bool enabled);    ///< SGLang's --enable-dp-attention
    void setDpLmHead(bool enabled);       ///< SGLang's --enable-dp-lm-head
    void setDenseMlpsWhole(bool enabled); ///< SGLang's --moe-dense-tp-size 1 (or unset)
    void setExpertParallelSize(int gpus); ///< SGLang's --ep-size
    /// vLLM's --enable-eplb, with the fewest redundant experts that divide over the GPUs
    void setEplb(bool enabled);
    void setRedundantExperts(int experts);          ///< --eplb-config's num_redundant_experts
    void setAll2AllBackend(All2AllBackend backend); ///< vLLM's --all2all-backend
    void setKvCacheMemoryBytes(std::int64_t bytes); ///< 0: the profiled budget
    void setEnforceEager(bool eager);
    void setMoeMxfp8Activations(bool mxfp8); ///< --moe-mxfp8-activations (vLLM's MXFP4 x MXFP8 MoE kernel)
    void setCompileCache(CompileCache cache);
    void setMaxCudagraphCaptureSize(int tokens);   ///< 0: vLLM's default
    void setSharedPrefixLen(std::int64_t tokens);  ///< 0: none
    void setImagesPerRequest(std::int64_t images); ///< 0: text only
    void setImageSize(std::int64_t width, std::int64_t height);
    void setLora(std::int64_t maxLoras, std::int64_t rank); ///< maxLoras 0: LoRA off
    /// --kv-offloading-size in thousandths of a GiB (0: off) and its backend.
    void setKvOffloading(std::int64_t milliGiB, KvOffloadingBackend backend);
    void setSpeculative(const SpeculativeConfig &config); ///< method None: off
    void setDtype(WeightDtype dtype);
    void setQuantization(const std::optional<QuantizationSpec> &quantization);
    void setKvCacheDtype(KvCacheDtype dtype);
    void setGpuMemoryUtilizationPpm(std::int64_t ppm);
    void setMemFractionStaticPpm(std::int64_t ppm); ///< SGLang's --mem-fraction-static; 0 = its default
    void setVllmVersion(const QString &release);    ///< --vllm-version; empty: the newest modelled
    void setBlockSize(int tokens);
    void setMaxModelLen(std::int64_t tokens);
    void setBatchSize(std::int64_t sequences);
    void setSeqLen(std::int64_t tokens);
    /// --prompt-len; 0 = the whole sequence. A shorter sequence length shortens it too.
    void setPromptLen(std::int64_t tokens);
    /// --request-rate, requests a second (0: a closed loop); read to the core's thousandths.
    void setRequestRate(double requestsPerSecond);
    void setGrowthAxis(GrowthAxis axis);
    void setGrowthScale(AxisScale scale);
    void setCounterfactuals(bool shown);

    /// Where the saved speed calibrations come from (the user library): each GPU's
    /// is applied to every plan on that GPU, none on a GPU without one.
    void setStoredCalibrations(std::function<MeasuredSpeedScale(const QString &gpuId)> stored);
    /// Plans again with the current GPU's saved calibration (after one is saved or forgotten).
    void applyStoredCalibration();
    /// Where the saved memory measurements come from (the user library): the one of the scenario's
    /// deployment, if any, is planned with (MeasuredMemory); every change looks again.
    void setStoredMemory(std::function<MeasuredMemory(const Scenario &)> stored);
    /// Plans again with the saved measurement of the scenario's deployment (after one is saved).
    void applyStoredMemory();

Q_SIGNALS:
    void scenarioChanged(const kvscope::Scenario &scenario);
    void planChanged(const kvscope::MemoryPlan &plan);
    void growthAxisChanged(kvscope::GrowthAxis axis);
    void growthScaleChanged(kvscope::AxisScale scale);
    void counterfactualsChanged(bool shown);
    void errorOccurred(const QString &message);

protected:
    /// The plan's notes are worded when planned: a new language plans again.
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    template <typename Change> void change(Change &&apply);
    MeasuredSpeedScale storedCalibration(const QString &gpuId) const;

    Scenario m_scenario;
    MemoryPlan m_plan;
    GrowthAxis m_growthAxis = GrowthAxis::SequenceLength;
    AxisScale m_growthScale = AxisScale::Linear;
    bool m_counterfactuals = false;
    std::function<MeasuredSpeedScale(const QString &)> m_storedCalibrations;
    std::function<MeasuredMemory(const Scenario &)> m_storedMemory;
};

} // namespace kvscope
