// SPDX-License-Identifier: MIT
#include "core/plan/imageworkload.h"

#include "core/common/checked.h"
#include "core/common/error.h"
#include "core/scenario/scenario.h"

#include <QCoreApplication>

namespace kvscope {

ImageWorkload imageWorkload(const Scenario &s)
{
    ImageWorkload w;
    if (s.imagesPerRequest <= 0)
        return w;
    const QString imagesFlag = optionFlag(ScenarioField::ImagesPerRequest);
    if (s.imagesPerRequest > MaxImagesPerRequest)
        throw Error(QCoreApplication::translate("kvscope::ImageWorkload", "%1: %2 is more than %3 images")
                        .arg(imagesFlag)
                        .arg(s.imagesPerRequest)
                        .arg(MaxImagesPerRequest));
    if (!s.model.vision.enabled())
        throw Error(
            QCoreApplication::translate("kvscope::ImageWorkload",
                                        "%1: %2 takes no images (its config.json has no vision tower)")
                .arg(imagesFlag, s.model.name));
    try {
        w.perImage = imageTokens(s.model, s.imageWidth, s.imageHeight);
    } catch (const Error &error) {
        throw Error(QStringLiteral("%1: %2").arg(optionFlag(ScenarioField::ImageSize), error.message()));
    }
    w.images = s.imagesPerRequest;
    w.promptTokens = (Checked(w.images) * w.perImage.promptTokens).value();
    w.embeddings = (Checked(w.images) * w.perImage.embeddings).value();
    return w;
}

} // namespace kvscope
