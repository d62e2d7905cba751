// SPDX-License-Identifier: MIT
#include "ui/state/scenariocontroller.h"

#include "core/analysis/growth.h"
#include "core/common/error.h"
#include "core/library/library.h"
#include "core/model/imagetokens.h"
#include "core/plan/eplb.h"
#include "core/plan/expertparallel.h"
#include "core/plan/pipelineparallel.h"
#include "core/plan/planner.h"
#include "core/plan/tensorparallel.h"

#include <algorithm>
#include <array>

#include <QCoreApplication>
#include <QEvent>

namespace kvscope {

namespace {

/// The largest of `sizes` (ascending, from 1) that is at most `current`; 1 when none is.
std::int64_t largestUpTo(const QList<int> &sizes, std::int64_t current)
{
    std::int64_t best = 1;
    for (const int size : sizes)
        if (size <= current)
            best = size;
    return best;
}

/// Whether kvscope plans `s` at all (a plan that does not fit is still a plan).
bool plans(const Scenario &s)
{
    try {
        planMemory(s);
        return true;
    } catch (const Error &) {
        return false;
    }
}

/// The serving features that s's model refuses go with the model they were set for: a drafter
/// trained for another vocabulary, MTP on a model without those layers, a shared prefix its
/// cache groups do not keep as kvscope plans one. Each alone where kvscope plans s without it,
/// else both; nothing where s plans as it is or fails for another reason.
void dropServingFeaturesTheModelRefuses(Scenario &s)
{
    // Without either feature there is nothing to drop, and no trial plan to make.
    if ((!s.speculative.enabled() && s.sharedPrefixLen == 0) || plans(s))
        return;
    const std::array<void (*)(Scenario &), 2> drops{[](Scenario &t) { t.speculative = {}; },
                                                    [](Scenario &t) { t.sharedPrefixLen = 0; }};
    Scenario withoutAny = s;
    for (const auto drop : drops) {
        Scenario without = s;
        drop(without);
        if (plans(without)) {
            s = without;
            return;
        }
        drop(withoutAny);
    }
    if (plans(withoutAny))
        s = withoutAny;
}

} // namespace

ScenarioController::ScenarioController(QObject *parent) : QObject(parent)
{
    m_scenario = defaultScenario();
    m_plan = planMemory(m_scenario);
    QCoreApplication::instance()->installEventFilter(this);
}

bool ScenarioController::eventFilter(QObject *watched, QEvent *event)
{
    if (watched == QCoreApplication::instance() && event->type() == QEvent::LanguageChange)
        setScenario(m_scenario);
    return QObject::eventFilter(watched, event);
}

Scenario ScenarioController::defaultScenario()
{
    Scenario s;
    s.model = resolveModel(QStringLiteral("llama-3.1-8b"));
    s.gpu = resolveGpu(QStringLiteral("h100-sxm"));
    s.dtype = WeightDtype::Auto;
    s.kvCacheDtype = KvCacheDtype::Auto;
    s.batchSize = 16;
    s.seqLen = 8192;
    return s;
}

bool ScenarioController::setScenario(const Scenario &given)
{
    // A calibration the scenario brings for its own GPU (a file's) stays; else the saved one of that GPU.
    Scenario scenario = given;
    if (!scenario.speedCalibration.applies(scenario.gpu.id))
        scenario.speedCalibration = storedCalibration(scenario.gpu.id);
    // The deployment's measured memory follows the deployment: another one has its own, or none.
    if (m_storedMemory && !scenario.measuredMemory.appliesTo(scenario))
        scenario.measuredMemory = m_storedMemory(scenario);
    try {
        MemoryPlan plan = planMemory(scenario);
        m_scenario = scenario;
        m_plan = std::move(plan);
    } catch (const Error &error) {
        Q_EMIT errorOccurred(error.message());
        // Widgets that already show the rejected value snap back to the kept one.
        Q_EMIT scenarioChanged(m_scenario);
        return false;
    }
    Q_EMIT scenarioChanged(m_scenario);
    Q_EMIT planChanged(m_plan);
    return true;
}

template <typename Change> void ScenarioController::change(Change &&apply)
{
    Scenario next = m_scenario;
    try {
        apply(next);
    } catch (const Error &error) {
        Q_EMIT errorOccurred(error.message());
        Q_EMIT scenarioChanged(m_scenario);
        return;
    }
    setScenario(next);
}

void ScenarioController::setModel(const ModelArch &model)
{
    change([&](Scenario &s) {
        s.model = model;
        // Keep the rest of the scenario meaningful for the new model.
        if (s.maxModelLen > model.maxPositionEmbeddings)
            s.maxModelLen = 0;
        // The GPU count and the stage count fall back to the largest the new model takes (1 always is),
        // rather than the model choice being refused for them.
        s.tensorParallelSize = largestUpTo(validTensorParallelSizes(model), s.tensorParallelSize);
        s.pipelineParallelSize = largestUpTo(
            validPipelineParallelSizes(model, s.engine, int(s.pipelineParallelSize)), s.pipelineParallelSize);
        s.seqLen = std::min(s.seqLen, sequenceAxisMax(model));
        // Images go with a model that takes them; a text model's requests are text.
        if (!imageTokensModelled(model))
            s.imagesPerRequest = 0;
        keepExpertParallelSizeWhereTaken(s);
        keepEplbWhereTaken(s);
        dropServingFeaturesTheModelRefuses(s);
        // An explicit --quantization stays (a what-if across models); "auto" follows the new checkpoint.
    });
}

void ScenarioController::setGpu(const GpuSpec &gpu)
{
    change([&](Scenario &s) {
        s.gpu = gpu;
        s.speedCalibration = storedCalibration(gpu.id);
        keepEplbWhereTaken(s); // vLLM runs it on CUDA and ROCm GPUs only
    });
}

void ScenarioController::setStoredCalibrations(std::function<MeasuredSpeedScale(const QString &)> stored)
{
    m_storedCalibrations = std::move(stored);
    applyStoredCalibration();
}

void ScenarioController::applyStoredCalibration()
{
    change([&](Scenario &s) { s.speedCalibration = storedCalibration(s.gpu.id); });
}

void ScenarioController::setStoredMemory(std::function<MeasuredMemory(const Scenario &)> stored)
{
    m_storedMemory = std::move(stored);
    applyStoredMemory();
}

void ScenarioController::applyStoredMemory()
{
    change([&](Scenario &s) { s.measuredMemory = {}; }); // setScenario() takes the saved one
}

MeasuredSpeedScale ScenarioController::storedCalibration(const QString &gpuId) const
{
    return m_storedCalibrations ? m_storedCalibrations(gpuId) : MeasuredSpeedScale{};
}

void ScenarioController::setTensorParallelSize(int gpus)
{
    change([&](Scenario &s) {
        s.tensorParallelSize = gpus;
        keepExpertParallelSizeWhereTaken(s);
        keepEplbWhereTaken(s);
    });
}

void ScenarioController::setPipelineParallelSize(int stages)
{
    change([&](Scenario &s) { s.pipelineParallelSize = stages; });
}

void ScenarioController::setDataParallelSize(int ranks)
{
    change([&](Scenario &s) {
        s.dataParallelSize = ranks;
        keepExpertParallelSizeWhereTaken(s);
        keepEplbWhereTaken(s);
    });
}

void ScenarioController::setExpertParallel(bool enabled)
{
    change([&](Scenario &s) {
        s.enableExpertParallel = enabled;
        keepEplbWhereTaken(s);
    });
}

void ScenarioController::setEplb(bool enabled)
{
    change([&](Scenario &s) {
        s.enableEplb = enabled;
        s.eplb.numRedundantExperts = 0;
        if (enabled)
            s.eplb.numRedundantExperts = validRedundantExpertCounts(s).constFirst();
    });
}

void ScenarioController::setRedundantExperts(int experts)
{
    change([&](Scenario &s) { s.eplb.numRedundantExperts = experts; });
}

void ScenarioController::setAll2AllBackend(All2AllBackend backend)
{
    change([&](Scenario &s) { s.all2allBackend = backend; });
}

void ScenarioController::setDpAttention(bool enabled)
{
    // Without the groups SGLang's --dp-size would be copies behind its router, which kvscope does not
    // plan: the ranks go with the switch.
    change([&](Scenario &s) {
        s.enableDpAttention = enabled;
        if (!enabled) {
            s.dataParallelSize = 1;
            s.enableDpLmHead = false; // SGLang turns it off without the groups
        }
        keepExpertParallelSizeWhereTaken(s);
    });
}

void ScenarioController::setDpLmHead(bool enabled)
{
    change([&](Scenario &s) { s.enableDpLmHead = enabled; });
}

void ScenarioController::setDenseMlpsWhole(bool enabled)
{
    change([&](Scenario &s) { s.moeDenseTpSize = enabled ? 1 : 0; });
}

void ScenarioController::setExpertParallelSize(int gpus)
{
    change([&](Scenario &s) { s.expertParallelSize = gpus; });
}

void ScenarioController::setKvCacheMemoryBytes(std::int64_t bytes)
{
    change([&](Scenario &s) { s.kvCacheMemoryBytes = bytes; });
}

void ScenarioController::setEnforceEager(bool eager)
{
    change([&](Scenario &s) { s.enforceEager = eager; });
}

void ScenarioController::setMoeMxfp8Activations(bool mxfp8)
{
    change([&](Scenario &s) { s.moeMxfp8Activations = mxfp8; });
}

void ScenarioController::setCompileCache(CompileCache cache)
{
    change([&](Scenario &s) { s.compileCache = cache; });
}

void ScenarioController::setMaxCudagraphCaptureSize(int tokens)
{
    change([&](Scenario &s) { s.maxCudagraphCaptureSize = tokens; });
}

void ScenarioController::setLora(std::int64_t maxLoras, std::int64_t rank)
{
    change([&](Scenario &s) {
        s.maxLoras = maxLoras;
        s.maxLoraRank = rank;
    });
}

void ScenarioController::setKvOffloading(std::int64_t milliGiB, KvOffloadingBackend backend)
{
    change([&](Scenario &s) {
        s.kvOffloadingMilliGiB = milliGiB;
        s.kvOffloadingBackend = backend;
    });
}

void ScenarioController::setSpeculative(const SpeculativeConfig &config)
{
    change([&](Scenario &s) { s.speculative = config; });
}

void ScenarioController::setSharedPrefixLen(std::int64_t tokens)
{
    change([&](Scenario &s) { s.sharedPrefixLen = tokens; });
}

void ScenarioController::setImagesPerRequest(std::int64_t images)
{
    change([&](Scenario &s) { s.imagesPerRequest = images; });
}

void ScenarioController::setImageSize(std::int64_t width, std::int64_t height)
{
    change([&](Scenario &s) {
        s.imageWidth = width;
        s.imageHeight = height;
    });
}

void ScenarioController::setDtype(WeightDtype dtype)
{
    change([&](Scenario &s) { s.dtype = dtype; });
}

void ScenarioController::setQuantization(const std::optional<QuantizationSpec> &quantization)
{
    change([&](Scenario &s) {
        s.quantization = quantization;
        keepEplbWhereTaken(s); // most quantized expert kernels (AWQ, GPTQ, MXFP4...) do not run it
    });
}

void ScenarioController::setKvCacheDtype(KvCacheDtype dtype)
{
    change([&](Scenario &s) { s.kvCacheDtype = dtype; });
}

void ScenarioController::setGpuMemoryUtilizationPpm(std::int64_t ppm)
{
    change([&](Scenario &s) { s.gpuMemoryUtilizationPpm = ppm; });
}

void ScenarioController::setMemFractionStaticPpm(std::int64_t ppm)
{
    change([&](Scenario &s) { s.memFractionStaticPpm = ppm; });
}

void ScenarioController::setVllmVersion(const QString &release)
{
    change([&](Scenario &s) { s.vllmVersion = release; });
}

void ScenarioController::setBlockSize(int tokens)
{
    change([&](Scenario &s) { s.blockSize = tokens; });
}

void ScenarioController::setMaxModelLen(std::int64_t tokens)
{
    change([&](Scenario &s) { s.maxModelLen = tokens; });
}

void ScenarioController::setBatchSize(std::int64_t sequences)
{
    change([&](Scenario &s) { s.batchSize = sequences; });
}

void ScenarioController::setSeqLen(std::int64_t tokens)
{
    change([&](Scenario &s) {
        s.seqLen = tokens;
        s.promptLen = std::min(s.promptLen, tokens); // a prompt is part of its sequence
    });
}

void ScenarioController::setPromptLen(std::int64_t tokens)
{
    change([&](Scenario &s) { s.promptLen = tokens; });
}

void ScenarioController::setRequestRate(double requestsPerSecond)
{
    // The spin box's value as the command line would spell it, read by the core's parser.
    const std::int64_t milli =
        parseRequestRate(QString::number(requestsPerSecond, 'f', 3), optionFlag(ScenarioField::RequestRate));
    change([&](Scenario &s) { s.requestRateMilli = milli; });
}

void ScenarioController::setGrowthAxis(GrowthAxis axis)
{
    if (axis == m_growthAxis)
        return;
    m_growthAxis = axis;
    Q_EMIT growthAxisChanged(axis);
}

void ScenarioController::setGrowthScale(AxisScale scale)
{
    if (scale == m_growthScale)
        return;
    m_growthScale = scale;
    Q_EMIT growthScaleChanged(scale);
}

void ScenarioController::setCounterfactuals(bool shown)
{
    if (shown == m_counterfactuals)
        return;
    m_counterfactuals = shown;
    Q_EMIT counterfactualsChanged(shown);
}

} // namespace kvscope
