// SPDX-License-Identifier: MIT
// config.json text -> parser -> the figures built from it. Any input may be
// rejected with kvscope::Error; nothing may crash, read out of bounds or hang.
#include "core/common/error.h"
#include "core/model/hfconfig.h"
#include "core/model/inventory.h"
#include "core/plan/kvcache.h"
#include "core/plan/weights.h"
#include "tests/fuzz/fuzztargets.h"

#include <cstddef>
#include <cstdint>

#include <QByteArray>

namespace kvscope::fuzz {

void hfconfig(const std::uint8_t *data, std::size_t size)
{
    try {
        const QByteArray text(reinterpret_cast<const char *>(data), qsizetype(size));
        const ModelArch model =
            parseHfConfig(parseJsonObject(text, QStringLiteral("fuzz")), QStringLiteral("fuzz"));
        const QList<TensorGroup> inventory = tensorInventory(model);
        countParameters(inventory);
        weightMemory(model, inventory, model.checkpointQuantization, WeightDtype::BFloat16, 2);
        kvCacheBytes(model, kvCacheLayout(model, KvCacheOptions{KvCacheDtype::BFloat16, 2, 16}), 4, 4096);
    } catch (const Error &) {
        // A clear rejection is a correct answer.
    }
}

} // namespace kvscope::fuzz
