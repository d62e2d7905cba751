// SPDX-License-Identifier: MIT
#pragma once

#include "core/model/modelimport.h"
#include "ui/state/backgroundjob.h"

#include <QObject>

namespace kvscope {

/// Imports a model file or folder off the GUI thread (a GGUF's metadata or
/// a folder of shard headers can take a moment). A newer request supersedes
/// an older one: the older result is dropped. Whatever a read throws is
/// reported through failed(); a read that hangs holds up nothing, not even
/// the importer's destruction.
class ModelImporter : public QObject
{
    Q_OBJECT

public:
    explicit ModelImporter(QObject *parent = nullptr);

    void importPath(const QString &path);
    bool busy() const { return m_job.isRunning(); }

Q_SIGNALS:
    void started(const QString &path);
    void imported(const kvscope::ImportedModel &model);
    void failed(const QString &message);

private:
    void finish(const JobOutcome<ImportedModel> &outcome);

    BackgroundJob<ImportedModel> m_job;
    QString m_path; ///< of the import in progress
};

} // namespace kvscope
