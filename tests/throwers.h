// SPDX-License-Identifier: MIT
// What a library may throw besides kvscope::Error, for the suites that check
// a background run turns every exception into a message the user is shown.
#pragma once

#include <new>
#include <stdexcept>

#include <QString>
#include <QTest>

namespace kvscope::test {

/// The data column "thrown" (rows named after it) and the message it leaves: "shown".
inline void addThrownRows()
{
    QTest::addColumn<QString>("thrown");
    QTest::addColumn<QString>("shown");
    QTest::newRow("std::runtime_error")
        << QStringLiteral("std::runtime_error") << QStringLiteral("unexpected error: disk on fire");
    QTest::newRow("std::bad_alloc") << QStringLiteral("std::bad_alloc") << QStringLiteral("out of memory");
    QTest::newRow("not a std::exception") << QStringLiteral("int") << QStringLiteral("unexpected error");
}

/// Throws the exception a row of addThrownRows() names.
[[noreturn]] inline void throwNamed(const QString &thrown)
{
    if (thrown == QLatin1String("std::runtime_error"))
        throw std::runtime_error("disk on fire");
    if (thrown == QLatin1String("std::bad_alloc"))
        throw std::bad_alloc();
    throw 42;
}

} // namespace kvscope::test
