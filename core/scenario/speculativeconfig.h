// SPDX-License-Identifier: MIT
// vLLM's --speculative-config, read as vLLM reads it: a JSON object with the
// drafting method, the draft checkpoint and the tokens proposed a step.
#pragma once

#include "core/model/modelarch.h"

#include <cstdint>
#include <functional>

#include <QString>
#include <QStringList>

namespace kvscope {

/// How the engine proposes the tokens it verifies (SpeculativeConfig.method, vllm/config/speculative.py).
enum class SpeculativeMethod
{
    None,   ///< no speculative decoding
    Eagle,  ///< EAGLE-1: a one-layer head on the target's last hidden state
    Eagle3, ///< EAGLE-3: a one-layer head on three of the target's hidden states, its own small vocabulary
    Mtp,    ///< the checkpoint's own multi-token-prediction layers (DeepSeek-V3, ...)
    Ngram,  ///< prompt lookup on the CPU: no draft model, nothing on the GPU
    DraftModel, ///< a smaller model of the target's family, whole, with its own KV layers in the pool
};

/// "eagle3", as the method key spells it ("deepseek_mtp" and "qwen3_next_mtp" read as "mtp").
QString speculativeMethodName(SpeculativeMethod method);
/// The methods kvscope plans, as the method key spells them.
QStringList speculativeMethodChoices();

/// The tokens a step proposes that kvscope plans: 1 to this many.
inline constexpr std::int64_t MaxSpeculativeTokens = 32;

struct SpeculativeConfig
{
    SpeculativeMethod method = SpeculativeMethod::None;
    QString model;                         ///< the "model" key as given: a draft's repo id or path
    std::int64_t numSpeculativeTokens = 0; ///< num_speculative_tokens: drafts proposed per step
    ModelArch draft;                       ///< the EAGLE draft's or draft model's config, from `model`

    bool enabled() const { return method != SpeculativeMethod::None; }
    /// EAGLE-type drafts, MTP layers and draft models run on the GPU beside the target (vLLM's
    /// use_eagle() and uses_draft_model()).
    bool runsDraftOnGpu() const
    {
        return method == SpeculativeMethod::Eagle || method == SpeculativeMethod::Eagle3 ||
               method == SpeculativeMethod::Mtp || method == SpeculativeMethod::DraftModel;
    }
    friend bool operator==(const SpeculativeConfig &, const SpeculativeConfig &) = default;
};

/// Reads --speculative-config's JSON ("{\"method\": \"eagle3\", \"model\":
/// \"yuhuili/EAGLE3-LLaMA3.1-Instruct-8B\",
/// \"num_speculative_tokens\": 3}"); "" or "none" turns it off. EAGLE and draft_model need "model", which
/// `resolveDraft` turns into the draft's config. Throws kvscope::Error naming `option`, the key and the
/// value.
SpeculativeConfig parseSpeculativeConfig(const QString &text, const QString &option,
                                         const std::function<ModelArch(const QString &)> &resolveDraft);

/// SGLang's --speculative-algorithm for the method (python/sglang/srt/server_args.py): EAGLE, EAGLE3,
/// NEXTN (the checkpoint's MTP layers), STANDALONE (a draft model), NGRAM; empty when off.
QString sglangSpeculativeAlgorithm(SpeculativeMethod method);
/// The method an SGLang --speculative-algorithm names (any case); nullopt for another name.
std::optional<SpeculativeMethod> sglangSpeculativeMethod(const QString &algorithm);

/// The JSON the option takes back, keys in vLLM's order; empty when off.
QString speculativeConfigText(const SpeculativeConfig &config);

} // namespace kvscope
