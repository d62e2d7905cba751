// SPDX-License-Identifier: MIT
// kvscope models / kvscope gpus: the built-in presets, as a table or JSON.
#include "cliio.h"
#include "commands.h"

#include "error.h"
#include "inventory.h"
#include "kvcache.h"
#include "library.h"
#include "units.h"

#include <QCommandLineParser>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <functional>

namespace kvscope::cli {

namespace {

/// A listing: a header line, then per entry one JSON object and one text row.
struct Listing
{
    QJsonArray json;
    QString text;
};

/// Parses --json/--help, builds the listing, prints it; returns the exit code.
int runListing(const QStringList &arguments, const QString &description,
               const std::function<Listing()> &build)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(description);
    parser.addHelpOption();
    const QCommandLineOption json(QStringLiteral("json"), QStringLiteral("Print a JSON array."));
    parser.addOption(json);
    if (!parser.parse(arguments.mid(1)))
        return fail(QStringLiteral("%1: %2").arg(arguments.value(1), parser.errorText()), UsageError);
    if (parser.isSet(QStringLiteral("help"))) {
        writeOut(parser.helpText());
        return Success;
    }
    try {
        const Listing listing = build();
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

Listing modelListing()
{
    Listing l;
    l.text = column(QStringLiteral("id"), 18) + column(QStringLiteral("family"), 11)
             + QStringLiteral("params (total / active)          KV B/token (bf16, TP1)  context\n");
    for (const ModelArch &m : ModelLibrary::builtin().models()) {
        const ParameterCounts params = countParameters(m);
        const std::int64_t kvPerToken = kvBytesPerTokenPerLayer(m, KvCacheDtype::BFloat16, 1) * m.numLayers;
        QJsonObject o;
        o.insert(QStringLiteral("id"), m.id);
        o.insert(QStringLiteral("name"), m.name);
        o.insert(QStringLiteral("family"), m.family);
        o.insert(QStringLiteral("hf_repo_ids"), QJsonArray::fromStringList(m.hfRepoIds));
        o.insert(QStringLiteral("params_total"), qint64(params.total));
        o.insert(QStringLiteral("params_active"), qint64(params.active));
        o.insert(QStringLiteral("kv_bytes_per_token_bf16"), qint64(kvPerToken));
        o.insert(QStringLiteral("max_position_embeddings"), qint64(m.maxPositionEmbeddings));
        l.json.append(o);
        const QString counts = params.active == params.total
                                   ? formatCount(params.total)
                                   : formatCount(params.total) + QStringLiteral(" / ") + formatCount(params.active);
        l.text += column(m.id, 18) + column(m.family, 11) + column(counts, 33) + column(formatCount(kvPerToken), 24)
                  + formatCount(m.maxPositionEmbeddings) + QLatin1Char('\n');
    }
    return l;
}

Listing gpuListing()
{
    Listing l;
    l.text = column(QStringLiteral("id"), 22) + column(QStringLiteral("name"), 42)
             + QStringLiteral("memory (GiB, basis)      bandwidth GB/s\n");
    for (const GpuSpec &g : GpuLibrary::builtin().gpus()) {
        QJsonObject o;
        o.insert(QStringLiteral("id"), g.id);
        o.insert(QStringLiteral("name"), g.name);
        o.insert(QStringLiteral("memory_bytes"), qint64(g.memoryBytes));
        o.insert(QStringLiteral("memory_basis"), g.memoryBasis);
        o.insert(QStringLiteral("bandwidth_gbps"), g.bandwidthGBs);
        if (g.tflopsBf16)
            o.insert(QStringLiteral("tflops_bf16_dense"), *g.tflopsBf16);
        o.insert(QStringLiteral("fp8_native"), g.fp8Native);
        l.json.append(o);
        l.text += column(g.id, 22) + column(g.name, 42)
                  + column(formatGiB(g.memoryBytes) + QStringLiteral(" (") + g.memoryBasis + QLatin1Char(')'), 25)
                  + QString::number(g.bandwidthGBs, 'f', 0) + QLatin1Char('\n');
    }
    return l;
}

} // namespace

int runModels(const QStringList &arguments)
{
    return runListing(arguments, QStringLiteral("List the built-in model presets."), modelListing);
}

int runGpus(const QStringList &arguments)
{
    return runListing(arguments, QStringLiteral("List the built-in GPU presets."), gpuListing);
}

} // namespace kvscope::cli
