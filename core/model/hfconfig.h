// SPDX-License-Identifier: MIT
#pragma once

#include "core/common/jsonkeys.h"
#include "core/model/modelarch.h"
#include "core/model/quantizationconfig.h"

#include <QJsonObject>
#include <QString>

namespace kvscope {

/// Reads a HuggingFace config.json (already parsed) into a ModelArch.
/// `origin` names the file in error messages ("config.json", a path...).
/// Multimodal configs are read from their text_config; the vision tower is
/// counted from vision_config. Throws kvscope::Error naming the field and value.
ModelArch parseHfConfig(const QJsonObject &config, const QString &origin);

/// Reads and parses a config.json file; malformed JSON is reported with its offset.
ModelArch loadHfConfigFile(const QString &path);

} // namespace kvscope
