// SPDX-License-Identifier: MIT
// Float32 -> small float formats, element by element, against values derived
// by hand from the format definitions in docs/quantization-formats.md (§1 FP8
// table and https://github.com/jax-ml/ml_dtypes/issues/400, §2 BF16/FP16, §7 E2M1). Every
// expected value is written as an exact power-of-two expression.
#include "core/quantization/floatformat.h"

#include <cmath>
#include <limits>

#include <QTest>

using namespace kvscope::quant;

namespace {

constexpr float qnan = std::numeric_limits<float>::quiet_NaN();
constexpr float inf = std::numeric_limits<float>::infinity();

float fp8(float v, const MinifloatFormat &format, bool saturate, bool *overflowed = nullptr)
{
    const bool e4m3 = format.maxFinite == 448.0f;
    const float overflowValue = saturate ? format.maxFinite : (e4m3 ? qnan : inf);
    bool o = false;
    const float r = roundToFormat(v, format, overflowValue, o);
    if (overflowed)
        *overflowed = o;
    return r;
}

/// Same value, or both NaN; also tells -0 from +0.
bool sameFloat(float a, float b)
{
    if (std::isnan(a) || std::isnan(b))
        return std::isnan(a) && std::isnan(b);
    return a == b && std::signbit(a) == std::signbit(b);
}

} // namespace

class TestQuantFormats : public QObject
{
    Q_OBJECT

    void formatRows(bool e4m3)
    {
        QTest::addColumn<float>("input");
        QTest::addColumn<float>("saturating");
        QTest::addColumn<float>("overflowing");
        if (e4m3) {
            // ml_dtypes without saturation (github.com/jax-ml/ml_dtypes/issues/400):
            // [1000, 448, 464, 465, -1000] -> [nan, 448, 448, nan, nan].
            QTest::newRow("max finite 448") << 448.0f << 448.0f << 448.0f;
            QTest::newRow("464 is the tie 448|480, to even 448") << 464.0f << 448.0f << 448.0f;
            QTest::newRow("465 rounds to 480 = the NaN code") << 465.0f << 448.0f << qnan;
            QTest::newRow("1000") << 1000.0f << 448.0f << qnan;
            QTest::newRow("-1000") << -1000.0f << -448.0f << qnan;
            QTest::newRow("+inf (no inf in e4m3fn)") << inf << 448.0f << qnan;
            QTest::newRow("min normal 2^-6") << 0x1p-6f << 0x1p-6f << 0x1p-6f;
            QTest::newRow("max subnormal 7*2^-9") << 7 * 0x1p-9f << 7 * 0x1p-9f << 7 * 0x1p-9f;
            QTest::newRow("min subnormal 2^-9") << 0x1p-9f << 0x1p-9f << 0x1p-9f;
            QTest::newRow("2^-10 is half the min subnormal: tie to even 0") << 0x1p-10f << 0.0f << 0.0f;
            QTest::newRow("just above 2^-10 rounds up to 2^-9")
                << std::nextafter(0x1p-10f, 1.0f) << 0x1p-9f << 0x1p-9f;
            QTest::newRow("below 2^-10 flushes to 0") << 0x1p-11f << 0.0f << 0.0f;
            QTest::newRow("-2^-11 flushes to -0") << -0x1p-11f << -0.0f << -0.0f;
            QTest::newRow("3*2^-10: tie 1|2 subnormal steps, to even 2^-8")
                << 3 * 0x1p-10f << 0x1p-8f << 0x1p-8f;
            QTest::newRow("1 + 2^-4: tie 1|1.125, to even 1") << 1.0625f << 1.0f << 1.0f;
            QTest::newRow("1 + 3*2^-4: tie 1.125|1.25, to even 1.25") << 1.1875f << 1.25f << 1.25f;
            QTest::newRow("NaN stays NaN") << qnan << qnan << qnan;
        } else {
            QTest::newRow("max finite 57344") << 57344.0f << 57344.0f << 57344.0f;
            QTest::newRow("61439 rounds down to 57344") << 61439.0f << 57344.0f << 57344.0f;
            QTest::newRow("61440 is the tie 57344|65536, to even 2^16 = inf") << 61440.0f << 57344.0f << inf;
            QTest::newRow("-70000") << -70000.0f << -57344.0f << -inf;
            QTest::newRow("+inf stays inf") << inf << 57344.0f << inf;
            QTest::newRow("min normal 2^-14") << 0x1p-14f << 0x1p-14f << 0x1p-14f;
            QTest::newRow("min subnormal 2^-16") << 0x1p-16f << 0x1p-16f << 0x1p-16f;
            QTest::newRow("2^-17 is half the min subnormal: tie to even 0") << 0x1p-17f << 0.0f << 0.0f;
            QTest::newRow("3*2^-17: tie to even 2^-15") << 3 * 0x1p-17f << 0x1p-15f << 0x1p-15f;
            QTest::newRow("1 + 2^-3: tie 1|1.25, to even 1") << 1.125f << 1.0f << 1.0f;
            QTest::newRow("1 + 3*2^-3: tie 1.25|1.5, to even 1.5") << 1.375f << 1.5f << 1.5f;
            QTest::newRow("NaN stays NaN") << qnan << qnan << qnan;
        }
    }

    void checkFormat(const MinifloatFormat &format)
    {
        QFETCH(float, input);
        QFETCH(float, saturating);
        QFETCH(float, overflowing);
        const float s = fp8(input, format, true);
        const float o = fp8(input, format, false);
        QVERIFY2(sameFloat(s, saturating),
                 qPrintable(QStringLiteral("saturating gave %1").arg(double(s), 0, 'g', 9)));
        QVERIFY2(sameFloat(o, overflowing),
                 qPrintable(QStringLiteral("overflowing gave %1").arg(double(o), 0, 'g', 9)));
    }

private Q_SLOTS:
    void e4m3_data() { formatRows(true); }
    void e4m3() { checkFormat(Fp8E4M3Format); }
    void e5m2_data() { formatRows(false); }
    void e5m2() { checkFormat(Fp8E5M2Format); }

    void fp8EveryCodeIsAFixedPoint()
    {
        // Each finite code (decoded from its bits) must round to itself: a
        // check of the rounding rule over the whole e4m3fn and e5m2 tables.
        for (std::uint32_t code = 0; code < 256; ++code) {
            const float e4m3 = float(decodeMinifloat(code, 4, 3, 7));
            if ((code & 0x7F) != 0x7F)
                QCOMPARE(fp8(e4m3, Fp8E4M3Format, false), e4m3);
            const float e5m2 = float(decodeMinifloat(code, 5, 2, 15));
            if (((code >> 2) & 0x1F) != 0x1F)
                QCOMPARE(fp8(e5m2, Fp8E5M2Format, false), e5m2);
        }
        QCOMPARE(decodeMinifloat(0x7E, 4, 3, 7), 448.0);    // S.1111.110 (quantization-formats.md §1)
        QCOMPARE(decodeMinifloat(0x7B, 5, 2, 15), 57344.0); // S.11110.11
        QCOMPARE(decodeMinifloat(0x01, 4, 3, 7), std::ldexp(1.0, -9));
    }

    void overflowFlag()
    {
        bool overflowed = false;
        fp8(465.0f, Fp8E4M3Format, true, &overflowed);
        QVERIFY(overflowed);
        fp8(464.0f, Fp8E4M3Format, true, &overflowed);
        QVERIFY(!overflowed); // a tie that rounds down is rounding, not clipping
    }

    void bf16_data()
    {
        QTest::addColumn<float>("input");
        QTest::addColumn<float>("expected");
        // PyTorch round_to_nearest_even: 7 stored mantissa bits, spacing 2^-7 at 1.
        QTest::newRow("1 + 2^-8: tie 1|1+2^-7, to even 1") << 1.0f + 0x1p-8f << 1.0f;
        QTest::newRow("1 + 3*2^-8: tie, to even 1+2^-6") << 1.0f + 3 * 0x1p-8f << 1.0f + 0x1p-6f;
        QTest::newRow("1 + 2^-8 + 2^-20: above the tie") << 1.0f + 0x1p-8f + 0x1p-20f << 1.0f + 0x1p-7f;
        QTest::newRow("-(1 + 2^-8): tie to even -1") << -(1.0f + 0x1p-8f) << -1.0f;
        QTest::newRow("FLT_MAX overflows to inf") << std::numeric_limits<float>::max() << inf;
        QTest::newRow("largest bf16 0x7F7F stays") << 0x1.FEp127f << 0x1.FEp127f;
        QTest::newRow("bf16 min subnormal 2^-133 stays") << 0x1p-133f << 0x1p-133f;
        QTest::newRow("2^-140 (fp32 subnormal) flushes") << 0x1p-140f << 0.0f;
        QTest::newRow("NaN") << qnan << qnan;
    }

    void bf16()
    {
        QFETCH(float, input);
        QFETCH(float, expected);
        QVERIFY(sameFloat(roundToBf16(input), expected));
    }

    void fp16_data()
    {
        QTest::addColumn<float>("input");
        QTest::addColumn<float>("expected");
        // IEEE binary16: 10 mantissa bits, max 65504, min subnormal 2^-24.
        QTest::newRow("max 65504") << 65504.0f << 65504.0f;
        QTest::newRow("65519 rounds down") << 65519.0f << 65504.0f;
        QTest::newRow("65520 is the tie 65504|65536: to even, inf") << 65520.0f << inf;
        QTest::newRow("-1e5 overflows to -inf") << -1.0e5f << -inf;
        QTest::newRow("min subnormal 2^-24") << 0x1p-24f << 0x1p-24f;
        QTest::newRow("2^-25: tie to even 0") << 0x1p-25f << 0.0f;
        QTest::newRow("3*2^-25: tie to even 2^-23") << 3 * 0x1p-25f << 0x1p-23f;
        QTest::newRow("1 + 2^-11: tie to even 1") << 1.0f + 0x1p-11f << 1.0f;
        QTest::newRow("1 + 3*2^-11: tie to even 1+2^-9") << 1.0f + 3 * 0x1p-11f << 1.0f + 0x1p-9f;
        QTest::newRow("NaN") << qnan << qnan;
    }

    void fp16()
    {
        QFETCH(float, input);
        QFETCH(float, expected);
        QVERIFY2(sameFloat(roundToFp16(input), expected),
                 qPrintable(QString::number(double(roundToFp16(input)), 'g', 9)));
    }

    void e2m1_data()
    {
        QTest::addColumn<float>("input");
        QTest::addColumn<float>("expected");
        QTest::addColumn<bool>("overflow");
        // E2M1 magnitudes {0, 0.5, 1, 1.5, 2, 3, 4, 6} (quantization-formats.md §7); ties go to the even
        // mantissa.
        QTest::newRow("0.25: tie 0|0.5 -> 0") << 0.25f << 0.0f << false;
        QTest::newRow("0.75: tie 0.5|1 -> 1") << 0.75f << 1.0f << false;
        QTest::newRow("1.25: tie 1|1.5 -> 1") << 1.25f << 1.0f << false;
        QTest::newRow("1.75: tie 1.5|2 -> 2") << 1.75f << 2.0f << false;
        QTest::newRow("2.5: tie 2|3 -> 2") << 2.5f << 2.0f << false;
        QTest::newRow("3.5: tie 3|4 -> 4") << 3.5f << 4.0f << false;
        QTest::newRow("5: tie 4|6 -> 4") << 5.0f << 4.0f << false;
        QTest::newRow("6.9 rounds to 6") << 6.9f << 6.0f << false;
        QTest::newRow("7: tie 6|8 -> 8, saturates to 6") << 7.0f << 6.0f << true;
        QTest::newRow("-100 saturates to -6") << -100.0f << -6.0f << true;
    }

    void e2m1()
    {
        QFETCH(float, input);
        QFETCH(float, expected);
        QFETCH(bool, overflow);
        bool overflowed = false;
        QCOMPARE(roundToFormat(input, E2M1Format, 6.0f, overflowed), expected);
        QCOMPARE(overflowed, overflow);
    }

    void halfDecoding_data()
    {
        QTest::addColumn<int>("bits");
        QTest::addColumn<float>("expected");
        QTest::newRow("0x3C00 = 1") << 0x3C00 << 1.0f;
        QTest::newRow("0xC000 = -2") << 0xC000 << -2.0f;
        QTest::newRow("0x7BFF = 65504") << 0x7BFF << 65504.0f;
        QTest::newRow("0x0001 = 2^-24") << 0x0001 << 0x1p-24f;
        QTest::newRow("0x03FF = 1023*2^-24") << 0x03FF << 1023 * 0x1p-24f;
        QTest::newRow("0x7C00 = inf") << 0x7C00 << inf;
        QTest::newRow("0xFC00 = -inf") << 0xFC00 << -inf;
        QTest::newRow("0x7E00 = NaN") << 0x7E00 << qnan;
        QTest::newRow("0x8000 = -0") << 0x8000 << -0.0f;
    }

    void halfDecoding()
    {
        QFETCH(int, bits);
        QFETCH(float, expected);
        QVERIFY(sameFloat(halfBitsToFloat(std::uint16_t(bits)), expected));
    }

    void bf16Decoding()
    {
        QCOMPARE(bf16BitsToFloat(0x3F80), 1.0f);
        QCOMPARE(bf16BitsToFloat(0x4049), 3.140625f); // 0x40490000
        QCOMPARE(bf16BitsToFloat(0xC2F7), -123.5f);   // 0xC2F70000
    }
};

QTEST_GUILESS_MAIN(TestQuantFormats)
#include "tst_quantformats.moc"
