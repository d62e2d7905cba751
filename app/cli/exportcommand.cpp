// SPDX-License-Identifier: MIT
// kvscope export: one chart (or the report page) to PNG, SVG or PDF, or its
// data to CSV or JSON, with no window and no display: the same catalogue
// entry and renderer as the window's Save image (ui/export/).
#include "app/cli/cliio.h"
#include "app/cli/commands.h"
#include "app/cli/quantoptions.h"
#include "app/cli/scenariooptions.h"
#include "app/cli/variants.h"
#include "core/analysis/fixes.h"
#include "core/common/atomicfile.h"
#include "core/common/error.h"
#include "core/common/integertext.h"
#include "core/common/scenariofield.h"
#include "core/compare/accuracy.h"
#include "core/compare/attentionpicture.h"
#include "core/compare/kvhead.h"
#include "core/document/scenariofile.h"
#include "core/library/library.h"
#include "core/plan/planner.h"
#include "ui/compare/comparecolumns.h"
#include "ui/export/chartcatalogue.h"
#include "ui/export/figurerenderer.h"
#include "ui/quantization/groupinspector.h"
#include "ui/quantization/quantizationview.h"
#include "ui/state/quantsettings.h"
#include "ui/state/translations.h"

#include <algorithm>

#include <QCommandLineParser>

namespace kvscope::cli {

namespace {

struct ExportOptions
{
    QCommandLineOption chart{
        QStringLiteral("chart"),
        QStringLiteral("The chart: %1 (see --list-charts).").arg(chartNames().join(QStringLiteral(", "))),
        QStringLiteral("name")};
    QCommandLineOption out{
        QStringLiteral("out"),
        QStringLiteral("The file to write; its extension picks the format: .png, .svg, .pdf "
                       "(the figure), .csv, .json (its data). - writes standard output (with --format)."),
        QStringLiteral("file")};
    QCommandLineOption format{
        QStringLiteral("format"),
        QStringLiteral("The format with --out - (standard output): png, svg, pdf, csv or json."),
        QStringLiteral("name")};
    QCommandLineOption list{QStringLiteral("list-charts"), QStringLiteral("List the charts, one per line.")};
    QCommandLineOption width{QStringLiteral("width"), QStringLiteral("Width in pixels (default 1280)."),
                             QStringLiteral("W"), QStringLiteral("1280")};
    QCommandLineOption height{QStringLiteral("height"), QStringLiteral("Height in pixels (default 720)."),
                              QStringLiteral("H"), QStringLiteral("720")};
    QCommandLineOption scale{
        QStringLiteral("scale"),
        QStringLiteral("Pixels per logical pixel, 1 to %1 (a PNG records 96 × S dpi).").arg(MaxFigureScale),
        QStringLiteral("S"), QStringLiteral("1")};
    QCommandLineOption theme{QStringLiteral("theme"), QStringLiteral("light or dark (default light)."),
                             QStringLiteral("name"), QStringLiteral("light")};
    QCommandLineOption noCaption{QStringLiteral("no-caption"),
                                 QStringLiteral("Leave out the caption line (model, GPU, precisions, batch, "
                                                "length, kvscope version).")};
    QCommandLineOption page{QStringLiteral("page"),
                            QStringLiteral("The report's page: slide (16:9, 1920 × 1080) or a4 (portrait)."),
                            QStringLiteral("name"), QStringLiteral("slide")};
    QCommandLineOption language{QStringLiteral("lang"), QStringLiteral("Language of the texts: en or zh_CN."),
                                QStringLiteral("code"), QStringLiteral("en")};
    QCommandLineOption scenario{
        QStringLiteral("scenario"),
        QStringLiteral("A .kvscope scenario file; options given here override its values."),
        QStringLiteral("file")};
    QCommandLineOption growthAxis{
        QStringLiteral("growth-axis"),
        QStringLiteral("The growth chart's axis: sequence or batch (default sequence)."),
        QStringLiteral("axis")};
    QCommandLineOption growthScale{
        QStringLiteral("growth-scale"),
        QStringLiteral("The growth chart's horizontal spacing: linear or log (default linear)."),
        QStringLiteral("scale")};
    QCommandLineOption counterfactuals{
        QStringLiteral("counterfactuals"),
        QStringLiteral("growth: also the KV lines as if MHA and as if every layer kept every token.")};
    QCommandLineOption relativeError{QStringLiteral("relative-error"),
                                     QStringLiteral("error-histogram: the relative error (w − w′) / |w|.")};
    QCommandLineOption variant = variantOption();
    QCommandLineOption servingFeatures = servingFeaturesOption();
    QCommandLineOption attentionQueries{
        QStringLiteral("attention-queries"),
        QStringLiteral("attention, attention-logits: the query, key_outliers (on the keys' outlier "
                       "channels, the default) or diffuse."),
        QStringLiteral("kind"), QStringLiteral("key_outliers")};
    QCommandLineOption attentionScale{
        QStringLiteral("attention-scale"),
        QStringLiteral("attention, attention-logits: the FP8 cache's scale, engine (1.0, the default) or "
                       "calibrated (amax / max)."),
        QStringLiteral("scale"), QStringLiteral("engine")};
    QCommandLineOption attentionTokens{
        QStringLiteral("attention-tokens"),
        QStringLiteral("attention, attention-logits: the cached tokens the query attends to, 2 to %1 "
                       "(default 64).")
            .arg(AttentionPictureMaxTokens),
        QStringLiteral("N"), QStringLiteral("64")};
    QCommandLineOption attentionQuery{
        QStringLiteral("attention-query"),
        QStringLiteral("attention, attention-logits: which of Compare's %1 decode queries, 1 to %1 "
                       "(default 1).")
            .arg(AttentionQueries),
        QStringLiteral("K"), QStringLiteral("1")};
    QCommandLineOption linearCounts{
        QStringLiteral("linear-counts"),
        QStringLiteral("error-histogram, values: a linear count axis instead of log.")};

    QList<QCommandLineOption> all() const
    {
        return {chart,           out,
                format,          list,
                width,           height,
                scale,           theme,
                noCaption,       page,
                language,        scenario,
                growthAxis,      growthScale,
                counterfactuals, relativeError,
                linearCounts,    variant,
                servingFeatures, attentionQueries,
                attentionScale,  attentionTokens,
                attentionQuery};
    }
};

/// A size option (--width, --height, --scale) from 1 to `maximum`. Beyond it a usage error
/// naming the real limit (a value past 2^63 too), as --size's is: throws UsageFailure.
int parseSizeOption(const QCommandLineParser &parser, const QCommandLineOption &option, int maximum)
{
    const QString flag = flagForKey(option.names().constFirst());
    const QString text = parser.value(option);
    try {
        return int(parseInteger(text, flag, 1, maximum,
                                QStringLiteral("%1: must be an integer from 1 to %2, got '%3'")
                                    .arg(flag)
                                    .arg(maximum)
                                    .arg(text)));
    } catch (const Error &error) {
        throw UsageFailure(error.message());
    }
}

/// --format when given (it must name a format), else --out's extension; --out - needs --format.
FigureFormat outputFormat(const QCommandLineParser &parser, const ExportOptions &o)
{
    const QString path = parser.value(o.out);
    if (parser.isSet(o.format)) {
        const std::optional<FigureFormat> format = formatNamed(parser.value(o.format));
        if (!format)
            throw Error(QStringLiteral("--format: expected png, svg, pdf, csv or json, got '%1'")
                            .arg(parser.value(o.format)));
        return *format;
    }
    if (path == StandardOutputPath)
        throw Error(QStringLiteral("--out -: give the format with --format (png, svg, pdf, csv or json)"));
    return formatForPath(path);
}

FigureOptions figureOptions(const QCommandLineParser &parser, const ExportOptions &o)
{
    FigureOptions options;
    options.size = QSize(parseSizeOption(parser, o.width, MaxFigureSide),
                         parseSizeOption(parser, o.height, MaxFigureSide));
    options.scale = parseSizeOption(parser, o.scale, MaxFigureScale);
    const QString theme = parser.value(o.theme);
    if (theme != QLatin1String("light") && theme != QLatin1String("dark"))
        throw Error(QStringLiteral("--theme: expected light or dark, got '%1'").arg(theme));
    options.dark = theme == QLatin1String("dark");
    options.caption = !parser.isSet(o.noCaption);
    const QString page = parser.value(o.page);
    if (page != QLatin1String("slide") && page != QLatin1String("a4"))
        throw Error(QStringLiteral("--page: expected slide or a4, got '%1'").arg(page));
    options.page = page == QLatin1String("a4") ? ReportPage::A4 : ReportPage::Slide;
    // The report is its page's size unless a side is given.
    if (parser.isSet(o.width) || parser.isSet(o.height)) {
        QSize report = reportPageSize(options.page);
        if (parser.isSet(o.width))
            report.setWidth(options.size.width());
        if (parser.isSet(o.height))
            report.setHeight(options.size.height());
        options.pageSize = report;
    }
    return options;
}

/// The entry's figure within kvscope's bounds (checkFigureOptions), checked before any work:
/// beyond them a usage error, as --size's is. Throws UsageFailure.
void checkFigureSize(const ChartEntry &entry, FigureOptions options)
{
    options.size = figureSize(entry, options);
    try {
        checkFigureOptions(options);
    } catch (const Error &error) {
        throw UsageFailure(error.message());
    }
}

/// Whether `entry` draws from the option `name` (as the parser names it). The figure's and the
/// file's options (size, theme, language, --scenario, --group-size...) serve every chart.
bool chartUses(const ChartEntry &entry, const QString &name, const ExportOptions &o,
               const QuantOptions &quantOptions)
{
    const QString chart = QLatin1String(entry.name);
    const auto is = [&](const QCommandLineOption &option) { return option.names().contains(name); };
    const QList<QCommandLineOption> simulation = quantOptions.simulation();
    if (name == fileKey(ScenarioField::GroupSize))
        return true; // the checkpoint's group, or the simulated one
    if (findScenarioOption(name))
        return entry.inputs != ChartInputs::Quantization;
    if (std::any_of(simulation.begin(), simulation.end(), is))
        return entry.inputs == ChartInputs::Quantization;
    if (is(o.variant) || is(o.servingFeatures))
        return entry.inputs == ChartInputs::Comparison || !entry.build; // the report's table
    if (is(o.growthAxis) || is(o.growthScale) || is(o.counterfactuals))
        return chart == QLatin1String("growth") || !entry.build; // the report draws the growth chart
    if (is(o.page))
        return !entry.build;
    if (is(o.attentionQueries) || is(o.attentionScale) || is(o.attentionTokens) || is(o.attentionQuery))
        return entry.inputs == ChartInputs::Attention;
    if (is(o.relativeError))
        return chart == QLatin1String("error-histogram");
    if (is(o.linearCounts))
        return chart == QLatin1String("error-histogram") || chart == QLatin1String("values");
    return true;
}

/// The options given that `entry` does not draw from, as flags, in the order given.
QStringList unusedOptions(const ChartEntry &entry, const QCommandLineParser &parser, const ExportOptions &o,
                          const QuantOptions &quantOptions)
{
    QStringList unused;
    for (const QString &name : parser.optionNames())
        if (!chartUses(entry, name, o, quantOptions) && !unused.contains(flagForKey(name)))
            unused << flagForKey(name);
    return unused;
}

/// Checks the options given that `entry` does not draw from as if it did, so that a mistake in
/// one is an error whatever the chart, then names them in one warning. Throws kvscope::Error;
/// returns the exit code of a refused --variant.
std::optional<int> checkUnusedOptions(const ChartEntry &entry, const QCommandLineParser &parser,
                                      const ExportOptions &o, const ScenarioOptions &scenarioOptions,
                                      const QuantOptions &quantOptions, const QCommandLineOption &groupSize)
{
    const QStringList unused = unusedOptions(entry, parser, o, quantOptions);
    if (unused.isEmpty())
        return std::nullopt;
    // Each group as the charts that draw from it read it; the chart's own are read as it is drawn.
    const bool quantizationChart = entry.inputs == ChartInputs::Quantization;
    if (quantizationChart)
        scenarioOptions.scenario(parser);
    else
        quantizationChoices(parser, quantOptions, groupSize, QuantizationChoices());
    if (parser.isSet(o.growthAxis))
        parseGrowthAxis(parser.value(o.growthAxis), QStringLiteral("--growth-axis"));
    if (parser.isSet(o.growthScale))
        parseAxisScale(parser.value(o.growthScale), QStringLiteral("--growth-scale"));
    if ((parser.isSet(o.variant) || parser.isSet(o.servingFeatures)) &&
        entry.inputs != ChartInputs::Comparison && entry.build) {
        int exitCode = Success;
        if (!comparisonColumns(scenarioOptions, scenarioOptions.scenario(parser), parser.values(o.variant),
                               parser.isSet(o.servingFeatures), exitCode))
            return exitCode;
    }
    warn(QStringLiteral("--chart %1 does not use %2")
             .arg(QLatin1String(entry.name), unused.join(QStringLiteral(", "))));
    return std::nullopt;
}

/// What the attention charts draw: the plan's KV cache dtype, which must be an FP8 one, and the
/// --attention-* options. Throws kvscope::Error naming the option and the value.
AttentionPictureChoices attentionChoices(const QCommandLineParser &parser, const ExportOptions &o,
                                         const ChartEntry &entry, const MemoryPlan &plan)
{
    AttentionPictureChoices c;
    c.format = plan.kvCacheDtype;
    if (c.format != KvCacheDtype::Fp8 && c.format != KvCacheDtype::Fp8E4M3 &&
        c.format != KvCacheDtype::Fp8E5M2)
        throw Error(QStringLiteral("--chart %1 draws an FP8 KV cache: give --kv-cache-dtype fp8, fp8_e4m3 or "
                                   "fp8_e5m2 (the scenario's is %2)")
                        .arg(QLatin1String(entry.name), dtypeName(plan.kvCacheDtype)));
    c.queries =
        quant::parseQueryModel(parser.value(o.attentionQueries), QStringLiteral("--attention-queries"));
    const QString scale = parser.value(o.attentionScale);
    if (scale != kvScaleName(false) && scale != kvScaleName(true))
        throw Error(QStringLiteral("--attention-scale: expected engine or calibrated, got '%1'").arg(scale));
    c.calibratedScale = scale == kvScaleName(true);
    const auto integer = [&parser](const QCommandLineOption &option, std::int64_t lowest,
                                   std::int64_t highest) {
        const QString flag = flagForKey(option.names().constFirst());
        const QString text = parser.value(option);
        return parseInteger(text, flag, lowest, highest,
                            QStringLiteral("%1: must be an integer from %2 to %3, got '%4'")
                                .arg(flag)
                                .arg(lowest)
                                .arg(highest)
                                .arg(text));
    };
    c.tokens = integer(o.attentionTokens, 2, AttentionPictureMaxTokens);
    c.query = int(integer(o.attentionQuery, 1, AttentionQueries));
    return c;
}

/// The chart's source from the scenario file (if any) with the command line's options over it; the
/// report's with the scenario's accuracy, and the file's comparison columns when it has some.
ChartSource chartSource(const ChartEntry &entry, const QCommandLineParser &parser, const ExportOptions &o,
                        const ScenarioOptions &scenarioOptions, const QuantOptions &quantOptions,
                        const QCommandLineOption &groupSize, AccuracyCache &cache)
{
    std::optional<ScenarioDocument> document;
    if (parser.isSet(o.scenario))
        document = readScenarioFile(parser.value(o.scenario));
    ChartSource source;
    if (entry.inputs != ChartInputs::Quantization) {
        ScenarioValues values = scenarioOptions.values(parser);
        const ScenarioValues given = scenarioOptions.givenValues(parser);
        OptionLabel label;
        if (document) {
            values = document->scenario;
            for (auto it = given.begin(); it != given.end(); ++it)
                values.insert(it.key(), it.value());
            // A value the file gives is named as the file's field, one given here as the option.
            label = [&given, file = parser.value(o.scenario),
                     field = fileFieldLabel(QStringLiteral("scenario"))](const ScenarioOption &option) {
                return given.contains(option.name()) ? option.flag()
                                                     : QStringLiteral("%1: %2").arg(file, field(option));
            };
        }
        const ScenarioResolvers resolvers =
            document ? documentResolvers(*document, builtinResolvers()) : builtinResolvers();
        source.scenario = scenarioFromValues(values, resolvers, label);
        source.plan = planMemory(source.scenario);
        source.fixes = proposeFixes(source.scenario, source.plan, GpuLibrary::builtin().presets());
        if (entry.inputs == ChartInputs::Attention)
            source.attention = attentionPicture(source.scenario.model, source.plan.dtype,
                                                attentionChoices(parser, o, entry, source.plan));
        source.growthAxis = document ? document->growthAxis : GrowthAxis::SequenceLength;
        if (parser.isSet(o.growthAxis))
            source.growthAxis = parseGrowthAxis(parser.value(o.growthAxis), QStringLiteral("--growth-axis"));
        source.growthScale = document ? document->growthScale : AxisScale::Linear;
        if (parser.isSet(o.growthScale))
            source.growthScale =
                parseAxisScale(parser.value(o.growthScale), QStringLiteral("--growth-scale"));
        source.counterfactuals = parser.isSet(o.counterfactuals) || (document && document->counterfactuals);
        // A comparison chart, or the report, without --variant draws the file's columns when it holds some.
        const bool report = !entry.build;
        if ((entry.inputs == ChartInputs::Comparison || report) && !parser.isSet(o.variant) &&
            !parser.isSet(o.servingFeatures) && document && document->comparison.size() >= 2)
            source.comparison = compare(
                labelledColumns(columnScenarios(source.scenario, document->comparison, resolvers)), cache);
        if (report)
            source.accuracy = estimateAccuracy(source.scenario, source.plan, cache);
        return source;
    }
    QuantizationChoices base =
        document && document->quantization ? *document->quantization : QuantizationChoices();
    if (parser.isSet(o.relativeError))
        base.relativeError = true;
    if (parser.isSet(o.linearCounts))
        base.logCounts = false;
    source.quantChoices = quantizationChoices(parser, quantOptions, groupSize, base);
    const quant::QuantRequest request = quantsettings::quantRequest(source.quantChoices);
    source.quant = quant::runQuantization(request);
    quant::SchemeDefaults defaults;
    defaults.groupSize = source.quantChoices.groupSize;
    source.gridScheme =
        startingInspectedScheme(request.schemes, quant::parseScheme(QStringLiteral("int4"), defaults));
    source.gridName = QuantizationView::gridName(source.gridScheme, 0, 0);
    return source;
}

} // namespace

int runExport(const QStringList &arguments)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral(
        "Draw one chart, or the report page, to PNG, SVG or PDF, or write its data as CSV or "
        "JSON — without a window or a display. Memory and speed charts take kvscope calc's options, "
        "the quantization charts kvscope quant's (--group-size serves both), the comparison "
        "charts kvscope compare's (--variant; without it a scenario file's columns, else the "
        "seed question's four); the report kvscope calc's, with the comparison's table for --variant or a "
        "scenario file's columns; --scenario reads a .kvscope file. The JSON of memory, growth, "
        "speed and report is kvscope calc --json's, of the comparison charts kvscope compare "
        "--json's."));
    parser.addHelpOption();
    const ExportOptions o;
    parser.addOptions(o.all());
    const ScenarioOptions scenarioOptions;
    scenarioOptions.addTo(parser);
    const QuantOptions quantOptions;
    parser.addOptions(quantOptions.simulation());

    if (!parser.parse(arguments.mid(1)))
        return fail(QStringLiteral("export: %1").arg(parser.errorText()), UsageError);
    if (parser.isSet(QStringLiteral("help"))) {
        writeOut(parser.helpText());
        return Success;
    }
    if (!parser.positionalArguments().isEmpty())
        return fail(
            QStringLiteral("export: unexpected argument '%1'").arg(parser.positionalArguments().first()),
            UsageError);
    if (parser.isSet(o.list)) {
        QString text;
        for (const ChartEntry &entry : chartCatalogue())
            text +=
                QStringLiteral("%1  %2\n").arg(QLatin1String(entry.name), -16).arg(entry.translatedTitle());
        writeOut(text);
        return Success;
    }
    if (!parser.isSet(o.chart) || !parser.isSet(o.out))
        return fail(QStringLiteral("export: give --chart NAME and --out FILE (or --list-charts)"),
                    UsageError);
    const QString language = parser.value(o.language);
    if (!translations::available().contains(language))
        return fail(QStringLiteral("--lang: unknown language '%1' (choose en or zh_CN)").arg(language),
                    UsageError);
    translations::apply(language);
    const ChartEntry *entry = findChart(parser.value(o.chart));
    if (!entry)
        return fail(QStringLiteral("--chart: unknown chart '%1' (choose %2)")
                        .arg(parser.value(o.chart), chartNames().join(QStringLiteral(", "))),
                    UsageError);
    try {
        const QString path = parser.value(o.out);
        const FigureFormat format = outputFormat(parser, o); // a wrong format fails before any work
        const FigureOptions options = figureOptions(parser, o);
        checkFigureSize(*entry, options);
        const QCommandLineOption groupSize(QStringLiteral("group-size"), QString(), QStringLiteral("n"));
        if (const std::optional<int> refused =
                checkUnusedOptions(*entry, parser, o, scenarioOptions, quantOptions, groupSize))
            return *refused;
        AccuracyCache cache; // the report's accuracy and its columns' share their simulations
        ChartSource source = chartSource(*entry, parser, o, scenarioOptions, quantOptions, groupSize, cache);
        // The report compares only when asked to (--variant, or the file's columns).
        const bool asked = parser.isSet(o.variant) || parser.isSet(o.servingFeatures);
        const bool compared = entry->inputs == ChartInputs::Comparison || (!entry->build && asked);
        if (compared && !source.comparison) {
            int exitCode = Success;
            const std::optional<QList<ComparisonColumn>> columns =
                comparisonColumns(scenarioOptions, source.scenario, parser.values(o.variant),
                                  parser.isSet(o.servingFeatures), exitCode);
            if (!columns)
                return exitCode;
            source.comparison = compare(*columns, cache);
        }
        exportFigure(path, format, *entry, source, options);
        return Success;
    } catch (const UsageFailure &error) {
        return fail(error.message(), UsageError);
    } catch (const Error &error) {
        return fail(error.message());
    }
}

} // namespace kvscope::cli
