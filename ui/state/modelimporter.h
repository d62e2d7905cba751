// SPDX-License-Identifier: MIT
#pragma once

#include "core/model/modelimport.h"

#include <QFutureWatcher>
#include <QObject>

namespace kvscope {

/// Imports a model file or folder off the GUI thread (a GGUF's metadata or
/// a folder of shard headers can take a moment). A newer request supersedes
/// an older one: the older result is dropped when it arrives.
class ModelImporter : public QObject
{
    Q_OBJECT

public:
    explicit ModelImporter(QObject *parent = nullptr);
    ~ModelImporter() override;

    void importPath(const QString &path);
    bool busy() const;

Q_SIGNALS:
    void started(const QString &path);
    void imported(const kvscope::ImportedModel &model);
    void failed(const QString &message);

private:
    struct Outcome
    {
        ImportedModel model;
        QString error;
    };

    QFutureWatcher<Outcome> *m_watcher = nullptr;
    quint64 m_generation = 0;
};

} // namespace kvscope
