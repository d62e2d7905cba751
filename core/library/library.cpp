// SPDX-License-Identifier: MIT
#include "core/library/library.h"

#include "core/common/error.h"
#include "core/common/regularfile.h"
#include "core/common/scenariofield.h"
#include "core/common/units.h"
#include "core/gpu/customgpu.h"
#include "core/model/hfconfig.h"
#include "core/model/modelimport.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>

namespace kvscope {

namespace {

QStringList stringList(const QJsonValue &value)
{
    QStringList list;
    for (const QJsonValue v : value.toArray())
        list << v.toString();
    return list;
}

std::optional<double> optionalNumber(const QJsonObject &o, const char *key)
{
    const QJsonValue v = o.value(QLatin1String(key));
    return v.isDouble() ? std::optional<double>(v.toDouble()) : std::nullopt;
}

bool matches(const QString &candidate, const QString &wanted)
{
    return candidate.compare(wanted, Qt::CaseInsensitive) == 0;
}

/// What differs between the kinds of presets: their file, the document's
/// key, how an entry reads, and the names besides id and name it is found by.
template <class Entry> struct PresetKind;

template <> struct PresetKind<ModelArch>
{
    static constexpr const char *file = "models.json";
    static constexpr const char *key = "models";

    static ModelArch read(const QJsonObject &o, const QString &origin)
    {
        const QString id = o.value(QLatin1String("id")).toString();
        if (id.isEmpty())
            throw Error(QStringLiteral("%1: a model entry has no id").arg(origin));
        ModelArch model = parseHfConfig(o.value(QLatin1String("config")).toObject(),
                                        QStringLiteral("%1 [%2].config").arg(origin, id));
        model.id = id;
        model.name = o.value(QLatin1String("name")).toString(id);
        model.family = o.value(QLatin1String("family")).toString();
        model.hfRepoIds = stringList(o.value(QLatin1String("hf_repo_ids")));
        for (const QJsonValue v : o.value(QLatin1String("repo_contexts")).toArray()) {
            const QJsonObject r = v.toObject();
            model.repoContexts.append({r.value(QLatin1String("repo")).toString(),
                                       r.value(QLatin1String("max_position_embeddings")).toInteger(),
                                       r.value(QLatin1String("source")).toString()});
        }
        model.source = o.value(QLatin1String("source")).toString();
        model.statedParamsText = o.value(QLatin1String("stated_params")).toString();
        // The format vLLM loads the served repository in, where it is not the HF config's.
        if (const QJsonValue format = o.value(QLatin1String("vllm_config_format")); !format.isUndefined()) {
            if (format.toString() != QLatin1String("mistral") || !model.vision.enabled())
                throw Error(QStringLiteral("%1 [%2].vllm_config_format: expected \"mistral\" on a model "
                                           "with a vision tower, got %3")
                                .arg(origin, id,
                                     format.isString()
                                         ? QLatin1Char('"') + format.toString() + QLatin1Char('"')
                                         : QStringLiteral("a value that is not a string")));
            model.vision.mistralFormat = true;
        }
        return model;
    }

    static const QStringList &otherNames(const ModelArch &m) { return m.hfRepoIds; }
};

template <> struct PresetKind<GpuSpec>
{
    static constexpr const char *file = "gpus.json";
    static constexpr const char *key = "gpus";

    static GpuSpec read(const QJsonObject &o, const QString &origin)
    {
        GpuSpec g;
        g.id = o.value(QLatin1String("id")).toString();
        g.name = o.value(QLatin1String("name")).toString();
        if (g.id.isEmpty())
            throw Error(QStringLiteral("%1: a GPU entry has no id").arg(origin));
        g.aliases = stringList(o.value(QLatin1String("aliases")));
        g.vendor = o.value(QLatin1String("vendor")).toString();
        g.arch = o.value(QLatin1String("arch")).toString();
        g.marketedGb = o.value(QLatin1String("memory_gb_marketed")).toDouble();
        // The budget starts from what the runtime reports; fall back step by step.
        const auto smi = optionalNumber(o, "memory_mib_nvidia_smi");
        g.nvidiaSmiMib = smi ? std::int64_t(*smi) : 0;
        if (const auto cuda = optionalNumber(o, "memory_mib_cuda")) {
            g.memoryBytes = std::int64_t(*cuda) * MiB;
            g.memoryBasis = QStringLiteral("cuda");
        } else if (smi) {
            g.memoryBytes = g.nvidiaSmiMib * MiB;
            g.memoryBasis = QStringLiteral("nvidia-smi");
        } else {
            // Apple sells unified memory in GiB; datasheets for the rest use 10^9.
            const bool binary = g.vendor == QLatin1String("Apple");
            g.memoryBytes = std::int64_t(g.marketedGb * (binary ? double(GiB) : 1e9));
            g.memoryBasis = QStringLiteral("marketed");
        }
        if (g.memoryBytes <= 0)
            throw Error(QStringLiteral("%1 [%2]: no memory size").arg(origin, g.id));
        g.bandwidthGBs = o.value(QLatin1String("bandwidth_gbps")).toDouble();
        g.tflopsBf16 = optionalNumber(o, "tflops_bf16_dense");
        g.tflopsFp16 = optionalNumber(o, "tflops_fp16_dense");
        g.tflopsFp8 = optionalNumber(o, "tflops_fp8_dense");
        g.tflopsInt8 = optionalNumber(o, "tflops_int8_dense");
        g.tflopsFp4 = optionalNumber(o, "tflops_fp4_dense");
        g.tflopsFp32Vector = optionalNumber(o, "tflops_fp32_vector");
        g.fp8Native = o.value(QLatin1String("fp8_native")).toBool();
        g.interconnectGBs = optionalNumber(o, "interconnect_gbps");
        g.computeCapability = o.value(QLatin1String("compute_capability")).toString();
        g.deviceNames = stringList(o.value(QLatin1String("device_names")));
        g.notes = o.value(QLatin1String("notes")).toString();
        g.source = o.value(QLatin1String("source")).toString();
        return g;
    }

    static const QStringList &otherNames(const GpuSpec &g) { return g.aliases; }
};

} // namespace

QByteArray readResource(const QString &path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        throw Error(QStringLiteral("%1: built-in resource missing").arg(path));
    return file.readAll();
}

template <class Entry> const PresetLibrary<Entry> &PresetLibrary<Entry>::builtin()
{
    static const PresetLibrary library =
        fromJson(readResource(QStringLiteral(":/presets/") + QLatin1String(PresetKind<Entry>::file)),
                 QLatin1String(PresetKind<Entry>::file));
    return library;
}

template <class Entry>
PresetLibrary<Entry> PresetLibrary<Entry>::fromJson(const QByteArray &json, const QString &origin)
{
    PresetLibrary library;
    const QJsonObject doc = parseJsonObject(json, origin);
    for (const QJsonValue entry : doc.value(QLatin1String(PresetKind<Entry>::key)).toArray())
        library.m_presets.append(PresetKind<Entry>::read(entry.toObject(), origin));
    return library;
}

template <class Entry> const Entry *PresetLibrary<Entry>::find(const QString &text) const
{
    const QString wanted = text.trimmed();
    for (const Entry &entry : m_presets) {
        if (matches(entry.id, wanted) || matches(entry.name, wanted))
            return &entry;
        for (const QString &name : PresetKind<Entry>::otherNames(entry))
            if (matches(name, wanted))
                return &entry;
    }
    return nullptr;
}

template class PresetLibrary<ModelArch>;
template class PresetLibrary<GpuSpec>;

namespace {

/// A preset found by one of its repositories serves that repository, with that
/// repository's own context length where it differs from the preset's config.
ModelArch asNamed(ModelArch model, const QString &wanted)
{
    for (qsizetype i = 0; i < model.hfRepoIds.size(); ++i) {
        if (!matches(model.hfRepoIds.at(i), wanted))
            continue;
        model.hfRepoIds.move(i, 0);
        for (const RepoContext &context : std::as_const(model.repoContexts)) {
            if (context.repo != model.hfRepoIds.first() ||
                context.maxPositionEmbeddings == model.maxPositionEmbeddings)
                continue;
            model.notes << QCoreApplication::translate(
                               "kvscope::Library",
                               "%1's config.json has max_position_embeddings %2 (the preset's %3): planned "
                               "with %2")
                               .arg(context.repo, formatCount(context.maxPositionEmbeddings),
                                    formatCount(model.maxPositionEmbeddings));
            model.maxPositionEmbeddings = context.maxPositionEmbeddings;
        }
        break;
    }
    return model;
}

} // namespace

ModelArch resolveModel(const QString &text)
{
    if (text.trimmed().isEmpty())
        throw Error(QCoreApplication::translate("kvscope::Library", "%1: no model given")
                        .arg(optionFlag(ScenarioField::Model)));
    if (const ModelArch *preset = ModelLibrary::builtin().find(text))
        return asNamed(*preset, text.trimmed());
    // A NUL makes no path (QFileInfo would warn on stderr): the id is unknown. A broken link
    // goes to importModel, which says what it is.
    if (!text.contains(QChar(0)) && (QFileInfo::exists(text) || isBrokenSymlink(fileKind(text))))
        return importModel(text).model;
    // Translated where a translator is installed: the window shows it (the explain-log dialog, the model
    // box).
    throw Error(
        QCoreApplication::translate(
            "kvscope::Library",
            "%1: unknown model '%2': not a preset id, a HuggingFace repo id of a preset, or an existing "
            "config.json, model folder or .gguf file (run 'kvscope models' for the list)")
            .arg(optionFlag(ScenarioField::Model), text));
}

const ModelLibrary &draftLibrary()
{
    static const ModelLibrary library = ModelLibrary::fromJson(
        readResource(QStringLiteral(":/presets/drafts.json")), QStringLiteral("drafts.json"));
    return library;
}

ModelArch resolveDraftModel(const QString &text)
{
    if (const ModelArch *preset = draftLibrary().find(text))
        return asNamed(*preset, text.trimmed());
    // A draft_model drafter is an ordinary model: a model preset serves.
    if (const ModelArch *preset = ModelLibrary::builtin().find(text))
        return asNamed(*preset, text.trimmed());
    if (!text.contains(QChar(0)) && !text.trimmed().isEmpty() &&
        (QFileInfo::exists(text) || isBrokenSymlink(fileKind(text))))
        return importModel(text).model;
    QStringList drafts;
    for (const ModelArch &draft : draftLibrary().presets())
        drafts << draft.hfRepoIds.value(0, draft.id);
    throw Error(
        QCoreApplication::translate("kvscope::Library",
                                    "%1: unknown draft model '%2': not a draft preset (%3), a model "
                                    "preset or an existing config.json or model folder")
            .arg(optionFlag(ScenarioField::SpeculativeConfig), text, drafts.join(QStringLiteral(", "))));
}

const GpuSpec *gpuForDeviceName(const QString &deviceName)
{
    QString underscored = deviceName.trimmed();
    underscored.replace(QLatin1Char(' '), QLatin1Char('_'));
    for (const GpuSpec &gpu : GpuLibrary::builtin().presets())
        if (gpu.deviceNames.contains(underscored))
            return &gpu;
    return nullptr;
}

GpuSpec resolveGpu(const QString &text)
{
    if (text.trimmed().startsWith(QLatin1String("custom:"), Qt::CaseInsensitive))
        return parseCustomGpuOption(text.trimmed());
    if (const GpuSpec *gpu = GpuLibrary::builtin().find(text))
        return *gpu;
    // PRESET:MEMORY_GIB, the preset with the total its host reports.
    if (const qsizetype colon = text.lastIndexOf(QLatin1Char(':')); colon > 0)
        if (const GpuSpec *gpu = GpuLibrary::builtin().find(text.left(colon).trimmed()))
            return presetWithMemory(*gpu, text.mid(colon + 1));
    throw Error(QCoreApplication::translate("kvscope::Library",
                                            "%1: unknown GPU '%2' (run 'kvscope gpus' for the list; "
                                            "PRESET:MEMORY_GIB gives a preset its host's memory)")
                    .arg(optionFlag(ScenarioField::Gpu), text));
}

} // namespace kvscope
