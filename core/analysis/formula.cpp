// SPDX-License-Identifier: MIT
#include "core/analysis/formula.h"

#include "core/common/checked.h"
#include "core/common/error.h"
#include "core/common/scenariofield.h"
#include "core/common/units.h"
#include "core/engine/engine.h"
#include "core/engine/runtime.h"
#include "core/engine/sglang.h"
#include "core/plan/all2all.h"
#include "core/plan/cudagraphmemory.h"
#include "core/plan/expertparallel.h"
#include "core/plan/kvcache.h"
#include "core/plan/pipelineparallel.h"
#include "core/plan/planner.h"
#include "core/plan/speculativedecoding.h"
#include "core/plan/speed.h"
#include "core/plan/speedconstants.h"
#include "core/scenario/scenario.h"

#include <cmath>
#include <optional>

#include <QCoreApplication>

namespace kvscope {

/// The translation context of the sheet's notes (lupdate reads Formula::tr).
class Formula
{
    Q_DECLARE_TR_FUNCTIONS(kvscope::Formula)
};

namespace {

/// A number with at most `decimals` decimals, trailing zeros dropped: 4.15625 -> "4.156" (3).
QString decimalText(double value, int decimals)
{
    QString text = QString::number(value, 'f', decimals);
    if (text.contains(QLatin1Char('.'))) {
        while (text.endsWith(QLatin1Char('0')))
            text.chop(1);
        if (text.endsWith(QLatin1Char('.')))
            text.chop(1);
    }
    return text;
}

/// Exact bytes, with the binary unit beside them from 1 MiB on: "17,179,869,184 B (16.00 GiB)".
QString exactBytesText(std::int64_t bytes)
{
    QString text = formatCount(bytes) + QStringLiteral(" B");
    if (bytes >= MiB || bytes <= -MiB)
        text += QStringLiteral(" (%1)").arg(formatBytes(bytes));
    return text;
}

FormulaTerm count(const QString &symbol, std::int64_t value, std::optional<ScenarioField> option,
                  const QString &field = {}, TermUnit unit = TermUnit::Count)
{
    return {symbol, formatCount(value), value, double(value), unit, option, field};
}

/// A count that can be fractional (an expected share): shown rounded, evaluated exactly.
FormulaTerm expectedCount(const QString &symbol, double value, std::optional<ScenarioField> option,
                          const QString &field = {})
{
    const std::int64_t shown = std::llround(value);
    return {symbol, formatCount(shown), shown, value, TermUnit::Count, option, field};
}

FormulaTerm bytes(const QString &symbol, std::int64_t value, std::optional<ScenarioField> option,
                  const QString &field = {})
{
    return {symbol, exactBytesText(value), value, double(value), TermUnit::Bytes, option, field};
}

/// Bytes at budget scale: "79.19 GiB".
FormulaTerm memory(const QString &symbol, std::int64_t value, std::optional<ScenarioField> option,
                   const QString &field = {})
{
    return {symbol, formatGiB(value), value, double(value), TermUnit::Bytes, option, field};
}

/// A share held in millionths, with at least two decimals: "0.90".
FormulaTerm ratio(const QString &symbol, std::int64_t ppm, std::optional<ScenarioField> option,
                  const QString &field = {})
{
    QString text = formatUtilization(ppm);
    if (!text.contains(QLatin1Char('.')))
        text += QLatin1Char('.');
    while (text.size() - text.indexOf(QLatin1Char('.')) < 3)
        text += QLatin1Char('0');
    return {symbol, text, 0, double(ppm) / 1e6, TermUnit::Ratio, option, field};
}

FormulaTerm bits(const QString &symbol, double value, std::optional<ScenarioField> option,
                 const QString &field = {}, int decimals = 5)
{
    return {symbol, decimalText(value, decimals), 0, value, TermUnit::Bits, option, field};
}

FormulaTerm parameters(const QString &symbol, std::int64_t value, std::optional<ScenarioField> option,
                       const QString &field = {})
{
    return {symbol, formatParameterCount(value), value, double(value), TermUnit::Parameters, option, field};
}

/// A duration: "5.59 ms".
FormulaTerm seconds(const QString &symbol, double value, std::optional<ScenarioField> option = {},
                    const QString &field = {})
{
    return {symbol, formatDuration(value), 0, value, TermUnit::Seconds, option, field};
}

/// Bytes as bandwidths count them, GB = 10^9 B: "16.06 GB" (value holds them exactly).
FormulaTerm gigabytes(const QString &symbol, std::int64_t value, std::optional<ScenarioField> option,
                      const QString &field)
{
    return {symbol,
            decimalText(double(value) / 1e9, 2) + QStringLiteral(" GB"),
            value,
            double(value),
            TermUnit::Bytes,
            option,
            field};
}

/// A bandwidth given in GB/s: "3,350 GB/s".
FormulaTerm bandwidth(const QString &symbol, double gigabytesPerSecond, std::optional<ScenarioField> option,
                      const QString &field)
{
    const double whole = std::round(gigabytesPerSecond);
    const QString text =
        whole == gigabytesPerSecond ? formatCount(std::int64_t(whole)) : decimalText(gigabytesPerSecond, 1);
    return {
        symbol, text + QStringLiteral(" GB/s"), 0, gigabytesPerSecond * 1e9, TermUnit::BytesPerSecond, option,
        field};
}

/// A share or a cost per second held as a double: "0.857".
FormulaTerm share(const QString &symbol, double value, std::optional<ScenarioField> option,
                  const QString &field)
{
    return {symbol, decimalText(value, 3), 0, value, TermUnit::Ratio, option, field};
}

/// Builds one line token by token; the symbolic and the substituted form come
/// from the same tokens, so they always have the same shape.
class LineBuilder
{
public:
    LineBuilder(FormulaSection section, const QString &name)
    {
        m_line.section = section;
        m_line.name = name;
    }

    LineBuilder &op(const QString &text)
    {
        m_line.tokens.append({text, -1});
        return *this;
    }
    LineBuilder &op(const char *text) { return op(QString::fromUtf8(text)); }

    LineBuilder &term(const FormulaTerm &term)
    {
        m_line.terms.append(term);
        m_line.tokens.append({QString(), int(m_line.terms.size() - 1)});
        return *this;
    }

    /// The result of an earlier line, as a term of this one.
    LineBuilder &term(const FormulaLine &earlier)
    {
        FormulaTerm t = earlier.result;
        t.option.reset();
        return term(t);
    }

    bool empty() const { return m_line.tokens.isEmpty(); }

    FormulaLine result(FormulaTerm result, const QString &note = {})
    {
        result.symbol = m_line.name;
        m_line.result = std::move(result);
        m_line.note = note;
        return m_line;
    }

private:
    FormulaLine m_line;
};

/// Everything the KV lines share: the plan's structure as terms.
struct KvTerms
{
    FormulaTerm layers;    ///< layers that hold a per-token cache
    FormulaTerm heads;     ///< KV heads of one GPU (model's, or per GPU under TP)
    FormulaTerm precision; ///< bytes per cached value
    FormulaTerm batch;
    FormulaTerm seqLen;
    FormulaTerm blockSize; ///< effective block size
};

FormulaTerm precisionTerm(const MemoryPlan &plan)
{
    const double bytesPerValue = plan.kv.bitsPerElement / 8;
    const QString field = QStringLiteral("%1: %2 bits per value")
                              .arg(dtypeName(plan.kvCacheDtype), decimalText(plan.kv.bitsPerElement, 2));
    if (plan.kv.bytesPerElement > 0)
        return count(QStringLiteral("precision_bytes"), plan.kv.bytesPerElement, ScenarioField::KvCacheDtype,
                     field);
    return {QStringLiteral("precision_bytes"),
            decimalText(bytesPerValue, 5),
            0,
            bytesPerValue,
            TermUnit::Bytes,
            ScenarioField::KvCacheDtype,
            field};
}

/// Appends what one token holds in one layer on one GPU: 2 × heads × head_dim × bytes,
/// heads × (head_dim + v_head_dim) × bytes, or the MLA latent (kv_lora_rank + qk_rope_head_dim) × bytes.
void appendPerLayer(LineBuilder &line, const MemoryPlan &plan, const KvTerms &t)
{
    const KvCacheMemory &kv = plan.kv;
    if (kv.mlaLatentRank > 0) {
        line.op("(")
            .term(count(QStringLiteral("kv_lora_rank"), kv.mlaLatentRank, ScenarioField::Model,
                        QStringLiteral("kv_lora_rank")))
            .op(" + ")
            .term(count(QStringLiteral("qk_rope_head_dim"), kv.mlaRopeDim, ScenarioField::Model,
                        QStringLiteral("qk_rope_head_dim")))
            .op(") × ")
            .term(t.precision);
        return;
    }
    if (kv.keyHeadDim == kv.valueHeadDim) {
        line.op("2 × ")
            .term(t.heads)
            .op(" × ")
            .term(count(QStringLiteral("head_dim"), kv.keyHeadDim, ScenarioField::Model,
                        QStringLiteral("head_dim")))
            .op(" × ")
            .term(t.precision);
        return;
    }
    line.term(t.heads)
        .op(" × (")
        .term(count(QStringLiteral("head_dim"), kv.keyHeadDim, ScenarioField::Model,
                    QStringLiteral("head_dim")))
        .op(" + ")
        .term(count(QStringLiteral("v_head_dim"), kv.valueHeadDim, ScenarioField::Model,
                    QStringLiteral("v_head_dim")))
        .op(") × ")
        .term(t.precision);
}

/// The per-layer expression cannot be written inline for DeepSeek sparse attention:
/// its latent may be fp8_ds_mla and an indexer key joins it.
bool perLayerInline(const MemoryPlan &plan)
{
    return plan.kv.indexerKeyBytes == 0;
}

/// "2 × 8 × 128 × 2 = 4,096 B", or the latent plus the indexer key.
FormulaLine perLayerLine(const MemoryPlan &plan, const KvTerms &t)
{
    const KvCacheMemory &kv = plan.kv;
    LineBuilder line(FormulaSection::KvCache, QStringLiteral("kv_bytes_per_layer"));
    if (perLayerInline(plan)) {
        appendPerLayer(line, plan, t);
    } else {
        const std::int64_t latent = kv.bytesPerTokenPerLayer - kv.indexerKeyBytes;
        if (kv.fp8DsMla)
            line.term(bytes(QStringLiteral("fp8_ds_mla_bytes"), latent, ScenarioField::KvCacheDtype,
                            QStringLiteral("kv_lora_rank FP8 values, a float32 scale per 128, "
                                           "qk_rope_head_dim bf16 values")));
        else
            appendPerLayer(line, plan, t);
        line.op(" + ").term(bytes(QStringLiteral("indexer_key_bytes"), kv.indexerKeyBytes,
                                  ScenarioField::Model,
                                  QStringLiteral("index_head_dim FP8 values + a float32 scale per 128")));
    }
    QString note;
    if (kv.mlaLatentRank > 0)
        note =
            kv.headsReplicated
                ? Formula::tr(
                      "MLA: one compressed latent per token and layer instead of keys and values per head, "
                      "replicated on every GPU")
                : Formula::tr(
                      "MLA: one compressed latent per token and layer instead of keys and values per head");
    else
        note = kv.headsReplicated
                   ? Formula::tr("K and V of one token in one layer on one GPU; more GPUs than KV heads, "
                                 "so each GPU holds a replicated head")
                   : Formula::tr("K and V of one token in one layer on one GPU");
    return line.result(bytes(QString(), kv.bytesPerTokenPerLayer, {}), note);
}

FormulaLine perTokenLine(const MemoryPlan &plan, const KvTerms &t, const FormulaLine &perLayer)
{
    LineBuilder line(FormulaSection::KvCache, QStringLiteral("kv_bytes_per_token"));
    line.term(t.layers).op(" × ").term(perLayer);
    return line.result(
        bytes(QString(), plan.kv.bytesPerToken, {}),
        Formula::tr("every layer that keeps a per-token cache, before windows and whole blocks"));
}

/// batch × tokens × bytes per token, or -1 past 2^63 (the formula still reads, the value does not fit).
std::int64_t product(std::initializer_list<std::int64_t> factors)
{
    try {
        Checked p = 1;
        for (std::int64_t f : factors)
            p *= f;
        return p.value();
    } catch (const Error &) {
        return -1;
    }
}

FormulaTerm productResult(std::int64_t value)
{
    if (value >= 0)
        return bytes(QString(), value, {});
    return {QString(), QStringLiteral("> 2^63 B"), -1, 0, TermUnit::Bytes, {}, {}};
}

/// The formula as it is usually written, every caching layer holding every token.
FormulaLine usualFormulaLine(const MemoryPlan &plan, const KvTerms &t, const FormulaLine &perLayer,
                             bool exceptions)
{
    LineBuilder line(FormulaSection::KvCache, QStringLiteral("total_bytes"));
    line.term(t.batch).op(" × ").term(t.seqLen).op(" × ").term(t.layers).op(" × ");
    if (perLayerInline(plan))
        appendPerLayer(line, plan, t);
    else
        line.term(perLayer);
    const std::int64_t value = product({plan.rankBatchSize, plan.seqLen, plan.kv.bytesPerToken});
    return line.result(
        productResult(value),
        exceptions ? Formula::tr("the usual formula, as if every layer held every token; the lines "
                                 "below say what these layers really keep")
                   : Formula::tr("the usual formula: every layer holds every token of every sequence"));
}

/// Full, sliding and chunked layers, each with the tokens it keeps.
QList<FormulaLine> windowLines(const Scenario &s, const MemoryPlan &plan, const KvTerms &t,
                               const FormulaLine &perLayer)
{
    const KvCacheMemory &kv = plan.kv;
    QList<FormulaLine> lines;
    LineBuilder sum(FormulaSection::KvCache, QStringLiteral("token_bytes"));
    const auto add = [&](const FormulaLine &line) {
        if (!lines.isEmpty())
            sum.op(" + ");
        sum.term(line);
        lines << line;
    };
    std::int64_t total = 0;
    if (kv.fullLayers > 0) {
        LineBuilder line(FormulaSection::KvCache, QStringLiteral("full_layers_bytes"));
        line.term(t.batch).op(" × ").term(t.seqLen).op(" × ");
        line.term(count(QStringLiteral("full_layers"), kv.fullLayers, ScenarioField::Model,
                        QStringLiteral("layers with full attention")));
        line.op(" × ").term(perLayer);
        const std::int64_t value =
            product({plan.rankBatchSize, plan.seqLen, kv.fullLayers, kv.bytesPerTokenPerLayer});
        total = value < 0 || total < 0 ? -1 : total + value;
        add(line.result(productResult(value), Formula::tr("full-attention layers keep every token")));
    }
    if (kv.slidingLayers > 0) {
        LineBuilder line(FormulaSection::KvCache, QStringLiteral("sliding_layers_bytes"));
        line.term(t.batch).op(" × min(").term(t.seqLen).op(", ");
        line.term(count(QStringLiteral("sliding_window"), kv.slidingWindow, ScenarioField::Model,
                        QStringLiteral("sliding_window"), TermUnit::Tokens));
        line.op(") × ").term(count(QStringLiteral("sliding_layers"), kv.slidingLayers, ScenarioField::Model,
                                   QStringLiteral("layers with sliding-window attention")));
        line.op(" × ").term(perLayer);
        const std::int64_t kept = std::min<std::int64_t>(plan.seqLen, kv.slidingWindow);
        const std::int64_t value =
            product({plan.rankBatchSize, kept, kv.slidingLayers, kv.bytesPerTokenPerLayer});
        total = value < 0 || total < 0 ? -1 : total + value;
        add(line.result(productResult(value),
                        Formula::tr("sliding-window layers keep only the last window of tokens")));
    }
    if (kv.chunkedLayers > 0) {
        LineBuilder line(FormulaSection::KvCache, QStringLiteral("chunked_layers_bytes"));
        line.term(t.batch).op(" × ((").term(t.seqLen).op(" − 1) mod ");
        line.term(count(QStringLiteral("attention_chunk_size"), kv.attentionChunkSize, ScenarioField::Model,
                        QStringLiteral("attention_chunk_size"), TermUnit::Tokens));
        line.op(" + 1) × ")
            .term(count(QStringLiteral("chunked_layers"), kv.chunkedLayers, ScenarioField::Model,
                        QStringLiteral("layers with chunked local attention")));
        line.op(" × ").term(perLayer);
        const std::int64_t kept = (plan.seqLen - 1) % kv.attentionChunkSize + 1;
        const std::int64_t value =
            product({plan.rankBatchSize, kept, kv.chunkedLayers, kv.bytesPerTokenPerLayer});
        total = value < 0 || total < 0 ? -1 : total + value;
        add(line.result(productResult(value),
                        Formula::tr("chunked layers keep only the tokens of the current chunk")));
    }
    Q_UNUSED(s);
    if (lines.size() > 1)
        lines << sum.result(productResult(total), Formula::tr("what the layers keep, before whole blocks"));
    return lines;
}

/// The fixed state of Mamba-2 / Gated DeltaNet layers.
QList<FormulaLine> recurrentLines(const MemoryPlan &plan, const KvTerms &t)
{
    const KvCacheMemory &kv = plan.kv;
    LineBuilder perLayer(FormulaSection::KvCache, QStringLiteral("state_bytes_per_layer"));
    perLayer
        .term(bytes(QStringLiteral("conv_state_bytes"), kv.stateConvBytesPerLayer, ScenarioField::Dtype,
                    QStringLiteral("(conv kernel − 1) × conv width / TP × %1 bytes")
                        .arg(dtypeName(plan.mambaCacheDtype))))
        .op(" + ")
        .term(bytes(QStringLiteral("ssm_state_bytes"), kv.stateSsmBytesPerLayer,
                    ScenarioField::MambaSsmCacheDtype,
                    QStringLiteral("heads / TP × head dim × state size × %1 bytes")
                        .arg(dtypeName(plan.mambaSsmCacheDtype))));
    const FormulaLine perLayerLine =
        perLayer.result(bytes(QString(), kv.stateBytesPerLayer, {}),
                        Formula::tr("one recurrent layer's state for one sequence"));
    LineBuilder state(FormulaSection::KvCache, QStringLiteral("state_bytes"));
    state.term(t.batch)
        .op(" × ")
        .term(count(QStringLiteral("recurrent_layers"), kv.recurrentLayers, ScenarioField::Model,
                    QStringLiteral("Mamba-2 / Gated DeltaNet layers")))
        .op(" × ")
        .term(perLayerLine);
    return {
        perLayerLine,
        state.result(productResult(product({plan.rankBatchSize, kv.stateBytesPerSequence})),
                     Formula::tr("fixed per sequence: the state does not grow with the sequence length"))};
}

/// Appends "kind_groups × blocks" for each kind of group the model has: full
/// groups as ceil(tokens / block_size), the others as the blocks one group holds.
void appendGroupBlocks(LineBuilder &line, const KvCacheMemory &kv, const GroupBlocks &perGroup,
                       const FormulaTerm &tokens, const FormulaTerm &blockSize, const QString &windowField,
                       const QString &chunkField)
{
    struct Kind
    {
        const char *groups;
        int count;
        const char *blocks;
        std::int64_t perGroup;
        QString field;
    };
    const Kind kinds[] = {
        {"full_groups", kv.fullGroups, nullptr, perGroup.full, {}},
        {"sliding_groups", kv.slidingGroups, "window_blocks", perGroup.sliding, windowField},
        {"chunked_groups", kv.chunkedGroups, "chunk_blocks", perGroup.chunked, chunkField},
        {"recurrent_groups", kv.recurrentGroups, "state_blocks", perGroup.recurrent,
         QStringLiteral("one state block per sequence")},
    };
    int present = 0;
    for (const Kind &kind : kinds)
        present += kind.count > 0 ? 1 : 0;
    bool first = true;
    for (const Kind &kind : kinds) {
        if (kind.count == 0)
            continue;
        if (!first)
            line.op(" + ");
        first = false;
        if (present > 1 || kind.count > 1)
            line.term(count(QLatin1String(kind.groups), kind.count, ScenarioField::Model,
                            QStringLiteral("KV cache groups of this kind")))
                .op(" × ");
        if (!kind.blocks)
            line.op("ceil(").term(tokens).op(" / ").term(blockSize).op(")");
        else
            line.term(count(QLatin1String(kind.blocks), kind.perGroup, {}, kind.field));
    }
}

/// vLLM's pages, blocks per sequence, and the cache as it is allocated.
/// The full blocks of a shared prefix, which the prefix cache holds once.
FormulaTerm sharedPrefixTerm(std::int64_t blocks)
{
    return count(
        QStringLiteral("shared_prefix_blocks"), blocks, ScenarioField::SharedPrefixLen,
        QStringLiteral("full blocks of %1, held once").arg(optionFlag(ScenarioField::SharedPrefixLen)));
}

FormulaTerm groupSizeTerm(const KvCacheMemory &kv)
{
    return count(QStringLiteral("group_size"), kv.groupSize, ScenarioField::Model,
                 QStringLiteral("layer slots per KV cache group"));
}

/// " + block_size × dequant_workspace_bytes" where the pool keeps a workspace per token beyond its
/// layers' pages (SGLang's FP4 cache); nothing otherwise.
void appendWorkspace(LineBuilder &line, const KvCacheMemory &kv, const FormulaTerm &blockSize)
{
    if (kv.workspaceBytesPerToken == 0)
        return;
    line.op(" + ").term(blockSize).op(" × ").term(bytes(
        QStringLiteral("dequant_workspace_bytes"), kv.workspaceBytesPerToken, ScenarioField::KvCacheDtype,
        QStringLiteral("the FP4 prefill's FP8 K and V of one layer per token, shared by the layers "
                       "(SGLang's cell_size)")));
}

/// SGLang's hybrid SWA pool (HybridSWAPoolConfigurator): its --swa-full-tokens-ratio.
FormulaTerm swaRatioTerm(const KvCacheMemory &kv)
{
    return ratio(QStringLiteral("swa_full_tokens_ratio"), kv.swaPoolRatioPpm,
                 ScenarioField::SwaFullTokensRatio,
                 QStringLiteral("SGLang's window pool over its full pool, in tokens (default 0.8)"));
}

/// "max(tokens, ceil(min(tokens, window) / swa_full_tokens_ratio))": the full-pool tokens a request
/// takes up, or its window tokens over the ratio when the window pool binds first.
void appendSwaBlocks(LineBuilder &line, const KvCacheMemory &kv, const FormulaTerm &tokens)
{
    line.op("max(")
        .term(tokens)
        .op(", ceil(min(")
        .term(tokens)
        .op(", ")
        .term(count(QStringLiteral("window"), kv.swaWindowTokens, ScenarioField::Model,
                    QStringLiteral("tokens a window layer keeps of a request"), TermUnit::Tokens))
        .op(") / ")
        .term(swaRatioTerm(kv))
        .op("))");
}

/// SGLang's cell_size: "(full_layers × page + swa_full_tokens_ratio × window_layers × page)".
void appendSwaCell(LineBuilder &line, const KvCacheMemory &kv, const FormulaLine &page)
{
    line.op("(")
        .term(count(QStringLiteral("full_layers"), kv.fullLayers, ScenarioField::Model,
                    QStringLiteral("full-attention layers: every token")))
        .op(" × ")
        .term(page)
        .op(" + ")
        .term(swaRatioTerm(kv))
        .op(" × ")
        .term(count(QStringLiteral("window_layers"), kv.slidingLayers + kv.chunkedLayers,
                    ScenarioField::Model,
                    QStringLiteral("sliding-window or chunked layers, in the window pool")))
        .op(" × ")
        .term(page)
        .op(")");
}

QList<FormulaLine> allocationLines(const Scenario &s, const MemoryPlan &plan, const KvTerms &t,
                                   const FormulaLine &perLayer)
{
    const KvCacheMemory &kv = plan.kv;
    QList<FormulaLine> lines;
    const bool attentionPage =
        kv.cacheLayers > 0 && kv.pageBytes == plan.blockSize * kv.bytesPerTokenPerLayer;
    LineBuilder page(FormulaSection::KvCache, QStringLiteral("page_bytes"));
    if (attentionPage)
        page.term(t.blockSize).op(" × ").term(perLayer);
    else
        page.term(bytes(QStringLiteral("state_page_bytes"), kv.pageBytes, {}));
    const QString engine = engineDisplayName(plan.engine);
    QString pageNote = Formula::tr("one block of one layer: the unit %1 allocates").arg(engine);
    if (kv.recurrentLayers > 0 && attentionPage)
        pageNote = Formula::tr("one block of one layer; %1 raises the block size until one page holds a "
                               "recurrent state, and pads the state to the page")
                       .arg(engine);
    lines << page.result(bytes(QString(), kv.pageBytes, {}), pageNote);

    // The drafter's layers share the pool; a running request holds slots beyond its tokens.
    const PlanCache pool =
        planCache(poolModel(s, kv.draftLayers), plan, kvCacheOptions(s, plan.dtype, plan.kvCacheDtype));
    const std::int64_t tokensHeld = heldTokens(plan.seqLen, kv.speculativeSlots, plan.maxModelLen);
    const FormulaTerm held =
        tokensHeld != plan.seqLen
            ? count(QStringLiteral("held_tokens"), tokensHeld, ScenarioField::SpeculativeConfig,
                    QStringLiteral("sequence_length + %1 speculative slots (the drafts verified and written "
                                   "ahead), at most max_model_len")
                        .arg(kv.speculativeSlots),
                    TermUnit::Tokens)
            : t.seqLen;
    const bool swaSplit = kv.swaPoolRatioPpm > 0;
    LineBuilder blocks(FormulaSection::KvCache, QStringLiteral("blocks_per_sequence"));
    if (swaSplit)
        appendSwaBlocks(blocks, kv, held);
    else
        appendGroupBlocks(blocks, kv, sequenceBlocksPerGroup(pool.model, pool.layout, tokensHeld), held,
                          t.blockSize,
                          QStringLiteral("blocks the last min(seq_len, sliding_window) tokens touch"),
                          QStringLiteral("blocks of the current chunk"));
    lines << blocks.result(
        count(QString(), kv.blocksPerSequence, {}, {}, TermUnit::Count),
        swaSplit
            ? Formula::tr("full-pool tokens a sequence takes up: its tokens, or its window's over the ratio "
                          "when SGLang's window pool fills first")
            : Formula::tr("whole blocks: a sequence holds ceil(tokens / block size) of them in each group"));
    if (swaSplit) {
        LineBuilder cache(FormulaSection::KvCache, QStringLiteral("kv_cache_bytes"));
        cache.op("ceil(").term(t.batch).op(" × ").term(lines.last()).op(" × ");
        appendSwaCell(cache, kv, lines.first());
        cache.op(")");
        lines << cache.result(
            bytes(QString(), kv.cacheBytes, {}),
            Formula::tr("as SGLang allocates it: a full pool and a window pool of its tokens "
                        "× the ratio, one cell_size a full-pool token"));
        return lines;
    }

    LineBuilder cache(FormulaSection::KvCache, QStringLiteral("kv_cache_bytes"));
    if (kv.sharedPrefixBlocks > 0) {
        // The shared prefix's full blocks are held once, the rest of each sequence is its own.
        const FormulaTerm shared = sharedPrefixTerm(kv.sharedPrefixBlocks);
        cache.op("(")
            .term(t.batch)
            .op(" × (")
            .term(lines.last())
            .op(" − ")
            .term(shared)
            .op(") + ")
            .term(shared)
            .op(")");
    } else {
        cache.term(t.batch).op(" × ").term(lines.last());
    }
    const bool workspace = kv.workspaceBytesPerToken > 0;
    cache.op(workspace ? " × (" : " × ").term(groupSizeTerm(kv)).op(" × ").term(lines.first());
    appendWorkspace(cache, kv, t.blockSize);
    if (workspace)
        cache.op(")");
    const QString note =
        kv.paddingLayers > 0
            ? Formula::tr(
                  "as %5 allocates it: %1 layers in %2 groups of %3 slots, %4 of them empty; one block "
                  "spans a page in every slot of a group")
                  .arg(kv.fullLayers + kv.slidingLayers + kv.chunkedLayers + kv.recurrentLayers)
                  .arg(kv.numGroups)
                  .arg(kv.groupSize)
                  .arg(kv.paddingLayers)
                  .arg(engine)
        : kv.numGroups > 1
            ? Formula::tr("as %3 allocates it: %1 groups of %2 layers; one block spans a page in "
                          "every layer of a group")
                  .arg(kv.numGroups)
                  .arg(kv.groupSize)
                  .arg(engine)
            : Formula::tr("as %1 allocates it: whole blocks in every layer").arg(engine);
    lines << cache.result(bytes(QString(), kv.cacheBytes, {}), note);
    return lines;
}

QList<FormulaLine> kvLines(const Scenario &s, const MemoryPlan &plan)
{
    const KvCacheMemory &kv = plan.kv;
    KvTerms t;
    const bool allLayers = kv.cacheLayers == s.model.numLayers + kv.draftLayers;
    const QString drafter =
        kv.draftLayers > 0 ? QStringLiteral(" + the drafter's %1").arg(kv.draftLayers) : QString();
    t.layers =
        count(allLayers ? QStringLiteral("num_layers") : QStringLiteral("cache_layers"), kv.cacheLayers,
              kv.draftLayers > 0 ? ScenarioField::SpeculativeConfig : ScenarioField::Model,
              allLayers ? QStringLiteral("num_hidden_layers") + drafter
                        : QStringLiteral("layers with a per-token cache (%1 of %2%3)")
                              .arg(kv.cacheLayers)
                              .arg(s.model.numLayers)
                              .arg(drafter));
    t.precision = precisionTerm(plan);
    // A data-parallel rank's cache holds its share of the deployment's batch.
    t.batch = count(QStringLiteral("batch_size"), plan.rankBatchSize, ScenarioField::BatchSize,
                    plan.dataParallelSize > 1 ? QStringLiteral("one of %1 data-parallel ranks' share of %2")
                                                    .arg(plan.dataParallelSize)
                                                    .arg(plan.batchSize)
                                              : QString(),
                    TermUnit::Sequences);
    // A request's images are tokens of its sequence: the term says how many of them there are.
    t.seqLen = count(QStringLiteral("sequence_length"), plan.seqLen, ScenarioField::SeqLen,
                     plan.imagesPerRequest > 0
                         ? QStringLiteral("%1 text + %2 images × %3 tokens (%4)")
                               .arg(formatCount(plan.seqLen - plan.imageTokensPerSequence),
                                    formatCount(plan.imagesPerRequest), formatCount(plan.imageTokensPerImage),
                                    optionFlag(ScenarioField::ImagesPerRequest))
                         : QString(),
                     TermUnit::Tokens);
    const QString raised = plan.blockSize != plan.requestedBlockSize
                               ? QStringLiteral("raised by vLLM from %2 %1")
                                     .arg(plan.requestedBlockSize)
                                     .arg(optionFlag(ScenarioField::BlockSize))
                               : QString();
    t.blockSize = count(QStringLiteral("block_size"), plan.blockSize, ScenarioField::BlockSize, raised,
                        TermUnit::Tokens);

    QList<FormulaLine> lines;
    t.heads = count(QStringLiteral("num_key_value_heads"), kv.numKvHeads, ScenarioField::Model,
                    QStringLiteral("num_key_value_heads"));
    if (kv.mlaLatentRank == 0 && plan.tensorParallelSize > 1) {
        LineBuilder heads(FormulaSection::KvCache, QStringLiteral("kv_heads_per_gpu"));
        heads.op("max(1, ")
            .term(t.heads)
            .op(" / ")
            .term(count(QStringLiteral("tensor_parallel_size"), plan.tensorParallelSize,
                        ScenarioField::TensorParallelSize))
            .op(")");
        lines << heads.result(count(QString(), kv.kvHeadsPerGpu, {}),
                              Formula::tr("tensor parallelism splits the KV heads over the GPUs"));
        t.heads = lines.last().result;
        t.heads.option = ScenarioField::TensorParallelSize;
    }
    const FormulaLine perLayer = perLayerLine(plan, t);
    lines << perLayer << perTokenLine(plan, t, perLayer);
    const bool windows = kv.slidingLayers + kv.chunkedLayers > 0;
    if (kv.cacheLayers > 0)
        lines << usualFormulaLine(plan, t, perLayer, windows || kv.recurrentLayers > 0);
    if (windows)
        lines << windowLines(s, plan, t, perLayer);
    if (kv.recurrentLayers > 0)
        lines << recurrentLines(plan, t);
    lines << allocationLines(s, plan, t, perLayer);
    return lines;
}

QList<FormulaLine> weightLines(const MemoryPlan &plan)
{
    const WeightMemory &w = plan.weights;
    QList<FormulaLine> lines;
    const FormulaTerm all = parameters(QStringLiteral("parameters"), plan.params.total, ScenarioField::Model);
    if (w.budgetUsesMeasured) {
        LineBuilder line(FormulaSection::Weights, QStringLiteral("bits_per_weight"));
        line.op("8 × ")
            .term(bytes(QStringLiteral("file_tensor_bytes"), w.checkpointBytes, ScenarioField::Model))
            .op(" / ")
            .term(parameters(QStringLiteral("parameters"), w.measuredParams, ScenarioField::Model));
        lines << line.result(
            bits(QString(), w.bitsPerWeight, {}, {}, 3),
            Formula::tr("measured from the file's tensors, each stored in its own block type"));
    } else if (w.quantizedParams > 0) {
        const double n = double(w.quantizedParams);
        const MatrixStorage &q = w.quantizedStorage;
        const bool grouped = plan.quantization.takesGroupSize();
        LineBuilder split(FormulaSection::Weights, QStringLiteral("quantized_bits_per_weight"));
        split.term(bits(QStringLiteral("value_bits"), 8.0 * double(q.values) / n, ScenarioField::Quantization,
                        QStringLiteral("the quantized weights themselves")));
        split.op(" + ").term(bits(QStringLiteral("scale_bits"), 8.0 * double(q.scales) / n,
                                  grouped ? ScenarioField::GroupSize : ScenarioField::Quantization,
                                  QStringLiteral("scales shared by a group, row, block or tensor")));
        if (q.zeros > 0)
            split.op(" + ").term(bits(QStringLiteral("zero_point_bits"), 8.0 * double(q.zeros) / n,
                                      ScenarioField::GroupSize, QStringLiteral("zero points of each group")));
        if (q.other > 0)
            split.op(" + ").term(bits(QStringLiteral("index_bits"), 8.0 * double(q.other) / n,
                                      ScenarioField::Quantization,
                                      QStringLiteral("GPTQ g_idx, compressed-tensors weight_shape")));
        lines << split.result(
            bits(QString(), w.quantizedBitsPerWeight, {}, {}, 3),
            Formula::tr("the quantized linear layers: weights plus the scales and zero points "
                        "stored with them"));

        LineBuilder share(FormulaSection::Weights, QStringLiteral("unquantized_share"));
        const FormulaTerm unquantized =
            parameters(QStringLiteral("unquantized_params"), w.unquantizedParams, ScenarioField::Quantization,
                       QStringLiteral("embeddings, lm_head, norms, biases, routers"));
        share.term(unquantized).op(" / ").term(all);
        const double shareValue = double(w.unquantizedParams) / double(plan.params.total);
        lines << share.result(
            {QString(),
             decimalText(100.0 * shareValue, 2) + QStringLiteral(" %"),
             0,
             shareValue,
             TermUnit::Ratio,
             {},
             {}},
            Formula::tr("parameters the method leaves in %1").arg(optionFlag(ScenarioField::Dtype)));

        LineBuilder whole(FormulaSection::Weights, QStringLiteral("bits_per_weight"));
        whole.op("(")
            .term(parameters(QStringLiteral("quantized_params"), w.quantizedParams,
                             ScenarioField::Quantization))
            .op(" × ")
            .term(lines.at(lines.size() - 2))
            .op(" + ")
            .term(unquantized)
            .op(" × ")
            .term(bits(QStringLiteral("unquantized_bits"),
                       8.0 * double(w.unquantizedBytes) /
                           double(std::max<std::int64_t>(1, w.unquantizedParams)),
                       ScenarioField::Dtype, dtypeName(plan.dtype)))
            .op(") / ")
            .term(all);
        lines << whole.result(bits(QString(), w.bitsPerWeight, {}, {}, 3),
                              Formula::tr("the whole model: the unquantized share pulls the average up"));
    } else {
        LineBuilder line(FormulaSection::Weights, QStringLiteral("bits_per_weight"));
        line.op("8 × ")
            .term(bytes(QStringLiteral("checkpoint_bytes"), w.checkpointBytes, ScenarioField::Dtype))
            .op(" / ")
            .term(all);
        lines << line.result(bits(QString(), w.bitsPerWeight, {}, {}, 3),
                             Formula::tr("unquantized: every weight in %2 %1")
                                 .arg(dtypeName(plan.dtype), optionFlag(ScenarioField::Dtype)));
    }
    LineBuilder perGpu(FormulaSection::Weights, QStringLiteral("weights_bytes"));
    perGpu
        .term(memory(QStringLiteral("parameter_bytes_per_gpu"), w.parameterBytesPerGpu(),
                     plan.tensorParallelSize > 1 ? ScenarioField::TensorParallelSize
                                                 : ScenarioField::Quantization,
                     QStringLiteral("this GPU's shards of every tensor")))
        .op(" + ")
        .term(memory(QStringLiteral("rotary_buffer_bytes"), w.buffersBytes, ScenarioField::Model,
                     QStringLiteral("max_position_embeddings × rotary_dim × %1 bytes")
                         .arg(dtypeName(w.buffersDtype))));
    if (w.loadSlackBytes > 0)
        perGpu.op(" + ").term(
            memory(QStringLiteral("allocator_segments"), w.loadSlackBytes, ScenarioField::Engine,
                   plan.engine == Engine::Sglang
                       ? QStringLiteral("what PyTorch's caching allocator holds around the tensors "
                                        "(SGLang measures the load by free GPU memory)")
                       : QStringLiteral("the caching allocator's blocks the tensors hold whole, split only "
                                        "when over 1 MiB would be left (vLLM's \"Model loading took\" "
                                        "is torch.cuda.memory_allocated())")));
    if (w.loraBytes > 0)
        perGpu.op(" + ").term(
            memory(QStringLiteral("lora_buffers"), w.loraBytes, ScenarioField::MaxLoras,
                   QStringLiteral("%1 × %2 × (rows + columns) of every wrapped attention, MLP, router "
                                  "and expert weight on this GPU × %3 bytes")
                       .arg(optionFlag(ScenarioField::MaxLoras), optionFlag(ScenarioField::MaxLoraRank),
                            dtypeName(plan.dtype))));
    if (w.eplbBytes > 0)
        perGpu.op(" + ").term(memory(
            QStringLiteral("eplb_state"), w.eplbBytes, ScenarioField::EnableEplb,
            QStringLiteral("one MoE layer's %1 local experts + int32 load counters of (window_size + 1) "
                           "× MoE layers × %2 physical experts + int64 expert maps")
                .arg(plan.localExperts)
                .arg(plan.localExperts * plan.expertParallelSize)));
    if (w.mxfp4ScaleCopyBytes > 0)
        perGpu.op(" + ").term(memory(
            QStringLiteral("mxfp4_scale_copy"), w.mxfp4ScaleCopyBytes, ScenarioField::Gpu,
            QStringLiteral("the expert scales' swizzled copy Hopper's Triton MXFP4 kernel reads, kept beside "
                           "the checkpoint's (rows padded to 256), and the expert biases in float32")));
    if (w.unpackedZeroPointBytes > 0)
        perGpu.op(" + ").term(memory(
            QStringLiteral("machete_zero_points"), w.unpackedZeroPointBytes, ScenarioField::Gpu,
            QStringLiteral("AWQ's zero points as vLLM's Machete kernel keeps them on Hopper, each group's "
                           "pre-scaled in %1 (2 bytes where the checkpoint packs 4 bits)")
                .arg(dtypeName(plan.dtype))));
    if (w.draftBytes > 0)
        perGpu.op(" + ").term(memory(QStringLiteral("draft_weights"), w.draftBytes,
                                     ScenarioField::SpeculativeConfig,
                                     QStringLiteral("the %1 drafter's own tensors on this GPU (the embedding "
                                                    "is the target's)")
                                         .arg(speculativeMethodName(plan.speculativeMethod))));
    lines << perGpu.result(
        memory(QString(), w.bytesPerGpu, {}),
        Formula::tr("what one GPU loads: its shards of the weights and the rotary tables"));
    return lines;
}

/// What comes before the KV cache, each term after `op` (the first too, unless it opens the
/// line): the weights; vLLM's profiling peak and overhead (SGLang keeps them outside its static
/// share); the CUDA graphs vLLM takes out of the budget.
void appendBeforeCache(LineBuilder &line, const MemoryPlan &plan, bool sglang, const char *op)
{
    if (!line.empty())
        line.op(op);
    line.term(memory(QStringLiteral("weights"), plan.weights.bytesPerGpu, ScenarioField::Quantization));
    if (!sglang)
        line.op(op)
            .term(memory(
                QStringLiteral("activations"), plan.activationBytes, ScenarioField::MaxNumBatchedTokens,
                plan.encoder.heldBytes > 0
                    ? QStringLiteral("peak of vLLM's profiling run: %1 dummy images' pixels (%2) and "
                                     "the larger of the vision tower's forward (%3) and the language "
                                     "model's with their encoder outputs (%4)")
                          .arg(formatCount(plan.encoder.items), formatGiB(plan.encoder.pixelBytes),
                               formatGiB(plan.encoder.towerPeakBytes), formatGiB(plan.encoder.heldBytes))
                    : QStringLiteral("peak of vLLM's profiling run")))
            .op(op)
            .term(memory(
                QStringLiteral("overhead"), plan.overheadBytes, ScenarioField::TensorParallelSize,
                QStringLiteral("CUDA context, NCCL buffers") +
                    (plan.allReduceRmsNormFused
                         ? QStringLiteral(", what vLLM's all-reduce + RMSNorm fusion holds over NVLink")
                         : QString()) +
                    (plan.all2allBufferBytes > 0
                         ? QStringLiteral(" and DeepEP's %1 buffer").arg(formatGiB(plan.all2allBufferBytes))
                         : QString())));
    if (plan.cudaGraphBytes > 0)
        line.op(op).term(memory(QStringLiteral("cuda_graphs"), plan.cudaGraphBytes,
                                ScenarioField::VllmVersion,
                                QStringLiteral("vLLM's CUDA-graph estimate, taken out of the budget")));
}

/// vLLM's CUDA-graph estimate as its profile makes it (core/plan/cudagraphmemory.h): the first capture once,
/// every further graph of either mode by the layers it holds. Only where the plan took that estimate (a
/// log's measured figure has no formula).
std::optional<FormulaLine> cudaGraphLine(const MemoryPlan &plan)
{
    const CudaGraphProfile &g = plan.cudaGraphProfile;
    if (!plan.cudaGraphsEstimated())
        return std::nullopt;
    LineBuilder line(FormulaSection::Capacity, QStringLiteral("cuda_graphs"));
    const QString eachLoraCase = g.loraCases > 1 ? QStringLiteral(", each without and with LoRA") : QString();
    line.term(
            bytes(QStringLiteral("first_capture"), g.firstCaptureBytes, ScenarioField::MaxNumSeqs,
                  g.splitBuffersBytes >= VllmPiecewiseFirstCaptureBytes
                      ? QStringLiteral("the largest FULL graph's FlashAttention 3 split buffers (32 splits)")
                      : QStringLiteral("the largest piecewise graph's first capture")))
        .op(" + (")
        .term(count(QStringLiteral("piecewise_graphs"), g.piecewiseGraphs, ScenarioField::MaxNumSeqs,
                    QStringLiteral("capture sizes up to min(2 × max_num_seqs, 512, max_num_batched_tokens)") +
                        eachLoraCase))
        .op(" − 1");
    if (g.fullGraphs > 0)
        line.op(" + ")
            .term(count(QStringLiteral("full_graphs"), g.fullGraphs, ScenarioField::MaxNumSeqs,
                        QStringLiteral("uniform-decode sizes up to max_num_seqs") + eachLoraCase))
            .op(" − 1");
    line.op(") × ")
        .term(count(QStringLiteral("layers"), g.layers, ScenarioField::Model,
                    QStringLiteral("decoder layers on this GPU")))
        .op(" × ")
        .term(bytes(QStringLiteral("graph_bytes_per_layer"), VllmCudaGraphBytesPerLayer, std::nullopt,
                    QStringLiteral("what a further graph holds per layer, fitted on vLLM 0.19 H100 logs")));
    return line.result(memory(QString(), plan.cudaGraphBytes, {}),
                       Formula::tr("vLLM's CUDA-graph estimate: the first capture, then the others"));
}

QList<FormulaLine> capacityLines(const Scenario &s, const MemoryPlan &plan, const FormulaLine &perLayer,
                                 const FormulaLine &cache)
{
    const KvCacheMemory &kv = plan.kv;
    QList<FormulaLine> lines;
    const bool sglang = plan.engine == Engine::Sglang;
    LineBuilder budget(FormulaSection::Capacity, QStringLiteral("budget"));
    if (sglang)
        // SGLang takes its share of what is free once the CUDA context and NCCL are up.
        budget.op("(")
            .term(memory(QStringLiteral("gpu_memory"), plan.gpuMemoryBytes, ScenarioField::Gpu, s.gpu.name))
            .op(" − ")
            .term(memory(QStringLiteral("preload"), plan.preloadBytes, ScenarioField::TensorParallelSize,
                         QStringLiteral("in use before the weights load: CUDA context, NCCL")))
            .op(") × ")
            .term(ratio(QStringLiteral("mem_fraction_static"), plan.memFractionStaticPpm,
                        ScenarioField::MemFractionStatic));
    else if (plan.kvCacheMemoryBytes > 0) {
        // A fixed KV cache: vLLM's budget is what comes before it plus the cache as given.
        appendBeforeCache(budget, plan, sglang, " + ");
        budget.op(" + ").term(memory(QStringLiteral("kv_cache_memory_bytes"), plan.kvCacheMemoryBytes,
                                     ScenarioField::KvCacheMemoryBytes));
    } else
        budget.term(memory(QStringLiteral("gpu_memory"), plan.gpuMemoryBytes, ScenarioField::Gpu, s.gpu.name))
            .op(" × ")
            .term(ratio(QStringLiteral("gpu_memory_utilization"), plan.gpuMemoryUtilizationPpm,
                        ScenarioField::GpuMemoryUtilization));
    lines << budget.result(
        memory(QString(), plan.budgetBytes, {}),
        sglang ? Formula::tr("SGLang's static share: the weights and its token pool")
        : plan.kvCacheMemoryBytes > 0
            ? Formula::tr("what vLLM uses: everything before the KV cache and the cache as given")
            : Formula::tr("the share of GPU memory vLLM may use"));

    // SGLang's state pool comes out of the rest first (handle_max_mamba_cache).
    const qsizetype budgetLine = lines.size() - 1;
    std::optional<qsizetype> statePoolLine;
    if (kv.statePoolSlots > 0) {
        const FormulaTerm share =
            ratio(QStringLiteral("mamba_full_memory_ratio"), SglangMambaFullMemoryRatioPpm, std::nullopt,
                  QStringLiteral("SGLang's state memory for every 1 of KV pool"));
        const FormulaTerm perRequest =
            bytes(QStringLiteral("state_bytes_per_request"), kv.stateBytesPerSequence, ScenarioField::Model,
                  QStringLiteral("every recurrent layer's conv window (bfloat16) and matrices (float32)"));
        LineBuilder slots(FormulaSection::Capacity, QStringLiteral("state_pool_slots"));
        slots.op("floor((").term(lines.at(budgetLine));
        appendBeforeCache(slots, plan, sglang, " − ");
        slots.op(") × ").term(share).op(" / (1 + ").term(share).op(") / ").term(perRequest).op(")");
        lines << slots.result(count(QString(), kv.statePoolSlots, {}),
                              Formula::tr("requests' recurrent states in SGLang's state pool"));
        LineBuilder pool(FormulaSection::Capacity, QStringLiteral("state_pool_bytes"));
        pool.term(lines.last()).op(" × ").term(perRequest);
        lines << pool.result(memory(QString(), kv.statePoolBytes, {}),
                             Formula::tr("the state pool, sized before the KV pool"));
        statePoolLine = lines.size() - 1;
    }

    if (const std::optional<FormulaLine> graphs = cudaGraphLine(plan))
        lines << *graphs;
    LineBuilder available(FormulaSection::Capacity, QStringLiteral("available"));
    if (plan.kvCacheMemoryBytes > 0) {
        // vLLM takes --kv-cache-memory-bytes as given and skips its profiled budget.
        available.term(memory(QStringLiteral("kv_cache_memory_bytes"), plan.kvCacheMemoryBytes,
                              ScenarioField::KvCacheMemoryBytes));
        lines << available.result(
            memory(QString(), kv.availableBytes, {}),
            Formula::tr("the KV cache's memory as given: vLLM skips its profiled budget"));
    } else {
        available.term(lines.at(budgetLine));
        appendBeforeCache(available, plan, sglang, " − ");
        if (statePoolLine)
            available.op(" − ").term(lines.at(*statePoolLine));
        lines << available.result(memory(QString(), kv.availableBytes, {}),
                                  Formula::tr("what is left for the KV cache"));
    }
    const qsizetype availableLine = lines.size() - 1;

    LineBuilder blocks(FormulaSection::Capacity, QStringLiteral("num_gpu_blocks"));
    blocks.op("floor(");
    if (kv.availableBytes < 0)
        blocks.op("max(0, ").term(lines.last()).op(")");
    else
        blocks.term(lines.last());
    blocks.op(" / ");
    const bool swaSplit = kv.swaPoolRatioPpm > 0;
    const bool attentionPage =
        kv.cacheLayers > 0 && kv.pageBytes == plan.blockSize * kv.bytesPerTokenPerLayer;
    const FormulaTerm blockSize =
        count(QStringLiteral("block_size"), plan.blockSize, ScenarioField::BlockSize, {}, TermUnit::Tokens);
    if (swaSplit) {
        appendSwaCell(blocks, kv, perLayer); // SGLang's pages are one token
    } else {
        blocks.op("(");
        if (attentionPage)
            blocks.term(blockSize).op(" × ").term(perLayer);
        else
            blocks.term(bytes(QStringLiteral("page_bytes"), kv.pageBytes, {}));
        blocks.op(" × ").term(groupSizeTerm(kv));
        appendWorkspace(blocks, kv, blockSize);
        blocks.op(")");
    }
    blocks.op(")");
    lines << blocks.result(count(QString(), kv.numGpuBlocks, {}),
                           swaSplit ? Formula::tr("tokens of SGLang's full pool: int(available // cell_size)")
                                    : Formula::tr("blocks of the shared pool: one spans a page in every slot "
                                                  "of a group"));

    const qsizetype blocksLine = lines.size() - 1;
    const FormulaTerm maxModelLen = count(QStringLiteral("max_model_len"), plan.maxModelLen,
                                          ScenarioField::MaxModelLen, {}, TermUnit::Tokens);
    qsizetype capacityIndex = 0;
    const auto capacityLine = [&](const auto &build) {
        LineBuilder capacity(FormulaSection::Capacity, QStringLiteral("kv_capacity_tokens"));
        build(capacity);
        capacityIndex = lines.size();
        lines << capacity.result(count(QString(), kv.capacityTokens, {}, {}, TermUnit::Tokens),
                                 sglang ? Formula::tr("SGLang's max_total_num_tokens")
                                        : Formula::tr("vLLM's \"GPU KV cache size\" in tokens"));
    };
    // Before vLLM 0.21 (and SGLang's pool): the blocks per group x the block size.
    if (!kv.capacityFromConcurrency)
        capacityLine([&](LineBuilder &capacity) {
            if (kv.numGroups > 1)
                capacity.op("floor(")
                    .term(lines.at(blocksLine))
                    .op(" / ")
                    .term(count(QStringLiteral("num_groups"), kv.numGroups, ScenarioField::Model,
                                QStringLiteral("KV cache groups")))
                    .op(") × ")
                    .term(blockSize);
            else
                capacity.term(lines.at(blocksLine)).op(" × ").term(blockSize);
        });

    const PlanCache pool =
        planCache(poolModel(s, kv.draftLayers), plan, kvCacheOptions(s, plan.dtype, plan.kvCacheDtype));
    const QString maxModelLenFlag = optionFlag(ScenarioField::MaxModelLen, plan.engine);
    if (swaSplit) {
        LineBuilder windowPool(FormulaSection::Capacity, QStringLiteral("swa_pool_tokens"));
        windowPool.op("floor(").term(lines.at(blocksLine)).op(" × ").term(swaRatioTerm(kv)).op(")");
        lines << windowPool.result(
            count(QString(), kv.swaPoolTokens, {}, {}, TermUnit::Tokens),
            Formula::tr("SGLang's window pool: int(full tokens × swa_full_tokens_ratio)"));
    }
    LineBuilder request(FormulaSection::Capacity, QStringLiteral("blocks_per_request"));
    if (swaSplit)
        appendSwaBlocks(request, kv, maxModelLen);
    else
        appendGroupBlocks(
            request, kv,
            requestBlocksPerGroup(pool.model, pool.layout, plan.maxModelLen, plan.maxNumBatchedTokens),
            maxModelLen, blockSize,
            QStringLiteral("blocks of min(sliding_window − 1 + max_num_batched_tokens, "
                           "max_model_len) tokens, plus one"),
            QStringLiteral("blocks of min(chunk + max_num_batched_tokens, max_model_len) tokens"));
    lines << request.result(count(QString(), kv.blocksPerMaxRequest, {}),
                            Formula::tr("blocks one request of %1 tokens reserves").arg(maxModelLenFlag));
    const qsizetype requestLine = lines.size() - 1;
    // vLLM 0.21 on (vllm-project/vllm#41069): int(max_concurrency x max_model_len).
    if (kv.capacityFromConcurrency)
        capacityLine([&](LineBuilder &capacity) {
            capacity.op("floor(")
                .term(lines.at(blocksLine))
                .op(" / ")
                .term(lines.at(requestLine))
                .op(" × ")
                .term(maxModelLen)
                .op(")");
        });
    const FormulaLine capacityTokens = lines.at(capacityIndex);

    LineBuilder concurrency(FormulaSection::Capacity, QStringLiteral("max_concurrency"));
    if (kv.sharedRequestBlocks > 0) {
        // A shared prefix's full blocks are held once: the pool and each request lose them.
        const FormulaTerm shared = sharedPrefixTerm(kv.sharedRequestBlocks);
        concurrency.op("(")
            .term(lines.at(blocksLine))
            .op(" − ")
            .term(shared)
            .op(") / (")
            .term(lines.at(requestLine))
            .op(" − ")
            .term(shared)
            .op(")");
    } else {
        concurrency.term(lines.at(blocksLine)).op(" / ").term(lines.at(requestLine));
    }
    lines << concurrency.result(
        {QString(), decimalText(kv.maxConcurrency, 2), 0, kv.maxConcurrency, TermUnit::Ratio, {}, {}},
        sglang
            ? Formula::tr("requests of %1 tokens the token pool holds at once").arg(maxModelLenFlag)
            : Formula::tr("vLLM's \"Maximum concurrency\" for requests of %1 tokens").arg(maxModelLenFlag));

    if (plan.dataParallelSize > 1 && plan.engineStarts) {
        // Every data-parallel rank sizes its own cache; ranks whose GPUs hold an expert fewer hold more.
        const FormulaTerm ranks = count(QStringLiteral("data_parallel_size"), plan.dataParallelSize,
                                        ScenarioField::DataParallelSize);
        LineBuilder deployment(FormulaSection::Capacity, QStringLiteral("deployment_kv_capacity_tokens"));
        if (plan.lighterRanks > 0)
            deployment.term(capacityTokens)
                .op(" × ")
                .term(count(QStringLiteral("ranks_with_most_experts"),
                            plan.dataParallelSize - plan.lighterRanks, ScenarioField::EnableExpertParallel))
                .op(" + ")
                .term(count(QStringLiteral("lighter_rank_tokens"), plan.lighterRankCapacityTokens, {},
                            QStringLiteral("a rank whose GPUs hold one expert fewer"), TermUnit::Tokens))
                .op(" × ")
                .term(count(QStringLiteral("lighter_ranks"), plan.lighterRanks,
                            ScenarioField::EnableExpertParallel));
        else
            deployment.term(capacityTokens).op(" × ").term(ranks);
        lines << deployment.result(
            count(QString(), plan.deploymentCapacityTokens, {}, {}, TermUnit::Tokens),
            Formula::tr("the deployment's tokens: every data-parallel rank's own cache"));
    }

    if (kv.cpuCapacityTokens > 0) {
        // vLLM's offloading buffer, each rank's share in whole blocks of the pool's layout.
        LineBuilder host(FormulaSection::Capacity, QStringLiteral("cpu_kv_capacity_tokens"));
        host.op("floor(")
            .term(memory(
                QStringLiteral("offload_bytes_per_gpu"), kv.cpuOffloadBytesPerGpu,
                ScenarioField::KvOffloadingSize,
                QStringLiteral("%1 / tensor_parallel_size").arg(optionFlag(ScenarioField::KvOffloadingSize))))
            .op(" / ")
            .term(bytes(QStringLiteral("block_bytes"), kv.pageBytes * kv.groupSize, {},
                        QStringLiteral("one block of the pool")))
            .op(")");
        if (kv.numGroups > 1)
            host.op(" / ").term(count(QStringLiteral("num_groups"), kv.numGroups, ScenarioField::Model));
        host.op(" × ").term(blockSize);
        lines << host.result(count(QString(), kv.cpuCapacityTokens, {}, {}, TermUnit::Tokens),
                             Formula::tr("tokens kept in host memory for reuse; not more sequences at once"));
    }

    LineBuilder headroom(FormulaSection::Capacity, QStringLiteral("headroom"));
    headroom.term(lines.at(availableLine)).op(" − ").term(cache);
    FormulaTerm left = memory(QString(), plan.headroomBytes, {});
    lines << headroom.result(left, plan.fits ? Formula::tr("the batch fits")
                                             : Formula::tr("negative: the batch does not fit"));
    return lines;
}

/// Where a calibrated constant comes from: the scenario's own option, or the
/// calibration (docs/speed-validation.md).
QString calibratedField(bool given, const QString &calibration)
{
    return given ? QStringLiteral("as given") : calibration;
}

/// What the dequantization price is: a share of the read, or for weight-only kernels the fitted vector
/// operations per weight byte over the vector units' rate (SpeedPlan::dequantizationScale).
QString dequantizationCostMeaning(const SpeedPlan &speed)
{
    const QString kernels = weightKernelName(speed.weightKernel);
    if (!dequantizesOnVectorUnits(speed.weightKernel) || !(speed.dequantizationScale > 0))
        return QStringLiteral("extra seconds per second of reading, %1 kernels (calibrated)").arg(kernels);
    return QStringLiteral(
               "extra seconds per second of reading: %1 vector operations per weight byte (%2 kernels, "
               "calibrated) × %3 GB/s ÷ %4 FP32 vector TFLOPS")
        .arg(speed.prices.dequantizationCost / speed.dequantizationScale, 0, 'f', 2)
        .arg(kernels)
        .arg(speed.bandwidthGBs, 0, 'f', 0)
        .arg(speed.bandwidthGBs / speed.dequantizationScale / 1000, 0, 'f', 1);
}

/// "name = bytes / (bandwidth × efficiency)": a read at the share of the bandwidth its kernels reach.
FormulaLine readLine(const QString &name, const FormulaTerm &bytes, const FormulaTerm &bandwidth,
                     const FormulaTerm &efficiency, double result, const QString &note)
{
    LineBuilder line(FormulaSection::Speed, name);
    line.term(bytes).op(" / (").term(bandwidth).op(" × ").term(efficiency).op(")");
    return line.result(seconds(QString(), result), note);
}

/// "name = read × cost": what a kernel spends beyond the read, per second of reading at full bandwidth.
FormulaLine costLine(const QString &name, const FormulaTerm &read, const FormulaTerm &cost, double result,
                     const QString &note)
{
    LineBuilder line(FormulaSection::Speed, name);
    line.term(read).op(" × ").term(cost);
    return line.result(seconds(QString(), result), note);
}

/// The memory side of a decode step: the weights, their dequantization, the KV
/// cache and its FP8 conversion, each at its kernel's share of the bandwidth.
QList<FormulaLine> readLines(const Scenario &s, const SpeedPlan &speed)
{
    const ForwardCost &step = speed.decode;
    const StepQuantities &q = step.quantities;
    const StepBreakdown &t = step.breakdown;
    const bool givenBandwidth = s.bandwidthEfficiencyPpm > 0;
    const FormulaTerm gpuBandwidth =
        bandwidth(QStringLiteral("bandwidth"), speed.bandwidthGBs, ScenarioField::Gpu,
                  QStringLiteral("%1: memory bandwidth").arg(s.gpu.name));
    QList<FormulaLine> lines;

    lines << readLine(
        QStringLiteral("weights_read"),
        gigabytes(
            QStringLiteral("read_bytes"), (Checked(step.weightBytes) + step.activationBytes).value(),
            ScenarioField::Quantization,
            QStringLiteral("the weights a step reads (MoE: the experts it touches) and its activations")),
        gpuBandwidth,
        share(QStringLiteral("bandwidth_efficiency"), speed.bandwidthEfficiency,
              ScenarioField::BandwidthEfficiency,
              calibratedField(
                  givenBandwidth,
                  QStringLiteral("calibrated for %1 GPUs").arg(gpuGenerationName(speed.generation)))),
        t[StepTerm::Weights],
        Formula::tr("the weights and activations one step reads, at the share of the bandwidth the matrix "
                    "kernels reach"));
    if (q.quantizedReadSeconds > 0)
        lines << costLine(
            QStringLiteral("dequantization"),
            seconds(QStringLiteral("quantized_read"), q.quantizedReadSeconds, ScenarioField::Quantization,
                    QStringLiteral("the quantized weights' bytes at the full bandwidth")),
            share(QStringLiteral("dequantization_cost"), speed.prices.dequantizationCost,
                  ScenarioField::Quantization, dequantizationCostMeaning(speed)),
            t[StepTerm::Dequantization],
            Formula::tr("a quantized kernel unpacks and scales each weight it reads: extra time per byte"));
    lines << readLine(
        QStringLiteral("kv_read"),
        gigabytes(QStringLiteral("kv_bytes"), step.kvBytes, ScenarioField::KvCacheDtype,
                  QStringLiteral("the KV cache of every sequence at its length, and any recurrent state")),
        gpuBandwidth,
        share(QStringLiteral("kv_bandwidth_efficiency"), speed.kvBandwidthEfficiency,
              ScenarioField::BandwidthEfficiency,
              calibratedField(givenBandwidth, QStringLiteral("calibrated for the attention kernels"))),
        t[StepTerm::KvCache],
        Formula::tr("every sequence's KV cache, at the share of the bandwidth the attention kernels reach"));
    if (q.fp8KvReadSeconds > 0)
        lines << costLine(
            QStringLiteral("kv_dequantization"),
            seconds(QStringLiteral("fp8_kv_read"), q.fp8KvReadSeconds, ScenarioField::KvCacheDtype,
                    QStringLiteral("the FP8 cache's bytes at the full bandwidth")),
            share(QStringLiteral("fp8_kv_cost"), speed.prices.fp8KvCost, ScenarioField::KvCacheDtype,
                  QStringLiteral("extra seconds per second of reading (calibrated)")),
            t[StepTerm::KvDequantization],
            Formula::tr("an FP8 cache is converted back as it is read: extra time per byte"));

    LineBuilder reads(FormulaSection::Speed, QStringLiteral("reads"));
    double memory = 0;
    for (const FormulaLine &line : std::as_const(lines)) {
        if (&line != &lines.first())
            reads.op(" + ");
        reads.term(line);
        memory += line.result.real; // in the order the step model adds them
    }
    lines << reads.result(seconds(QString(), memory), Formula::tr("the memory side of the step"));
    return lines;
}

/// What the step adds beyond its reads: compute the reads do not hide,
/// all-reduces, MoE routing and the engine's host work.
QList<FormulaLine> beyondReadLines(const Scenario &s, const SpeedPlan &speed, const FormulaLine &reads)
{
    const ForwardCost &step = speed.decode;
    const StepQuantities &q = step.quantities;
    const StepBreakdown &t = step.breakdown;
    QList<FormulaLine> lines;

    LineBuilder compute(FormulaSection::Speed, QStringLiteral("compute"));
    compute.op("max(0, ")
        .term(seconds(QStringLiteral("flops_time"), q.computeSeconds, ScenarioField::BatchSize,
                      QStringLiteral("the step's FLOPs over the tensor-core peaks (%1 %2 TFLOPS)")
                          .arg(computeFormatName(speed.computeFormat))
                          .arg(speed.peakTflops)))
        .op(" / ")
        .term(share(QStringLiteral("compute_efficiency"), speed.computeEfficiency,
                    ScenarioField::ComputeEfficiency,
                    calibratedField(s.computeEfficiencyPpm > 0, QStringLiteral("calibrated"))))
        .op(" − ")
        .term(reads)
        .op(")");
    lines << compute.result(seconds(QString(), t[StepTerm::Compute]),
                            t[StepTerm::Compute] > 0
                                ? Formula::tr("the tensor cores work while the weights stream in: only what "
                                              "they need beyond the reads adds to the step")
                                : Formula::tr("memory-bound: the reads hide the compute"));

    if (q.allReduces > 0) {
        LineBuilder allReduce(FormulaSection::Speed, QStringLiteral("all_reduce"));
        allReduce
            .term(count(QStringLiteral("all_reduces"), q.allReduces, ScenarioField::TensorParallelSize,
                        QStringLiteral("two per layer: after attention and after the MLP")))
            .op(" × ")
            .term(seconds(QStringLiteral("all_reduce_latency"), speed.prices.allReduceLatencySeconds, {},
                          QStringLiteral("per all-reduce (vLLM's kernel timings)")))
            .op(" + ")
            .term(seconds(QStringLiteral("transfer"), q.allReduceTransferSeconds,
                          ScenarioField::TensorParallelSize,
                          QStringLiteral("the hidden states over %1 GB/s links").arg(speed.interconnectGBs)));
        lines << allReduce.result(seconds(QString(), t[StepTerm::AllReduce]),
                                  Formula::tr("tensor parallelism: each all-reduce waits a fixed latency, "
                                              "then moves its share of the hidden states"));
    }

    if (q.expertExchanges > 0) {
        LineBuilder exchange(FormulaSection::Speed, QStringLiteral("all_to_all"));
        exchange
            .term(
                count(QStringLiteral("expert_exchanges"), q.expertExchanges, ScenarioField::DataParallelSize,
                      sglangDpAttention(s) ? QStringLiteral("a gather and a scatter around every layer's MLP")
                                           : QStringLiteral("a dispatch and a combine per MoE layer")))
            .op(" × ")
            .term(seconds(QStringLiteral("exchange_latency"), speed.prices.allReduceLatencySeconds, {},
                          QStringLiteral("per exchange, the all-reduce's latency")))
            .op(" + ")
            .term(seconds(QStringLiteral("exchange_transfer"), q.expertExchangeTransferSeconds,
                          ScenarioField::All2AllBackend,
                          QStringLiteral("the ranks' hidden states over %1 GB/s links (%2)")
                              .arg(speed.interconnectGBs)
                              .arg(sglangDpAttention(s) ? QStringLiteral("SGLang's dp_gather / dp_scatter")
                                   : usesAll2AllKernels(s)
                                       ? all2allBackendName(s.all2allBackend)
                                       : all2allBackendName(All2AllBackend::AllgatherReducescatter))));
        lines << exchange.result(
            seconds(QString(), t[StepTerm::AllToAll]),
            sglangDpAttention(s)
                ? Formula::tr("attention groups: each layer gathers every group's tokens to its MLP, split "
                              "over all the GPUs, and scatters the results back")
                : Formula::tr("data-parallel ranks: each MoE layer gathers every rank's tokens "
                              "to the GPUs of their experts and sends the results back"));
    }

    if (q.pipelineTransfers > 0) {
        LineBuilder handover(FormulaSection::Speed, QStringLiteral("pipeline_transfer"));
        handover
            .term(count(QStringLiteral("handovers"), q.pipelineTransfers, ScenarioField::PipelineParallelSize,
                        QStringLiteral("one from each stage to the next")))
            .op(" × ")
            .term(seconds(QStringLiteral("handover_latency"), speed.prices.allReduceLatencySeconds, {},
                          QStringLiteral("per handover, the all-reduce's latency")))
            .op(" + ")
            .term(seconds(QStringLiteral("handover_transfer"), q.pipelineTransferSeconds,
                          ScenarioField::PipelineParallelSize,
                          QStringLiteral("each token's hidden state and residual over %1 GB/s links")
                              .arg(speed.interconnectGBs)));
        lines << handover.result(
            seconds(QString(), t[StepTerm::PipelineTransfer]),
            Formula::tr("pipeline stages: each hands its tokens' hidden states to the next"));
    }

    if (t[StepTerm::PipelineWait] > 0) {
        LineBuilder wait(FormulaSection::Speed, QStringLiteral("pipeline_wait"));
        wait.term(count(QStringLiteral("batches_in_flight"), q.pipelineBatches,
                        ScenarioField::PipelineParallelSize,
                        QStringLiteral("one a stage (vLLM's batch queue)")))
            .op(" × ")
            .term(seconds(QStringLiteral("busiest_stage"), q.busiestStageSeconds,
                          ScenarioField::PipelineParallelSize,
                          QStringLiteral("%1 of a pass's GPU time, on the stage with the most weights")
                              .arg(decimalText(q.busiestStageShare, 3))))
            .op(" − ")
            .term(seconds(QStringLiteral("pass"), q.pipelinePassSeconds, {},
                          QStringLiteral("one batch through every stage")));
        lines << wait.result(
            seconds(QString(), t[StepTerm::PipelineWait]),
            Formula::tr("pipeline stages: a batch's next step waits until the busiest stage has "
                        "run every batch in flight"));
    }

    if (q.moeLayers > 0) {
        LineBuilder moe(FormulaSection::Speed, QStringLiteral("moe_routing"));
        moe.term(count(QStringLiteral("moe_layers"), q.moeLayers, ScenarioField::Model,
                       QStringLiteral("layers with routed experts")))
            .op(" × ")
            .term(seconds(
                QStringLiteral("per_moe_layer"), speed.prices.moeLayerSeconds, {},
                QStringLiteral(
                    "routing and grouped-GEMM launches beyond the reads (the engines' kernel timings)")))
            .op(" + ")
            .term(expectedCount(QStringLiteral("routed_token_layers"), q.routedTokenLayers,
                                ScenarioField::BatchSize,
                                QStringLiteral("tokens x top-k on this GPU's experts x MoE layers")))
            .op(" × ")
            .term(seconds(
                QStringLiteral("per_routed_token"), speed.prices.routedTokenSeconds, {},
                pricesRoutedCopies(speed.moeKernel)
                    ? QStringLiteral("sorting, gathering and summing each routed copy (calibrated)")
                    : QStringLiteral("none beyond its FLOPs: FlashInfer's TensorRT-LLM FP4 MoE routes "
                                     "and sums inside its GEMMs")));
        lines << moe.result(seconds(QString(), t[StepTerm::MoeOverhead]),
                            Formula::tr("every MoE layer routes its tokens to their experts"));
    }

    LineBuilder overhead(FormulaSection::Speed, QStringLiteral("engine_overhead"));
    const QString engine = engineName(s.engine);
    overhead
        .term(seconds(QStringLiteral("per_step"), speed.prices.stepSeconds, ScenarioField::Engine,
                      QStringLiteral("%1: scheduler, sampler, launches (calibrated)").arg(engine)))
        .op(" + ")
        // A data-parallel rank's step carries its share of the batch, a pipeline's batch in flight its own.
        .term(count(s.dataParallelSize > 1  ? QStringLiteral("rank_sequences")
                    : q.pipelineBatches > 1 ? QStringLiteral("batch_in_flight")
                                            : QStringLiteral("batch_size"),
                    q.sequences, ScenarioField::BatchSize,
                    s.dataParallelSize > 1  ? QStringLiteral("this rank's share of the batch")
                    : q.pipelineBatches > 1 ? QStringLiteral("one of the batches in flight over the stages")
                                            : QString(),
                    TermUnit::Sequences))
        .op(" × ")
        .term(seconds(QStringLiteral("per_sequence"), speed.prices.sequenceSeconds, ScenarioField::Engine,
                      QStringLiteral("%1: host work for each sequence (calibrated)").arg(engine)));
    lines << overhead.result(seconds(QString(), t[StepTerm::StepOverhead] + t[StepTerm::SequenceOverhead]),
                             Formula::tr("the engine's host work: once per step and once per sequence"));
    return lines;
}

/// The time to first token: the decode step's terms priced for the prompt,
/// and the work of admitting a new request.
QList<FormulaLine> firstTokenLines(const SpeedPlan &speed)
{
    const ForwardCost &prefill = speed.prefill;
    const StepBreakdown &t = prefill.breakdown;
    LineBuilder request(FormulaSection::Speed, QStringLiteral("request_overhead"));
    request
        .term(count(QStringLiteral("new_requests"), prefill.quantities.requests, {},
                    QStringLiteral("one prompt, alone on the GPU"), TermUnit::Sequences))
        .op(" × ")
        .term(seconds(QStringLiteral("per_request"), speed.prices.requestSeconds, ScenarioField::Engine,
                      QStringLiteral("API server, tokenizer, admission (calibrated)")));
    const FormulaLine requestLine =
        request.result(seconds(QString(), t[StepTerm::RequestOverhead]),
                       Formula::tr("a new request passes the API server, the tokenizer and admission"));

    QList<FormulaLine> lines;
    if (prefill.quantities.images > 0 && speed.peak16Tflops > 0) {
        // The tower's FLOPs for each image over the 16-bit peak, at the fitted compute efficiency.
        LineBuilder encoder(FormulaSection::Speed, QStringLiteral("vision_encoder"));
        encoder
            .term(count(QStringLiteral("images"), std::llround(prefill.quantities.images),
                        ScenarioField::ImagesPerRequest, QStringLiteral("the request's images"),
                        TermUnit::Count))
            .op(" × ")
            .term(seconds(QStringLiteral("image_flops_time"),
                          speed.encoderFlopsPerImage / (speed.peak16Tflops * 1e12), ScenarioField::ImageSize,
                          QStringLiteral("the vision tower's %1 TFLOP for one image over the 16-bit peak "
                                         "(%2 TFLOPS)")
                              .arg(speed.encoderFlopsPerImage / 1e12, 0, 'f', 2)
                              .arg(speed.peak16Tflops)))
            .op(" / ")
            .term(share(QStringLiteral("compute_efficiency"), speed.computeEfficiency,
                        ScenarioField::ComputeEfficiency, QStringLiteral("calibrated on text prompts")));
        lines << encoder.result(seconds(QString(), t[StepTerm::VisionEncoder]),
                                Formula::tr("the vision tower encodes each image before the prompt's "
                                            "tokens run: its linears once per patch, its attention per "
                                            "pair of patches an image (or window, or tile) holds"));
    }

    LineBuilder firstToken(FormulaSection::Speed, QStringLiteral("time_to_first_token"));
    for (std::size_t i = 0; i < StepTermCount; ++i) {
        const StepTerm term = StepTerm(i);
        if (t[term] <= 0 || term == StepTerm::RequestOverhead)
            continue;
        firstToken
            .term(seconds(QStringLiteral("prefill_") + stepTermKey(term), t[term], ScenarioField::PromptLen,
                          QStringLiteral("prefill: %1").arg(QLatin1String(stepTermLabel(term)))))
            .op(" + ");
    }
    firstToken.term(requestLine);
    if (speed.cachedPromptTokens <= 0)
        return lines << requestLine
                     << firstToken.result(
                            seconds(QString(), prefill.seconds),
                            Formula::tr("a %1-token prompt alone: the same terms, priced for the prefill")
                                .arg(formatCount(speed.promptLen)));
    // A shared prefix's whole blocks come from the prefix cache: the prefill computes the rest.
    LineBuilder computed(FormulaSection::Speed, QStringLiteral("computed_prompt_tokens"));
    computed
        .term(count(QStringLiteral("prompt_len"), speed.promptLen, ScenarioField::PromptLen, {},
                    TermUnit::Tokens))
        .op(" − ")
        .term(count(QStringLiteral("prefill_cached_tokens"), speed.cachedPromptTokens,
                    ScenarioField::SharedPrefixLen,
                    QStringLiteral("the shared prefix's whole blocks, never the prompt's last token"),
                    TermUnit::Tokens));
    const std::int64_t computedTokens = speed.promptLen - speed.cachedPromptTokens;
    lines.prepend(computed.result(count(QString(), computedTokens, {}, {}, TermUnit::Tokens),
                                  Formula::tr("the prefix cache supplies the shared prefix: the prefill "
                                              "computes the rest, attending to all")));
    return lines << requestLine
                 << firstToken.result(seconds(QString(), prefill.seconds),
                                      Formula::tr("a %1-token prompt alone, %2 of its tokens computed: the "
                                                  "same terms, priced for the prefill")
                                          .arg(formatCount(speed.promptLen), formatCount(computedTokens)));
}

/// Decoding with the drafter: the tokens a step yields, the step's passes and their own costs,
/// and the tokens a second the batch receives. None without speculative decoding's speed.
QList<FormulaLine> speculativeLines(const SpeedPlan &speed)
{
    if (!speed.speculative)
        return {};
    const SpeculativeSpeed &x = *speed.speculative;
    const StepPrices &prices = speed.prices;
    const FormulaTerm k = count(QStringLiteral("num_speculative_tokens"), x.draftTokens,
                                ScenarioField::SpeculativeConfig, QStringLiteral("drafts a step"));
    QList<FormulaLine> lines;
    LineBuilder perStep(FormulaSection::Speed, QStringLiteral("tokens_per_step"));
    if (x.acceptanceRate >= 1) {
        perStep.term(k).op(" + 1");
    } else {
        const FormulaTerm a = share(QStringLiteral("acceptance_rate"), x.acceptanceRate,
                                    ScenarioField::DraftAcceptanceRate, x.acceptanceSource);
        perStep.op("(1 − ")
            .term(share(QStringLiteral("acceptance_rate^(k+1)"),
                        std::pow(x.acceptanceRate, double(x.draftTokens + 1)), {},
                        QStringLiteral("the chance that every draft is accepted")))
            .op(") / (1 − ")
            .term(a)
            .op(")");
    }
    lines << perStep.result(share(QString(), x.tokensPerStep, {}, {}),
                            Formula::tr("1 + a + … + a^k: the accepted drafts and the model's own token, "
                                        "each draft accepted with probability a"));

    LineBuilder step(FormulaSection::Speed, QStringLiteral("speculative_step"));
    step.term(seconds(QStringLiteral("verify_pass"), x.verifyPass.seconds - prices.speculativeStepSeconds,
                      ScenarioField::SpeculativeConfig,
                      QStringLiteral("the model over k + 1 tokens a sequence, priced as the decode step")))
        .op(" + ")
        .term(seconds(QStringLiteral("per_speculative_step"), prices.speculativeStepSeconds,
                      ScenarioField::SpeculativeConfig,
                      QStringLiteral("sampling against the drafts, the proposer's books (calibrated)")));
    if (x.draftPass.seconds > 0)
        step.op(" + ")
            .term(k)
            .op(" × (")
            .term(seconds(QStringLiteral("draft_pass"), x.draftPass.seconds - prices.draftPassSeconds,
                          ScenarioField::SpeculativeConfig,
                          QStringLiteral("the drafter's weights, KV layers and FLOPs")))
            .op(" + ")
            .term(seconds(QStringLiteral("per_draft_pass"), prices.draftPassSeconds,
                          ScenarioField::SpeculativeConfig,
                          QStringLiteral("its launches and host preparation (calibrated)")))
            .op(")");
    lines << step.result(seconds(QString(), x.stepSeconds),
                         Formula::tr("a step with the drafter: the model verifies, the drafter proposes"));

    LineBuilder rate(FormulaSection::Speed, QStringLiteral("speculative_tokens_per_second"));
    rate.term(count(QStringLiteral("batch_size"), speed.batchSize, ScenarioField::BatchSize, {},
                    TermUnit::Sequences))
        .op(" × ")
        .term(lines.first())
        .op(" / ")
        .term(lines.last());
    lines << rate.result(
        {QString(),
         formatRate(x.tokensPerSecond, QLocale(QLocale::English)) + QStringLiteral(" tokens/s"),
         0,
         x.tokensPerSecond,
         TermUnit::TokensPerSecond,
         {},
         {}},
        Formula::tr("the tokens all sequences receive per second with the drafter"));
    return lines;
}

/// One decode step term by term and its tokens per second, then the time to
/// first token. None when the GPU lacks a figure the step model needs.
QList<FormulaLine> speedLines(const Scenario &s, const MemoryPlan &plan)
{
    const SpeedPlan &speed = plan.speed;
    // A server that does not start decodes nothing: no step is priced (calc and Compare show none either).
    if (!speed.priced())
        return {};
    QList<FormulaLine> lines = readLines(s, speed);
    const FormulaLine reads = lines.last();
    const QList<FormulaLine> beyond = beyondReadLines(s, speed, reads);
    lines << beyond;

    LineBuilder step(FormulaSection::Speed, QStringLiteral("decode_step"));
    step.term(reads);
    for (const FormulaLine &line : beyond)
        step.op(" + ").term(line);
    lines << step.result(seconds(QString(), speed.decode.seconds),
                         Formula::tr("one decode step: every sequence of the batch emits one token"));

    LineBuilder rate(FormulaSection::Speed, QStringLiteral("decode_tokens_per_second"));
    rate.term(count(QStringLiteral("batch_size"), speed.batchSize, ScenarioField::BatchSize, {},
                    TermUnit::Sequences))
        .op(" / ")
        .term(lines.last());
    const QString tokensPerSecond =
        formatRate(speed.decodeTokensPerSecond, QLocale(QLocale::English)) + QStringLiteral(" tokens/s");
    lines << rate.result(
        {QString(), tokensPerSecond, 0, speed.decodeTokensPerSecond, TermUnit::TokensPerSecond, {}, {}},
        Formula::tr("the tokens all sequences emit per second"));
    lines << speculativeLines(speed);
    lines << firstTokenLines(speed);
    return lines;
}

QString joined(const FormulaLine &line, bool symbols)
{
    QString text;
    for (const FormulaToken &token : line.tokens) {
        if (token.term < 0)
            text += token.text;
        else
            text += symbols ? line.terms.at(token.term).symbol : line.terms.at(token.term).text;
    }
    return text;
}

} // namespace

QString FormulaLine::symbolic() const
{
    return joined(*this, true);
}

QString FormulaLine::substituted() const
{
    return joined(*this, false);
}

QString FormulaLine::text() const
{
    return QStringLiteral("%1 = %2 = %3 = %4").arg(name, symbolic(), substituted(), result.text);
}

QString FormulaSheet::text() const
{
    QStringList out;
    for (qsizetype i = 0; i < lines.size(); ++i) {
        if (i > 0 && lines.at(i).section != lines.at(i - 1).section)
            out << QString();
        out << printableText(lines.at(i).text()); // a line may name the model, from its file
    }
    return out.join(QLatin1Char('\n')) + QLatin1Char('\n');
}

const FormulaLine *FormulaSheet::line(const QString &name) const
{
    for (const FormulaLine &l : lines)
        if (l.name == name)
            return &l;
    return nullptr;
}

FormulaSheet formulaSheet(const Scenario &scenario, const MemoryPlan &plan)
{
    FormulaSheet sheet;
    sheet.lines = kvLines(scenario, plan);
    // Copies: the lists below grow the sheet.
    const FormulaLine perLayer = *sheet.line(QStringLiteral("kv_bytes_per_layer"));
    const FormulaLine cache = *sheet.line(QStringLiteral("kv_cache_bytes"));
    sheet.lines << weightLines(plan);
    sheet.lines << capacityLines(scenario, plan, perLayer, cache);
    sheet.lines << speedLines(scenario, plan);
    return sheet;
}

} // namespace kvscope
