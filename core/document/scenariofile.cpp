// SPDX-License-Identifier: MIT
#include "core/document/scenariofile.h"

#include "core/common/atomicfile.h"
#include "core/common/error.h"
#include "core/common/jsonkeys.h"
#include "core/common/regularfile.h"
#include "core/common/scenariofield.h"
#include "core/gpu/customgpu.h"
#include "core/model/configreader.h"
#include "core/model/hfconfig.h"
#include "core/quantization/histogram.h"
#include "core/quantization/scheme.h"
#include "core/quantization/synthetic.h"
#include "core/scenario/scenario.h"

#include <cmath>
#include <utility>

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSet>

namespace kvscope {

namespace {

const QString FormatName = QStringLiteral("kvscope-scenario");
const QString SyntheticPrefix = QStringLiteral("synthetic:");
/// Integers beyond 2^53 do not survive a JSON number.
constexpr double MaxExactInteger = 9007199254740992.0;

QString shown(const QJsonValue &value)
{
    return ConfigReader::render(value);
}

/// Reads one JSON object strictly: each value checked for its type, and
/// finish() refuses any key nobody asked for. Errors say "ORIGIN: FIELD: ...".
class ObjectReader
{
public:
    ObjectReader(const QJsonObject &object, QString origin, QString path)
        : m_object(object), m_origin(std::move(origin)), m_path(std::move(path))
    {}

    [[noreturn]] void fail(const QString &key, const QString &problem) const
    {
        throw Error(QStringLiteral("%1: %2: %3").arg(m_origin, field(key), problem));
    }

    QString field(const QString &key) const
    {
        return m_path.isEmpty() ? key : m_path + QLatin1Char('.') + key;
    }
    QString origin() const { return m_origin; }
    const QJsonObject &object() const { return m_object; }
    const QString &path() const { return m_path; }

    bool has(const char *key) const { return m_object.contains(QLatin1String(key)); }

    QJsonValue take(const char *key)
    {
        m_used.insert(QLatin1String(key));
        return m_object.value(QLatin1String(key));
    }

    QJsonValue required(const char *key)
    {
        QJsonValue value = take(key);
        if (value.isUndefined())
            fail(QLatin1String(key), QStringLiteral("missing"));
        return value;
    }

    QString string(const char *key, const QJsonValue &value) const
    {
        if (!value.isString())
            fail(QLatin1String(key), QStringLiteral("expected a string, got %1").arg(shown(value)));
        return value.toString();
    }

    /// A string of at most `maxLength` characters; `controls` = false refuses the
    /// characters below U+0020 (a NUL in an id reaches file names and terminals).
    QString text(const char *key, const QJsonValue &value, qsizetype maxLength, bool controls = false) const
    {
        QString s = string(key, value);
        if (s.size() > maxLength)
            fail(QLatin1String(key),
                 QStringLiteral("%1 characters long; at most %2").arg(s.size()).arg(maxLength));
        for (const QChar c : std::as_const(s))
            if (c == QChar(0) || (!controls && c.unicode() < 0x20))
                fail(QLatin1String(key),
                     QStringLiteral("%1 holds the control character U+%2")
                         .arg(shown(value), QStringLiteral("%1").arg(c.unicode(), 4, 16, QLatin1Char('0'))));
        return s;
    }

    double number(const char *key, const QJsonValue &value) const
    {
        if (!value.isDouble())
            fail(QLatin1String(key), QStringLiteral("expected a number, got %1").arg(shown(value)));
        return value.toDouble();
    }

    std::int64_t integer(const char *key, const QJsonValue &value, double lo, double hi) const
    {
        const double v = number(key, value);
        if (v != std::floor(v) || v < lo || v > hi)
            fail(QLatin1String(key), QStringLiteral("expected an integer from %1 to %2, got %3")
                                         .arg(qint64(lo))
                                         .arg(qint64(hi))
                                         .arg(shown(value)));
        return std::int64_t(v);
    }

    bool boolean(const char *key, const QJsonValue &value) const
    {
        if (!value.isBool())
            fail(QLatin1String(key), QStringLiteral("expected true or false, got %1").arg(shown(value)));
        return value.toBool();
    }

    QJsonObject object(const char *key, const QJsonValue &value) const
    {
        if (!value.isObject())
            fail(QLatin1String(key), QStringLiteral("expected an object, got %1").arg(shown(value)));
        return value.toObject();
    }

    QJsonArray array(const char *key, const QJsonValue &value) const
    {
        if (!value.isArray())
            fail(QLatin1String(key), QStringLiteral("expected an array, got %1").arg(shown(value)));
        return value.toArray();
    }

    /// Every key is one of those taken; else the first unknown one is named.
    void finish() const
    {
        for (auto it = m_object.begin(); it != m_object.end(); ++it)
            if (!m_used.contains(it.key()))
                fail(it.key(),
                     QStringLiteral("not a field of a version-%1 scenario file").arg(ScenarioFileVersion));
    }

private:
    QJsonObject m_object;
    QString m_origin;
    QString m_path;
    QSet<QString> m_used;
};

// The scenario's options: strings, integers or numbers by their kind.

QJsonValue optionToJson(const ScenarioOption &option, const QString &text)
{
    switch (option.kind) {
    case OptionKind::Count: {
        // An optional count back at its default (a comparison column's value) stays "auto".
        bool isNumber = false;
        const qint64 count = text.toLongLong(&isNumber);
        return isNumber ? QJsonValue(count) : QJsonValue(text);
    }
    case OptionKind::Ratio:
    case OptionKind::Number:
        return text.toDouble();
    case OptionKind::Switch:
        return text.compare(QLatin1String("true"), Qt::CaseInsensitive) == 0;
    case OptionKind::Text:
        break;
    }
    return text;
}

QJsonObject valuesToJson(const ScenarioValues &values)
{
    QJsonObject object;
    for (auto it = values.begin(); it != values.end(); ++it)
        if (const ScenarioOption *option = findScenarioOption(it.key()))
            object.insert(it.key(), optionToJson(*option, it.value()));
    return object;
}

ScenarioValues valuesFromJson(const QJsonObject &object, const QString &origin, const QString &path)
{
    ObjectReader reader(object, origin, path);
    ScenarioValues values;
    for (auto it = object.begin(); it != object.end(); ++it) {
        const ScenarioOption *option = findScenarioOption(it.key());
        if (!option)
            reader.fail(it.key(), QStringLiteral("not a kvscope calc option"));
        const QByteArray key = it.key().toUtf8();
        const QJsonValue value = reader.take(key.constData());
        switch (option->kind) {
        case OptionKind::Text:
            values.insert(it.key(), reader.text(key.constData(), value, MaxScenarioTextLength));
            break;
        case OptionKind::Count:
            if (value == QJsonValue(QStringLiteral("auto")))
                values.insert(it.key(), value.toString());
            else
                values.insert(it.key(), QString::number(reader.integer(key.constData(), value,
                                                                       -MaxExactInteger, MaxExactInteger)));
            break;
        case OptionKind::Switch:
            values.insert(it.key(), reader.boolean(key.constData(), value) ? QStringLiteral("true")
                                                                           : QStringLiteral("false"));
            break;
        case OptionKind::Ratio:
        case OptionKind::Number: {
            const double ratio = reader.number(key.constData(), value);
            values.insert(it.key(), QString::number(ratio, 'g', 15));
            break;
        }
        }
    }
    return values;
}

QJsonObject modelToJson(const CarriedModel &m)
{
    QJsonObject o{{QStringLiteral("id"), m.id}};
    if (!m.name.isEmpty())
        o.insert(QStringLiteral("name"), m.name);
    if (m.path.isEmpty())
        o.insert(QStringLiteral("config"), QString::fromUtf8(m.config));
    else
        o.insert(QStringLiteral("path"), m.path);
    return o;
}

CarriedModel modelFromJson(ObjectReader &r)
{
    CarriedModel m;
    m.id = r.text("id", r.required("id"), MaxScenarioTextLength);
    if (m.id.isEmpty())
        r.fail(QStringLiteral("id"), QStringLiteral("empty"));
    if (r.has("name"))
        m.name = r.text("name", r.take("name"), MaxScenarioNameLength);
    if (r.has("path") == r.has("config"))
        r.fail(QStringLiteral("path"), QStringLiteral("give either 'path' or 'config'"));
    if (r.has("path"))
        m.path = r.text("path", r.take("path"), MaxScenarioTextLength);
    else
        m.config = r.text("config", r.take("config"), MaxScenarioFileBytes, true).toUtf8();
    r.finish();
    return m;
}

/// A custom GPU as gpuToJson() writes it, each field of its type and nothing else;
/// named (its id, which "gpu" values give, is made from the name).
GpuSpec gpuFromJson(ObjectReader &r)
{
    for (const char *key : {"format", "id", "vendor"})
        if (r.has(key))
            r.text(key, r.take(key), MaxScenarioTextLength);
    const QString name = r.text("name", r.required("name"), MaxScenarioNameLength);
    r.number("memory_bytes", r.required("memory_bytes"));
    for (const char *key : {"bandwidth_gbps", "tflops_bf16_dense", "tflops_fp8_dense", "tflops_int8_dense",
                            "tflops_fp32_vector"})
        if (r.has(key) && !r.object().value(QLatin1String(key)).isNull())
            r.number(key, r.take(key));
    for (const char *key : {"fp8_native", "custom"})
        if (r.has(key))
            r.boolean(key, r.take(key));
    r.finish();
    GpuSpec gpu = customGpuFromJson(r.object(), r.origin() + QStringLiteral(": ") + r.path());
    if (gpu.id == QLatin1String("custom"))
        r.fail(
            QStringLiteral("name"),
            QStringLiteral("%1 has no letter or digit to make the GPU's id of").arg(shown(QJsonValue(name))));
    return gpu;
}

QJsonObject quantizationToJson(const QuantizationChoices &q)
{
    QJsonObject o;
    o.insert(QStringLiteral("input"), q.input);
    if (!q.tensor.isEmpty())
        o.insert(QStringLiteral("tensor"), q.tensor);
    o.insert(QStringLiteral("rows"), qint64(q.rows));
    o.insert(QStringLiteral("cols"), qint64(q.cols));
    o.insert(QStringLiteral("seed"), qint64(q.seed));
    o.insert(QStringLiteral("std"), q.standardDeviation);
    o.insert(QStringLiteral("scheme"), QJsonArray::fromStringList(q.schemes));
    o.insert(QStringLiteral("group-size"), q.groupSize);
    o.insert(QStringLiteral("bins"), q.bins);
    o.insert(QStringLiteral("no-saturation"), !q.saturate);
    o.insert(QStringLiteral("unit-scale"), q.unitScale);
    o.insert(QStringLiteral("histogram"),
             q.relativeError ? QStringLiteral("relative") : QStringLiteral("error"));
    o.insert(QStringLiteral("log-counts"), q.logCounts);
    return o;
}

QuantizationChoices quantizationFromJson(ObjectReader &r)
{
    QuantizationChoices q;
    if (r.has("input")) {
        q.input = r.string("input", r.take("input"));
        if (q.input.startsWith(SyntheticPrefix))
            quant::parseSyntheticKind(q.input.mid(SyntheticPrefix.size()), r.field(QStringLiteral("input")));
        else if (q.input.isEmpty())
            r.fail(QStringLiteral("input"), QStringLiteral("empty"));
    }
    if (r.has("tensor"))
        q.tensor = r.string("tensor", r.take("tensor"));
    const double maxDimension = double(quant::MaxSyntheticDimension);
    if (r.has("rows"))
        q.rows = r.integer("rows", r.take("rows"), 1, maxDimension);
    if (r.has("cols"))
        q.cols = r.integer("cols", r.take("cols"), 1, maxDimension);
    if (r.has("seed"))
        q.seed = std::uint64_t(r.integer("seed", r.take("seed"), 0, MaxExactInteger));
    if (r.has("std")) {
        q.standardDeviation = r.number("std", r.take("std"));
        if (!std::isfinite(q.standardDeviation) || q.standardDeviation < 0)
            r.fail(QStringLiteral("std"),
                   QStringLiteral("expected a number of at least 0 (0 = the kind's default)"));
    }
    if (r.has("scheme")) {
        q.schemes.clear();
        for (const QJsonValue name : r.array("scheme", r.take("scheme")))
            q.schemes << r.string("scheme", name);
        try {
            quant::parseSchemeList(q.schemes);
        } catch (const Error &error) {
            r.fail(QStringLiteral("scheme"), error.message());
        }
    }
    if (r.has("group-size")) {
        q.groupSize = int(r.integer("group-size", r.take("group-size"), -1, 1 << 30));
        quant::validateGroupSize(q.groupSize, r.field(QStringLiteral("group-size")));
    }
    if (r.has("bins"))
        q.bins = int(r.integer("bins", r.take("bins"), quant::MinHistogramBins, quant::MaxHistogramBins));
    if (r.has("no-saturation"))
        q.saturate = !r.boolean("no-saturation", r.take("no-saturation"));
    if (r.has("unit-scale"))
        q.unitScale = r.boolean("unit-scale", r.take("unit-scale"));
    if (r.has("histogram")) {
        const QString kind = r.string("histogram", r.take("histogram"));
        if (kind != QLatin1String("error") && kind != QLatin1String("relative"))
            r.fail(QStringLiteral("histogram"),
                   QStringLiteral("expected 'error' or 'relative', got '%1'").arg(kind));
        q.relativeError = kind == QLatin1String("relative");
    }
    if (r.has("log-counts"))
        q.logCounts = r.boolean("log-counts", r.take("log-counts"));
    r.finish();
    return q;
}

QJsonObject calibrationToJson(const MeasuredSpeedScale &c)
{
    return {{QStringLiteral("gpu"), c.gpuId},
            {QStringLiteral("scale"), formatUtilization(c.scalePpm).toDouble()},
            {QStringLiteral("source"), c.source}};
}

/// A scale in millionths: the efficiencies it gives are checked when planned (SpeedModel).
MeasuredSpeedScale calibrationFromJson(ObjectReader &r)
{
    MeasuredSpeedScale c;
    c.gpuId = r.text("gpu", r.required("gpu"), MaxScenarioTextLength);
    if (c.gpuId.isEmpty())
        r.fail(QStringLiteral("gpu"), QStringLiteral("empty"));
    const QJsonValue scale = r.required("scale");
    const double value = r.number("scale", scale);
    if (!(value > 0 && value <= MaxSpeedCalibrationScale))
        r.fail(QStringLiteral("scale"), QStringLiteral("expected a number above 0 and at most %1, got %2")
                                            .arg(MaxSpeedCalibrationScale)
                                            .arg(shown(scale)));
    c.scalePpm = std::llround(value * 1e6);
    c.source = r.text("source", r.required("source"), MaxScenarioNameLength);
    r.finish();
    return c;
}

} // namespace

QByteArray scenarioFileBytes(const ScenarioDocument &d)
{
    QJsonObject root;
    root.insert(QStringLiteral("format"), FormatName);
    root.insert(QStringLiteral("version"), ScenarioFileVersion);
    root.insert(QStringLiteral("scenario"), valuesToJson(d.scenario));
    QJsonArray models;
    for (const CarriedModel &m : d.models)
        models << modelToJson(m);
    root.insert(QStringLiteral("models"), models);
    QJsonArray gpus;
    for (const GpuSpec &gpu : d.gpus)
        gpus << gpuToJson(gpu);
    root.insert(QStringLiteral("gpus"), gpus);
    root.insert(QStringLiteral("charts"),
                QJsonObject{{QStringLiteral("growth-axis"), growthAxisName(d.growthAxis)},
                            {QStringLiteral("growth-scale"), axisScaleName(d.growthScale)},
                            {QStringLiteral("counterfactuals"), d.counterfactuals}});
    if (d.quantization)
        root.insert(QStringLiteral("quantization"), quantizationToJson(*d.quantization));
    QJsonArray comparison;
    for (const ScenarioValues &column : d.comparison)
        comparison << valuesToJson(column);
    root.insert(QStringLiteral("comparison"), comparison);
    if (d.speedCalibration)
        root.insert(QStringLiteral("speed-calibration"), calibrationToJson(*d.speedCalibration));
    return QJsonDocument(root).toJson(QJsonDocument::Indented);
}

ScenarioDocument parseScenarioFile(const QByteArray &bytes, const QString &origin)
{
    ObjectReader root(parseJsonObject(bytes, origin), origin, QString());
    if (const std::optional<QString> key = firstRepeatedKey(bytes))
        throw Error(QStringLiteral("%1: the key %2 is given twice in one object; give it once")
                        .arg(origin, shown(QJsonValue(*key))));
    const QJsonValue format = root.take("format");
    if (format.toString() != FormatName)
        throw Error(QStringLiteral("%1: not a kvscope scenario file: 'format' is %2, expected '%3'")
                        .arg(origin, shown(format), FormatName));
    const QJsonValue version = root.required("version");
    const std::int64_t number = root.integer("version", version, 1, MaxExactInteger);
    if (number > ScenarioFileVersion)
        throw Error(QStringLiteral("%1: written by a newer kvscope (scenario format version %2; this kvscope "
                                   "reads version %3): update kvscope to open it")
                        .arg(origin)
                        .arg(number)
                        .arg(ScenarioFileVersion));

    ScenarioDocument d;
    d.scenario = valuesFromJson(root.object("scenario", root.required("scenario")), origin,
                                QStringLiteral("scenario"));
    for (const ScenarioField required : {ScenarioField::Model, ScenarioField::Gpu})
        if (!d.scenario.contains(fileKey(required)))
            root.fail(QStringLiteral("scenario.") + fileKey(required), QStringLiteral("missing"));
    if (root.has("models")) {
        const QJsonArray models = root.array("models", root.take("models"));
        QSet<QString> ids;
        for (qsizetype i = 0; i < models.size(); ++i) {
            const QString path = QStringLiteral("models[%1]").arg(i);
            ObjectReader entry(root.object("models", models.at(i)), origin, path);
            d.models << modelFromJson(entry);
            if (ids.contains(d.models.last().id))
                entry.fail(QStringLiteral("id"),
                           QStringLiteral("'%1' is given twice").arg(d.models.last().id));
            ids.insert(d.models.last().id);
        }
    }
    if (root.has("gpus")) {
        const QJsonArray gpus = root.array("gpus", root.take("gpus"));
        for (qsizetype i = 0; i < gpus.size(); ++i) {
            ObjectReader entry(root.object("gpus", gpus.at(i)), origin, QStringLiteral("gpus[%1]").arg(i));
            const GpuSpec gpu = gpuFromJson(entry);
            for (qsizetype j = 0; j < d.gpus.size(); ++j)
                if (d.gpus.at(j).id == gpu.id)
                    entry.fail(QStringLiteral("name"),
                               QStringLiteral("%1 gives the id '%2' of gpus[%3] (%4); one id names one GPU")
                                   .arg(shown(QJsonValue(gpu.name)), gpu.id, QString::number(j),
                                        shown(QJsonValue(d.gpus.at(j).name))));
            d.gpus << gpu;
        }
    }
    if (root.has("charts")) {
        ObjectReader charts(root.object("charts", root.take("charts")), origin, QStringLiteral("charts"));
        if (charts.has("growth-axis"))
            d.growthAxis = parseGrowthAxis(charts.string("growth-axis", charts.take("growth-axis")),
                                           QStringLiteral("%1: charts.growth-axis").arg(origin));
        if (charts.has("growth-scale"))
            d.growthScale = parseAxisScale(charts.string("growth-scale", charts.take("growth-scale")),
                                           QStringLiteral("%1: charts.growth-scale").arg(origin));
        if (charts.has("counterfactuals"))
            d.counterfactuals = charts.boolean("counterfactuals", charts.take("counterfactuals"));
        charts.finish();
    }
    if (root.has("quantization")) {
        ObjectReader quantization(root.object("quantization", root.take("quantization")), origin,
                                  QStringLiteral("quantization"));
        d.quantization = quantizationFromJson(quantization);
    }
    if (root.has("comparison")) {
        const QJsonArray columns = root.array("comparison", root.take("comparison"));
        if (columns.size() == 1 || columns.size() > MaxComparisonColumns)
            root.fail(QStringLiteral("comparison"),
                      QStringLiteral("lists %1 column(s); a comparison has 2 to %2, or none")
                          .arg(columns.size())
                          .arg(MaxComparisonColumns));
        for (qsizetype i = 0; i < columns.size(); ++i)
            d.comparison << valuesFromJson(root.object("comparison", columns.at(i)), origin,
                                           QStringLiteral("comparison[%1]").arg(i));
    }
    if (root.has("speed-calibration")) {
        ObjectReader calibration(root.object("speed-calibration", root.take("speed-calibration")), origin,
                                 QStringLiteral("speed-calibration"));
        d.speedCalibration = calibrationFromJson(calibration);
    }
    root.finish();
    return d;
}

ScenarioDocument readScenarioFile(const QString &path)
{
    return parseScenarioFile(readRegularFile(path, MaxScenarioFileBytes, QStringLiteral("a scenario file")),
                             path);
}

void writeScenarioFile(const QString &path, const ScenarioDocument &document)
{
    writeFileAtomically(path, scenarioFileBytes(document));
}

ImportedModel importCarriedModel(const CarriedModel &carried)
{
    ImportedModel imported =
        carried.path.isEmpty()
            ? importConfigText(carried.config, carried.name.isEmpty() ? carried.id : carried.name)
            : importModel(carried.path);
    imported.model.id = carried.id;
    if (!carried.name.isEmpty())
        imported.model.name = carried.name;
    return imported;
}

ScenarioResolvers documentResolvers(const ScenarioDocument &document, const ScenarioResolvers &fallback)
{
    return {[models = document.models, fallback](const QString &text) {
                for (const CarriedModel &model : models)
                    if (model.id == text)
                        return importCarriedModel(model).model;
                return fallback.model(text);
            },
            [gpus = document.gpus, fallback](const QString &text) {
                for (const GpuSpec &gpu : gpus)
                    if (gpu.id == text)
                        return gpu;
                return fallback.gpu(text);
            },
            fallback.draft};
}

OptionLabel fileFieldLabel(const QString &path)
{
    return [path](const ScenarioOption &option) { return path + QLatin1Char('.') + option.name(); };
}

Scenario documentScenario(const ScenarioDocument &document, const ScenarioResolvers &fallback,
                          const QString &origin)
{
    try {
        Scenario s = scenarioFromValues(document.scenario, documentResolvers(document, fallback),
                                        fileFieldLabel(QStringLiteral("scenario")));
        s.speedCalibration = document.speedCalibration.value_or(MeasuredSpeedScale{});
        return s;
    } catch (const Error &error) {
        throw Error(QStringLiteral("%1: %2").arg(origin, error.message()));
    }
}

} // namespace kvscope
