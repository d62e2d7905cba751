// SPDX-License-Identifier: MIT
#pragma once

#include "core/quantization/quantrun.h"
#include "core/quantization/synthetic.h"

#include <QString>

namespace kvscope {

/// What the source picker holds: the synthetic settings and the file, both
/// kept while the other is in use (the settings save both), and which of the
/// two is the source.
struct QuantSource
{
    bool synthetic = true;
    quant::SyntheticSpec spec;
    QString path;
    QString tensor;

    /// The tensor this names, for quant::runQuantization().
    quant::TensorSource selected() const
    {
        if (synthetic)
            return spec;
        return quant::TensorFile{path, tensor};
    }
};

} // namespace kvscope
