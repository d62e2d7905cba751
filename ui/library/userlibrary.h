// SPDX-License-Identifier: MIT
#pragma once

#include "gpu/gpuspec.h"
#include "model/modelimport.h"
#include "plan/scenariovalues.h"

#include <QList>
#include <QObject>
#include <QStringList>

namespace kvscope {

namespace settings {
class SettingsReader;
}

/// What the user added to the built-in presets: imported models (files,
/// folders, pasted configs), custom GPUs, and the recent-files list. Kept in
/// QSettings and re-read at start; an entry that no longer imports is dropped
/// with a message.
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

    /// Reads the saved entries (re-importing files from disk); an entry that
    /// no longer imports is dropped and reported to `reader`.
    void load(settings::SettingsReader &reader);
    void save() const;

    const QList<ImportedEntry> &importedModels() const { return m_models; }
    const QList<GpuSpec> &customGpus() const { return m_gpus; }
    QStringList recentFiles() const { return m_recent; }

    /// Adds (or replaces, for the same file or the same pasted text) an imported model; returns its key.
    QString addImported(const ImportedModel &imported, const QByteArray &configText = {});
    /// Adds (or replaces, by id) a custom GPU; returns its id.
    QString addCustomGpu(const GpuSpec &gpu);
    void clearRecentFiles();
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

Q_SIGNALS:
    void modelsChanged();
    void gpusChanged();
    void recentFilesChanged();

private:
    QList<ImportedEntry> m_models;
    QList<GpuSpec> m_gpus;
    QStringList m_recent;
    int m_pastedCount = 0;
};

} // namespace kvscope
