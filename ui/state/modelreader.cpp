// SPDX-License-Identifier: MIT
#include "ui/state/modelreader.h"

#include <mutex>

namespace kvscope {

namespace {

std::mutex readerMutex;
ModelReader replacement; ///< empty: importModel()

} // namespace

ImportedModel readModel(const QString &path)
{
    ModelReader reader;
    {
        const std::lock_guard lock(readerMutex);
        reader = replacement;
    }
    return reader ? reader(path) : importModel(path);
}

QString readFailureMessage(const QString &path, const JobFailure &failure)
{
    if (failure.message.startsWith(path))
        return failure.message;
    return QStringLiteral("%1: %2").arg(path, failure.message); // not the core's: out of memory, unexpected
}

void setModelReader(ModelReader reader)
{
    const std::lock_guard lock(readerMutex);
    replacement = std::move(reader);
}

} // namespace kvscope
