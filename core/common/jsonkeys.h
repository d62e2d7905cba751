// SPDX-License-Identifier: MIT
#pragma once

#include <optional>

#include <QByteArray>
#include <QString>

namespace kvscope {

/// The first key that one object of the JSON text `json` holds twice, decoded
/// ("a\u0062" is "ab"), or nullopt. QJsonDocument keeps the last of them
/// silently; strict readers refuse the file instead. One pass over the bytes;
/// `json` must be well-formed (parse it first).
std::optional<QString> firstRepeatedKey(const QByteArray &json);

} // namespace kvscope
