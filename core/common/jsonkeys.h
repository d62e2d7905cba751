// SPDX-License-Identifier: MIT
#pragma once

#include <optional>

#include <QByteArray>
#include <QJsonObject>
#include <QString>

namespace kvscope {

/// The first key that one object of the JSON text `json` holds twice, decoded
/// ("a\u0062" is "ab"), or nullopt. QJsonDocument keeps the last of them
/// silently; strict readers refuse the file instead. One pass over the bytes;
/// `json` must be well-formed (parse it first).
std::optional<QString> firstRepeatedKey(const QByteArray &json);

/// Parses JSON text whose top level is an object (a config.json, a scenario file, a
/// benchmark result); throws kvscope::Error "ORIGIN: malformed JSON at offset N: ..." otherwise.
QJsonObject parseJsonObject(const QByteArray &text, const QString &origin);

} // namespace kvscope
