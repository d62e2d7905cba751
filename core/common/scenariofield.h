// SPDX-License-Identifier: MIT
// The fields of a scenario as identities, and the one table that spells them:
// kvscope calc's option and the scenario file's key ("max-model-len"), the flag
// vLLM and SGLang take ("--max-model-len", "--context-length") and the label the
// window shows. Code that names an option holds a ScenarioField and asks the
// table for its spelling; no other file of the core or the window writes a flag.
//
// It sits in common, below every folder, because each of them names options in
// its errors (the dtype parser names --dtype, the library --model). The
// spelling for an Engine is optionFlag(ScenarioField, Engine) in core/engine.
#pragma once

#include <optional>

#include <QList>
#include <QString>

namespace kvscope {

/// One setting of a Scenario, in kvscope calc's order.
enum class ScenarioField
{
    Model,
    Gpu,
    Engine,
    VllmVersion,
    Dtype,
    Quantization,
    GroupSize,
    KvCacheDtype,
    GpuMemoryUtilization,
    MemFractionStatic,
    SwaFullTokensRatio,
    TensorParallelSize,
    PipelineParallelSize,
    DataParallelSize,
    EnableExpertParallel,
    EnableDpAttention,
    EnableDpLmHead,
    MoeDenseTpSize,
    ExpertParallelSize,
    EnableEplb,
    EplbConfig,
    All2AllBackend,
    MaxModelLen,
    BlockSize,
    MambaSsmCacheDtype,
    MaxNumSeqs,
    MaxNumBatchedTokens,
    KvCacheMemoryBytes,
    EnforceEager,
    CompileCache,
    MoeMxfp8Activations,
    MaxCudagraphCaptureSize,
    MaxLoras,
    MaxLoraRank,
    LoraDtype,
    MaxCpuLoras,
    FullyShardedLoras,
    LoraTargetModules,
    KvOffloadingSize,
    KvOffloadingBackend,
    SpeculativeConfig,
    DraftAcceptanceRate,
    BatchSize,
    SeqLen,
    PromptLen,
    SharedPrefixLen,
    ImagesPerRequest,
    ImageSize,
    RequestRate,
    BandwidthEfficiency,
    ComputeEfficiency,
};

/// Every field, in kvscope calc's order.
const QList<ScenarioField> &scenarioFields();

/// kvscope calc's option without the dashes, which is also the scenario file's
/// key and vLLM's name for it: "max-model-len".
QString fileKey(ScenarioField field);
/// kvscope calc's and vLLM's flag: "--max-model-len".
QString optionFlag(ScenarioField field);
/// SGLang's name without the dashes: its own where it has one ("context-length",
/// "tp-size", "max-running-requests", "model-path"), else fileKey().
QString sglangKey(ScenarioField field);
/// SGLang's flag: "--context-length".
QString sglangFlag(ScenarioField field);
/// The field's name in the window's language: "Max model length".
QString fieldLabel(ScenarioField field);

/// The field a key names, in kvscope's spelling or SGLang's ("max-model-len",
/// "context-length"); nullopt for any other text.
std::optional<ScenarioField> fieldForKey(const QString &key);
/// The field a flag names ("--max-model-len", "--context-length"); nullopt for
/// any other text.
std::optional<ScenarioField> fieldForFlag(const QString &flag);

/// The flag of the option `key` names, whatever the option: "--" + key. For
/// options read as text (a scenario file's keys, a variant's), known or not.
QString flagForKey(const QString &key);

/// Options of kvscope's other commands that the core's errors name; not
/// scenario fields, spelled here so that flags are spelled in one place.
enum class CommandOption
{
    Concurrency, ///< kvscope fit
    MaxGpus,     ///< kvscope fit
    RankBy,      ///< kvscope fit: the order of the configurations
    Input,       ///< kvscope quantize: the synthetic tensor's distribution
    Rows,        ///< kvscope quantize: the synthetic tensor's shape
    Cols,
    Std,           ///< kvscope quantize: the synthetic tensor's standard deviation
    Scheme,        ///< kvscope quantize: the format simulated
    Tensor,        ///< kvscope quant: the tensor read from a .safetensors file
    List,          ///< kvscope quant: list the file's tensors
    Activations,   ///< kvscope quant: the activations AWQ and GPTQ calibrate on, and the output error's
    Json,          ///< kvscope calc (and the other commands): print JSON
    MeasuredItlMs, ///< kvscope calc: the inter-token latency measured for the scenario, in ms
    BenchResult,   ///< kvscope calc: a `vllm bench serve --save-result` JSON to calibrate from
    MemoryFromLog, ///< kvscope calc: a vLLM start-up log of the deployment whose measured memory to plan with
};

/// "--max-gpus".
QString commandFlag(CommandOption option);

/// Flags of the serving programs that no scenario field sets, which the launch
/// line's caveats name; spelled here beside the fields' flags.
enum class ServerOption
{
    VllmTokenizer,      ///< vLLM's --tokenizer: where a GGUF model's tokenizer comes from
    LlamaCppCacheTypeK, ///< llama.cpp's llama-server --cache-type-k: the K cache type (-v for V)
    VllmEnableLora,     ///< vLLM's --enable-lora, which --max-loras needs
    // SGLang's speculative decoding (python/sglang/srt/server_args.py), for --speculative-config
    SglangSpeculativeAlgorithm,   ///< --speculative-algorithm EAGLE3
    SglangSpeculativeDraftModel,  ///< --speculative-draft-model-path
    SglangSpeculativeNumSteps,    ///< --speculative-num-steps: draft passes a step
    SglangSpeculativeEagleTopk,   ///< --speculative-eagle-topk: branches a draft pass keeps
    SglangSpeculativeDraftTokens, ///< --speculative-num-draft-tokens: tokens a verify pass checks
    VllmLimitMmPerPrompt,         ///< vLLM's --limit-mm-per-prompt: the most images (etc.) a prompt may carry
    SglangEnableLora,             ///< SGLang's --enable-lora, with which its LoRA pool is sized at start-up
    SglangLoraTargetModules,      ///< SGLang's --lora-target-modules: the modules the pool holds buffers for
    SglangMoeRunnerBackend,       ///< SGLang's --moe-runner-backend: the kernels a MoE's experts run on
};

/// "--tokenizer", "--cache-type-k".
QString serverFlag(ServerOption option);

} // namespace kvscope
