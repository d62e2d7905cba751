// SPDX-License-Identifier: MIT
#pragma once

#include "core/common/scenariofield.h"
#include "core/plan/memoryplan.h"

#include <cstdint>
#include <optional>

#include <QList>
#include <QString>

namespace kvscope {

struct Scenario;

/// What a substituted value measures.
enum class TermUnit
{
    Count,           ///< layers, heads, dimensions, groups, blocks
    Tokens,          ///< a sequence length, a window, a block size
    Sequences,       ///< a batch
    Bytes,           ///< exact bytes (value holds them)
    Ratio,           ///< a share such as 0.90 (real holds it)
    Bits,            ///< bits per weight (real holds it)
    Parameters,      ///< a parameter count
    Seconds,         ///< a duration (real holds it)
    BytesPerSecond,  ///< a bandwidth (real holds it; shown in GB/s = 10^9 B/s)
    TokensPerSecond, ///< a throughput (real holds it)
};

/// One value substituted into a formula, with where it comes from.
struct FormulaTerm
{
    QString symbol;         ///< its name in the formula: "batch_size"
    QString text;           ///< the value as shown: "16", "79.19 GiB", "0.90", "4.156"
    std::int64_t value = 0; ///< the exact integer (counts, tokens, bytes); 0 for ratios and bits
    double real = 0;        ///< the value as a number (ratios and bits; = value otherwise)
    TermUnit unit = TermUnit::Count;
    /// The option that sets it (BatchSize; Model for a config.json field); none for a
    /// figure an earlier line computed.
    std::optional<ScenarioField> option;
    QString field; ///< the config.json field or plan figure behind it ("num_key_value_heads")
};

/// A piece of a formula: operator text ("×", "floor(", ")"), or a term.
struct FormulaToken
{
    QString text;  ///< the operator or bracket when term < 0
    int term = -1; ///< index into FormulaLine::terms
};

/// The part of the plan a line explains.
enum class FormulaSection
{
    KvCache,  ///< the KV cache: per token, the formula, windows, recurrent state, vLLM's blocks
    Weights,  ///< weight bits: values, scales, zero points, what stays unquantized
    Capacity, ///< vLLM's budget, available memory, blocks, capacity, concurrency
    Speed,    ///< the step model: each term of a decode step, then the time to first token
};

/// One line: name = symbolic form = substituted values = result.
struct FormulaLine
{
    FormulaSection section = FormulaSection::KvCache;
    QString name; ///< left-hand side: "kv_cache_bytes"
    QList<FormulaToken> tokens;
    QList<FormulaTerm> terms;
    FormulaTerm result;
    QString note; ///< what the line shows, one sentence (translated where a translator is installed)

    /// The formula with symbols: "batch_size × sequence_length × kv_bytes_per_token".
    QString symbolic() const;
    /// The same with the values: "16 × 8,192 × 131,072 B".
    QString substituted() const;
    /// "name = symbolic = substituted = result", on one line.
    QString text() const;
};

/// The arithmetic behind a plan, line by line, every number from the plan or the scenario.
struct FormulaSheet
{
    QList<FormulaLine> lines;

    /// Every line as text, sections separated by a blank line.
    QString text() const;
    /// The first line named `name`, or nullptr.
    const FormulaLine *line(const QString &name) const;
};

/// The formulas a teacher writes on the board, with the scenario's numbers in them:
/// the KV cache (per token, the batch as the usual formula writes it, sliding windows
/// and chunks, recurrent state, vLLM's whole blocks and layer groups), weight bits
/// (values, scales, zero points, the share left unquantized), and vLLM's budget,
/// available memory, blocks, capacity and concurrency, and the step model's terms of a
/// decode step and the time to first token (when the GPU lists the figures speed needs).
/// `plan` is planMemory(scenario); every result is one of its fields.
FormulaSheet formulaSheet(const Scenario &scenario, const MemoryPlan &plan);

} // namespace kvscope
