// SPDX-License-Identifier: MIT
#pragma once

#include "core/gpu/gpuspec.h"
#include "core/model/modelimport.h"
#include "core/scenario/scenario.h"
#include "core/scenario/scenariovalues.h"

#include <chrono>

#include <QDate>
#include <QHash>
#include <QList>
#include <QObject>
#include <QStringList>
#include <QVariantMap>

namespace kvscope {

namespace settings {
class SettingsReader;
}

/// What the user added to the built-in presets: imported models (files,
/// folders, pasted configs), custom GPUs, and the recent-files list. Kept in
/// QSettings and re-read at start; an entry that no longer imports is dropped
/// with a message, one that is slow to import is kept and loaded when it arrives.
class UserLibrary : public QObject
{
    Q_OBJECT

public:
    struct ImportedEntry
    {
        QString key; ///< "imported:<path>" or "pasted:<n>"; what the picker and settings store
        ImportedModel imported;
        QByteArray configText; ///< pasted configs only
    };

    explicit UserLibrary(QObject *parent = nullptr);

    /// Reads the saved entries; an entry that is unusable as saved is
    /// dropped and reported to `reader`. Saved model files and folders are
    /// imported again in the background, so that no saved path (a FIFO, a
    /// device, a slow disk, a hung mount) holds up the window:
    /// storedModelImported() or storedModelDropped() tells how each ended,
    /// storedModelSlow() that one is still reading after a time limit (it
    /// stays saved, and comes with storedModelImported() if it ever arrives).
    void load(settings::SettingsReader &reader);
    /// Saves the whole library as this window holds it, replacing what is
    /// saved. (Each change saves itself, merged with what other windows saved.)
    void save() const;

    const QList<ImportedEntry> &importedModels() const { return m_models; }
    const QList<GpuSpec> &customGpus() const { return m_gpus; }
    QStringList recentFiles() const { return m_recent; }

    /// Adds (or replaces, for the same file or the same pasted text) an imported model; returns its key.
    QString addImported(const ImportedModel &imported, const QByteArray &configText = {});
    /// Adds (or replaces, by id) a custom GPU; returns its id.
    QString addCustomGpu(const GpuSpec &gpu);
    void clearRecentFiles();

    /// A speed calibration saved for one GPU: what was measured, and the scale fitted to it.
    struct StoredCalibration
    {
        QString gpuId;
        std::int64_t scalePpm = 0;
        double measuredItlMs = 0;
        std::int64_t concurrency = 0;
        std::int64_t contextLen = 0;
        QString modelId;
        QDate date;
        QString origin; ///< what the figure came from: "typed in" or a result file

        /// What a scenario on this GPU plans with.
        MeasuredSpeedScale scale() const;
        friend bool operator==(const StoredCalibration &, const StoredCalibration &) = default;
    };
    const QList<StoredCalibration> &speedCalibrations() const { return m_calibrations; }
    /// The GPU's saved calibration, or none (scalePpm 0).
    MeasuredSpeedScale speedCalibration(const QString &gpuId) const;
    /// Saves (or replaces, for the same GPU) a calibration, merged with what other windows saved.
    void saveSpeedCalibration(const StoredCalibration &calibration);
    void forgetSpeedCalibration(const QString &gpuId);
    /// Memory measured by start-up logs ("calibrate from this log"), one per deployment.
    const QList<MeasuredMemory> &memoryCalibrations() const { return m_memoryCalibrations; }
    /// The saved measurement of `s`'s deployment, or none (MeasuredMemory::measured() false).
    MeasuredMemory memoryCalibration(const Scenario &s) const;
    /// Saves (or replaces, for the same deployment) a measurement, merged with what other windows saved.
    void saveMemoryCalibration(const MeasuredMemory &measured);
    /// Puts a path first on the recent-files list (models and scenario files).
    void rememberRecent(const QString &path);

    /// A model by picker key: a preset id or an imported key.
    const ModelArch *findModel(const QString &key) const;
    /// A GPU by id: a preset or a custom GPU.
    const GpuSpec *findGpu(const QString &id) const;

    /// Scenario values' models and GPUs found here first (findModel, findGpu),
    /// then as the command line finds them (repo ids, paths, custom:...).
    ScenarioResolvers resolvers() const;

    static constexpr int MaxRecentFiles = 10;

    /// Whether saved models are still being imported (in the background, since
    /// load()) within their time limit; slow ones are not waited for.
    bool isImporting() const;
    /// Whether the saved model `key` is still being imported, slow or not.
    bool isImportPending(const QString &key) const;

    /// How long a saved model may take to import before it is reported slow.
    static constexpr std::chrono::milliseconds DefaultStoredImportTimeLimit{10'000};
    static void setStoredImportTimeLimit(std::chrono::milliseconds limit);

Q_SIGNALS:
    void modelsChanged();
    void gpusChanged();
    void recentFilesChanged();
    void speedCalibrationsChanged();
    void memoryCalibrationsChanged();
    /// A saved model has been imported again (and is in importedModels()).
    void storedModelImported(const QString &key);
    /// A saved model no longer imports; it is forgotten. `problem` is the
    /// settings line ("library/imported = '<key>' ignored: <reason>").
    void storedModelDropped(const QString &key, const QString &problem);
    /// A saved model is still being imported after the time limit; it stays
    /// saved. `problem` is the settings line ("library/imported = '<key>' kept: <reason>").
    void storedModelSlow(const QString &key, const QString &problem);

private:
    /// A saved model whose file is being imported again: its saved map (kept
    /// in save() meanwhile) and its place among the saved entries.
    struct PendingImport
    {
        QVariantMap saved;
        int order = 0;
        bool slow = false; ///< past the time limit, reported
    };

    /// Saves one imported model among those saved now (by any window); a pasted
    /// config whose number another window took since gets the next free one.
    void saveModel(ImportedEntry &entry);
    void importStored(const QString &key, const QVariantMap &saved, int order);
    void forgetLocally(const QString &gpuId); ///< the GPU's calibration out of this window's list
    void reportSlow(const QString &key, std::chrono::milliseconds limit);
    void finishStored(const QString &key, const ImportedModel *imported, const QString &error);
    /// Where the saved entry with `order` goes among the models imported so far.
    qsizetype insertionIndex(int order) const;

    static std::chrono::milliseconds s_storedImportTimeLimit;

    QList<ImportedEntry> m_models;
    QHash<QString, int> m_order; ///< saved order of each saved entry, by key
    QHash<QString, PendingImport> m_pending;
    QList<GpuSpec> m_gpus;
    QStringList m_recent;
    QList<StoredCalibration> m_calibrations;
    QList<MeasuredMemory> m_memoryCalibrations;
    int m_pastedCount = 0;
};

} // namespace kvscope
