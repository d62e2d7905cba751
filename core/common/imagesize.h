// SPDX-License-Identifier: MIT
// The largest picture kvscope draws (a window screenshot, an exported
// figure): past it the backing store's allocation fails and Qt crashes, or
// the drawing takes gigabytes and minutes.
#pragma once

#include <QString>
#include <QtGlobal>

namespace kvscope {

/// At most this many pixels a side (Qt's raster engine draws up to 32767).
inline constexpr qint64 MaxImageSide = 16384;
/// At most this many pixels in all: 2^27, 512 MiB at 4 bytes a pixel.
inline constexpr qint64 MaxImagePixels = qint64(1) << 27;

/// Throws kvscope::Error "<option>: WxH ..." unless each side is at least 1
/// and at most MaxImageSide and the picture at most MaxImagePixels.
void checkImageSize(qint64 width, qint64 height, const QString &option);

} // namespace kvscope
