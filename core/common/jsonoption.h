// SPDX-License-Identifier: MIT
// Options that take a JSON object, as vLLM's --speculative-config and --eplb-config do: the object
// read with one message naming the option, and values spelled back as JSON for the messages.
#pragma once

#include <QJsonObject>
#include <QJsonValue>
#include <QString>

namespace kvscope {

/// A JSON value as JSON spells it ("\"eagle3\"", 3), or "nothing" for a missing key.
QString jsonText(const QJsonValue &value);

/// `text` as a JSON object; throws kvscope::Error naming `option` and the text for anything else.
QJsonObject parseJsonObjectOption(const QString &text, const QString &option);

} // namespace kvscope
