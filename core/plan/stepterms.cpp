// SPDX-License-Identifier: MIT
#include "core/plan/stepterms.h"

#include "core/common/enumtable.h"

#include <numeric>

#include <QCoreApplication>

namespace kvscope {

namespace {

const EnumSpelling<StepTerm> stepTermKeys[] = {
    {StepTerm::Weights, "weights"},
    {StepTerm::Dequantization, "dequantization"},
    {StepTerm::KvCache, "kv_cache"},
    {StepTerm::KvDequantization, "kv_dequantization"},
    {StepTerm::Compute, "compute"},
    {StepTerm::VisionEncoder, "vision_encoder"},
    {StepTerm::AllReduce, "all_reduce"},
    {StepTerm::AllToAll, "all_to_all"},
    {StepTerm::PipelineTransfer, "pipeline_transfer"},
    {StepTerm::PipelineWait, "pipeline_wait"},
    {StepTerm::MoeOverhead, "moe_overhead"},
    {StepTerm::StepOverhead, "step_overhead"},
    {StepTerm::SequenceOverhead, "sequence_overhead"},
    {StepTerm::RequestOverhead, "request_overhead"},
};

struct TermLabel
{
    StepTerm term;
    const char *label;
};

const TermLabel stepTermLabels[] = {
    {StepTerm::Weights, QT_TRANSLATE_NOOP("kvscope::StepTerm", "Weights read")},
    {StepTerm::Dequantization, QT_TRANSLATE_NOOP("kvscope::StepTerm", "Dequantization")},
    {StepTerm::KvCache, QT_TRANSLATE_NOOP("kvscope::StepTerm", "KV cache read")},
    {StepTerm::KvDequantization, QT_TRANSLATE_NOOP("kvscope::StepTerm", "KV dequantization")},
    {StepTerm::Compute, QT_TRANSLATE_NOOP("kvscope::StepTerm", "Compute beyond the reads")},
    {StepTerm::VisionEncoder, QT_TRANSLATE_NOOP("kvscope::StepTerm", "Vision encoder")},
    {StepTerm::AllReduce, QT_TRANSLATE_NOOP("kvscope::StepTerm", "Tensor-parallel all-reduce")},
    {StepTerm::AllToAll, QT_TRANSLATE_NOOP("kvscope::StepTerm", "Token exchange between ranks")},
    {StepTerm::PipelineTransfer, QT_TRANSLATE_NOOP("kvscope::StepTerm", "Pipeline stage handover")},
    {StepTerm::PipelineWait, QT_TRANSLATE_NOOP("kvscope::StepTerm", "Wait for the busiest stage")},
    {StepTerm::MoeOverhead, QT_TRANSLATE_NOOP("kvscope::StepTerm", "MoE routing")},
    {StepTerm::StepOverhead, QT_TRANSLATE_NOOP("kvscope::StepTerm", "Engine, per step")},
    {StepTerm::SequenceOverhead, QT_TRANSLATE_NOOP("kvscope::StepTerm", "Engine, per sequence")},
    {StepTerm::RequestOverhead, QT_TRANSLATE_NOOP("kvscope::StepTerm", "Engine, per new request")},
};

} // namespace

double StepBreakdown::total() const
{
    return std::accumulate(seconds.begin(), seconds.end(), 0.0);
}

QString stepTermKey(StepTerm term)
{
    return enumName(stepTermKeys, term);
}

const char *stepTermLabel(StepTerm term)
{
    for (const TermLabel &entry : stepTermLabels)
        if (entry.term == term)
            return entry.label;
    return "";
}

} // namespace kvscope
