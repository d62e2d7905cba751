// SPDX-License-Identifier: MIT
#include "ui/quantization/schemecolors.h"

#include "ui/style/theme.h"

namespace kvscope {

QColor schemeColor(const quant::Scheme &scheme, const QPalette &palette)
{
    // Tableau 10 plus black (white on dark): distinct for readers with the common colour-vision deficiencies.
    switch (scheme.kind) {
    case quant::SchemeKind::Fp16:
        return QColor(0x1f, 0x77, 0xb4);
    case quant::SchemeKind::Bf16:
        return QColor(0x17, 0xbe, 0xcf);
    case quant::SchemeKind::Fp8E4M3:
        return QColor(0xff, 0x7f, 0x0e);
    case quant::SchemeKind::Fp8E5M2:
        return QColor(0xd6, 0x27, 0x28);
    case quant::SchemeKind::Int8:
        return QColor(0x2c, 0xa0, 0x2c);
    case quant::SchemeKind::Int:
        if (scheme.symmetric)
            return QColor(0x8c, 0x56, 0x4b);
        return scheme.bits == 4   ? QColor(0x94, 0x67, 0xbd)
               : scheme.bits == 3 ? QColor(0xe3, 0x77, 0xc2)
                                  : QColor(0x7f, 0x7f, 0x7f);
    case quant::SchemeKind::Nf4:
        return QColor(0xbc, 0xbd, 0x22);
    case quant::SchemeKind::Mxfp4:
        return theme::isDark(palette) ? QColor(0xe4, 0xe4, 0xe7) : QColor(0x20, 0x20, 0x20);
    case quant::SchemeKind::Nvfp4:
        return QColor(0x17, 0xbe, 0xcf);
    case quant::SchemeKind::Fp4MxBlock16:
        return QColor(0x0b, 0x7a, 0x85);
    }
    return Qt::gray;
}

} // namespace kvscope
