// SPDX-License-Identifier: MIT
// Helpers shared by the core suites.
#pragma once

#include "core/common/error.h"
#include "core/library/library.h"
#include "core/scenario/scenario.h"

#include <cstddef>

#include <QStringList>
#include <QTest>
#include <QtGlobal>

namespace kvscope::test {

/// vLLM's CUDA-graph estimate for Llama-3.1-8B on one H100 at TP 1 with its default 1,024 sequences and
/// 8,192 batched tokens (core/plan/cudagraphmemory.h), by hand: 51 capture sizes (1, 2, 4, every 8 to 248,
/// every 16 from 256 to 512) in each mode; the first FULL capture holds FlashAttention 3's 32 split
/// buffers, 512 tokens x 32 heads x 128 x (32 x 4 + 2) B + 512 x 32 x 32 x 4 B = 274,726,912 B (above the
/// 138 MiB piecewise first capture), and each of the other 50 + 50 graphs 32 layers x 192 KiB:
/// 903,872,512 B, the 0.84 GiB vLLM 0.19 prints for that run (tests/data/vllm-logs.json, log 1).
inline constexpr std::int64_t Llama8bH100CudaGraphEstimateBytes =
    512LL * 32 * 128 * (32 * 4 + 2) + 512LL * 32 * 32 * 4 + 100LL * 32 * 192 * 1024;
static_assert(Llama8bH100CudaGraphEstimateBytes == 903'872'512);

/// A built-in preset by id; aborts the suite if it is missing.
inline const ModelArch &preset(const QString &id)
{
    const ModelArch *m = ModelLibrary::builtin().find(id);
    if (!m)
        qFatal("preset %s missing", qPrintable(id));
    return *m;
}

/// `model` on `tp` x `dp` GPUs of the `gpu` preset, its experts divided with `expertParallel`,
/// sequences and --max-model-len of 8,192 tokens: the layout suites' starting scenario.
inline Scenario layoutScenario(const QString &model, const QString &gpu, int tp, int dp, bool expertParallel)
{
    Scenario s;
    s.model = preset(model);
    s.gpu = resolveGpu(gpu);
    s.tensorParallelSize = tp;
    s.dataParallelSize = dp;
    s.enableExpertParallel = expertParallel;
    s.maxModelLen = 8192;
    s.seqLen = 8192;
    return s;
}

/// The kvscope::Error message `call` throws, or a null string when it throws none.
template <typename Call> QString errorFrom(Call call)
{
    try {
        call();
    } catch (const Error &error) {
        return error.message();
    }
    return {};
}

/// Fails the running test unless `call` throws a kvscope::Error whose message holds `fragment`.
template <typename Call> void expectErrorFrom(Call call, const QString &fragment)
{
    const QString message = errorFrom(call);
    QVERIFY2(!message.isNull(), qPrintable(QStringLiteral("no error; expected '%1'").arg(fragment)));
    QVERIFY2(message.contains(fragment), qPrintable(message));
}

/// Ids of built-in presets that a table of rows (each with a `const char *id`)
/// leaves out, so that per-preset tables grow with the library.
template <typename Row, std::size_t N> QStringList presetsMissingFrom(const Row (&rows)[N])
{
    QStringList missing;
    for (const ModelArch &m : ModelLibrary::builtin().presets()) {
        bool found = false;
        for (const Row &row : rows)
            found = found || m.id == QLatin1String(row.id);
        if (!found)
            missing << m.id;
    }
    return missing;
}

} // namespace kvscope::test

/// Checks that `call` throws a kvscope::Error whose one-line message starts
/// with `start` (the file or option) and contains `part` (field and value).
#define KVSCOPE_VERIFY_ERROR(call, start, part)                                                              \
    do {                                                                                                     \
        const QString message_ = kvscope::test::errorFrom([&] { call; });                                    \
        QVERIFY2(!message_.isNull(), "no kvscope::Error thrown");                                            \
        QVERIFY2(message_.startsWith(start), qPrintable(message_));                                          \
        QVERIFY2(message_.contains(part), qPrintable(message_));                                             \
    } while (false)
