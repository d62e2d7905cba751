// SPDX-License-Identifier: MIT
#include "core/plan/weights.h"

#include "core/common/checked.h"
#include "core/engine/gpusupport.h"

#include <algorithm>

#include <QRegularExpression>

namespace kvscope {

namespace {

/// An HF module pattern ("model.layers.*.self_attn", "lm_head") reduced to
/// the path inside a layer that inventory names use.
QString layerRelative(QString pattern)
{
    for (const char *prefix : {"model.language_model.", "language_model.model.", "model."})
        if (pattern.startsWith(QLatin1String(prefix)))
            pattern.remove(0, int(qstrlen(prefix)));
    if (pattern.startsWith(QLatin1String("layers.")))
        pattern.remove(0, pattern.indexOf(QLatin1Char('.'), 7) + 1);
    return pattern;
}

/// compressed-tensors ignore entries "re:<regex>" match full module names
/// ("model.layers.0.mlp.gate"); the inventory names modules inside a layer.
bool matchesRegexPattern(const QString &pattern, const TensorGroup &group)
{
    const QRegularExpression re(pattern.mid(3));
    if (!re.isValid())
        return false;
    QString module = group.name;
    module.chop(int(qstrlen(".weight")));
    const QString candidates[] = {module, QStringLiteral("model.layers.0.") + module,
                                  QStringLiteral("model.language_model.layers.0.") + module};
    for (const QString &name : candidates)
        if (re.match(name).hasMatch())
            return true;
    return false;
}

bool ignoredByCheckpoint(const QuantizationSpec &spec, const TensorGroup &group)
{
    for (const QString &pattern : spec.modulesNotConverted) {
        if (pattern.startsWith(QLatin1String("re:"))) {
            if (matchesRegexPattern(pattern, group))
                return true;
            continue;
        }
        const QString relative = layerRelative(pattern);
        if (!relative.isEmpty() &&
            (group.name == relative || group.name.startsWith(relative + QLatin1Char('.'))))
            return true;
    }
    return false;
}

/// The storage of every copy of a tensor group, split by what it holds.
MatrixStorage groupStorage(const TensorGroup &group, std::int64_t rows, std::int64_t cols,
                           const QuantizationSpec &spec, int dtypeBytes)
{
    const QuantizationSpec &applied = quantizes(spec, group) ? spec : QuantizationSpec{};
    const MatrixStorage one = quantizedMatrixStorage(applied, rows, cols, dtypeBytes);
    const auto copies = [&](std::int64_t bytes) { return (Checked(bytes) * group.copies).value(); };
    return {copies(one.values), copies(one.scales), copies(one.zeros), copies(one.other)};
}

void accumulate(MatrixStorage &sum, const MatrixStorage &part)
{
    sum.values = (Checked(sum.values) + part.values).value();
    sum.scales = (Checked(sum.scales) + part.scales).value();
    sum.zeros = (Checked(sum.zeros) + part.zeros).value();
    sum.other = (Checked(sum.other) + part.other).value();
}

/// The copies of a routed-expert group one GPU holds: its MoE layers' local experts, or all of them.
TensorGroup localExpertGroup(TensorGroup group, const ModelArch &model, const ExpertPlacement &experts)
{
    if (experts.localExperts > 0 && model.moe.numExperts > 0)
        group.copies = (Checked(group.copies / model.moe.numExperts) * experts.localExperts).value();
    return group;
}

std::int64_t roundUp(std::int64_t value, int multiple)
{
    return ceilDiv(value, multiple) * multiple;
}

/// The GPUs `group` is split over: routed experts as their placement says; under SGLang's
/// data-parallel attention the dense MLPs and LM head over every GPU and the input embedding whole.
int gpusSplitOver(const TensorGroup &group, int tensorParallelSize, const ExpertPlacement &experts)
{
    switch (group.component) {
    case Component::Experts:
        return experts.tensorParallel > 0 ? experts.tensorParallel : tensorParallelSize;
    case Component::Mlp:
        // A dense layer's MLP, not the shared experts (SGLang's --moe-dense-tp-size 1).
        if (experts.denseLayerMlpTensorParallel > 0 && !group.name.contains(QLatin1String("shared_expert")))
            return experts.denseLayerMlpTensorParallel;
        return experts.denseTensorParallel > 0 ? experts.denseTensorParallel : tensorParallelSize;
    case Component::LmHead:
        if (experts.lmHeadTensorParallel > 0)
            return experts.lmHeadTensorParallel;
        return experts.denseTensorParallel > 0 ? experts.denseTensorParallel : tensorParallelSize;
    case Component::Embedding:
        return experts.wholeEmbedding ? 1 : tensorParallelSize;
    default:
        return tensorParallelSize;
    }
}

/// A tensor of `group` as one GPU holds it: split as the layout splits the group, a routed expert at the
/// sizes MXFP4's padding allocates it with.
LocalShape shapeOnGpu(const TensorGroup &group, const QuantizationSpec &spec, int tensorParallelSize,
                      const ExpertPadding &padding, const ExpertPlacement &experts)
{
    const LocalShape local = localShape(group, gpusSplitOver(group, tensorParallelSize, experts));
    if (spec.method == QuantMethod::Mxfp4 && group.component == Component::Experts)
        return paddedExpertShape(group, local, padding);
    return local;
}

} // namespace

LocalShape paddedExpertShape(const TensorGroup &group, LocalShape local, const ExpertPadding &padding)
{
    const QString projection = projectionName(group);
    const bool intermediateRows =
        projection == QLatin1String("gate_proj") || projection == QLatin1String("up_proj");
    const int rowsAlign = intermediateRows ? padding.intermediate : padding.hidden;
    local.rows = roundUp(local.rows, rowsAlign);
    if (group.role == TensorRole::LinearWeight)
        local.cols = roundUp(local.cols, intermediateRows ? padding.hidden : padding.intermediate);
    return local;
}

ExpertPadding mxfp4ExpertPadding(const QString &computeCapability)
{
    const std::optional<int> capability = capabilityNumber(computeCapability);
    if (!capability)
        return {};
    if (*capability < 90)
        return MarlinMxfp4Padding;
    // Hopper runs MXFP4 experts through triton_kernels' matmul_ogs, whose swizzle leaves the checkpoint's
    // scales in place (convert_gpt_oss_weight_to_mxfp4_moe_kernel_format deletes only w13_weight and
    // w2_weight, vllm/model_executor/layers/fused_moe/oracle/mxfp4.py); Blackwell's FlashInfer kernels
    // replace them.
    if (*capability == 90)
        return {64, 1, 256};
    return {64, 1};
}

std::int64_t mxfp4ScaleCopyBytes(const ModelArch &model, WeightDtype dtype, int expertTensorParallel,
                                 int localExperts, const ExpertPadding &padding)
{
    if (padding.swizzledScaleRows <= 0 || !model.moe.enabled())
        return 0;
    constexpr std::int64_t Mxfp4Block = 32; // one E8M0 scale byte per 32 values along the input
    const std::int64_t intermediate = roundUp(
        ceilDiv(model.moe.expertIntermediateSize, std::max(1, expertTensorParallel)), padding.intermediate);
    const std::int64_t hidden = roundUp(model.hiddenSize, padding.hidden);
    const auto swizzled = [&](std::int64_t rows, std::int64_t inputs) {
        return Checked(roundUp(rows, padding.swizzledScaleRows)) * roundUp(ceilDiv(inputs, Mxfp4Block), 2);
    };
    Checked perExpert = swizzled(2 * intermediate, hidden) + swizzled(hidden, intermediate);
    if (model.moe.expertBias) // w13_bias and w2_bias become float32 (shuffle_weight(w13_bias.to(float32)))
        perExpert += Checked(2 * intermediate + hidden) * std::max(0, 4 - bytesPerElement(dtype));
    return (perExpert * localExperts * model.moeLayerCount()).value();
}

bool quantizes(const QuantizationSpec &spec, const TensorGroup &group)
{
    if (spec.method == QuantMethod::None || group.role != TensorRole::LinearWeight)
        return false;
    if (spec.method == QuantMethod::Mxfp4 && group.component != Component::Experts)
        return false;
    const bool decoderLinear = group.component == Component::Attention || group.component == Component::Mlp ||
                               group.component == Component::Experts;
    return decoderLinear && !ignoredByCheckpoint(spec, group);
}

QList<std::int64_t> parameterTensorBytes(const ModelArch &model, const QList<TensorGroup> &inventory,
                                         const QuantizationSpec &spec, WeightDtype dtype,
                                         int tensorParallelSize, const ExpertPadding &padding,
                                         const ExpertPlacement &experts)
{
    // A fused tensor: the packed projection's parts summed, one tensor a layer (`units` of them).
    struct Fused
    {
        QString key;
        std::int64_t units = 0;
        MatrixStorage unit;
    };
    QList<Fused> fused;
    const int dtypeBytes = bytesPerElement(dtype);
    const int moeLayers = model.moeLayerCount();
    for (const TensorGroup &group : inventory) {
        const bool routed = group.component == Component::Experts;
        const LocalShape local = shapeOnGpu(group, spec, tensorParallelSize, padding, experts);
        TensorGroup one = routed ? localExpertGroup(group, model, experts) : group;
        const std::int64_t units = routed && moeLayers > 0 ? moeLayers : one.copies;
        if (units <= 0)
            continue;
        one.copies = one.copies / units; // a routed-expert tensor holds the layer's local experts
        const MatrixStorage unit = groupStorage(one, local.rows, local.cols, spec, dtypeBytes);
        const QString projection = projectionName(group);
        QString key = group.name;
        key.replace(projection, packedProjectionName(projection));
        auto it = std::find_if(fused.begin(), fused.end(),
                               [&](const Fused &f) { return f.key == key && f.units == units; });
        if (it == fused.end())
            fused.append({key, units, unit});
        else
            accumulate(it->unit, unit);
    }
    QList<std::int64_t> tensors;
    std::int64_t layers = 0;
    for (const Fused &f : fused)
        layers = std::max(layers, f.units);
    for (std::int64_t layer = 0; layer < layers; ++layer)
        for (const Fused &f : fused)
            if (layer < f.units)
                for (const std::int64_t part : {f.unit.values, f.unit.scales, f.unit.zeros, f.unit.other})
                    if (part > 0)
                        tensors << part;
    return tensors;
}

std::int64_t rotaryBufferBytes(const ModelArch &model, WeightDtype dtype, std::int64_t multimodalRopeScale)
{
    // The scaled table, and the unscaled ones beside it (Gemma 3's local layers).
    const std::int64_t scaled =
        model.rotaryTableRows > 0 ? model.rotaryTableRows : model.maxPositionEmbeddings;
    const Checked rows = Checked(scaled) * (model.multimodalRope ? multimodalRopeScale : 1) +
                         Checked(model.maxPositionEmbeddings) * std::max(0, model.ropeCaches - 1);
    return (rows * model.rotaryDim * bytesPerElement(dtype)).value();
}

WeightMemory weightMemory(const ModelArch &model, const QList<TensorGroup> &inventory,
                          const QuantizationSpec &spec, WeightDtype dtype, int tensorParallelSize,
                          const ExpertPadding &padding, const ExpertPlacement &experts)
{
    WeightMemory w;
    const int dtypeBytes = bytesPerElement(dtype);
    Checked perGpu, checkpoint, quantizedParams, allParams, unquantizedParams, unquantizedBytes;
    for (const TensorGroup &group : inventory) {
        const bool routed = group.component == Component::Experts;
        const LocalShape local = shapeOnGpu(group, spec, tensorParallelSize, padding, experts);
        const std::int64_t localBytes = groupStorage(routed ? localExpertGroup(group, model, experts) : group,
                                                     local.rows, local.cols, spec, dtypeBytes)
                                            .total();
        const MatrixStorage stored = groupStorage(group, group.rows, group.cols, spec, dtypeBytes);
        perGpu += localBytes;
        checkpoint += stored.total();
        allParams += group.elements();
        w.byComponent[int(group.component)] =
            (Checked(w.byComponent[int(group.component)]) + localBytes).value();
        if (quantizes(spec, group)) {
            quantizedParams += group.elements();
            accumulate(w.quantizedStorage, stored);
        } else {
            unquantizedParams += group.elements();
            unquantizedBytes += stored.total();
        }
    }
    w.buffersBytes =
        rotaryBufferBytes(model, dtype, VllmMultimodalRopeScale); // SglangRules::sizeLoad replaces it
    w.buffersDtype = dtype;
    w.bytesPerGpu = (perGpu + w.buffersBytes).value();
    w.checkpointBytes = checkpoint.value();
    w.quantizedParams = quantizedParams.value();
    w.quantizedBytes = w.quantizedStorage.total();
    w.unquantizedParams = unquantizedParams.value();
    w.unquantizedBytes = unquantizedBytes.value();
    w.bitsPerWeight = allParams.value() > 0 ? 8.0 * double(w.checkpointBytes) / double(allParams.value()) : 0;
    w.quantizedBitsPerWeight =
        w.quantizedParams > 0 ? 8.0 * double(w.quantizedBytes) / double(w.quantizedParams) : 0;
    return w;
}

} // namespace kvscope
