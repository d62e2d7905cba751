// SPDX-License-Identifier: MIT
#include "core/common/imagesize.h"

#include "core/common/error.h"

namespace kvscope {

void checkImageSize(qint64 width, qint64 height, const QString &option)
{
    const QString size = QStringLiteral("%1: %2x%3").arg(option).arg(width).arg(height);
    if (width < 1 || height < 1)
        throw Error(QStringLiteral("%1 is too small: at least 1 pixel a side").arg(size));
    if (width > MaxImageSide || height > MaxImageSide)
        throw Error(QStringLiteral("%1 is too large: at most %2 pixels a side").arg(size).arg(MaxImageSide));
    // Both sides are at most 2^14 here: the product cannot overflow.
    if (width * height > MaxImagePixels)
        throw Error(QStringLiteral("%1 is %2 pixels, too many: at most %3 pixels (for example %4x%5)")
                        .arg(size)
                        .arg(width * height)
                        .arg(MaxImagePixels)
                        .arg(MaxImageSide)
                        .arg(MaxImagePixels / MaxImageSide));
}

} // namespace kvscope
