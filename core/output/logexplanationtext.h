// SPDX-License-Identifier: MIT
#pragma once

#include <QString>

namespace kvscope {

struct LogExplanation;

/// `kvscope explain-log` as text, and the window's "Explain a start-up log": what
/// was read and assumed, the calc line that plans it, each component per GPU
/// logged beside planned with the difference (one outside its tolerance says
/// "differs"), the KV cache's tokens and concurrency, why the cache has that size
/// and what would hold more, each with its launch line.
QString logExplanationText(const LogExplanation &explanation);

} // namespace kvscope
