// SPDX-License-Identifier: MIT
// kvscope --startup-probe: what tests/benchmarks/bench_startup.sh measures.
// The window prints the wall clock of its first paint, waits while idle,
// prints its resident memory and quits. Nothing else uses it.
#pragma once

class QWidget;

namespace kvscope {

/// After `window`'s first paint: "first_paint_epoch_ms N" on stdout; after
/// `idleMs` more of an idle event loop: "idle_rss_kb N" (Linux: VmRSS of
/// /proc/self/status; 0 elsewhere), then the application exits with 0.
void installStartupProbe(QWidget &window, int idleMs = 2000);

} // namespace kvscope
