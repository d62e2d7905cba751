// SPDX-License-Identifier: MIT
#include "core/compare/kvhead.h"

#include "core/compare/accuracy.h"
#include "core/quantization/simulator.h"

#include <algorithm>
#include <cmath>

namespace kvscope {

quant::ElementType elementType(WeightDtype dtype)
{
    switch (dtype) {
    case WeightDtype::Float16:
        return quant::ElementType::Float16;
    case WeightDtype::Float32:
        return quant::ElementType::Float32;
    case WeightDtype::Auto:
    case WeightDtype::BFloat16:
        break;
    }
    return quant::ElementType::BFloat16;
}

quant::Scheme kvCacheScheme(KvCacheDtype dtype, bool calibratedScale)
{
    quant::Scheme scheme;
    scheme.kind = dtype == KvCacheDtype::Nvfp4          ? quant::SchemeKind::Nvfp4
                  : dtype == KvCacheDtype::Fp4MxBlock16 ? quant::SchemeKind::Fp4MxBlock16
                  : dtype == KvCacheDtype::Fp8E5M2      ? quant::SchemeKind::Fp8E5M2
                                                        : quant::SchemeKind::Fp8E4M3;
    scheme.unitScale = !calibratedScale;
    return scheme;
}

ExtendedCache extendedCache(quant::SyntheticSpec spec, const quant::Scheme &scheme,
                            const quant::RunControl &control)
{
    spec.rows = attentionContexts().last();
    ExtendedCache cache;
    cache.exact = quant::generateSynthetic(spec, control);
    const quant::TensorStats stats = quant::scanTensor(cache.exact);
    cache.amax = stats.amax();
    cache.quantized = quant::dequantizeTensor(cache.exact, stats, scheme, control);
    return cache;
}

quant::AttentionCache attentionCache(const ExtendedCache &keys, const ExtendedCache &values)
{
    const auto exact = [](const ExtendedCache &c) {
        return quant::dense::ConstMatrixRef{c.exact.floats(0, c.exact.elements(), nullptr), c.exact.rows(),
                                            c.exact.cols(), c.exact.cols()};
    };
    const auto quantized = [](const ExtendedCache &c) {
        return quant::dense::ConstMatrixRef{c.quantized.data(), c.exact.rows(), c.exact.cols(),
                                            c.exact.cols()};
    };
    return {exact(keys), exact(values), quantized(keys), quantized(values)};
}

QString kvScaleName(bool calibratedScale)
{
    return calibratedScale ? QStringLiteral("calibrated") : QStringLiteral("engine");
}

KvHead kvHead(const ModelArch &m, WeightDtype activations)
{
    KvHead head;
    head.latent = m.usesMla();
    quant::SyntheticSpec &keys = head.keys;
    keys.kind = quant::SyntheticKind::Gaussian;
    keys.rows = KvTokens;
    keys.cols = std::min<std::int64_t>(head.latent ? m.mla.kvLoraRank + m.mla.qkRopeHeadDim : m.headDim,
                                       quant::MaxSyntheticDimension);
    keys.seed = KeySeed;
    keys.standardDeviation = 1.0;
    keys.channelScale = KeyChannelScale;
    keys.storedAs = elementType(activations);
    if (!head.latent) {
        quant::SyntheticSpec values = keys;
        values.cols = m.vHeadDim > 0 ? m.vHeadDim : m.headDim;
        values.seed = ValueSeed;
        values.channelScale = 0;
        head.values = values;
    }
    const int width = head.latent ? m.mla.qkNopeHeadDim + m.mla.qkRopeHeadDim : int(keys.cols);
    head.logitScale = 1.0 / std::sqrt(double(std::max(width, 1)));
    return head;
}

} // namespace kvscope
