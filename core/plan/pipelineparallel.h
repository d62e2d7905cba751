// SPDX-License-Identifier: MIT
// vLLM's pipeline parallelism: the decoder layers split into stages, each stage on its own
// --tensor-parallel-size GPUs. Which layers and which of the model's ends each stage holds is
// written here once; the planner plans every stage and keeps the one that limits the KV cache.
#pragma once

#include "core/engine/engine.h"
#include "core/model/inventory.h"
#include "core/model/modelarch.h"
#include "core/plan/kvcache.h"
#include "core/plan/memoryplan.h"

#include <cstdint>

#include <QList>

namespace kvscope {

/// One stage of the pipeline: decoder layers [firstLayer, firstLayer + layers).
struct PipelineStageLayers
{
    int index = 0;
    int firstLayer = 0;
    int layers = 0;
    bool first = true; ///< holds the input embedding
    bool last = true;  ///< holds the final norm, lm_head and the sampler

    friend bool operator==(const PipelineStageLayers &, const PipelineStageLayers &) = default;
};

/// vLLM's split (get_pp_indices, vllm/distributed/utils.py): num_layers / pp layers a stage,
/// and the remainder one layer each to the stages before the last, from the second-to-last
/// backwards (the last holds the norm and head, the first the embedding). 61 layers over 4
/// stages: 15, 15, 16, 15. `pp` is at least 1 and at most `numLayers` (validatePipelineParallel).
QList<PipelineStageLayers> pipelineStages(int numLayers, int pp);

/// What kvscope plans under pipeline parallelism: vLLM, a pipeline of at most num_hidden_layers
/// stages, and models without KV-sharing layers (full, sliding-window, chunked and recurrent layers;
/// VllmRules::validate asks vLLM 0.11 for the mixed ones). A vision tower is whole on every stage, as
/// vLLM builds it on every rank (pipelineStageInventory). Throws kvscope::Error naming
/// --pipeline-parallel-size and the value.
void validatePipelineParallel(const ModelArch &model, std::int64_t pipelineParallelSize, Engine engine);

/// The stage counts from 1 to `maxStages` that validatePipelineParallel accepts.
QList<int> validPipelineParallelSizes(const ModelArch &model, Engine engine, int maxStages = 8);

/// The model as one stage holds it: its layers, with the per-layer dense/MoE flags sliced.
ModelArch pipelineStageModel(const ModelArch &model, const PipelineStageLayers &stage);

/// The stage's tensors (from tensorInventory(stageModel)): its layers', a vision tower's whole (vLLM
/// builds it on every rank: Qwen2_5_VLForConditionalGeneration's self.visual has no rank check,
/// vllm/model_executor/models/qwen2_5_vl.py), the input embedding on the first stage, the final norm
/// and lm_head on the last. A tied head keeps its own copy of
/// the embedding on the last stage: vLLM's decoders build embed_tokens `if is_first_rank or
/// (tie_word_embeddings and is_last_rank)` (vllm/model_executor/models/llama.py) and tie
/// lm_head to it.
QList<TensorGroup> pipelineStageInventory(const ModelArch &stageModel, const PipelineStageLayers &stage);

/// A stage's figures from the plan of its GPUs (planned with the stage's layers and tensors).
PipelineStagePlan stageFigures(const MemoryPlan &stagePlan, const PipelineStageLayers &layers);

/// The cache a plan's per-GPU figures are of, for `model` (the plan's pool model, or a counterfactual of
/// it with the same layer count): the whole model's layers, or under pipeline parallelism the binding
/// stage's, with the whole model's groups projected onto them (stageKvGroupLayout).
struct PlanCache
{
    ModelArch model;
    KvCacheLayout layout;
};
PlanCache planCache(const ModelArch &model, const MemoryPlan &plan, KvCacheOptions options);

/// The first stage of `plan`: its pipelineStages' first, or for one stage the plan itself. A
/// pipeline's start-up log prints its per-GPU lines from the first stage's workers.
PipelineStagePlan firstPipelineStage(const MemoryPlan &plan);

} // namespace kvscope
