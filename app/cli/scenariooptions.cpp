// SPDX-License-Identifier: MIT
#include "app/cli/scenariooptions.h"

#include "core/common/scenariofield.h"
#include "core/engine/engine.h"
#include "core/gpu/customgpu.h"
#include "core/scenario/scenario.h"
#include "core/scenario/scenariovalues.h"

namespace kvscope::cli {

namespace {

/// What the command line gives an option: its value, or "true" for a switch (a flag without one).
QString givenValue(const QCommandLineParser &parser, const QCommandLineOption &o)
{
    const QString name = o.names().constFirst();
    return o.valueName().isEmpty() ? QStringLiteral("true") : parser.value(name);
}

QCommandLineOption option(const QString &name, const QString &description, const char *valueName,
                          const QString &defaultValue = {})
{
    QCommandLineOption o(name, description, QLatin1String(valueName));
    if (!defaultValue.isEmpty())
        o.setDefaultValue(defaultValue);
    return o;
}

} // namespace

ScenarioOptions::ScenarioOptions()
{
    m_options = {
        option(fileKey(ScenarioField::Model),
               QStringLiteral("Preset id, HuggingFace repo id, or a path to a config.json, a model folder "
                              "(config.json + .safetensors, headers measured) or a .gguf file."),
               "model", QStringLiteral("llama-3.1-8b")),
        option(
            fileKey(ScenarioField::Gpu),
            QStringLiteral("GPU preset id (see 'kvscope gpus'), %1 (a preset with its host's memory), or %2.")
                .arg(QLatin1String(PresetMemorySyntax), QLatin1String(CustomGpuSyntax)),
            "gpu", QStringLiteral("h100-sxm")),
        option(fileKey(ScenarioField::Engine),
               QStringLiteral("Serving engine whose memory accounting to follow: vllm or sglang."), "name",
               QStringLiteral("vllm")),
        option(fileKey(ScenarioField::VllmVersion),
               QStringLiteral("vLLM release to model, 0.10 or later (default: the newest modelled, %1); "
                              "a release between two modelled ones takes the older one's profile.")
                   .arg(newestVllmProfile().since.text()),
               "x.y"),
        option(fileKey(ScenarioField::Dtype),
               QStringLiteral("Weights/activations dtype: auto, float32, float16, bfloat16."), "dtype",
               QStringLiteral("auto")),
        option(fileKey(ScenarioField::Quantization),
               QStringLiteral("Weight quantization: auto (checkpoint's), none, fp8, int8, awq, "
                              "gptq, bitsandbytes-nf4, mxfp4, compressed-tensors."),
               "method", QStringLiteral("auto")),
        option(fileKey(ScenarioField::GroupSize),
               QStringLiteral("Group size for awq/gptq/compressed-tensors (default 128; -1 = per "
                              "row)."),
               "n"),
        option(fileKey(ScenarioField::KvCacheDtype),
               QStringLiteral(
                   "KV cache dtype: auto, float16, bfloat16, fp8, fp8_e4m3, fp8_e5m2, "
                   "nvfp4 (Blackwell GPUs), fp4_mx_block16 (SGLang); for GGUF models also llama.cpp's "
                   "q8_0 and q4_0."),
               "dtype", QStringLiteral("auto")),
        option(fileKey(ScenarioField::GpuMemoryUtilization),
               QStringLiteral("vLLM: share of GPU memory vLLM may use, in (0, 1] (default: the release's, "
                              "0.92 from vLLM 0.21, 0.9 before)."),
               "ratio"),
        option(fileKey(ScenarioField::MemFractionStatic),
               QStringLiteral("SGLang: share of the free GPU memory for weights and the KV pool, in (0, 1] "
                              "(default: SGLang's for the GPU and TP)."),
               "ratio"),
        option(
            fileKey(ScenarioField::SwaFullTokensRatio),
            QStringLiteral("SGLang: for gpt-oss and Llama 4, the window layers' pool as a share of the full "
                           "layers' tokens, in (0, 1] (default 0.8)."),
            "ratio"),
        option(fileKey(ScenarioField::TensorParallelSize),
               QStringLiteral("GPUs the model is split over (default 1)."), "n"),
        option(sglangKey(ScenarioField::TensorParallelSize),
               QStringLiteral("SGLang's name for --tensor-parallel-size."), "n"),
        option(
            fileKey(ScenarioField::PipelineParallelSize),
            QStringLiteral("vLLM: pipeline stages the layers are split over, each on --tensor-parallel-size "
                           "GPUs (default 1)."),
            "n"),
        option(sglangKey(ScenarioField::PipelineParallelSize),
               QStringLiteral("SGLang's name for --pipeline-parallel-size."), "n"),
        option(fileKey(ScenarioField::DataParallelSize),
               QStringLiteral("vLLM: copies of the deployment, each with its own KV cache and requests; a "
                              "MoE's experts are split over all of them (default 1). SGLang: with "
                              "--enable-dp-attention, the groups --tp-size GPUs run attention in."),
               "n"),
        option(sglangKey(ScenarioField::DataParallelSize),
               QStringLiteral("SGLang's name for --data-parallel-size."), "n"),
        QCommandLineOption(fileKey(ScenarioField::EnableExpertParallel),
                           QStringLiteral("vLLM: a MoE's routed experts divided whole among the "
                                          "--tensor-parallel-size x --data-parallel-size GPUs instead "
                                          "of each expert split over them.")),
        QCommandLineOption(fileKey(ScenarioField::EnableEplb),
                           QStringLiteral("vLLM: the expert-parallel load balancer (with "
                                          "--enable-expert-parallel), which keeps its load counters, "
                                          "maps and a buffer of one layer's experts on every GPU.")),
        option(fileKey(ScenarioField::EplbConfig),
               QStringLiteral("vLLM: EPLB's settings as JSON, e.g. '{\"num_redundant_experts\": 32}' "
                              "(copies of experts beyond the model's, spread over the EP GPUs) and "
                              "window_size (default 1000)."),
               "json"),
        option(fileKey(ScenarioField::All2AllBackend),
               QStringLiteral("vLLM: how data-parallel ranks exchange a MoE's tokens under "
                              "--enable-expert-parallel (default allgather_reducescatter); "
                              "deepep_high_throughput keeps a 1 GiB buffer on every GPU."),
               "name"),
        option(fileKey(ScenarioField::ExpertParallelSize),
               QStringLiteral("SGLang: GPUs of --tp-size a MoE's routed experts are divided among, each "
                              "expert split over the --tp-size / --ep-size GPUs of its group (default 1)."),
               "n"),
        QCommandLineOption(fileKey(ScenarioField::EnableDpAttention),
                           QStringLiteral("SGLang: data-parallel attention, the --tp-size GPUs in "
                                          "--dp-size groups that each hold a KV pool for their own "
                                          "requests; MLPs and experts stay split over all of them.")),
        QCommandLineOption(fileKey(ScenarioField::EnableDpLmHead),
                           QStringLiteral("SGLang: with --enable-dp-attention, the LM head split over one "
                                          "group's GPUs instead of all --tp-size of them.")),
        option(fileKey(ScenarioField::MoeDenseTpSize),
               QStringLiteral(
                   "SGLang: 1 runs a DeepSeek-style model's dense layers' MLPs whole on every GPU "
                   "instead of split over --tp-size (SGLang takes only 1; auto, the default, splits them)."),
               "n"),
        option(fileKey(ScenarioField::MaxModelLen),
               QStringLiteral("Longest request in tokens (default: the model's context)."), "n"),
        option(sglangKey(ScenarioField::MaxModelLen), QStringLiteral("SGLang's name for --max-model-len."),
               "n"),
        option(fileKey(ScenarioField::BlockSize),
               QStringLiteral("vLLM: tokens per KV cache block (default 16; vLLM raises it for hybrid "
                              "recurrent models)."),
               "n"),
        option(fileKey(ScenarioField::MambaSsmCacheDtype),
               QStringLiteral("vLLM: dtype of the recurrent (SSM) state of Mamba/DeltaNet layers: auto (the "
                              "model dtype, the default), float32, float16, bfloat16."),
               "dtype"),
        option(fileKey(ScenarioField::MaxNumSeqs),
               QStringLiteral("vLLM: scheduler's sequences per step (default: vLLM's for the GPU)."), "n"),
        option(sglangKey(ScenarioField::MaxNumSeqs),
               QStringLiteral("SGLang: requests run at once (default: SGLang's for the pool)."), "n"),
        option(fileKey(ScenarioField::MaxNumBatchedTokens),
               QStringLiteral("vLLM: scheduler's tokens per step (default: vLLM's for the GPU)."), "n"),
        option(
            fileKey(ScenarioField::KvCacheMemoryBytes),
            QStringLiteral("vLLM: the KV cache's bytes per GPU, used as given instead of the profiled "
                           "budget (--gpu-memory-utilization then plays no part); auto: profiled (default)."),
            "bytes"),
        QCommandLineOption(fileKey(ScenarioField::EnforceEager),
                           QStringLiteral("vLLM: no CUDA graphs. From vLLM 0.21 the budget then holds no "
                                          "CUDA-graph estimate; speed is not computed (every "
                                          "measurement kvscope is calibrated on captures graphs).")),
        QCommandLineOption(
            fileKey(ScenarioField::MoeMxfp8Activations),
            QStringLiteral("vLLM: VLLM_USE_FLASHINFER_MOE_MXFP4_MXFP8=1. An MXFP4 MoE's experts (gpt-oss) on "
                           "compute capability 10.x (B200, GB200, B300) quantize their activations to MXFP8 "
                           "and multiply on the FP8 tensor cores (FlashInfer's TRT-LLM kernel) instead of "
                           "dequantizing the weights to 16 bits. Changes speed only; ignored elsewhere.")),
        option(fileKey(ScenarioField::CompileCache),
               QStringLiteral(
                   "vLLM: whether its torch.compile cache holds the model at start: cold (the default: a "
                   "first start, or a container that keeps no cache, compiles it during the profiling run) "
                   "or warm (a restart that loads the compiled graphs). On Model Runner V2 a warm start's "
                   "profiling peak is smaller; V1's is the same either way."),
               "state"),
        option(
            fileKey(ScenarioField::MaxCudagraphCaptureSize),
            QStringLiteral("vLLM: the largest batch, in tokens, a CUDA graph is captured for; fewer graphs "
                           "leave more memory for the KV cache from vLLM 0.21 (default: min(2 x "
                           "--max-num-seqs, 512))."),
            "n"),
        option(
            fileKey(ScenarioField::MaxLoras),
            QStringLiteral("LoRA adapters held on each GPU at once (vLLM: --enable-lora --max-loras; SGLang: "
                           "--enable-lora --max-loras-per-batch, dense models); auto: LoRA off (default)."),
            "n"),
        option(sglangKey(ScenarioField::MaxLoras), QStringLiteral("SGLang's name for --max-loras."), "n"),
        option(fileKey(ScenarioField::MaxLoraRank),
               QStringLiteral(
                   "The largest LoRA rank, whose buffers are allocated at load; vLLM takes 1, 8, 16, 32, 64, "
                   "128, 256, 320 or 512 (default 16)."),
               "r"),
        option(fileKey(ScenarioField::LoraDtype),
               QStringLiteral(
                   "vLLM: the LoRA slots' dtype, auto (the model's, the default), float16 or bfloat16."),
               "dtype"),
        option(fileKey(ScenarioField::LoraTargetModules),
               QStringLiteral(
                   "The modules that get LoRA slots, comma-separated, as vLLM names them: q_proj, k_proj, "
                   "v_proj, o_proj, gate_proj, up_proj, down_proj (or qkv_proj, gate_up_proj); on a MoE "
                   "gate (or router) and experts; in_proj, conv1d, out_proj of recurrent layers; q_a_proj, "
                   "q_b_proj, kv_a_proj_with_mqa, kv_b_proj of latent attention. A packed module is wrapped "
                   "whole when one of its parts is named (default: all of them)."),
               "names"),
        QCommandLineOption(
            fileKey(ScenarioField::FullyShardedLoras),
            QStringLiteral("vLLM: LoRA slots split over the tensor-parallel GPUs in full (the rank "
                           "must divide over them).")),
        option(fileKey(ScenarioField::MaxCpuLoras),
               QStringLiteral("vLLM: adapters kept in host memory (default --max-loras; at least that many); "
                              "nothing on the GPU."),
               "n"),
        option(fileKey(ScenarioField::KvOffloadingSize),
               QStringLiteral("vLLM: GiB of CPU memory KV blocks are offloaded to, summed over the "
                              "tensor-parallel ranks; 0 or auto: none (default)."),
               "gib"),
        option(fileKey(ScenarioField::KvOffloadingBackend),
               QStringLiteral("vLLM: native (its CPU offloading connector, the default) or lmcache."),
               "name"),
        option(
            fileKey(ScenarioField::SpeculativeConfig),
            QStringLiteral("vLLM: speculative decoding as vLLM takes it, a JSON object: {\"method\": eagle3, "
                           "eagle, mtp or ngram, \"model\": the draft (a preset's repo id such as "
                           "yuhuili/EAGLE3-LLaMA3.1-Instruct-8B, or a config.json path; EAGLE only), "
                           "\"num_speculative_tokens\": k}; none: off (default)."),
            "json"),
        option(fileKey(ScenarioField::DraftAcceptanceRate),
               QStringLiteral("The chance the target accepts each drafted token, in (0, 1]; auto: the "
                              "method's published figure (default; n-gram has none)."),
               "rate"),
        option(fileKey(ScenarioField::BatchSize),
               QStringLiteral("Concurrent sequences held in the KV cache."), "n", QStringLiteral("16")),
        option(fileKey(ScenarioField::SeqLen), QStringLiteral("Tokens per sequence (prompt + output)."), "n",
               QStringLiteral("8192")),
        option(fileKey(ScenarioField::PromptLen),
               QStringLiteral("Prompt tokens of the prefill (time to first token); default --seq-len."), "n"),
        option(fileKey(ScenarioField::SharedPrefixLen),
               QStringLiteral(
                   "Tokens every sequence starts with alike (a system prompt), which the prefix cache "
                   "holds once, in whole blocks; less than --seq-len; auto: none (default)."),
               "n"),
        option(fileKey(ScenarioField::ImagesPerRequest),
               QStringLiteral("Images each request sends (a vision model): each becomes the tokens its "
                              "processor writes for it, held beside --seq-len's text; auto: none (default)."),
               "n"),
        option(fileKey(ScenarioField::ImageSize),
               QStringLiteral("The pixels of each image, WIDTHxHEIGHT, before the processor resizes it "
                              "(default 1024x1024)."),
               "wxh"),
        option(fileKey(ScenarioField::RequestRate),
               QStringLiteral("Requests a second arriving at the server (open loop, as vllm bench serve "
                              "--request-rate): serving runs with as many in flight as that keeps busy; 0 or "
                              "auto: --batch-size users in a closed loop (default)."),
               "rate"),
        option(fileKey(ScenarioField::BandwidthEfficiency),
               QStringLiteral("Share of the memory bandwidth a forward pass achieves, in (0, 1], or auto "
                              "(default: calibrated for the GPU's generation)."),
               "ratio"),
        option(fileKey(ScenarioField::ComputeEfficiency),
               QStringLiteral("Share of the dense tensor-core peak a forward pass achieves, in (0, 1], or "
                              "auto (default: calibrated)."),
               "ratio"),
    };
}

void ScenarioOptions::addTo(QCommandLineParser &parser) const
{
    parser.addOptions(m_options);
}

ScenarioValues ScenarioOptions::values(const QCommandLineParser &parser) const
{
    ScenarioValues values;
    for (const QCommandLineOption &o : m_options) {
        const QString name = o.names().constFirst();
        if (parser.isSet(name))
            values.insert(name, givenValue(parser, o));
        else if (!o.defaultValues().isEmpty())
            values.insert(name, parser.value(name));
    }
    return values;
}

ScenarioValues ScenarioOptions::givenValues(const QCommandLineParser &parser) const
{
    ScenarioValues values;
    for (const QCommandLineOption &o : m_options)
        if (parser.isSet(o.names().constFirst()))
            values.insert(o.names().constFirst(), givenValue(parser, o));
    return values;
}

Scenario ScenarioOptions::scenario(const QCommandLineParser &parser, const ScenarioResolvers &resolvers) const
{
    return scenarioFromValues(values(parser), resolvers);
}

} // namespace kvscope::cli
