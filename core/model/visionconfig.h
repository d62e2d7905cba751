// SPDX-License-Identifier: MIT
// A multimodal config.json's vision tower: which family its vision_config's
// model_type names (one table), and the fields that family's tensors take.
#pragma once

#include "core/model/modelarch.h"

#include <QJsonObject>

namespace kvscope {

/// The family a vision_config's model_type names; Generic for one kvscope does not list.
VisionFamily visionFamily(const QString &modelType);

/// Reads `top`'s vision_config (and the wrapper's projector fields) into m.vision, with m's text
/// width as the projector's output. A tower kvscope does not list is counted with SigLIP's layout
/// and noted as estimated. Throws kvscope::Error naming the field and value.
void readVisionConfig(const QJsonObject &top, const QString &origin, ModelArch &m);

} // namespace kvscope
