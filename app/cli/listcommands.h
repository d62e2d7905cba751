// SPDX-License-Identifier: MIT
// kvscope models / kvscope gpus: their command line and what they print,
// apart from the printing (the fuzz targets of the command line run the same
// code in-process).
#pragma once

#include <QCommandLineOption>
#include <QCommandLineParser>
#include <QString>

namespace kvscope::cli {

enum class ListingKind
{
    Models,
    Gpus
};

/// The parser of `kvscope models` or `kvscope gpus`: --json, --search, filter words.
struct ListingCommandLine
{
    explicit ListingCommandLine(ListingKind kind);

    ListingKind kind;
    QCommandLineParser parser;
    QCommandLineOption json{QStringLiteral("json"), QStringLiteral("Print a JSON array.")};
    QCommandLineOption search{
        QStringLiteral("search"),
        QStringLiteral("Only entries whose id, name, family or aliases contain every word "
                       "of TEXT (ignoring case)."),
        QStringLiteral("text")};
};

/// The table or JSON array the parsed options ask for; throws kvscope::Error
/// when a filter matches nothing.
QString listingOutput(const ListingCommandLine &commandLine);

} // namespace kvscope::cli
