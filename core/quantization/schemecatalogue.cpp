// SPDX-License-Identifier: MIT
#include "core/quantization/schemecatalogue.h"

#include "core/quantization/scheme.h"

namespace kvscope::quant {

QList<SchemeEntry> schemeEntries()
{
    return {
        {"fp16", false},
        {"bf16", false},
        {"fp8-e4m3", true},
        {"fp8-e5m2", false},
        {"int8", true},
        {"int4", true},
        {"int4-sym", false},
        {"int3", false},
        {"int2", false},
        {"awq-int4", false},
        {"gptq-int4", false},
        {"nf4", true},
        {"mxfp4", true},
        {"nvfp4", false},
        // W8A8: the fp8-e4m3 and int8 weights again, the activations quantized as the kernels do
        // (only the layer output's error differs); and mxfp4's with MXFP8 activations, the MXFP4 x MXFP8
        // MoE kernel's.
        {"fp8-e4m3+a-fp8-token", false, "fp8 W8A8"},
        {"int8+a-int8-token", false, "int8 W8A8"},
        {"mxfp4+a-mxfp8", false, "mxfp4 W4A8"},
    };
}

QList<int> groupSizeStops()
{
    return {16, 32, 64, 128, 256, 512, 1024, WholeRow};
}

} // namespace kvscope::quant
