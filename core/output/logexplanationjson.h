// SPDX-License-Identifier: MIT
#pragma once

#include <QJsonObject>

namespace kvscope {

struct LogExplanation;

/// `kvscope explain-log --json`: what was read and assumed, the scenario's options,
/// each component logged beside planned (bytes), the KV cache's tokens and
/// concurrency, the explanation and the levers (docs/user-guide.md, "Explain a log").
QJsonObject logExplanationJson(const LogExplanation &explanation);

} // namespace kvscope
