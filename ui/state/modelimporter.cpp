// SPDX-License-Identifier: MIT
#include "ui/state/modelimporter.h"

#include "core/common/error.h"
#include "ui/state/modelreader.h"

#include <QtConcurrent>

namespace kvscope {

ModelImporter::ModelImporter(QObject *parent) : QObject(parent) {}

ModelImporter::~ModelImporter()
{
    if (m_watcher)
        m_watcher->waitForFinished(); // the worker reads a file; let it end before we go
}

bool ModelImporter::busy() const
{
    return m_watcher && m_watcher->isRunning();
}

void ModelImporter::importPath(const QString &path)
{
    const quint64 generation = ++m_generation;
    auto *watcher = new QFutureWatcher<Outcome>(this);
    m_watcher = watcher;
    connect(watcher, &QFutureWatcherBase::finished, this, [this, watcher, generation] {
        watcher->deleteLater();
        if (m_watcher == watcher)
            m_watcher = nullptr;
        if (generation != m_generation)
            return; // superseded by a newer import
        const Outcome outcome = watcher->result();
        if (outcome.error.isEmpty())
            Q_EMIT imported(outcome.model);
        else
            Q_EMIT failed(outcome.error);
    });
    Q_EMIT started(path);
    watcher->setFuture(QtConcurrent::run([path]() -> Outcome {
        try {
            return {readModel(path), {}};
        } catch (const Error &error) {
            return {{}, error.message()};
        }
    }));
}

} // namespace kvscope
