// SPDX-License-Identifier: MIT
// The memory a start-up log measured for one deployment ("calibrate from this log"): vLLM's
// weights, profiling peak, memory outside PyTorch and CUDA-graph estimate, SGLang's weights and
// the memory free when they load, planned as measured — in place of kvscope's estimates — for
// scenarios of the same deployment.
#pragma once

#include "core/common/scenariofield.h"
#include "core/scenario/scenariovalues.h"

#include <cstdint>
#include <optional>

#include <QList>
#include <QString>

namespace kvscope {

struct Scenario;

/// The options that decide the components a log measures: the model, GPU, engine and release,
/// the weights' precision, the parallel layout, the profiling run's size (max batched tokens,
/// running sequences), LoRA slots and the drafter. The rest — the utilization, lengths, batch,
/// KV cache precision — may change and the measurement still holds.
const QList<ScenarioField> &deploymentFields();

/// `s` as its deployment options (deploymentFields()), spelled as kvscope calc spells them.
ScenarioValues deploymentValues(const Scenario &s);

struct MeasuredMemory
{
    ScenarioValues deployment;         ///< the deployment the log ran (deploymentValues())
    std::int64_t weightsBytes = -1;    ///< "Model loading took"; -1: the log does not say
    std::int64_t activationBytes = -1; ///< "torch peak memory increase"
    std::int64_t nonTorchBytes = -1;   ///< "non-torch forward increase memory"
    std::int64_t cudaGraphBytes = -1;  ///< the CUDA-graph estimate taken out of the budget
    /// SGLang: the memory free when the weights begin to load ("Load weight begin. avail mem"), the
    /// total its --mem-fraction-static applies to; the rest of the GPU was in use before.
    std::int64_t freeAtLoadBytes = -1;
    QString source; ///< "vllm.log (vLLM 0.11.0, 2026-12-03)"

    /// Whether the log measured any component.
    bool measured() const;
    /// The first deployment option in which `s` differs from the log's, as "--tensor-parallel-size
    /// 2 (the scenario: 1)"; none when the measurement applies to `s`.
    std::optional<QString> mismatch(const Scenario &s) const;
    bool appliesTo(const Scenario &s) const { return measured() && !mismatch(s); }
    friend bool operator==(const MeasuredMemory &, const MeasuredMemory &) = default;
};

} // namespace kvscope
