// SPDX-License-Identifier: MIT
// An enum's spellings written once: a table of (value, canonical name, other
// accepted spellings) that its name function, its choices list and its parser
// all read, so the three cannot drift apart.
#pragma once

#include "core/common/error.h"

#include <array>
#include <cstddef>
#include <optional>

#include <QString>
#include <QStringList>

namespace kvscope {

template <class Enum> struct EnumSpelling
{
    Enum value;
    const char *name;                      ///< canonical, lower case: what names and choices show
    std::array<const char *, 3> aliases{}; ///< other spellings the parser takes, lower case
};

/// The canonical name of `value`; empty when the table does not hold it.
template <class Enum, std::size_t N> QString enumName(const EnumSpelling<Enum> (&table)[N], Enum value)
{
    for (const EnumSpelling<Enum> &entry : table)
        if (entry.value == value)
            return QLatin1String(entry.name);
    return {};
}

/// The canonical names of the values `offered` keeps, in table order.
template <class Enum, std::size_t N, class Offered>
QStringList enumChoices(const EnumSpelling<Enum> (&table)[N], Offered offered)
{
    QStringList names;
    for (const EnumSpelling<Enum> &entry : table)
        if (offered(entry.value))
            names << QLatin1String(entry.name);
    return names;
}

/// Every canonical name, in table order.
template <class Enum, std::size_t N> QStringList enumChoices(const EnumSpelling<Enum> (&table)[N])
{
    return enumChoices(table, [](Enum) { return true; });
}

/// The value whose name or alias is `key`, compared exactly: the caller
/// brings the text into the table's lower case its own way (trimmed or not).
template <class Enum, std::size_t N>
std::optional<Enum> enumValue(const EnumSpelling<Enum> (&table)[N], const QString &key)
{
    for (const EnumSpelling<Enum> &entry : table) {
        if (key == QLatin1String(entry.name))
            return entry.value;
        for (const char *alias : entry.aliases)
            if (alias && key == QLatin1String(alias))
                return entry.value;
    }
    return std::nullopt;
}

/// The value `text` names (trimmed, in any case); otherwise kvscope::Error naming `option` and the text:
/// "OPTION: must be a or b, got 'TEXT'", or "must be one of a, b, c" for more than two choices.
template <class Enum, std::size_t N>
Enum parseEnumOption(const EnumSpelling<Enum> (&table)[N], const QString &text, const QString &option)
{
    if (const std::optional<Enum> value = enumValue(table, text.trimmed().toLower()))
        return *value;
    const QStringList choices = enumChoices(table);
    const QString listed = choices.size() == 2
                               ? choices.join(QStringLiteral(" or "))
                               : QStringLiteral("one of ") + choices.join(QStringLiteral(", "));
    throw Error(QStringLiteral("%1: must be %2, got '%3'").arg(option, listed, text));
}

} // namespace kvscope
