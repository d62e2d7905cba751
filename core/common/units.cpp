// SPDX-License-Identifier: MIT
#include "core/common/units.h"

#include "core/common/checked.h"

#include <cmath>
#include <cstdlib>

#include <QCoreApplication>

namespace kvscope {

namespace {

constexpr std::int64_t TiB = std::int64_t{1} << 40;

/// `locale` with its group separator on (the C locale leaves it off by default).
QLocale grouped(QLocale locale)
{
    locale.setNumberOptions(locale.numberOptions() & ~QLocale::OmitGroupSeparator);
    return locale;
}

/// Whether every digit of the number's mantissa in `text` is zero ("0.00x", "0.0e+00").
bool showsZero(const QString &text)
{
    for (const QChar c : text) {
        if (c == QLatin1Char('e') || c == QLatin1Char('E'))
            break;
        if (c.digitValue() > 0)
            return false;
    }
    return true;
}

/// `text` without its minus sign when every digit of its mantissa is zero ("-0.00" is "0.00").
QString withoutNegativeZero(const QString &text, const QString &minus = QStringLiteral("-"))
{
    return text.startsWith(minus) && showsZero(text) ? text.mid(minus.size()) : text;
}

/// The largest binary unit whose size the magnitude of `bytes` reaches, from `largest` down.
struct Unit
{
    std::int64_t size;
    const char *name;
};
constexpr Unit BinaryUnits[] = {{TiB, "TiB"}, {GiB, "GiB"}, {MiB, "MiB"}, {KiB, "KiB"}, {1, "B"}};

QString inUnits(std::int64_t bytes, int decimals, const QLocale &locale, const Unit *first, const Unit *last)
{
    const std::int64_t magnitude = bytes < 0 ? -bytes : bytes;
    const Unit *unit = first;
    while (unit != last && magnitude < unit->size)
        ++unit;
    if (unit->size == 1)
        return locale.toString(qint64(bytes)) + QStringLiteral(" B");
    return withoutNegativeZero(locale.toString(double(bytes) / double(unit->size), 'f', decimals),
                               locale.negativeSign()) +
           QLatin1Char(' ') + QLatin1String(unit->name);
}

} // namespace

QString unitsConvention()
{
    return QCoreApplication::translate(
        "kvscope::Units",
        "Units: GiB = 2^30 bytes, MiB = 2^20 bytes; bytes are per GPU unless marked total.");
}

QString formatGiB(std::int64_t bytes, int decimals)
{
    return formatFigure(toGiB(bytes), 'f', decimals) + QStringLiteral(" GiB");
}

QString formatBytes(std::int64_t bytes, int decimals)
{
    return inUnits(bytes, decimals, QLocale::c(), std::begin(BinaryUnits), std::end(BinaryUnits) - 1);
}

QString formatBytes(std::int64_t bytes, const QLocale &locale, int decimals)
{
    return inUnits(bytes, decimals, grouped(locale), std::begin(BinaryUnits), std::end(BinaryUnits) - 1);
}

QString formatMemory(std::int64_t bytes, const QLocale &locale, int decimals)
{
    // GiB below a TiB, whatever the size (a 0.50 GiB part stays in the bar's unit).
    return inUnits(bytes, decimals, grouped(locale), std::begin(BinaryUnits), std::begin(BinaryUnits) + 1);
}

QString formatCount(std::int64_t value, const QLocale &locale)
{
    return grouped(locale).toString(qint64(value));
}

QString formatDecimal(double value, int decimals, const QLocale &locale)
{
    const QLocale l = grouped(locale);
    return withoutNegativeZero(l.toString(value, 'f', decimals), l.negativeSign());
}

QString formatRate(double perSecond, const QLocale &locale)
{
    return std::fabs(perSecond) >= 1000 ? formatCount(std::llround(perSecond), locale)
                                        : formatDecimal(perSecond, 1, locale);
}

QString formatBudgetShare(std::int64_t basisPoints, const QLocale &locale)
{
    if (basisPoints < 99'950) // 999.5 % rounds to "999.5%" at most
        return formatDecimal(double(basisPoints) / 100.0, 1, locale) + QLatin1Char('%');
    return QCoreApplication::translate("kvscope::units", "×%1 the budget")
        .arg(formatCount(std::llround(double(basisPoints) / 10'000.0), locale));
}

QString formatCount(std::int64_t value)
{
    const bool negative = value < 0;
    // Work on the unsigned magnitude so INT64_MIN formats correctly.
    std::uint64_t magnitude = negative ? std::uint64_t(0) - std::uint64_t(value) : std::uint64_t(value);
    QString digits = QString::number(magnitude);
    for (int i = digits.size() - 3; i > 0; i -= 3)
        digits.insert(i, QLatin1Char(','));
    return negative ? QLatin1Char('-') + digits : digits;
}

QString formatShortCount(std::int64_t value)
{
    if (value >= (std::int64_t(1) << 20) && value % (std::int64_t(1) << 20) == 0)
        return QString::number(value >> 20) + QLatin1Char('M');
    if (value >= 1024 && value % 1024 == 0)
        return QString::number(value >> 10) + QLatin1Char('K');
    return QString::number(value);
}

QString formatParameterCount(std::int64_t parameters)
{
    const double billions = double(parameters) / 1e9;
    if (billions >= 100)
        return QString::number(billions, 'f', 0) + QLatin1Char('B');
    if (billions >= 1)
        return QString::number(billions, 'f', 2) + QLatin1Char('B');
    return QString::number(double(parameters) / 1e6, 'f', 0) + QLatin1Char('M');
}

QString noFigure()
{
    return QStringLiteral("—");
}

QString formatFigure(double value, char format, int precision)
{
    if (!std::isfinite(value))
        return noFigure();
    return withoutNegativeZero(QString::number(value, format, precision));
}

QString differenceSign(double difference, const QString &shownMagnitude, QChar minus)
{
    if (showsZero(shownMagnitude))
        return {};
    return difference < 0 ? QString(minus) : QStringLiteral("+");
}

QString formatDuration(double seconds)
{
    static const char *const names[] = {"s", "ms", "µs", "ns"};
    if (!std::isfinite(seconds))
        return noFigure();
    if (std::abs(seconds) >= 1e6) // past 11 days, digits beyond the third say nothing
        return formatFigure(seconds, 'e', 2) + QStringLiteral(" s");
    double value = seconds;
    int unit = 0;
    while (unit < 2 && std::abs(value) < 1.0) {
        value *= 1000;
        ++unit;
    }
    // Below a microsecond (a cost per routed token), nanoseconds; zero stays "0.00 µs".
    if (value != 0 && std::abs(value) < 1.0) {
        value *= 1000;
        ++unit;
    }
    const int decimals = value >= 100 ? 0 : value >= 10 ? 1 : 2;
    return formatFigure(value, 'f', decimals) + QLatin1Char(' ') + QString::fromUtf8(names[unit]);
}

QString localCount(std::int64_t value)
{
    return formatCount(value, QLocale());
}

QString localMemory(std::int64_t bytes)
{
    return formatMemory(bytes, QLocale());
}

std::int64_t bytesOfGiB(std::int64_t gib)
{
    return (Checked(gib) * GiB).value();
}

} // namespace kvscope
