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

void setModelReader(ModelReader reader)
{
    const std::lock_guard lock(readerMutex);
    replacement = std::move(reader);
}

} // namespace kvscope
