// SPDX-License-Identifier: MIT
#pragma once

#include <QString>
#include <QStringList>

namespace kvscope {

struct Scenario;

/// The command that starts the scenario's engine on it: `vllm serve MODEL` or
/// `python -m sglang.launch_server --model-path MODEL` (the model's HuggingFace
/// repo id when the preset has one, else its path), then the engine's flags, in
/// its own spelling, whose values differ from its defaults.
struct LaunchLine
{
    /// "vllm", "serve", MODEL (or "python", "-m", "sglang.launch_server", "--model-path", MODEL),
    /// then flag, value, flag, value...
    QStringList arguments;
    /// NAME=value settings the engine reads from its environment, written before the command
    /// (VLLM_USE_FLASHINFER_MOE_MXFP4_MXFP8=1 vllm serve ...).
    QStringList environment;
    /// What kvscope plans that no flag of the engine can say (a float32 KV cache under
    /// --dtype bfloat16, a group size other than the checkpoint's...), one sentence
    /// each, translated where a translator is installed. Empty when the line says it all.
    QStringList caveats;

    /// The environment, then the arguments, shell-quoted on one line: vllm serve
    /// meta-llama/Llama-3.1-8B --kv-cache-dtype fp8
    QString command() const;
    /// command(), then each caveat on a line of its own as a shell comment ("# ...").
    QString text() const;
};

/// The line of scenario.engine: vLLM's or SGLang's (--tp-size, --context-length,
/// --max-running-requests, --mem-fraction-static; FP8 caches spelled fp8_e4m3/fp8_e5m2).
LaunchLine launchLine(const Scenario &scenario);

/// One argument as a POSIX shell reads it back: as it is when it holds only
/// safe characters, else in single quotes ('it'\''s').
QString shellQuote(const QString &argument);

} // namespace kvscope
