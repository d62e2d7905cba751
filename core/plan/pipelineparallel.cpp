// SPDX-License-Identifier: MIT
#include "core/plan/pipelineparallel.h"

#include "core/common/error.h"
#include "core/common/scenariofield.h"
#include "core/plan/tensorparallel.h"

#include <algorithm>

#include <QCoreApplication>

namespace kvscope {

namespace {

QString refusal(std::int64_t pp, const QString &why)
{
    return QCoreApplication::translate("kvscope::Planner", "%1 %2: %3")
        .arg(optionFlag(ScenarioField::PipelineParallelSize), QString::number(pp), why);
}

/// The layer kind kvscope does not split into stages: layers that reuse another layer's cache.
/// (Sliding-window, chunked and recurrent layers keep the whole model's groups on every stage:
/// stageKvGroupLayout.)
QString unstagedLayerKind(const ModelArch &m)
{
    if (m.kvSharedLayers > 0 || m.gemma3n.enabled())
        return QStringLiteral("KV-sharing");
    return {};
}

bool isModelEnd(const TensorGroup &group, const char *module)
{
    return group.name.startsWith(QLatin1String(module) + QLatin1Char('.'));
}

} // namespace

QList<PipelineStageLayers> pipelineStages(int numLayers, int pp)
{
    QList<int> partitions(pp, numLayers / pp);
    const int remaining = numLayers % pp;
    for (int i = 2; i < remaining + 2; ++i)
        ++partitions[pp - i];
    QList<PipelineStageLayers> stages;
    int start = 0;
    for (int i = 0; i < pp; ++i) {
        stages << PipelineStageLayers{i, start, partitions.at(i), i == 0, i == pp - 1};
        start += partitions.at(i);
    }
    return stages;
}

void validatePipelineParallel(const ModelArch &m, std::int64_t pp, Engine engine)
{
    if (pp <= 0)
        throw Error(
            refusal(pp, QCoreApplication::translate("kvscope::Planner", "must be a positive integer")));
    if (pp == 1)
        return;
    if (engine != Engine::Vllm)
        throw Error(
            refusal(pp, QCoreApplication::translate("kvscope::Planner",
                                                    "kvscope plans pipeline parallelism under vLLM only")));
    if (pp > m.numLayers)
        throw Error(refusal(pp, QCoreApplication::translate("kvscope::Planner",
                                                            "more stages than %1's %2 layers (vLLM gives "
                                                            "every stage at least one)")
                                    .arg(m.name)
                                    .arg(m.numLayers)));
    const QString kind = unstagedLayerKind(m);
    if (!kind.isEmpty())
        throw Error(refusal(
            pp, QCoreApplication::translate("kvscope::Planner",
                                            "%1 has %2 layers; kvscope plans pipeline stages of models whose "
                                            "layers hold attention caches of their own")
                    .arg(m.name, kind)));
    if (m.format == ModelFormat::Gguf)
        throw Error(refusal(pp, QCoreApplication::translate("kvscope::Planner",
                                                            "%1 is a GGUF file; kvscope plans pipeline "
                                                            "stages of safetensors checkpoints only")
                                    .arg(m.name)));
}

QList<int> validPipelineParallelSizes(const ModelArch &model, Engine engine, int maxStages)
{
    return acceptedSizes(maxStages, [&](int pp) { validatePipelineParallel(model, pp, engine); });
}

ModelArch pipelineStageModel(const ModelArch &m, const PipelineStageLayers &stage)
{
    ModelArch staged = m;
    staged.numLayers = stage.layers;
    staged.moe.firstDenseLayers = std::max(0, m.moe.firstDenseLayers - stage.firstLayer);
    staged.moe.denseLayers = m.moe.denseLayers.mid(stage.firstLayer, stage.layers);
    staged.slidingLayers = m.slidingLayers.mid(stage.firstLayer, stage.layers);
    staged.chunkedLayers = m.chunkedLayers.mid(stage.firstLayer, stage.layers);
    staged.recurrent.layers = m.recurrent.layers.mid(stage.firstLayer, stage.layers);
    // A checkpoint measured from its files is the whole model's, not a stage's.
    staged.measured = {};
    return staged;
}

QList<TensorGroup> pipelineStageInventory(const ModelArch &stageModel, const PipelineStageLayers &stage)
{
    QList<TensorGroup> groups;
    for (const TensorGroup &group : tensorInventory(stageModel)) {
        if (isModelEnd(group, "embed_tokens") && !stage.first && !(stage.last && stageModel.tiedEmbeddings))
            continue;
        if ((isModelEnd(group, "norm") || isModelEnd(group, "lm_head")) && !stage.last)
            continue;
        groups << group;
    }
    return groups;
}

PipelineStagePlan stageFigures(const MemoryPlan &stagePlan, const PipelineStageLayers &layers)
{
    PipelineStagePlan stage;
    stage.index = layers.index;
    stage.firstLayer = layers.firstLayer;
    stage.layers = layers.layers;
    stage.holdsEmbedding = stagePlan.weights.byComponent[int(Component::Embedding)] > 0;
    stage.holdsHead = layers.last;
    stage.weightBytes = stagePlan.weights.bytesPerGpu;
    stage.activationBytes = stagePlan.activationBytes;
    stage.overheadBytes = stagePlan.overheadWithGraphsBytes();
    stage.availableBytes = stagePlan.kv.availableBytes;
    stage.kvBytesPerToken = stagePlan.kv.bytesPerToken;
    stage.cacheBytes = stagePlan.kv.cacheBytes;
    stage.ownBlocks = stagePlan.kv.numGpuBlocks;
    return stage;
}

PlanCache planCache(const ModelArch &model, const MemoryPlan &plan, KvCacheOptions options)
{
    if (plan.pipelineStages.isEmpty())
        return {model, kvCacheLayout(model, options)};
    const PipelineStageLayers layers =
        pipelineStages(model.numLayers, plan.pipelineParallelSize).at(plan.bindingStage);
    options.stageGroups = stageKvGroupLayout(model, layers.firstLayer, layers.layers);
    ModelArch stage = pipelineStageModel(model, layers);
    const KvCacheLayout layout = kvCacheLayout(stage, options);
    return {std::move(stage), layout};
}

PipelineStagePlan firstPipelineStage(const MemoryPlan &plan)
{
    if (!plan.pipelineStages.isEmpty())
        return plan.pipelineStages.constFirst();
    return stageFigures(plan, PipelineStageLayers{0, 0, plan.kv.cacheLayers, true, true});
}

} // namespace kvscope
