// SPDX-License-Identifier: MIT
#include "ui/state/userlibrary.h"

#include "core/common/error.h"
#include "core/gpu/customgpu.h"
#include "core/library/library.h"
#include "core/plan/speedcalibration.h"
#include "ui/state/backgroundjob.h"
#include "ui/state/modelreader.h"
#include "ui/state/setting.h"
#include "ui/state/settingkeys.h"

#include <algorithm>
#include <climits>
#include <cmath>

#include <QElapsedTimer>
#include <QTimer>

namespace kvscope {

namespace {

constexpr qsizetype MaxPastedConfigBytes = 1 << 20; // a config.json is a few KiB

/// The file or folder of a saved model's key ("imported:<path>").
QString pathOf(const QString &key)
{
    return key.mid(QLatin1String("imported:").size());
}

/// The number of a pasted config's key ("pasted:<n>"); 0 for any other key.
int pastedNumber(const QString &key)
{
    return key.startsWith(QLatin1String("pasted:")) ? key.mid(7).toInt() : 0;
}

/// The name a pasted config without one of its own goes by.
QString pastedName(const QString &key)
{
    return QStringLiteral("Pasted config %1").arg(pastedNumber(key));
}

/// Puts `map` in `list` in place of the entry whose `field` is the same, or last.
void putEntry(QVariantList &list, const QString &field, const QVariantMap &map)
{
    for (QVariant &saved : list) {
        if (saved.toMap().value(field) == map.value(field)) {
            saved = map;
            return;
        }
    }
    list << map;
}

void removeEntry(QVariantList &list, const QString &field, const QString &value)
{
    list.removeIf([&](const QVariant &saved) { return saved.toMap().value(field).toString() == value; });
}

/// A deployment's options as one line, what identifies a saved memory calibration.
QString deploymentLine(const ScenarioValues &deployment)
{
    return calcArguments(deployment).join(QLatin1Char(' '));
}

/// How a memory calibration is saved: one map per deployment.
QVariantMap memoryCalibrationMap(const MeasuredMemory &m)
{
    QVariantMap values;
    for (auto it = m.deployment.cbegin(); it != m.deployment.cend(); ++it)
        values.insert(it.key(), it.value());
    return {{QStringLiteral("deployment"), deploymentLine(m.deployment)},
            {QStringLiteral("options"), values},
            {QStringLiteral("weights"), qlonglong(m.weightsBytes)},
            {QStringLiteral("activation"), qlonglong(m.activationBytes)},
            {QStringLiteral("non_torch"), qlonglong(m.nonTorchBytes)},
            {QStringLiteral("cuda_graphs"), qlonglong(m.cudaGraphBytes)},
            {QStringLiteral("free_at_load"), qlonglong(m.freeAtLoadBytes)},
            {QStringLiteral("source"), m.source}};
}

/// A saved memory calibration, every field checked (-1: the log did not measure that part).
MeasuredMemory memoryCalibrationFromMap(const QVariantMap &map)
{
    MeasuredMemory m;
    const QVariantMap options = map.value(QStringLiteral("options")).toMap();
    for (auto it = options.cbegin(); it != options.cend(); ++it)
        m.deployment.insert(it.key(), it.value().toString());
    if (m.deployment.isEmpty())
        throw Error(QStringLiteral("options: missing"));
    const auto bytes = [&](const char *key) {
        bool ok = false;
        const qlonglong value = map.value(QLatin1String(key)).toString().toLongLong(&ok);
        if (!ok || value < -1)
            throw Error(QStringLiteral("%1: not a number of bytes (or -1)").arg(QLatin1String(key)));
        return std::int64_t(value);
    };
    m.weightsBytes = bytes("weights");
    m.activationBytes = bytes("activation");
    m.nonTorchBytes = bytes("non_torch");
    m.cudaGraphBytes = bytes("cuda_graphs");
    // SGLang's part, absent from calibrations saved before it was kept.
    m.freeAtLoadBytes = map.contains(QStringLiteral("free_at_load")) ? bytes("free_at_load") : -1;
    m.source = map.value(QStringLiteral("source")).toString();
    if (!m.measured())
        throw Error(QStringLiteral("no part measured"));
    return m;
}

/// How a speed calibration is saved: one map per GPU.
QVariantMap calibrationMap(const UserLibrary::StoredCalibration &c)
{
    return {{QStringLiteral("gpu"), c.gpuId},
            {QStringLiteral("scale_ppm"), qlonglong(c.scalePpm)},
            {QStringLiteral("itl_ms"), c.measuredItlMs},
            {QStringLiteral("concurrency"), qlonglong(c.concurrency)},
            {QStringLiteral("context"), qlonglong(c.contextLen)},
            {QStringLiteral("model"), c.modelId},
            {QStringLiteral("date"), c.date.toString(Qt::ISODate)},
            {QStringLiteral("origin"), c.origin}};
}

/// A saved calibration, every field checked: a hand-edited one that is unusable is refused.
UserLibrary::StoredCalibration calibrationFromMap(const QVariantMap &map)
{
    const auto integer = [&](const char *key, qlonglong least) {
        bool ok = false;
        const qlonglong value = map.value(QLatin1String(key)).toString().toLongLong(&ok);
        if (!ok || value < least)
            throw Error(
                QStringLiteral("%1: not a whole number of at least %2").arg(QLatin1String(key)).arg(least));
        return std::int64_t(value);
    };
    UserLibrary::StoredCalibration c;
    c.gpuId = map.value(QStringLiteral("gpu")).toString();
    if (c.gpuId.isEmpty())
        throw Error(QStringLiteral("gpu: missing"));
    c.scalePpm = integer("scale_ppm", 1);
    bool ok = false;
    c.measuredItlMs = map.value(QStringLiteral("itl_ms")).toString().toDouble(&ok);
    if (!ok || !std::isfinite(c.measuredItlMs) || c.measuredItlMs <= 0)
        throw Error(QStringLiteral("itl_ms: not a positive number of milliseconds"));
    c.concurrency = integer("concurrency", 1);
    c.contextLen = integer("context", 1);
    c.modelId = map.value(QStringLiteral("model")).toString();
    c.date = QDate::fromString(map.value(QStringLiteral("date")).toString(), Qt::ISODate);
    if (!c.date.isValid())
        throw Error(QStringLiteral("date: not a date (YYYY-MM-DD)"));
    c.origin = map.value(QStringLiteral("origin")).toString();
    return c;
}

/// How an imported model is saved: its key, its name, and a pasted config's text.
QVariantMap savedMap(const UserLibrary::ImportedEntry &entry)
{
    QVariantMap map{{QStringLiteral("key"), entry.key}, {QStringLiteral("name"), entry.imported.model.name}};
    if (!entry.configText.isEmpty())
        map.insert(QStringLiteral("config"), entry.configText);
    return map;
}

} // namespace

UserLibrary::UserLibrary(QObject *parent) : QObject(parent) {}

void UserLibrary::load(settings::SettingsReader &reader)
{
    const settings::LibraryKeys &k = settings::libraryKeys();
    m_models.clear();
    m_order.clear();
    m_pending.clear();
    int order = 0;
    for (const QVariant &value : reader.read(k.importedModels)) {
        const QVariantMap map = value.toMap();
        const QString key = map.value(QStringLiteral("key")).toString();
        try {
            // A key names one model (a scenario refers to it): a hand-edited list's second copy is not read.
            if (m_order.contains(key))
                throw Error(QStringLiteral("an earlier saved model has the same key"));
            if (key.startsWith(QLatin1String("imported:"))) {
                m_order.insert(key, order);
                importStored(key, map, order++);
                continue;
            }
            if (!key.startsWith(QLatin1String("pasted:")))
                throw Error(QStringLiteral("not an imported model"));
            // Pasted configs are kept in the settings themselves (at most 1 MiB): read now.
            ImportedEntry entry;
            entry.key = key;
            entry.configText = map.value(QStringLiteral("config")).toByteArray();
            entry.imported = importConfigText(entry.configText, map.value(QStringLiteral("name")).toString());
            entry.imported.model.name = map.value(QStringLiteral("name")).toString();
            entry.imported.model.id = key;
            m_pastedCount = std::max(m_pastedCount, pastedNumber(key));
            m_order.insert(key, order++);
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
    m_calibrations.clear();
    for (const QVariant &value : reader.read(k.speedCalibrations)) {
        const QVariantMap map = value.toMap();
        try {
            m_calibrations.append(calibrationFromMap(map));
        } catch (const Error &error) {
            const QVariant gpu = map.value(QStringLiteral("gpu"));
            reader.report(k.speedCalibrations.key, gpu.isValid() ? gpu : value, error.message());
        }
    }
    Q_EMIT modelsChanged();
    Q_EMIT gpusChanged();
    Q_EMIT recentFilesChanged();
    m_memoryCalibrations.clear();
    for (const QVariant &value : reader.read(k.memoryCalibrations)) {
        const QVariantMap map = value.toMap();
        try {
            m_memoryCalibrations.append(memoryCalibrationFromMap(map));
        } catch (const Error &error) {
            const QVariant deployment = map.value(QStringLiteral("deployment"));
            reader.report(k.memoryCalibrations.key, deployment.isValid() ? deployment : value,
                          error.message());
        }
    }
    Q_EMIT speedCalibrationsChanged();
    Q_EMIT memoryCalibrationsChanged();
}

void UserLibrary::save() const
{
    // Saved models still importing stay saved, in their place; models the
    // user added since come after every saved one.
    QList<std::pair<int, QVariantMap>> ordered;
    for (const ImportedEntry &entry : m_models)
        ordered.append({m_order.value(entry.key, INT_MAX), savedMap(entry)});
    for (const PendingImport &pending : m_pending)
        ordered.append({pending.order, pending.saved});
    std::stable_sort(ordered.begin(), ordered.end(),
                     [](const auto &a, const auto &b) { return a.first < b.first; });
    QVariantList models;
    for (const auto &[order, map] : ordered)
        models << map;
    QVariantList gpus;
    for (const GpuSpec &gpu : m_gpus)
        gpus << gpuToVariantMap(gpu);
    const settings::LibraryKeys &k = settings::libraryKeys();
    settings::SettingsWriter writer;
    writer.write(k.importedModels, models);
    writer.write(k.customGpus, gpus);
    writer.write(k.recentFiles, m_recent);
    QVariantList calibrations;
    for (const StoredCalibration &calibration : m_calibrations)
        calibrations << calibrationMap(calibration);
    writer.write(k.speedCalibrations, calibrations);
    QVariantList measured;
    for (const MeasuredMemory &m : m_memoryCalibrations)
        measured << memoryCalibrationMap(m);
    writer.write(k.memoryCalibrations, measured);
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
            entry.imported.model.name = pastedName(entry.key);
    } else {
        entry.key = QStringLiteral("imported:") + imported.path;
        m_pending.remove(entry.key); // imported again by the user: that import wins
        rememberRecent(imported.path);
    }
    saveModel(entry);
    entry.imported.model.id = entry.key;
    const auto same = std::find_if(m_models.begin(), m_models.end(),
                                   [&](const ImportedEntry &model) { return model.key == entry.key; });
    if (same != m_models.end())
        *same = entry;
    else
        m_models.append(entry);
    Q_EMIT modelsChanged();
    return entry.key;
}

void UserLibrary::saveModel(ImportedEntry &entry)
{
    settings::changeSaved<QVariantList>(settings::libraryKeys().importedModels, [&](QVariantList &models) {
        // Another window may have saved other text under this pasted number since:
        // this one takes the next number free in both.
        int highest = m_pastedCount;
        bool taken = false;
        for (const QVariant &saved : std::as_const(models)) {
            const QVariantMap map = saved.toMap();
            const QString key = map.value(QStringLiteral("key")).toString();
            highest = std::max(highest, pastedNumber(key));
            taken = taken || (key == entry.key &&
                              map.value(QStringLiteral("config")).toByteArray() != entry.configText);
        }
        if (taken && !entry.configText.isEmpty()) {
            const bool namedByNumber = entry.imported.model.name == pastedName(entry.key);
            m_pastedCount = highest + 1;
            entry.key = QStringLiteral("pasted:%1").arg(m_pastedCount);
            if (namedByNumber)
                entry.imported.model.name = pastedName(entry.key);
        }
        putEntry(models, QStringLiteral("key"), savedMap(entry));
    });
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
    settings::changeSaved<QVariantList>(settings::libraryKeys().customGpus, [&](QVariantList &gpus) {
        putEntry(gpus, QStringLiteral("id"), gpuToVariantMap(gpu));
    });
    Q_EMIT gpusChanged();
    return gpu.id;
}

MeasuredSpeedScale UserLibrary::StoredCalibration::scale() const
{
    const SpeedMeasurement measurement{measuredItlMs / 1e3, concurrency, contextLen, origin};
    return {gpuId, scalePpm, measurementSource(measurement, modelId, date)};
}

MeasuredSpeedScale UserLibrary::speedCalibration(const QString &gpuId) const
{
    for (const StoredCalibration &calibration : m_calibrations)
        if (calibration.gpuId == gpuId)
            return calibration.scale();
    return {};
}

void UserLibrary::saveSpeedCalibration(const StoredCalibration &calibration)
{
    forgetLocally(calibration.gpuId);
    m_calibrations.append(calibration);
    settings::changeSaved<QVariantList>(settings::libraryKeys().speedCalibrations, [&](QVariantList &saved) {
        putEntry(saved, QStringLiteral("gpu"), calibrationMap(calibration));
    });
    Q_EMIT speedCalibrationsChanged();
}

void UserLibrary::forgetSpeedCalibration(const QString &gpuId)
{
    forgetLocally(gpuId);
    settings::changeSaved<QVariantList>(settings::libraryKeys().speedCalibrations, [&](QVariantList &saved) {
        removeEntry(saved, QStringLiteral("gpu"), gpuId);
    });
    Q_EMIT speedCalibrationsChanged();
}

MeasuredMemory UserLibrary::memoryCalibration(const Scenario &s) const
{
    for (const MeasuredMemory &m : m_memoryCalibrations)
        if (m.appliesTo(s))
            return m;
    return {};
}

void UserLibrary::saveMemoryCalibration(const MeasuredMemory &measured)
{
    const QString line = deploymentLine(measured.deployment);
    m_memoryCalibrations.removeIf(
        [&](const MeasuredMemory &m) { return deploymentLine(m.deployment) == line; });
    m_memoryCalibrations.append(measured);
    settings::changeSaved<QVariantList>(settings::libraryKeys().memoryCalibrations, [&](QVariantList &saved) {
        putEntry(saved, QStringLiteral("deployment"), memoryCalibrationMap(measured));
    });
    Q_EMIT memoryCalibrationsChanged();
}

void UserLibrary::forgetLocally(const QString &gpuId)
{
    m_calibrations.removeIf([&](const StoredCalibration &c) { return c.gpuId == gpuId; });
}

void UserLibrary::rememberRecent(const QString &path)
{
    const auto putFirst = [&](QStringList &recent) {
        recent.removeAll(path);
        recent.prepend(path);
        recent = recent.mid(0, MaxRecentFiles);
    };
    putFirst(m_recent);
    settings::changeSaved<QStringList>(settings::libraryKeys().recentFiles, putFirst);
    Q_EMIT recentFilesChanged();
}

void UserLibrary::clearRecentFiles()
{
    m_recent.clear();
    settings::changeSaved<QStringList>(settings::libraryKeys().recentFiles,
                                       [](QStringList &recent) { recent.clear(); });
    Q_EMIT recentFilesChanged();
}

std::chrono::milliseconds UserLibrary::s_storedImportTimeLimit = UserLibrary::DefaultStoredImportTimeLimit;

void UserLibrary::setStoredImportTimeLimit(std::chrono::milliseconds limit)
{
    s_storedImportTimeLimit = limit;
}

bool UserLibrary::isImporting() const
{
    return std::any_of(m_pending.cbegin(), m_pending.cend(), [](const PendingImport &p) { return !p.slow; });
}

bool UserLibrary::isImportPending(const QString &key) const
{
    return m_pending.contains(key);
}

void UserLibrary::importStored(const QString &key, const QVariantMap &saved, int order)
{
    m_pending.insert(key, {saved, order});
    const QString path = pathOf(key);
    const std::chrono::milliseconds limit = s_storedImportTimeLimit;
    QElapsedTimer clock;
    clock.start();
    QTimer::singleShot(limit, this, [this, key, limit] { reportSlow(key, limit); });
    // A path that never answers (a hung mount) holds a thread of the path pool, never this object.
    runInBackground<ImportedModel>(
        this, pathPool(), [path](const quant::RunControl &) { return readModel(path); },
        [this, key, path, clock, limit](const JobOutcome<ImportedModel> &outcome) {
            // Timers wait for the event loop: a result that comes after the limit was slow all the same.
            if (clock.elapsed() > limit.count())
                reportSlow(key, limit);
            if (outcome.result)
                finishStored(key, &*outcome.result, {});
            else
                finishStored(key, nullptr, readFailureMessage(path, outcome.failure));
        });
}

void UserLibrary::reportSlow(const QString &key, std::chrono::milliseconds limit)
{
    const auto pending = m_pending.find(key);
    if (pending == m_pending.end() || pending->slow)
        return;
    pending->slow = true;
    const QString reason = QStringLiteral("%1: not imported within %2 s; loaded when it arrives")
                               .arg(pathOf(key), QString::number(double(limit.count()) / 1000.0));
    Q_EMIT storedModelSlow(
        key, settings::keptLine(QLatin1String(settings::libraryKeys().importedModels.key), key, reason));
}

void UserLibrary::finishStored(const QString &key, const ImportedModel *imported, const QString &error)
{
    if (!m_pending.contains(key))
        return;
    const QVariantMap saved = m_pending.take(key).saved;
    if (!imported) {
        m_order.remove(key);
        // Dropped for good: the next start does not try it again.
        settings::changeSaved<QVariantList>(
            settings::libraryKeys().importedModels,
            [&](QVariantList &models) { removeEntry(models, QStringLiteral("key"), key); });
        Q_EMIT storedModelDropped(
            key,
            settings::problemLine(QLatin1String(settings::libraryKeys().importedModels.key), key, error));
        return;
    }
    ImportedEntry entry;
    entry.key = key;
    entry.imported = *imported;
    entry.imported.model.id = key;
    const QString name = saved.value(QStringLiteral("name")).toString();
    if (!name.isEmpty())
        entry.imported.model.name = name;
    m_models.insert(insertionIndex(m_order.value(key)), entry);
    Q_EMIT modelsChanged();
    Q_EMIT storedModelImported(key);
}

qsizetype UserLibrary::insertionIndex(int order) const
{
    qsizetype at = 0;
    while (at < m_models.size() && m_order.value(m_models.at(at).key, INT_MAX) < order)
        ++at;
    return at;
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
            },
            resolveDraftModel};
}

} // namespace kvscope
