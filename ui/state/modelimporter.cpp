// SPDX-License-Identifier: MIT
#include "ui/state/modelimporter.h"

#include "ui/state/modelreader.h"

namespace kvscope {

ModelImporter::ModelImporter(QObject *parent)
    : QObject(parent),
      m_job(this, pathPool(), [this](const JobOutcome<ImportedModel> &outcome) { finish(outcome); })
{}

void ModelImporter::importPath(const QString &path)
{
    m_path = path;
    Q_EMIT started(path);
    m_job.start([path](const quant::RunControl &) { return readModel(path); });
}

void ModelImporter::finish(const JobOutcome<ImportedModel> &outcome)
{
    if (outcome.result)
        Q_EMIT imported(*outcome.result);
    else
        Q_EMIT failed(readFailureMessage(m_path, outcome.failure));
}

} // namespace kvscope
