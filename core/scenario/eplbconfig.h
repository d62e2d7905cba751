// SPDX-License-Identifier: MIT
// vLLM's --eplb-config, read as vLLM reads it (EPLBConfig, vllm/config/parallel.py): a JSON object
// whose keys that change memory kvscope plans are the redundant experts and the load window.
#pragma once

#include <cstdint>

#include <QString>

namespace kvscope {

/// EPLBConfig.window_size's default: the steps whose expert load the balancer keeps.
inline constexpr std::int64_t DefaultEplbWindowSize = 1000;
/// The most redundant experts vLLM takes (EplbState.add_model asserts num_redundant_experts <=
/// MAX_EXPERT_REDUNDANCY, 1023; vllm/distributed/eplb/eplb_state.py).
inline constexpr std::int64_t MaxRedundantExperts = 1023;
/// The longest load window kvscope plans: its int32 counters are window x MoE layers x physical
/// experts on every GPU, already 66 MB for DeepSeek-V3 at vLLM's default of 1,000.
inline constexpr std::int64_t MaxEplbWindowSize = 1'000'000;

struct EplbConfig
{
    std::int64_t numRedundantExperts = 0;            ///< num_redundant_experts: replicas beyond the experts
    std::int64_t windowSize = DefaultEplbWindowSize; ///< window_size: steps of expert load kept

    friend bool operator==(const EplbConfig &, const EplbConfig &) = default;
};

/// Reads --eplb-config's JSON ("{\"num_redundant_experts\": 32}"); "" gives the defaults. Keys that
/// change nothing kvscope plans (step_interval, policy, use_async...) are read and left alone; any
/// other key, or a value out of vLLM's range, throws kvscope::Error naming `option`, the key and the value.
EplbConfig parseEplbConfig(const QString &text, const QString &option);

/// The JSON the option takes back, with the keys that differ from vLLM's defaults; empty when none do.
QString eplbConfigText(const EplbConfig &config);

} // namespace kvscope
