// SPDX-License-Identifier: MIT
// Each scheme on tiny tensors whose results are worked out by hand in the
// comments, from the definitions in docs/quantization-formats.md (§3 INT8,
// §4 AWQ/GPTQ, §5 NF4, §7 MXFP4) and the README's "Formats" table.
#include "core/common/error.h"
#include "core/quantization/inspection.h"
#include "core/quantization/scheme.h"
#include "core/quantization/simulator.h"
#include "tests/tensorfiles.h"

#include <cmath>

#include <QTest>

using namespace kvscope;
using namespace kvscope::quant;

namespace {

TensorData tensor(std::vector<float> values, std::int64_t rows, std::int64_t cols)
{
    return TensorData::fromFloats(std::move(values), rows, cols, QStringLiteral("test"), QStringLiteral("t"));
}

/// One row of `cols` zeros but for the given (column, value) spikes.
TensorData spikedRow(std::int64_t cols, std::initializer_list<std::pair<std::size_t, float>> spikes)
{
    std::vector<float> values(std::size_t(cols), 0.0f);
    for (const auto &[column, value] : spikes)
        values[column] = value;
    return tensor(std::move(values), 1, cols);
}

/// w' of an integer scheme, element by element, read back through the group inspector.
std::vector<float> dequantized(const TensorData &t, const Scheme &scheme)
{
    std::vector<float> out;
    if (scheme.isInteger()) {
        for (std::int64_t r = 0; r < t.rows(); ++r)
            for (std::int64_t g = 0; g < groupsPerRow(scheme, t.cols()); ++g)
                for (float v : inspectGroup(t, scheme, r, g, 0).dequantized)
                    out.push_back(v);
    }
    return out;
}

SchemeResult simulate(const TensorData &t, const Scheme &scheme)
{
    return simulateScheme(t, scanTensor(t), scheme);
}

Scheme scheme(const char *text, SchemeDefaults defaults = {})
{
    return parseScheme(QString::fromLatin1(text), defaults);
}

} // namespace

class TestQuantSchemes : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void parsing_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("id");
        QTest::newRow("fp8 means e4m3") << "fp8"
                                        << "fp8-e4m3";
        QTest::newRow("vLLM spelling") << "fp8_e5m2"
                                       << "fp8-e5m2";
        QTest::newRow("int4 takes the default group") << "int4"
                                                      << "int4-g128";
        QTest::newRow("explicit group") << "INT3-g64"
                                        << "int3-g64";
        QTest::newRow("symmetric per row") << "int2-sym-row"
                                           << "int2-sym-row";
        QTest::newRow("nf4") << "nf4"
                             << "nf4";
        // W8A8: the activations' quantization after the weights'.
        QTest::newRow("fp8 w8a8") << "FP8+a-fp8-token"
                                  << "fp8-e4m3+a-fp8-token";
        QTest::newRow("block fp8 w8a8") << "fp8-e4m3+a-fp8-g128"
                                        << "fp8-e4m3+a-fp8-g128";
        QTest::newRow("int8 w8a8") << "int8+a-int8-token"
                                   << "int8+a-int8-token";
    }

    void parsing()
    {
        QFETCH(QString, text);
        QFETCH(QString, id);
        QCOMPARE(parseScheme(text).id(), id);
    }

    void parsingErrors_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("message");
        QTest::newRow("unknown") << "int5"
                                 << "--scheme: unknown scheme 'int5'";
        QTest::newRow("zero group") << "int4-g0"
                                    << "group size 0";
        QTest::newRow("junk suffix") << "int4-gx"
                                     << "unknown scheme 'int4-gx'";
        QTest::newRow("unknown activations") << "fp8+a-int9"
                                             << "unknown activation quantization '+a-int9'";
        QTest::newRow("fp8 activations, int4 weights")
            << "int4+a-fp8-token"
            << "'int4+a-fp8-token': FP8 activations pair with fp8-e4m3 weights";
        QTest::newRow("int8 activations, fp8 weights") << "fp8-e4m3+a-int8-token"
                                                       << "INT8 activations pair with int8 weights";
        QTest::newRow("mxfp8 activations, fp8 weights") << "fp8-e4m3+a-mxfp8"
                                                        << "MXFP8 activations pair with mxfp4 weights";
    }

    void parsingErrors()
    {
        QFETCH(QString, text);
        QFETCH(QString, message);
        const QString error = test::errorOf([&] { parseScheme(text); });
        QVERIFY2(error.contains(message), qPrintable(error));
        QVERIFY_THROWS_EXCEPTION(Error, validateGroupSize(0));
        QCOMPARE(validateGroupSize(-1), WholeRow);
    }

    void w8a8ActivationsAreParsed()
    {
        const Scheme fp8 = parseScheme(QStringLiteral("fp8-e4m3+a-fp8-token"));
        QCOMPARE(fp8.kind, SchemeKind::Fp8E4M3);
        QCOMPARE(fp8.activations, ActivationQuantization::Fp8PerToken);
        QCOMPARE(parseScheme(fp8.id()), fp8); // the id reads back as the scheme
        QCOMPARE(parseScheme(QStringLiteral("int8+a-int8-token")).activations,
                 ActivationQuantization::Int8PerToken);
        QVERIFY(parseScheme(QStringLiteral("fp8-e4m3+a-fp8-token")) !=
                parseScheme(QStringLiteral("fp8-e4m3")));
        QVERIFY(fp8.description().endsWith(
            QStringLiteral("; activations FP8 E4M3, one dynamic scale per token")));
        // The MXFP4 x MXFP8 MoE kernel's: MXFP4 weights, MXFP8 activations.
        const Scheme mx = parseScheme(QStringLiteral("mxfp4+a-mxfp8"));
        QCOMPARE(mx.kind, SchemeKind::Mxfp4);
        QCOMPARE(mx.activations, ActivationQuantization::Mxfp8);
        QCOMPARE(parseScheme(mx.id()), mx);
    }

    void schemeListDropsRepeats()
    {
        const QList<Scheme> list =
            parseSchemeList({QStringLiteral("int4,fp8"), QStringLiteral("fp8-e4m3"), QStringLiteral("nf4")});
        QCOMPARE(list.size(), 3);
    }

    void bitsPerWeight_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<double>("bits");
        // quantization-formats.md §4: 4 + 16/128 + 4/128; §5: 4 + 32/64; §7: 4 + 8/32.
        QTest::newRow("AWQ int4 g128") << "int4" << 4.15625;
        QTest::newRow("GPTQ sym stores zeros too") << "int4-sym" << 4.15625;
        QTest::newRow("int3 g64: 3 + 19/64") << "int3-g64" << 3.0 + 19.0 / 64.0;
        QTest::newRow("int8: fp32 per row") << "int8" << 8.0 + 32.0 / 4096.0;
        QTest::newRow("nf4") << "nf4" << 4.5;
        QTest::newRow("mxfp4") << "mxfp4" << 4.25;
        // SGLang's fp4_mx_block16: 4 bits and one E8M0 byte per 16 values.
        QTest::newRow("fp4 mx block16") << "fp4_mx_block16" << 4.5;
        QTest::newRow("fp8: one fp32 scale") << "fp8" << 8.0 + 32.0 / (4096.0 * 4096.0);
        QTest::newRow("bf16") << "bf16" << 16.0;
    }

    void bitsPerWeight()
    {
        QFETCH(QString, text);
        QFETCH(double, bits);
        QCOMPARE(quant::bitsPerWeight(parseScheme(text), 4096, 4096), bits);
    }

    void bitsPerWeightCountsPartialGroups()
    {
        // 100 columns in groups of 64: 2 groups per row, the second one short.
        QCOMPARE(quant::bitsPerWeight(scheme("int4-g64"), 3, 100), 4.0 + 20.0 * 6 / 300.0);
    }

    void int8PerRow()
    {
        // Row 0: amax 1.27, s = 1.27/127 = 0.01: q = [-127, 50, 0, 100].
        // Row 1 has its own scale: amax 2.54, s = 0.02: q = [127, -25, 1, 0].
        const TensorData t = tensor({-1.27f, 0.5f, 0.0f, 1.0f, 2.54f, -0.5f, 0.02f, 0.0f}, 2, 4);
        const std::vector<float> out = dequantized(t, scheme("int8"));
        const float s0 = 1.27f / 127.0f;
        const float s1 = 2.54f / 127.0f;
        const std::vector<float> expected = {-127 * s0, 50 * s0, 0, 100 * s0, 127 * s1, -25 * s1, 1 * s1, 0};
        QCOMPARE(out, expected);
    }

    void awqSeedDocumentExample()
    {
        // The worked example of quantization-formats.md §4: INT4 value 12, scale 0.05,
        // zero point 8 -> (12 - 8) × 0.05 = 0.2. A group with min -0.4 and
        // max 0.35 has s = 0.75/15 = 0.05 and z = -round(-0.4/0.05) = 8;
        // the weight 0.2 stores q = round(0.2/0.05) + 8 = 12.
        const TensorData t = tensor({-0.4f, 0.35f, 0.2f, 0.0f}, 1, 4);
        const GroupInspection g = inspectGroup(t, scheme("int4"), 0, 0, 2);
        QCOMPARE(g.grid.scale, 0.75f / 15.0f);
        QCOMPARE(g.grid.zero, 8.0f);
        QCOMPARE(g.codes, (QList<float>{0, 15, 12, 8}));
        QCOMPARE(g.workedExample(), QStringLiteral("(12 − 8) × 0.05 = 0.2"));
    }

    void awqZeroPointClamp()
    {
        // All positive [1.0, 1.1, 1.05]: s = 0.1/15, -round(1.0/s) = -150
        // clamps to z = 0, and every q = round(w/s) >= 150 clamps to 15:
        // w' = 15·s = 0.1 for all three, all clipped.
        const TensorData positive = tensor({1.0f, 1.1f, 1.05f}, 1, 3);
        const GroupInspection p = inspectGroup(positive, scheme("int4"), 0, 0, 0);
        QCOMPARE(p.grid.zero, 0.0f);
        QCOMPARE(p.codes, (QList<float>{15, 15, 15}));
        QCOMPARE(p.dequantized.first(), 15 * ((1.1f - 1.0f) / 15.0f));
        QCOMPARE(simulate(positive, scheme("int4")).metrics.clipped, 3);

        // All negative [-1.1, -1.0]: z = -round(-165) = 165 clamps to 15;
        // q = round(w/s) + 15 <= -135 clamps to 0: w' = (0 - 15)·s = -0.1.
        const TensorData negative = tensor({-1.1f, -1.0f}, 1, 2);
        const GroupInspection n = inspectGroup(negative, scheme("int4"), 0, 0, 0);
        QCOMPARE(n.grid.zero, 15.0f);
        QCOMPARE(n.codes, (QList<float>{0, 0}));
        QCOMPARE(n.dequantized.first(), -15 * ((-1.0f - -1.1f) / 15.0f));
    }

    void awqGroupsAlongTheRow()
    {
        // Groups of 2 along a row of 4: [0, 3] and [10, 13] get scales 3/15
        // and 3/15 but zero points 0 and 0 (min >= 0 clamps to 0). The
        // second group's 10 and 13 exceed 15·0.2 = 3 and clip to 3.
        const TensorData t = tensor({0.0f, 3.0f, 10.0f, 13.0f}, 1, 4);
        const Scheme s = scheme("int4-g2");
        QCOMPARE(groupsPerRow(s, 4), 2);
        const GroupInspection second = inspectGroup(t, s, 0, 1, 0);
        QCOMPARE(second.firstColumn, 2);
        QCOMPARE(second.codes, (QList<float>{15, 15}));
        QCOMPARE(simulate(t, s).metrics.clipped, 2);
    }

    void roundHalfToEven()
    {
        // int2 AWQ on [0, 0.5, 1.5, 3]: s = 3/3 = 1, z = 0; 0.5 -> 0 and
        // 1.5 -> 2 (numpy.rint / torch.round ties to even).
        // Row [0, 2.5, 3.5, 7]: s = 7/3; 2.5/s = 1.07 -> 1, 3.5/s = 1.5 in
        // float32 -> tie -> 2, 7/s -> 3.
        const TensorData t = tensor({0.0f, 0.5f, 1.5f, 3.0f, 0.0f, 2.5f, 3.5f, 7.0f}, 2, 4);
        const float s = 7.0f / 3.0f;
        QCOMPARE(dequantized(t, scheme("int2")), (std::vector<float>{0, 0, 2, 3, 0, s, 2 * s, 3 * s}));
    }

    void int3Asymmetric()
    {
        // int3: 8 levels. [-1, 0, 0.5, 2.5]: s = 3.5/7 = 0.5, z = -round(-2) = 2;
        // 0.5/0.5 = 1 -> q 3; 2.5/0.5 = 5 -> q 7 = 2^3 - 1, the top code.
        const TensorData t = tensor({-1.0f, 0.0f, 0.5f, 2.5f}, 1, 4);
        const GroupInspection g = inspectGroup(t, scheme("int3"), 0, 0, 3);
        QCOMPARE(g.grid.scale, 0.5f);
        QCOMPARE(g.codes, (QList<float>{0, 2, 3, 7}));
    }

    void gptqSymmetric()
    {
        // GPTQ sym, 4 bits, on [-7.5, 3.75, 7.5]: xmax = max(|-7.5|, 7.5),
        // xmin = -7.5, s = 15/15 = 1 (exact in float32), z = 8.
        // 7.5 ties to 8 -> q 16 clamps to 15: w' = 7 (clipped);
        // -7.5 -> -8 -> q 0: w' = -8; 3.75 -> 4 -> q 12: w' = 4.
        const TensorData t = tensor({-7.5f, 3.75f, 7.5f}, 1, 3);
        const GroupInspection g = inspectGroup(t, scheme("int4-sym"), 0, 0, 0);
        QCOMPARE(g.grid.scale, 1.0f);
        QCOMPARE(g.grid.zero, 8.0f);
        QCOMPARE(g.codes, (QList<float>{0, 12, 15}));
        QCOMPARE(g.dequantized, (QList<float>{-8, 4, 7}));
        QCOMPARE(simulate(t, scheme("int4-sym")).metrics.clipped, 1);

        // All zero: GPTQ widens the range to [-1, 1] so s = 2/15 and w' = 0.
        const GroupInspection zero = inspectGroup(tensor({0.0f, 0.0f}, 1, 2), scheme("int4-sym"), 0, 0, 0);
        QCOMPARE(zero.grid.scale, 2.0f / 15.0f);
        QCOMPARE(zero.dequantized, (QList<float>{0, 0}));
    }

    void nf4CodeChoiceAtMidpoints()
    {
        // absmax 1 (the first value), so w/absmax = w. bitsandbytes'
        // dQuantizeNF4 picks the upper code only when x > threshold: a value
        // exactly on the threshold 0.03979014977812767 between codes 0 and
        // 0.0796 gets 0 (flushed), the next float up gets 0.0796. -0.8480964
        // sits between -1 and -0.696 and gets -1.
        const float t0 = 0.03979014977812767f;
        const float t14 = 0.8614784181118011f;
        const float tneg = -0.8480964004993439f;
        const TensorData t = tensor({1.0f, t0, std::nextafter(t0, 1.0f), t14, std::nextafter(t14, 1.0f), tneg,
                                     std::nextafter(tneg, 0.0f), -0.5f},
                                    1, 8);
        const SchemeResult r = simulate(t, scheme("nf4"));
        QCOMPARE(r.metrics.flushed, 1);
        // Expected errors, from the codes: 1 -> 1, t0 -> 0, t0+ -> 0.0795803,
        // t14 -> 0.7229568, t14+ -> 1, tneg -> -1, tneg+ -> -0.6961928,
        // -0.5 -> -0.5250731 (nearest: |-0.5+0.5251| < |-0.5+0.3949|).
        const double errors[] = {0,
                                 t0,
                                 double(std::nextafter(t0, 1.0f)) - double(0.07958029955625534f),
                                 double(t14) - double(0.7229568362236023f),
                                 double(std::nextafter(t14, 1.0f)) - 1.0,
                                 double(tneg) + 1.0,
                                 double(std::nextafter(tneg, 0.0f)) + double(0.6961928009986877f),
                                 -0.5 + double(0.5250730514526367f)};
        double squares = 0;
        for (double e : errors)
            squares += e * e;
        QVERIFY(qFuzzyCompare(r.metrics.mse, squares / 8));
    }

    void nf4BlocksOf64AcrossRows()
    {
        // bitsandbytes blocks the flattened tensor: with 3 rows of 40, block 0
        // is elements 0..63 (row 0 and most of row 1), block 1 the other 56.
        // Block 0 holds 10 (absmax) and 5 -> 5/10 = 0.5, below the threshold
        // 0.5017 between codes 0.4407 and 0.5626 -> w' = 4.407; block 1 holds
        // only 1s -> exact.
        std::vector<float> values(120, 1.0f);
        values[0] = 10.0f;
        values[1] = 5.0f;
        const TensorData t = tensor(values, 3, 40);
        const SchemeResult r = simulate(t, scheme("nf4"));
        // Block 0's other 1s: 1/10 = 0.1 -> nearest code 0.0796 (0.1 < 0.1203) -> 0.7958.
        const double e5 = 5.0 - double(0.44070982933044434f * 10.0f);
        const double e1 = 1.0 - double(0.07958029955625534f * 10.0f);
        QVERIFY(qFuzzyCompare(r.metrics.mse * 120, e5 * e5 + 62 * e1 * e1));
    }

    void mxfp4ScaleExponent_data()
    {
        QTest::addColumn<float>("amax");
        QTest::addColumn<int>("exponent");
        // X = 2^(floor(log2 amax) - 2), E8M0 clamps to [-127, 127].
        QTest::newRow("1.0 -> 2^-2") << 1.0f << -2;
        QTest::newRow("0.999 -> 2^-3") << 0.999f << -3;
        QTest::newRow("6.0 -> 2^0") << 6.0f << 0;
        QTest::newRow("7.99 -> 2^0") << 7.99f << 0;
        QTest::newRow("8.0 -> 2^1") << 8.0f << 1;
        QTest::newRow("subnormal 1e-40 clamps to 2^-127") << 1e-40f << -127;
        QTest::newRow("zero block") << 0.0f << -127;
    }

    void mxfp4ScaleExponent()
    {
        QFETCH(float, amax);
        QFETCH(int, exponent);
        QCOMPARE(mxfp4Block(amax).exponent, exponent);
        QCOMPARE(mxfp4Block(amax).scale, std::ldexp(1.0f, exponent));
    }

    void mxfp4Saturation()
    {
        // amax 7 -> X = 1: 7 is the tie 6|8 -> 8 -> saturates to 6 (clipped);
        // 5 is the tie 4|6 -> 4; 0.3 -> 0.5 (nearest).
        // Second block (columns 32..63) amax 0.3 -> X = 2^-4: 0.3/X = 4.8 -> 4 -> 0.25.
        const TensorData t = spikedRow(64, {{0, 7.0f}, {1, 5.0f}, {2, 0.3f}, {32, 0.3f}});
        const SchemeResult r = simulate(t, scheme("mxfp4"));
        QCOMPARE(r.metrics.clipped, 1);
        const double e[] = {1.0, 1.0, 0.3f - 0.5, 0.3f - 0.25};
        QVERIFY(qFuzzyCompare(r.metrics.mse * 64, e[0] * e[0] + e[1] * e[1] + e[2] * e[2] + e[3] * e[3]));
        QCOMPARE(r.metrics.maxAbsError, 1.0);
    }

    void fp4MxBlock16NeverClips()
    {
        // SGLang's fp4_mx_block16 KV cache (python/sglang/srt/layers/quantization/kvfp4_tensor.py,
        // FP4MXBlock16KVQuantizeUtil.batched_quantize): X = 2^ceil(log2(amax / 6)) per 16 values, each
        // magnitude the E2M1 value of its interval by E2M1_BOUNDS, a value on a bound taking the larger.
        // Block 0 (columns 0..15), amax 7 -> X = 2^ceil(log2 1.1667) = 2: 7/2 = 3.5 is on the bound 3.5
        // -> 4 -> 8 (error 1; OCP MXFP4 would take X = 1 and clip 7 to 6); 5/2 = 2.5 on the bound
        // 2.5 -> 3 -> 6 (error 1; round-to-nearest-even would take 2); 0.3/2 = 0.15 -> 0.
        // Block 1 (columns 16..31), amax 0.3 -> X = 2^ceil(log2 0.05) = 2^-4: 0.3 x 16 = 4.8 -> 4 ->
        // 0.25. Block 2 (32..47) holds 6.0 alone: X = 1, exact.
        QCOMPARE(fp4MxBlock16Block(7.0f).scale, 2.0f);
        QCOMPARE(fp4MxBlock16Block(0.3f).scale, 0.0625f);
        QCOMPARE(fp4MxBlock16Block(6.0f).scale, 1.0f);
        const TensorData t = spikedRow(48, {{0, 7.0f}, {1, 5.0f}, {2, 0.3f}, {16, 0.3f}, {32, 6.0f}});
        const SchemeResult r = simulate(t, scheme("fp4-mx-block16"));
        QCOMPARE(r.metrics.clipped, 0);
        const double e[] = {1.0, 1.0, 0.3f, 0.3f - 0.25};
        QVERIFY(qFuzzyCompare(r.metrics.mse * 48, e[0] * e[0] + e[1] * e[1] + e[2] * e[2] + e[3] * e[3]));
        QCOMPARE(r.metrics.maxAbsError, 1.0);
    }

    void fp8PerTensorScale()
    {
        // amax 896 -> s = 896/448 = 2: 896 -> 448·2 exactly; 1.0 -> 0.5 is an
        // e4m3 value -> exact; 3.3 -> 1.65 -> spacing 0.125 -> 1.625 -> 3.25.
        const TensorData t = tensor({896.0f, 1.0f, 3.3f, 0.0f}, 2, 2);
        const SchemeResult r = simulate(t, scheme("fp8"));
        QCOMPARE(r.tensorScale, 2.0);
        QCOMPARE(r.metrics.maxAbsError, double(3.3f) - 3.25);
        QCOMPARE(r.metrics.clipped, 0);
    }

    void fp8UnitScaleUnderflowAndOverflow()
    {
        // vLLM's default KV scale 1.0: 0.0009 < 2^-10 flushes to 0, 0.001 >
        // 2^-10 rounds to 2^-9; 500 is past 464 -> saturates to 448, or NaN
        // without saturation.
        const TensorData t = tensor({0.0009f, 0.001f, 500.0f, 1.0f}, 1, 4);
        SchemeDefaults defaults;
        defaults.unitScale = true;
        const SchemeResult saturated = simulate(t, scheme("fp8", defaults));
        QCOMPARE(saturated.tensorScale, 1.0);
        QCOMPARE(saturated.metrics.flushed, 1);
        QCOMPARE(saturated.metrics.clipped, 1);
        QCOMPARE(saturated.metrics.maxAbsError, 52.0);
        QCOMPARE(saturated.error.above, 1); // the clipped error is beyond ± half a step

        defaults.saturate = false;
        const SchemeResult overflowing = simulate(t, scheme("fp8", defaults));
        QCOMPARE(overflowing.metrics.nonFinite, 1);
        QCOMPARE(overflowing.error.nonFinite, 1);
        QVERIFY(std::isinf(overflowing.metrics.mse));
        QVERIFY(std::isinf(overflowing.metrics.sqnrDb) && overflowing.metrics.sqnrDb < 0);
    }

    void fp16AndBf16Overflow()
    {
        // 70000 is past fp16's 65504 -> inf: non-finite, clipped.
        const TensorData t = tensor({70000.0f, 1.0f}, 1, 2);
        const SchemeResult r = simulate(t, scheme("fp16"));
        QCOMPARE(r.metrics.clipped, 1);
        QCOMPARE(r.metrics.nonFinite, 1);
        QCOMPARE(simulate(t, scheme("bf16")).metrics.nonFinite, 0);
    }

    void inspectionErrors()
    {
        const TensorData t = tensor({1, 2, 3, 4}, 2, 2);
        QVERIFY_THROWS_EXCEPTION(Error, inspectGroup(t, scheme("nf4"), 0, 0, 0));
        QVERIFY_THROWS_EXCEPTION(Error, inspectGroup(t, scheme("int4"), 2, 0, 0));
        QVERIFY_THROWS_EXCEPTION(Error, inspectGroup(t, scheme("int4"), 0, 1, 0));
        QVERIFY_THROWS_EXCEPTION(Error, inspectGroup(t, scheme("int4"), 0, 0, 2));
    }
};

QTEST_GUILESS_MAIN(TestQuantSchemes)
#include "tst_quantschemes.moc"
