// SPDX-License-Identifier: MIT
#include "core/common/scenariofield.h"

#include "core/common/enumtable.h"

#include <QCoreApplication>

namespace kvscope {

namespace {

/// Flags are their names after two dashes, on every engine.
QString dashed(const QString &name)
{
    return QStringLiteral("--") + name;
}

struct FieldSpelling
{
    ScenarioField field;
    const char *key;              ///< kvscope's and vLLM's name: "max-model-len"
    const char *sglang = nullptr; ///< SGLang's own name where it differs: "context-length"
    const char *label;            ///< translated in the context below
};

constexpr char LabelContext[] = "kvscope::ScenarioField";

// The table: every field once, in kvscope calc's order. SGLang's names are
// server_args' (its page size is vLLM's block size, in tokens); mem-fraction-static is SGLang's alone,
// vllm-version and the vLLM-only settings have no SGLang name.
const FieldSpelling spellings[] = {
    {ScenarioField::Model, "model", "model-path", QT_TRANSLATE_NOOP("kvscope::ScenarioField", "Model")},
    {ScenarioField::Gpu, "gpu", nullptr, QT_TRANSLATE_NOOP("kvscope::ScenarioField", "GPU")},
    {ScenarioField::Engine, "engine", nullptr, QT_TRANSLATE_NOOP("kvscope::ScenarioField", "Engine")},
    {ScenarioField::VllmVersion, "vllm-version", nullptr,
     QT_TRANSLATE_NOOP("kvscope::ScenarioField", "vLLM version")},
    {ScenarioField::Dtype, "dtype", nullptr, QT_TRANSLATE_NOOP("kvscope::ScenarioField", "Data type")},
    {ScenarioField::Quantization, "quantization", nullptr,
     QT_TRANSLATE_NOOP("kvscope::ScenarioField", "Quantization")},
    {ScenarioField::GroupSize, "group-size", nullptr,
     QT_TRANSLATE_NOOP("kvscope::ScenarioField", "Group size")},
    {ScenarioField::KvCacheDtype, "kv-cache-dtype", nullptr,
     QT_TRANSLATE_NOOP("kvscope::ScenarioField", "KV cache dtype")},
    {ScenarioField::GpuMemoryUtilization, "gpu-memory-utilization", nullptr,
     QT_TRANSLATE_NOOP("kvscope::ScenarioField", "GPU memory utilization")},
    {ScenarioField::MemFractionStatic, "mem-fraction-static", nullptr,
     QT_TRANSLATE_NOOP("kvscope::ScenarioField", "Static memory fraction")},
    {ScenarioField::SwaFullTokensRatio, "swa-full-tokens-ratio", nullptr,
     QT_TRANSLATE_NOOP("kvscope::ScenarioField", "Sliding-window pool ratio")},
    {ScenarioField::TensorParallelSize, "tensor-parallel-size", "tp-size",
     QT_TRANSLATE_NOOP("kvscope::ScenarioField", "GPUs (TP)")},
    {ScenarioField::PipelineParallelSize, "pipeline-parallel-size", "pp-size",
     QT_TRANSLATE_NOOP("kvscope::ScenarioField", "Pipeline stages (PP)")},
    {ScenarioField::DataParallelSize, "data-parallel-size", "dp-size",
     QT_TRANSLATE_NOOP("kvscope::ScenarioField", "Data-parallel ranks (DP)")},
    {ScenarioField::EnableExpertParallel, "enable-expert-parallel", nullptr,
     QT_TRANSLATE_NOOP("kvscope::ScenarioField", "Expert parallelism (EP)")},
    {ScenarioField::EnableDpAttention, "enable-dp-attention", nullptr,
     QT_TRANSLATE_NOOP("kvscope::ScenarioField", "Data-parallel attention")},
    {ScenarioField::EnableDpLmHead, "enable-dp-lm-head", nullptr,
     QT_TRANSLATE_NOOP("kvscope::ScenarioField", "LM head per attention group")},
    {ScenarioField::MoeDenseTpSize, "moe-dense-tp-size", nullptr,
     QT_TRANSLATE_NOOP("kvscope::ScenarioField", "Dense MLP GPUs")},
    {ScenarioField::ExpertParallelSize, "ep-size", nullptr,
     QT_TRANSLATE_NOOP("kvscope::ScenarioField", "Expert-parallel GPUs (EP)")},
    {ScenarioField::EnableEplb, "enable-eplb", nullptr,
     QT_TRANSLATE_NOOP("kvscope::ScenarioField", "Expert load balancing (EPLB)")},
    {ScenarioField::EplbConfig, "eplb-config", nullptr,
     QT_TRANSLATE_NOOP("kvscope::ScenarioField", "Redundant experts")},
    {ScenarioField::All2AllBackend, "all2all-backend", nullptr,
     QT_TRANSLATE_NOOP("kvscope::ScenarioField", "All-to-all backend")},
    {ScenarioField::MaxModelLen, "max-model-len", "context-length",
     QT_TRANSLATE_NOOP("kvscope::ScenarioField", "Max model length")},
    {ScenarioField::BlockSize, "block-size", "page-size",
     QT_TRANSLATE_NOOP("kvscope::ScenarioField", "Block size")},
    {ScenarioField::MambaSsmCacheDtype, "mamba-ssm-cache-dtype", nullptr,
     QT_TRANSLATE_NOOP("kvscope::ScenarioField", "SSM state dtype")},
    {ScenarioField::MaxNumSeqs, "max-num-seqs", "max-running-requests",
     QT_TRANSLATE_NOOP("kvscope::ScenarioField", "Max running sequences")},
    {ScenarioField::MaxNumBatchedTokens, "max-num-batched-tokens", nullptr,
     QT_TRANSLATE_NOOP("kvscope::ScenarioField", "Max batched tokens")},
    {ScenarioField::KvCacheMemoryBytes, "kv-cache-memory-bytes", nullptr,
     QT_TRANSLATE_NOOP("kvscope::ScenarioField", "KV cache memory")},
    {ScenarioField::EnforceEager, "enforce-eager", nullptr,
     QT_TRANSLATE_NOOP("kvscope::ScenarioField", "Eager mode (no CUDA graphs)")},
    // A deployment condition, not a vLLM flag: whether the compiled model is in vLLM's cache at start.
    {ScenarioField::CompileCache, "compile-cache", nullptr,
     QT_TRANSLATE_NOOP("kvscope::ScenarioField", "torch.compile cache")},
    // vLLM 0.10 to 0.13 take it from the environment (VLLM_USE_FLASHINFER_MOE_MXFP4_MXFP8=1), no flag.
    {ScenarioField::MoeMxfp8Activations, "moe-mxfp8-activations", nullptr,
     QT_TRANSLATE_NOOP("kvscope::ScenarioField", "MXFP8 MoE activations")},
    {ScenarioField::MaxCudagraphCaptureSize, "max-cudagraph-capture-size", nullptr,
     QT_TRANSLATE_NOOP("kvscope::ScenarioField", "CUDA graphs up to")},
    {ScenarioField::MaxLoras, "max-loras", "max-loras-per-batch",
     QT_TRANSLATE_NOOP("kvscope::ScenarioField", "LoRA slots")},
    {ScenarioField::MaxLoraRank, "max-lora-rank", nullptr,
     QT_TRANSLATE_NOOP("kvscope::ScenarioField", "LoRA rank")},
    {ScenarioField::LoraDtype, "lora-dtype", nullptr,
     QT_TRANSLATE_NOOP("kvscope::ScenarioField", "LoRA dtype")},
    {ScenarioField::MaxCpuLoras, "max-cpu-loras", nullptr,
     QT_TRANSLATE_NOOP("kvscope::ScenarioField", "LoRA adapters in host memory")},
    {ScenarioField::FullyShardedLoras, "fully-sharded-loras", nullptr,
     QT_TRANSLATE_NOOP("kvscope::ScenarioField", "Fully sharded LoRA")},
    {ScenarioField::LoraTargetModules, "lora-target-modules", nullptr,
     QT_TRANSLATE_NOOP("kvscope::ScenarioField", "LoRA target modules")},
    {ScenarioField::KvOffloadingSize, "kv-offloading-size", nullptr,
     QT_TRANSLATE_NOOP("kvscope::ScenarioField", "KV offloading")},
    {ScenarioField::KvOffloadingBackend, "kv-offloading-backend", nullptr,
     QT_TRANSLATE_NOOP("kvscope::ScenarioField", "KV offloading backend")},
    {ScenarioField::SpeculativeConfig, "speculative-config", nullptr,
     QT_TRANSLATE_NOOP("kvscope::ScenarioField", "Speculative decoding")},
    // A workload input, not an engine flag: the share of drafted tokens the target accepts.
    {ScenarioField::DraftAcceptanceRate, "draft-acceptance-rate", nullptr,
     QT_TRANSLATE_NOOP("kvscope::ScenarioField", "Draft acceptance rate")},
    {ScenarioField::BatchSize, "batch-size", nullptr,
     QT_TRANSLATE_NOOP("kvscope::ScenarioField", "Batch size")},
    {ScenarioField::SeqLen, "seq-len", nullptr,
     QT_TRANSLATE_NOOP("kvscope::ScenarioField", "Sequence length")},
    {ScenarioField::PromptLen, "prompt-len", nullptr,
     QT_TRANSLATE_NOOP("kvscope::ScenarioField", "Prompt length")},
    {ScenarioField::SharedPrefixLen, "shared-prefix-len", nullptr,
     QT_TRANSLATE_NOOP("kvscope::ScenarioField", "Shared prefix")},
    // Workload inputs: the images each request sends, as a benchmark's dataset would.
    {ScenarioField::ImagesPerRequest, "images-per-request", nullptr,
     QT_TRANSLATE_NOOP("kvscope::ScenarioField", "Images per request")},
    {ScenarioField::ImageSize, "image-size", nullptr,
     QT_TRANSLATE_NOOP("kvscope::ScenarioField", "Image size")},
    // vllm bench serve's and sglang.bench_serving's name for open-loop arrivals.
    {ScenarioField::RequestRate, "request-rate", nullptr,
     QT_TRANSLATE_NOOP("kvscope::ScenarioField", "Request rate")},
    {ScenarioField::BandwidthEfficiency, "bandwidth-efficiency", nullptr,
     QT_TRANSLATE_NOOP("kvscope::ScenarioField", "Bandwidth efficiency")},
    {ScenarioField::ComputeEfficiency, "compute-efficiency", nullptr,
     QT_TRANSLATE_NOOP("kvscope::ScenarioField", "Compute efficiency")},
};

const EnumSpelling<CommandOption> commandOptions[] = {
    {CommandOption::Concurrency, "concurrency"},
    {CommandOption::MaxGpus, "max-gpus"},
    {CommandOption::RankBy, "rank-by"},
    {CommandOption::Input, "input"},
    {CommandOption::Rows, "rows"},
    {CommandOption::Cols, "cols"},
    {CommandOption::Std, "std"},
    {CommandOption::Scheme, "scheme"},
    {CommandOption::Tensor, "tensor"},
    {CommandOption::List, "list"},
    {CommandOption::Activations, "activations"},
    {CommandOption::Json, "json"},
    {CommandOption::MeasuredItlMs, "measured-itl-ms"},
    {CommandOption::BenchResult, "bench-result"},
    {CommandOption::MemoryFromLog, "memory-from-log"},
};

// vLLM's engine argument and llama.cpp's server option (llama-server --help).
const EnumSpelling<ServerOption> serverOptions[] = {
    {ServerOption::VllmTokenizer, "tokenizer"},
    {ServerOption::LlamaCppCacheTypeK, "cache-type-k"},
    {ServerOption::VllmEnableLora, "enable-lora"},
    {ServerOption::SglangSpeculativeAlgorithm, "speculative-algorithm"},
    {ServerOption::SglangSpeculativeDraftModel, "speculative-draft-model-path"},
    {ServerOption::SglangSpeculativeNumSteps, "speculative-num-steps"},
    {ServerOption::SglangSpeculativeEagleTopk, "speculative-eagle-topk"},
    {ServerOption::SglangSpeculativeDraftTokens, "speculative-num-draft-tokens"},
    {ServerOption::VllmLimitMmPerPrompt, "limit-mm-per-prompt"},
    {ServerOption::SglangEnableLora, "enable-lora"},
    {ServerOption::SglangLoraTargetModules, "lora-target-modules"},
    {ServerOption::SglangMoeRunnerBackend, "moe-runner-backend"},
};

const FieldSpelling &spelling(ScenarioField field)
{
    for (const FieldSpelling &entry : spellings)
        if (entry.field == field)
            return entry;
    Q_UNREACHABLE(); // the table holds every field (tst_spellings checks it)
}

} // namespace

const QList<ScenarioField> &scenarioFields()
{
    static const QList<ScenarioField> fields = [] {
        QList<ScenarioField> list;
        for (const FieldSpelling &entry : spellings)
            list << entry.field;
        return list;
    }();
    return fields;
}

QString fileKey(ScenarioField field)
{
    return QLatin1String(spelling(field).key);
}

QString optionFlag(ScenarioField field)
{
    return dashed(fileKey(field));
}

QString sglangKey(ScenarioField field)
{
    const FieldSpelling &entry = spelling(field);
    return QLatin1String(entry.sglang ? entry.sglang : entry.key);
}

QString sglangFlag(ScenarioField field)
{
    return dashed(sglangKey(field));
}

QString fieldLabel(ScenarioField field)
{
    return QCoreApplication::translate(LabelContext, spelling(field).label);
}

std::optional<ScenarioField> fieldForKey(const QString &key)
{
    for (const FieldSpelling &entry : spellings)
        if (key == QLatin1String(entry.key) || (entry.sglang && key == QLatin1String(entry.sglang)))
            return entry.field;
    return std::nullopt;
}

std::optional<ScenarioField> fieldForFlag(const QString &flag)
{
    const QString key = flag.mid(2);
    if (flag != dashed(key))
        return std::nullopt;
    return fieldForKey(key);
}

QString flagForKey(const QString &key)
{
    return dashed(key);
}

QString commandFlag(CommandOption option)
{
    return dashed(enumName(commandOptions, option));
}

QString serverFlag(ServerOption option)
{
    return dashed(enumName(serverOptions, option));
}

} // namespace kvscope
