// SPDX-License-Identifier: MIT
#pragma once

#include "plan/scenario.h"

#include <QString>
#include <QStringList>

namespace kvscope {

/// The `vllm serve` command that starts vLLM on a scenario: the model (its
/// HuggingFace repo id when the preset has one, else its path) and the engine
/// flags whose values differ from vLLM's defaults.
struct LaunchLine
{
    QStringList arguments; ///< "vllm", "serve", MODEL, then flag, value, flag, value...
    /// What kvscope plans that no vLLM flag can say (a float32 KV cache under
    /// --dtype bfloat16, a group size other than the checkpoint's...), one sentence
    /// each, translated where a translator is installed. Empty when the line says it all.
    QStringList caveats;

    /// The arguments shell-quoted on one line: vllm serve meta-llama/Llama-3.1-8B --kv-cache-dtype fp8
    QString command() const;
    /// command(), then each caveat on a line of its own as a shell comment ("# ...").
    QString text() const;
};

LaunchLine launchLine(const Scenario &scenario);

/// One argument as a POSIX shell reads it back: as it is when it holds only
/// safe characters, else in single quotes ('it'\''s').
QString shellQuote(const QString &argument);

} // namespace kvscope
