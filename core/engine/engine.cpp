// SPDX-License-Identifier: MIT
#include "core/engine/engine.h"

#include "core/common/enumtable.h"
#include "core/common/error.h"
#include "core/common/units.h"

#include <utility>

#include <QRegularExpression>

namespace kvscope {

namespace {

/// An engine's identity: how --engine spells it and how its project writes its name.
struct EngineIdentity
{
    Engine engine;
    const char *name;        ///< --engine's spelling
    const char *displayName; ///< in notes and labels
};

const EngineIdentity engineIdentities[] = {
    {Engine::Vllm, "vllm", "vLLM"},
    {Engine::Sglang, "sglang", "SGLang"},
};

const EngineIdentity &identity(Engine engine)
{
    for (const EngineIdentity &entry : engineIdentities)
        if (entry.engine == engine)
            return entry;
    Q_UNREACHABLE(); // the table holds every engine
}

} // namespace

QString engineName(Engine engine)
{
    return QLatin1String(identity(engine).name);
}

QString engineDisplayName(Engine engine)
{
    return QLatin1String(identity(engine).displayName);
}

namespace {

const EnumSpelling<KvOffloadingBackend> offloadingBackends[] = {
    {KvOffloadingBackend::Native, "native"},
    {KvOffloadingBackend::Lmcache, "lmcache"},
};

const EnumSpelling<CompileCache> compileCaches[] = {
    {CompileCache::Cold, "cold"},
    {CompileCache::Warm, "warm"},
};

// vLLM's All2AllBackend literal (vllm/config/parallel.py).
const EnumSpelling<All2AllBackend> all2allBackends[] = {
    {All2AllBackend::AllgatherReducescatter, "allgather_reducescatter"},
    {All2AllBackend::Naive, "naive"},
    {All2AllBackend::DeepepHighThroughput, "deepep_high_throughput"},
    {All2AllBackend::DeepepLowLatency, "deepep_low_latency"},
    {All2AllBackend::Pplx, "pplx"},
    {All2AllBackend::Mori, "mori"},
    {All2AllBackend::NixlEp, "nixl_ep"},
    {All2AllBackend::FlashinferAll2allv, "flashinfer_all2allv"},
    {All2AllBackend::FlashinferNvlinkTwoSided, "flashinfer_nvlink_two_sided"},
    {All2AllBackend::FlashinferNvlinkOneSided, "flashinfer_nvlink_one_sided"},
};

} // namespace

QString all2allBackendName(All2AllBackend backend)
{
    return enumName(all2allBackends, backend);
}

All2AllBackend parseAll2AllBackend(const QString &text, const QString &option)
{
    return parseEnumOption(all2allBackends, text, option);
}

QString compileCacheName(CompileCache cache)
{
    return enumName(compileCaches, cache);
}

CompileCache parseCompileCache(const QString &text, const QString &option)
{
    return parseEnumOption(compileCaches, text, option);
}

QString kvOffloadingBackendName(KvOffloadingBackend backend)
{
    return enumName(offloadingBackends, backend);
}

KvOffloadingBackend parseKvOffloadingBackend(const QString &text, const QString &option)
{
    return parseEnumOption(offloadingBackends, text, option);
}

Engine parseEngine(const QString &text)
{
    const QString key = text.trimmed().toLower();
    for (const EngineIdentity &entry : engineIdentities)
        if (key == QLatin1String(entry.name))
            return entry.engine;
    throw Error(
        QStringLiteral("%1: must be vllm or sglang, got '%2'").arg(optionFlag(ScenarioField::Engine), text));
}

QString optionFlag(ScenarioField field, Engine engine)
{
    return engine == Engine::Sglang ? sglangFlag(field) : optionFlag(field);
}

QString EngineVersion::text() const
{
    return patch == 0 ? QStringLiteral("%1.%2").arg(major).arg(minor)
                      : QStringLiteral("%1.%2.%3").arg(major).arg(minor).arg(patch);
}

std::optional<EngineVersion> parseEngineVersion(const QString &text)
{
    // PEP 440's pre-release, post-release, development and local parts are read past: a build of a
    // release plans as the release it names ("0.18.0+rhaiv.14", "0.19.1+cu128", "0.11.1rc2.dev45+g7d5f2a1").
    static const QRegularExpression pattern(
        QStringLiteral("^\\s*v?(\\d{1,4})\\.(\\d{1,4})(?:\\.(\\d{1,4}))?(?:\\.\\d{1,4})?"
                       "(?:(?:a|b|rc)\\d{1,4})?(?:\\.post\\d{1,6})?(?:\\.dev\\d{0,8})?"
                       "(?:\\+[A-Za-z0-9]+(?:\\.[A-Za-z0-9]+)*)?\\s*$"));
    const QRegularExpressionMatch match = pattern.match(text);
    if (!match.hasMatch())
        return std::nullopt;
    return EngineVersion{match.captured(1).toInt(), match.captured(2).toInt(), match.captured(3).toInt()};
}

namespace {

/// A release that split a Pixtral tower loaded in Mistral's own format over the tensor-parallel ranks:
/// `before`'s values otherwise.
VllmProfile towerSplitRelease(const VllmProfile &before, EngineVersion since, const char *source)
{
    VllmProfile profile = before;
    profile.since = since;
    profile.mistralFormatTowerSplit = true;
    profile.source = source;
    return profile;
}

/// A release that changed only the sampler warm-up's bytes per logit: `before`'s values otherwise.
VllmProfile samplerRelease(const VllmProfile &before, EngineVersion since, std::int64_t bytesPerLogit,
                           const char *source)
{
    VllmProfile profile = before;
    profile.since = since;
    profile.samplerBytesPerLogit = bytesPerLogit;
    profile.source = source;
    return profile;
}

/// The releases whose every model runs on the V1 model runner, oldest first.
QList<VllmProfile> v1RunnerProfiles()
{
    // Values a release did not change repeat the row before; docs/engines-research.md
    // section 5 has the sources in full.
    // Memory outside PyTorch on one GPU before 0.19: 0.13 GiB, as vLLM 0.11 logged it for Llama-3.1-8B and
    // gpt-oss-120b on an H100 (tests/data/vllm-logs.json ids 17 and 18), carried to 0.10 and to 0.12-0.18;
    // 0.19 logs 0.25 GiB (runtimeOverheadBytes).
    constexpr std::int64_t NonTorchBefore019 = 133 * MiB;
    QList<VllmProfile> profiles{
        {{0, 10, 0},
         15,
         false,
         true,
         false,
         false,
         false,
         false,
         900'000,
         "sampler: as 0.19 (no 0.10 log gives an activation breakdown); chunked-local layers in the "
         "hybrid manager since vllm-project/vllm#19351 (June 2025), before #21761 (merged 2025-07-28)",
         NonTorchBefore019},
        {{0, 10, 1},
         15,
         false,
         false,
         false,
         false,
         false,
         false,
         900'000,
         "vllm-project/vllm#21761 disables the hybrid manager for chunked-local attention unless "
         "VLLM_ALLOW_CHUNKED_LOCAL_ATTN_WITH_HYBRID_KV_CACHE=1 (docs.vllm.ai v0.10.1.1 vllm.envs: False)",
         NonTorchBefore019},
        {{0, 10, 2},
         38,
         false,
         false,
         false,
         false,
         false,
         false,
         900'000,
         "sampler as 0.11 (38 B per logit): the first 0.10.2 log with a profiling breakdown (tests/data/"
         "vllm-logs.json id 56, its INFO 'Free memory on device ... Actual usage' line of vllm-project/"
         "vllm#21489) logs a 1.40 GiB peak for 256 sequences x 151,936 logits, 38 B each, where the 0.10.1 "
         "logs (ids 28 to 30) leave room only for 0.19's 15 B",
         NonTorchBefore019},
        {{0, 11, 0},
         38,
         false,
         false,
         true,
         false,
         false,
         false,
         900'000,
         "sampler warm-up of 38 B per logit: the 4.76 GiB activation peak vLLM 0.11 logged for "
         "Llama-3.1-8B with 1,024 sequences on an H100 (llm-d/llm-d-benchmark "
         "config_explorer/empirical-vllm-memory-results.md @ 4f4d449); docs.vllm.ai v0.11.0 vllm.envs: "
         "chunked-local attention still off (False, also in v0.12.0); dummy encoder outputs padded to "
         "the encoder budget (vllm-project/vllm#25810, merged 2025-09-28)",
         NonTorchBefore019},
        {{0, 12, 0},
         38,
         false,
         false,
         false,
         false,
         false,
         true,
         900'000,
         "as 0.11, but the dummy encoder outputs padded only to the largest item (GPUModelRunner."
         "profile_run after #25810's follow-up; unpadded from vllm-project/vllm#30475, merged 2025-12-11: "
         "the same bytes for the largest item); EPLB's state counted with the weights "
         "(vllm-project/vllm#25311, "
         "whose EplbModelState the v0.11.2 API reference has, and 0.11.x is planned with 0.11.0's profile) "
         "and its "
         "expert buffer held from start-up (vllm-project/vllm#22179, merged 2025-11-24; its async_worker "
         "module "
         "is in the v0.12.0 API reference)",
         NonTorchBefore019},
        {{0, 16, 0},
         38,
         false,
         true,
         false,
         true,
         false,
         true,
         900'000,
         "docs.vllm.ai v0.16.0 vllm.envs: VLLM_ALLOW_CHUNKED_LOCAL_ATTN_WITH_HYBRID_KV_CACHE = True "
         "(flipped by vllm-project/vllm#29627; 0.13-0.15 not read); sampler: as 0.11 (the llm-d-planner "
         "version sweep's Qwen3-14B records of 0.15.0 and 0.16.0, tests/data/vllm-logs.json ids 154 and "
         "155, log a 5.64 GiB peak for 1,024 sequences of 151,936 logits); MTP heads shared with the "
         "target's lm_head by "
         "vllm-project/vllm#34385 (merged 2026-02-12, before v0.16.0 of 2026-02-25); the all-reduce + "
         "RMSNorm fusion on by default at TP > 1 on Hopper and Blackwell (vllm-project/vllm#34299, merged "
         "by 2026-02-12, when #34392 amended it)",
         NonTorchBefore019,
         true},
    };
    profiles << samplerRelease(
        profiles.constLast(), {0, 17, 0}, 15,
        "sampler 15 B per logit, as 0.19: vllm-project/vllm#33538 (merged 2026-02-17; its "
        "module topk_topp_triton is in the v0.18.0 API reference) masks top-k and top-p "
        "with a Triton kernel for 8 rows or more, where the sampler warm-up had sorted the "
        "float32 logits (values and int64 indices) and scattered them back into a third "
        "tensor. Two 0.17.1 logs of one A100 cluster (tests/data/vllm-logs.json ids 124 and "
        "125, 256 sequences) leave room for 15 B a logit, not 38, and the llm-d-planner version "
        "sweep's Qwen3-14B records log a 2.23 GiB peak under 0.17.0 where 0.16.0's logs 5.64 "
        "(ids 156 and 155: 1,024 sequences of 151,936 logits)");
    profiles << QList<VllmProfile>{
        {{0, 19, 0},
         15,
         false,
         true,
         false,
         true,
         false,
         true,
         900'000,
         "sampler 15 B per logit: calibrated on the vLLM 0.19.0 H100 start-up logs of "
         "jgchn/llm-d-planner @ d3121e0 (tests/data/vllm-logs.json ids 1, 3, 6, 8, 11); their "
         "'Estimated CUDA graph memory' is logged but not subtracted",
         0,
         true}};
    profiles << towerSplitRelease(
        profiles.constLast(), {0, 20, 0},
        "as 0.19, but a Pixtral tower loaded in Mistral's own format split over the tensor-parallel ranks "
        "(vllm-project/vllm#36963, merged 2026-03-30 after v0.19.0's branch, whose logs of "
        "Mistral-Small-3.1 at TP 2 and 4 hold it whole: tests/data/vllm-logs.json ids 144 and 145)");
    VllmProfile v021{
        {0, 21, 0},
        15,
        true,
        true,
        false,
        true,
        true,
        true,
        920'000,
        "CUDA-graph memory profiling on by default: 'CUDA graph memory profiling is enabled (default "
        "since v0.21.0)' in the logs of noonghunna/club-3090#127 and gpustack/runner#251 "
        "(vllm-project/vllm#30515 introduced it off by default); 'GPU KV cache size' = int(max concurrency "
        "x "
        "max_model_len) from vllm-project/vllm#41069 (merged 2026-04-28, after v0.20.0, whose logs of "
        "2026-05-01 still print blocks / groups x block size); gpu_memory_utilization 0.92 by default from "
        "vllm-project/vllm#38284, which turned the profiling on",
        0,
        true};
    v021.mistralFormatTowerSplit = true;
    profiles << v021;
    return profiles;
}

/// A release that changed only which models run on Model Runner V2 (and whether it reserves the graphs):
/// `before`'s values otherwise.
VllmProfile modelRunnerV2Release(const VllmProfile &before, EngineVersion since, ModelRunnerV2Default models,
                                 const char *source, bool reservesCudaGraphs = false)
{
    VllmProfile profile = before;
    profile.since = since;
    profile.modelRunnerV2 = models;
    profile.modelRunnerV2ReservesCudaGraphs = reservesCudaGraphs;
    profile.source = source;
    return profile;
}

} // namespace

const QList<VllmProfile> &vllmProfiles()
{
    static const QList<VllmProfile> profiles = [] {
        QList<VllmProfile> all = v1RunnerProfiles();
        const VllmProfile v021 = all.constLast();
        // Model Runner V2 by default, release by release (the release notes of v0.22.0, v0.23.0 and v0.25.0;
        // v0.24's from the merge dates of #42667, #45461 and #44446, whose pull requests say they missed
        // v0.23.0; v0.29.0's from vllm-project/vllm#53183 and #53306); its profile_cudagraph_memory()
        // returns 0 (vllm/v1/worker/gpu/model_runner.py) until #53306.
        all << modelRunnerV2Release(
                   v021, {0, 22, 0}, ModelRunnerV2Default::Qwen3Dense,
                   "Model Runner V2 the default for unquantized dense Qwen3 (v0.22.0 release "
                   "notes: 'MRv2 is now default for Qwen3 dense models', vllm-project/vllm#39337, "
                   "DEFAULT_V2_MODEL_RUNNER_ARCHITECTURES in vllm/config/vllm.py); V2's "
                   "profile_cudagraph_memory() returns 0")
            << modelRunnerV2Release(
                   v021, {0, 23, 0}, ModelRunnerV2Default::LlamaDense,
                   "Model Runner V2 also the default for Llama and Mistral dense models (v0.23.0 "
                   "release notes, vllm-project/vllm#43458)")
            << modelRunnerV2Release(
                   v021, {0, 24, 0}, ModelRunnerV2Default::EnabledFamilies,
                   "Model Runner V2 also for the quantized forms of those models "
                   "(vllm-project/vllm#44446) and the Qwen, DeepSeek-V2 and Granite MoEs (#42667, "
                   "#45461), merged after v0.23.0's branch was cut")
            << modelRunnerV2Release(
                   v021, {0, 25, 0}, ModelRunnerV2Default::AllDense,
                   "Model Runner V2 the default for every dense model (v0.25.0 release notes, "
                   "vllm-project/vllm#44443)")
            << modelRunnerV2Release(
                   v021, {0, 29, 0}, ModelRunnerV2Default::AllModels,
                   "Model Runner V2 the default for every model (vllm-project/vllm#53183) and its "
                   "CUDA-graph memory profiled and reserved as V1's is (#53306, fixing #49224)",
                   true);
        return all;
    }();
    return profiles;
}

const VllmProfile &newestVllmProfile()
{
    return vllmProfiles().constLast();
}

EngineVersion parseVllmRelease(const QString &text)
{
    const std::optional<EngineVersion> version = parseEngineVersion(text);
    if (!version || text.trimmed().isEmpty())
        throw Error(QStringLiteral("%1: expected a release such as 0.19 or 0.10.1, got '%2'")
                        .arg(optionFlag(ScenarioField::VllmVersion), text));
    if (*version < OldestVllmVersion)
        throw Error(
            QStringLiteral("%1: %2 is older than %3, the oldest release kvscope models "
                           "(vLLM's V1 engine accounting)")
                .arg(optionFlag(ScenarioField::VllmVersion), text.trimmed(), OldestVllmVersion.text()));
    return *version;
}

VllmVersionChoice resolveVllmVersion(const QString &text)
{
    VllmVersionChoice choice;
    if (text.trimmed().isEmpty()) {
        choice.profile = &newestVllmProfile();
        return choice;
    }
    const EngineVersion version = parseVllmRelease(text);
    choice.requested = version;
    for (const VllmProfile &profile : vllmProfiles())
        if (profile.since <= version)
            choice.profile = &profile;
    // A patch release of the newest modelled minor release is still that release.
    const EngineVersion newest = newestVllmProfile().since;
    choice.newerThanModelled =
        std::pair(version.major, version.minor) > std::pair(newest.major, newest.minor);
    return choice;
}

} // namespace kvscope
