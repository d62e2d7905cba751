// SPDX-License-Identifier: MIT
// What the explorer's charts draw, as CSV (the charts' "Copy data" and
// `kvscope export --out FILE.csv`): the core's exact byte figures, one row
// per bar segment or curve sample, a header row first.
#pragma once

#include "core/analysis/growth.h"
#include "core/output/breakdown.h"
#include "core/output/speedchart.h"
#include "core/output/stepbreakdown.h"
#include "core/plan/memoryplan.h"

#include <QByteArray>

namespace kvscope {

/// Columns part,bytes,beyond_budget_bytes,share_of_budget_bp: one row per
/// segment of the memory bar (weights, activations, overhead, kv_cache,
/// recurrent_state, headroom) with its whole size and the share of it past the
/// budget line, then budget, gpu_memory and, when the demand does not fit, overflow.
QByteArray breakdownCsv(const MemoryBreakdown &breakdown);

/// Columns kv_cache_dtype,sequence_length (or batch_size),kv_cache_bytes,
/// total_bytes,budget_bytes,current,line: every sample of every curve; current
/// is 1 on the rows of the scenario's own KV dtype; line is kv_cache, or
/// as_if_mha / as_if_all_layers_full for the counterfactual lines (KV alone,
/// at the plan's KV dtype, total_bytes empty).
QByteArray growthCsv(const GrowthChartData &data);

/// Columns kv_cache_dtype,batch_size,tokens_per_second,tokens_per_second_ideal,
/// ridge_batch,ridge_batch_ideal,fits_up_to,current: every sample of every
/// curve of the decode chart (tokens/s of all sequences; ridge -1 = none);
/// current is 1 on the rows of the scenario's own KV dtype. Only the header
/// when the GPU lacks a figure the roofline needs.
QByteArray speedCsv(const SpeedChartData &data);

/// Columns pass,term,seconds,share_of_pass: one row per segment of the speed
/// breakdown's bars (decode, then prefill; the terms that take time, keyed as
/// calc --json keys them), each pass closed by a row of term total. Only the
/// header when the GPU lacks a figure the step model needs.
QByteArray stepBreakdownCsv(const StepBreakdownChartData &data);

/// The figures of `kvscope calc --json` as CSV with columns key,value: one
/// row per key of planToJson() in its order, numbers as JSON writes them,
/// lists joined with "; ", fields with commas or quotes quoted.
QByteArray figuresCsv(const MemoryPlan &plan);

} // namespace kvscope
