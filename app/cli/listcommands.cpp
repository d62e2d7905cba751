// SPDX-License-Identifier: MIT
// kvscope models / kvscope gpus: the built-in presets, as a table or JSON.
#include "cliio.h"
#include "commands.h"
#include "common/error.h"
#include "common/units.h"
#include "gpu/customgpu.h"
#include "library/library.h"
#include "library/presetlist.h"

#include <functional>

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

/// Parses --json/--search/--help and positional filter words, builds the
/// listing for the filter, prints it; returns the exit code.
int runListing(const QStringList &arguments, const QString &description,
               const std::function<Listing(const QString &filter)> &build)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(description);
    parser.addHelpOption();
    const QCommandLineOption json(QStringLiteral("json"), QStringLiteral("Print a JSON array."));
    const QCommandLineOption search(
        QStringLiteral("search"),
        QStringLiteral("Only entries whose id, name, family or aliases contain every word "
                       "of TEXT (ignoring case)."),
        QStringLiteral("text"));
    parser.addOption(json);
    parser.addOption(search);
    parser.addPositionalArgument(QStringLiteral("filter"),
                                 QStringLiteral("Words to search for, as --search."),
                                 QStringLiteral("[filter...]"));
    if (const std::optional<int> exitCode = parseCommandLine(parser, arguments, Positionals::Taken))
        return *exitCode;
    const QString filter = (parser.values(search) + parser.positionalArguments()).join(QLatin1Char(' '));
    try {
        const Listing listing = build(filter);
        if (listing.json.isEmpty() && !filter.isEmpty())
            return fail(QStringLiteral("%1: nothing matches '%2'").arg(arguments.value(1), filter));
        writeOut(parser.isSet(json) ? QString::fromUtf8(QJsonDocument(listing.json).toJson()) : listing.text);
        return Success;
    } catch (const Error &error) {
        return fail(error.message());
    }
}

QString column(const QString &text, int width)
{
    return text.leftJustified(width);
}

Listing modelListing(const QString &filter)
{
    Listing l;
    l.text = QStringLiteral("  ") + column(QStringLiteral("id"), 18) +
             QStringLiteral("params (total / active)            KV B/token (bf16, TP1)  context\n");
    for (const PresetFamily &family : presetsByFamily(ModelLibrary::builtin().presets(), filter)) {
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
            l.text += QStringLiteral("  ") + column(p.id, 18) + column(counts, 35) +
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

} // namespace

int runModels(const QStringList &arguments)
{
    return runListing(
        arguments,
        QStringLiteral("List the built-in model presets by family, with parameters and KV bytes per "
                       "token. Any config.json, model folder or .gguf file can also be passed to "
                       "'kvscope calc --model'."),
        modelListing);
}

int runGpus(const QStringList &arguments)
{
    return runListing(
        arguments,
        QStringLiteral("List the built-in GPU presets. Any other accelerator: 'kvscope calc --gpu "
                       "custom:MEMORY_GIB[:BANDWIDTH_GBS[:TFLOPS_BF16]]'."),
        gpuListing);
}

} // namespace kvscope::cli
