// SPDX-License-Identifier: MIT
// Units, formatting and checked arithmetic.
#include "common/checked.h"
#include "common/error.h"
#include "common/units.h"

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
    }

    void counts()
    {
        QCOMPARE(formatCount(8'030'261'248), QStringLiteral("8,030,261,248"));
        QCOMPARE(formatCount(999), QStringLiteral("999"));
        QCOMPARE(formatCount(-1'000), QStringLiteral("-1,000"));
        QCOMPARE(formatCount(std::numeric_limits<std::int64_t>::min()),
                 QStringLiteral("-9,223,372,036,854,775,808"));
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
