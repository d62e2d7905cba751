// SPDX-License-Identifier: MIT
// kvscope models / kvscope gpus: the built-in presets, as a table or JSON.
#include "app/cli/listcommands.h"

#include "app/cli/cliio.h"
#include "app/cli/commands.h"
#include "core/common/error.h"
#include "core/common/units.h"
#include "core/gpu/customgpu.h"
#include "core/library/library.h"
#include "core/output/presetlist.h"

#include <algorithm>

#include <QCommandLineParser>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

namespace kvscope::cli {

namespace {

/// A listing: a header line, then per entry one JSON object and one text row.
struct Listing
{
    QJsonArray json;
    QString text;
};

QString column(const QString &text, int width)
{
    return text.leftJustified(width);
}

/// The id column: the longest id and two spaces, so that no id runs into the next column.
int idColumnWidth(const QList<PresetFamily> &families)
{
    qsizetype longest = 2; // "id"
    for (const PresetFamily &family : families)
        for (const PresetSummary &p : family.presets)
            longest = std::max(longest, p.id.size());
    return int(longest) + 2;
}

Listing modelListing(const QString &filter)
{
    const QList<PresetFamily> families = presetsByFamily(ModelLibrary::builtin().presets(), filter);
    const int idWidth = idColumnWidth(families);
    Listing l;
    l.text = QStringLiteral("  ") + column(QStringLiteral("id"), idWidth) +
             QStringLiteral("params (total / active)            KV B/token (bf16, TP1)  context\n");
    for (const PresetFamily &family : families) {
        l.text += family.family + QLatin1Char('\n');
        for (const PresetSummary &p : family.presets) {
            QJsonObject o;
            o.insert(QStringLiteral("id"), p.id);
            o.insert(QStringLiteral("name"), p.name);
            o.insert(QStringLiteral("family"), p.family);
            o.insert(QStringLiteral("hf_repo_ids"), QJsonArray::fromStringList(p.hfRepoIds));
            o.insert(QStringLiteral("params_total"), qint64(p.paramsTotal));
            o.insert(QStringLiteral("params_active"), qint64(p.paramsActive));
            o.insert(QStringLiteral("kv_bytes_per_token_bf16"), qint64(p.kvBytesPerTokenBf16));
            o.insert(QStringLiteral("max_position_embeddings"), qint64(p.maxPositionEmbeddings));
            l.json.append(o);
            const QString counts =
                p.paramsActive == p.paramsTotal
                    ? formatCount(p.paramsTotal)
                    : formatCount(p.paramsTotal) + QStringLiteral(" / ") + formatCount(p.paramsActive);
            l.text += QStringLiteral("  ") + column(p.id, idWidth) + column(counts, 35) +
                      column(formatCount(p.kvBytesPerTokenBf16), 24) + formatCount(p.maxPositionEmbeddings) +
                      QLatin1Char('\n');
        }
    }
    return l;
}

Listing gpuListing(const QString &filter)
{
    Listing l;
    l.text = column(QStringLiteral("id"), 22) + column(QStringLiteral("name"), 42) +
             QStringLiteral("memory (GiB, basis)      bandwidth GB/s\n");
    for (const GpuSpec &g : GpuLibrary::builtin().presets()) {
        if (!presetMatches(g, filter))
            continue;
        QJsonObject o = gpuToJson(g);
        o.remove(QStringLiteral("format"));
        o.insert(QStringLiteral("memory_basis"), g.memoryBasis);
        o.insert(QStringLiteral("memory_gb_marketed"), g.marketedGb);
        l.json.append(o);
        l.text +=
            column(g.id, 22) + column(g.name, 42) +
            column(formatGiB(g.memoryBytes) + QStringLiteral(" (") + g.memoryBasis + QLatin1Char(')'), 25) +
            QString::number(g.bandwidthGBs, 'f', 0) + QLatin1Char('\n');
    }
    return l;
}

QString listingDescription(ListingKind kind)
{
    return kind == ListingKind::Models
               ? QStringLiteral("List the built-in model presets by family, with parameters and KV bytes per "
                                "token. Any config.json, model folder or .gguf file can also be passed to "
                                "'kvscope calc --model'.")
               : QStringLiteral(
                     "List the built-in GPU presets. Any other accelerator: 'kvscope calc --gpu %1'.")
                     .arg(QLatin1String(CustomGpuSyntax));
}

int runListing(ListingKind kind, const QStringList &arguments)
{
    ListingCommandLine commandLine(kind);
    if (const std::optional<int> exitCode =
            parseCommandLine(commandLine.parser, arguments, Positionals::Taken))
        return *exitCode;
    try {
        writeOut(listingOutput(commandLine));
        return Success;
    } catch (const Error &error) {
        return fail(error.message());
    }
}

} // namespace

ListingCommandLine::ListingCommandLine(ListingKind listingKind) : kind(listingKind)
{
    parser.setApplicationDescription(listingDescription(kind));
    parser.addHelpOption();
    parser.addOption(json);
    parser.addOption(search);
    parser.addPositionalArgument(QStringLiteral("filter"),
                                 QStringLiteral("Words to search for, as --search."),
                                 QStringLiteral("[filter...]"));
}

QString listingOutput(const ListingCommandLine &commandLine)
{
    const QCommandLineParser &parser = commandLine.parser;
    const QString filter =
        (parser.values(commandLine.search) + parser.positionalArguments()).join(QLatin1Char(' '));
    const bool models = commandLine.kind == ListingKind::Models;
    const Listing listing = models ? modelListing(filter) : gpuListing(filter);
    if (listing.json.isEmpty() && !filter.isEmpty())
        throw Error(QStringLiteral("%1: nothing matches '%2'")
                        .arg(models ? QStringLiteral("models") : QStringLiteral("gpus"), filter));
    return parser.isSet(commandLine.json) ? QString::fromUtf8(QJsonDocument(listing.json).toJson())
                                          : listing.text;
}

int runModels(const QStringList &arguments)
{
    return runListing(ListingKind::Models, arguments);
}

int runGpus(const QStringList &arguments)
{
    return runListing(ListingKind::Gpus, arguments);
}

} // namespace kvscope::cli
