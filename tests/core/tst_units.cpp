// SPDX-License-Identifier: MIT
// Units, formatting and checked arithmetic.
#include "core/common/checked.h"
#include "core/common/error.h"
#include "core/common/textcolumns.h"
#include "core/common/units.h"

#include <limits>

#include <QTest>

using namespace kvscope;

class TestUnits : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void gibIsBinary()
    {
        QCOMPARE(GiB, 1'073'741'824LL);
        QCOMPARE(formatGiB(16LL * GiB), QStringLiteral("16.00 GiB"));
        QCOMPARE(formatGiB(GiB / 2, 1), QStringLiteral("0.5 GiB"));
        QCOMPARE(formatBytes(131'072), QStringLiteral("128.00 KiB"));
        QCOMPARE(formatBytes(512), QStringLiteral("512 B"));
        QCOMPARE(formatBytes(-3 * MiB), QStringLiteral("-3.00 MiB"));
        // A value that rounds to zero is shown without a sign, whichever side it is on.
        QCOMPARE(formatGiB(-1), QStringLiteral("0.00 GiB"));
        QCOMPARE(formatBytes(-1, QLocale::c(), 2), QStringLiteral("-1 B"));
        QCOMPARE(formatBytes(-100, 0), QStringLiteral("-100 B"));
    }

    void figuresWithoutAValueShowADash()
    {
        // Text tables show "—" where the JSON says null (a non-finite figure).
        QCOMPARE(formatDuration(std::numeric_limits<double>::infinity()), QStringLiteral("—"));
        QCOMPARE(formatDuration(std::numeric_limits<double>::quiet_NaN()), QStringLiteral("—"));
        QCOMPARE(formatDuration(-0.0), QStringLiteral("0.00 µs"));
        // A duration beyond any clock is written with an exponent, not 300 digits.
        QCOMPARE(formatDuration(4.41e302), QStringLiteral("4.41e+302 s"));
    }

    void durationsBelowAMicrosecondKeepTheirDigits()
    {
        // A cost per routed token is tens of nanoseconds: "59.5 ns", not "0.06 µs".
        QCOMPARE(formatDuration(5.947e-8), QStringLiteral("59.5 ns"));
        QCOMPARE(formatDuration(7.5e-7), QStringLiteral("750 ns"));
        QCOMPARE(formatDuration(2.5e-6), QStringLiteral("2.50 µs"));
    }

    void differencesThatRoundAwayHaveNoSign()
    {
        // A difference is shown with its sign, unless what is shown of it is zero: a
        // -0.0004x difference printed to two decimals reads "0.00x", never "-0.00x".
        QCOMPARE(differenceSign(-0.0004, QStringLiteral("0.00x")), QString());
        QCOMPARE(differenceSign(0.0004, QStringLiteral("0.00x")), QString());
        QCOMPARE(differenceSign(-0.4, QStringLiteral("0.40x")), QStringLiteral("-"));
        QCOMPARE(differenceSign(0.4, QStringLiteral("0.40x")), QStringLiteral("+"));
        QCOMPARE(differenceSign(-3.0, QStringLiteral("3 B"), QChar(0x2212)), QString(QChar(0x2212)));
        // Only the mantissa counts: 1e-05 is not zero.
        QCOMPARE(differenceSign(-1e-5, QStringLiteral("1e-05")), QStringLiteral("-"));
        QCOMPARE(differenceSign(-1e-300, QStringLiteral("0.0e+00")), QString());
    }

    void chineseTakesTwoColumns()
    {
        // Hand-counted: two ideographs and a full-width bracket take two columns each, ASCII one.
        QCOMPARE(displayColumns(QStringLiteral("权重")), 4);
        QCOMPARE(displayColumns(QStringLiteral("PyTorch 之外（CUDA）")), 8 + 2 * 2 + 2 + 4 + 2);
        QCOMPARE(displayColumns(QStringLiteral("KV Cache token 数")), 15 + 2);
        QCOMPARE(padded(QStringLiteral("权重"), -6), QStringLiteral("权重  "));
        QCOMPARE(padded(QStringLiteral("1.89 GiB"), 12), QStringLiteral("    1.89 GiB"));
        QCOMPARE(padded(QStringLiteral("日志"), 6), QStringLiteral("  日志"));
        QCOMPARE(padded(QStringLiteral("longer than four"), -4), QStringLiteral("longer than four"));
    }

    void counts()
    {
        QCOMPARE(formatCount(8'030'261'248), QStringLiteral("8,030,261,248"));
        QCOMPARE(formatCount(999), QStringLiteral("999"));
        QCOMPARE(formatCount(-1'000), QStringLiteral("-1,000"));
        QCOMPARE(formatCount(std::numeric_limits<std::int64_t>::min()),
                 QStringLiteral("-9,223,372,036,854,775,808"));
    }

    void screenFiguresGroupDigitsAndSwitchUnits()
    {
        const QLocale english(QLocale::English, QLocale::UnitedStates);
        // 1,000 GiB stays in GiB, grouped; 65,536 GiB = 2^46 B = 64 TiB.
        QCOMPARE(formatMemory(1000 * GiB, english), QStringLiteral("1,000.00 GiB"));
        QCOMPARE(formatMemory(65'536 * GiB, english), QStringLiteral("64.00 TiB"));
        QCOMPARE(formatMemory(-62 * GiB - GiB / 2, english), QStringLiteral("-62.50 GiB"));
        QCOMPARE(formatMemory(GiB / 2, english), QStringLiteral("0.50 GiB"));
        QCOMPARE(formatBytes(507'904, english), QStringLiteral("496.00 KiB"));
        QCOMPARE(formatBytes(1'000, english), QStringLiteral("1,000 B"));
        QCOMPARE(formatCount(8'030'261'248, english), QStringLiteral("8,030,261,248"));
        // The C locale leaves its separator off by default; the screen groups anyway.
        QCOMPARE(formatCount(131'072, QLocale::c()), QStringLiteral("131,072"));
        // German groups with '.' and writes the decimal comma.
        QCOMPARE(formatMemory(1000 * GiB + GiB / 4, QLocale(QLocale::German, QLocale::Germany)),
                 QStringLiteral("1.000,25 GiB"));
        // The command line's own formats stay as they were (no grouping, GiB only).
        QCOMPARE(formatGiB(65'536 * GiB), QStringLiteral("65536.00 GiB"));
        QCOMPARE(formatBytes(507'904), QStringLiteral("496.00 KiB"));
    }

    void budgetShares()
    {
        const QLocale english(QLocale::English, QLocale::UnitedStates);
        QCOMPARE(formatBudgetShare(4'520, english), QStringLiteral("45.2%"));
        QCOMPARE(formatBudgetShare(99'940, english), QStringLiteral("999.4%"));
        // 91,877.9% of the budget is 918.779 budgets.
        QCOMPARE(formatBudgetShare(9'187'790, english), QStringLiteral("×919 the budget"));
        QCOMPARE(formatBudgetShare(123'456'789, english), QStringLiteral("×12,346 the budget"));
    }

    void checkedArithmeticThrows()
    {
        const Checked big = std::numeric_limits<std::int64_t>::max() / 2 + 1;
        QVERIFY_THROWS_EXCEPTION(Error, big * 2);
        QVERIFY_THROWS_EXCEPTION(Error, big + big);
        QVERIFY_THROWS_EXCEPTION(Error, Checked(std::numeric_limits<std::int64_t>::min()) - 1);
        QCOMPARE((Checked(3) * 4 + 5 - 1).value(), 16LL);
    }

    void checkedArithmeticEdges()
    {
        // Exactly at the ends of int64 is a figure; one step past is an error.
        constexpr std::int64_t max = std::numeric_limits<std::int64_t>::max();
        constexpr std::int64_t min = std::numeric_limits<std::int64_t>::min();
        QCOMPARE((Checked(max - 1) + 1).value(), max);
        QVERIFY_THROWS_EXCEPTION(Error, Checked(max) + 1);
        QCOMPARE((Checked(min + 1) - 1).value(), min);
        QCOMPARE((Checked(-1) - max).value(), min);
        QVERIFY_THROWS_EXCEPTION(Error, Checked(-2) - max);
        QCOMPARE((Checked(min / 2) * 2).value(), min); // -2^62 * 2 = -2^63 fits
        QVERIFY_THROWS_EXCEPTION(Error, Checked(min) * -1);
        QVERIFY_THROWS_EXCEPTION(Error, Checked(-1) * min);
        QVERIFY_THROWS_EXCEPTION(Error, Checked(1LL << 32) * (1LL << 31));
        QCOMPARE((Checked(3'037'000'499) * 3'037'000'499).value(), 9'223'372'030'926'249'001LL);
        Checked c = max / 3;
        c *= 3;
        QCOMPARE(c.value(), max - 1);
        QVERIFY_THROWS_EXCEPTION(Error, c += 2);
        QVERIFY_THROWS_EXCEPTION(Error, Checked(min) -= 1);
    }

    void divisions()
    {
        QCOMPARE(ceilDiv(17, 16), 2LL);
        QCOMPARE(ceilDiv(16, 16), 1LL);
        QCOMPARE(ceilDiv(0, 16), 0LL);
        QCOMPARE(floorDiv(-1, 16), -1LL);
        QCOMPARE(floorDiv(17, 16), 1LL);
    }
};

QTEST_GUILESS_MAIN(TestUnits)
#include "tst_units.moc"
