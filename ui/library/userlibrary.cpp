// SPDX-License-Identifier: MIT
#include "library/userlibrary.h"

#include "common/error.h"
#include "gpu/customgpu.h"
#include "library/library.h"
#include "settings/settingkeys.h"

namespace kvscope {

namespace {
constexpr qsizetype MaxPastedConfigBytes = 1 << 20; // a config.json is a few KiB
} // namespace

UserLibrary::UserLibrary(QObject *parent) : QObject(parent) {}

void UserLibrary::load(settings::SettingsReader &reader)
{
    const settings::LibraryKeys &k = settings::libraryKeys();
    m_models.clear();
    for (const QVariant &value : reader.read(k.importedModels)) {
        const QVariantMap map = value.toMap();
        const QString key = map.value(QStringLiteral("key")).toString();
        try {
            ImportedEntry entry;
            entry.key = key;
            if (key.startsWith(QLatin1String("pasted:"))) {
                entry.configText = map.value(QStringLiteral("config")).toByteArray();
                entry.imported =
                    importConfigText(entry.configText, map.value(QStringLiteral("name")).toString());
                entry.imported.model.name = map.value(QStringLiteral("name")).toString();
                m_pastedCount = std::max(m_pastedCount, key.mid(7).toInt());
            } else if (key.startsWith(QLatin1String("imported:"))) {
                entry.imported = importModel(key.mid(9));
            } else {
                throw Error(QStringLiteral("not an imported model"));
            }
            entry.imported.model.id = key;
            m_models.append(entry);
        } catch (const Error &error) {
            reader.report(k.importedModels.key, key.isEmpty() ? value : QVariant(key), error.message());
        }
    }
    m_gpus.clear();
    for (const QVariant &value : reader.read(k.customGpus)) {
        const QVariantMap map = value.toMap();
        try {
            m_gpus.append(customGpuFromVariantMap(map, QStringLiteral("saved custom GPU")));
        } catch (const Error &error) {
            const QVariant name = map.value(QStringLiteral("name"));
            reader.report(k.customGpus.key, name.isValid() ? name : value, error.message());
        }
    }
    m_recent = reader.read(k.recentFiles).mid(0, MaxRecentFiles);
    Q_EMIT modelsChanged();
    Q_EMIT gpusChanged();
    Q_EMIT recentFilesChanged();
}

void UserLibrary::save() const
{
    QVariantList models;
    for (const ImportedEntry &entry : m_models) {
        QVariantMap map{{QStringLiteral("key"), entry.key},
                        {QStringLiteral("name"), entry.imported.model.name}};
        if (!entry.configText.isEmpty())
            map.insert(QStringLiteral("config"), entry.configText);
        models << map;
    }
    QVariantList gpus;
    for (const GpuSpec &gpu : m_gpus)
        gpus << gpuToVariantMap(gpu);
    const settings::LibraryKeys &k = settings::libraryKeys();
    settings::SettingsWriter writer;
    writer.write(k.importedModels, models);
    writer.write(k.customGpus, gpus);
    writer.write(k.recentFiles, m_recent);
}

QString UserLibrary::addImported(const ImportedModel &imported, const QByteArray &configText)
{
    ImportedEntry entry;
    entry.imported = imported;
    if (imported.kind == ImportKind::ConfigText) {
        if (configText.size() > MaxPastedConfigBytes)
            throw Error(
                QStringLiteral("pasted config: %1 bytes is too large to keep").arg(configText.size()));
        // The same text again (a scenario file carrying it) is the same model.
        for (const ImportedEntry &existing : std::as_const(m_models))
            if (existing.key.startsWith(QLatin1String("pasted:")) && existing.configText == configText)
                entry.key = existing.key;
        if (entry.key.isEmpty())
            entry.key = QStringLiteral("pasted:%1").arg(++m_pastedCount);
        entry.configText = configText;
        if (entry.imported.model.name.isEmpty() || entry.imported.model.name == entry.imported.model.id)
            entry.imported.model.name = QStringLiteral("Pasted config %1").arg(entry.key.mid(7));
    } else {
        entry.key = QStringLiteral("imported:") + imported.path;
        rememberRecent(imported.path);
    }
    entry.imported.model.id = entry.key;
    for (qsizetype i = 0; i < m_models.size(); ++i) {
        if (m_models.at(i).key == entry.key) {
            m_models[i] = entry;
            save();
            Q_EMIT modelsChanged();
            return entry.key;
        }
    }
    m_models.append(entry);
    save();
    Q_EMIT modelsChanged();
    return entry.key;
}

QString UserLibrary::addCustomGpu(const GpuSpec &gpu)
{
    bool replaced = false;
    for (GpuSpec &existing : m_gpus) {
        if (existing.id == gpu.id) {
            existing = gpu;
            replaced = true;
        }
    }
    if (!replaced)
        m_gpus.append(gpu);
    save();
    Q_EMIT gpusChanged();
    return gpu.id;
}

void UserLibrary::rememberRecent(const QString &path)
{
    m_recent.removeAll(path);
    m_recent.prepend(path);
    m_recent = m_recent.mid(0, MaxRecentFiles);
    save();
    Q_EMIT recentFilesChanged();
}

void UserLibrary::clearRecentFiles()
{
    m_recent.clear();
    save();
    Q_EMIT recentFilesChanged();
}

const ModelArch *UserLibrary::findModel(const QString &key) const
{
    for (const ImportedEntry &entry : m_models)
        if (entry.key == key)
            return &entry.imported.model;
    return ModelLibrary::builtin().find(key);
}

const GpuSpec *UserLibrary::findGpu(const QString &id) const
{
    for (const GpuSpec &gpu : m_gpus)
        if (gpu.id == id)
            return &gpu;
    return GpuLibrary::builtin().find(id);
}

ScenarioResolvers UserLibrary::resolvers() const
{
    return {[this](const QString &text) {
                if (const ModelArch *model = findModel(text))
                    return *model;
                return resolveModel(text);
            },
            [this](const QString &text) {
                if (const GpuSpec *gpu = findGpu(text))
                    return *gpu;
                return resolveGpu(text);
            }};
}

} // namespace kvscope
