// SPDX-License-Identifier: MIT
// The command that starts the engine on a scenario, one function per engine.
#pragma once

#include "plan/scenario.h"

#include <QString>

namespace kvscope {

/// `vllm serve MODEL` with the flags whose values differ from vLLM's defaults.
/// INTERIM: plan/launchline.h (being added on another branch) will build the
/// vLLM line with its caveats; this function then delegates to it.
QString vllmServeCommand(const Scenario &scenario);

/// `python -m sglang.launch_server --model-path MODEL` with SGLang's flag names
/// (--tp-size, --context-length, --max-running-requests, --mem-fraction-static...).
QString sglangLaunchCommand(const Scenario &scenario);

/// The command of the scenario's engine.
QString serveCommand(const Scenario &scenario);

} // namespace kvscope
