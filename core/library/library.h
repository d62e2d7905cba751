// SPDX-License-Identifier: MIT
#pragma once

#include "gpu/gpuspec.h"
#include "model/modelarch.h"

#include <QList>
#include <QString>

namespace kvscope {

/// The built-in model presets (resources/presets/models.json), each read
/// through the same config.json parser as an imported model.
class ModelLibrary
{
public:
    /// The presets compiled into the binary; loaded once, then shared.
    static const ModelLibrary &builtin();

    /// Loads a presets document; throws kvscope::Error on a malformed entry.
    static ModelLibrary fromJson(const QByteArray &json, const QString &origin);

    const QList<ModelArch> &models() const { return m_models; }

    /// Preset by id, display name or HuggingFace repo id (case-insensitive).
    const ModelArch *find(const QString &idOrRepo) const;

private:
    QList<ModelArch> m_models;
};

/// The built-in GPU presets (resources/presets/gpus.json).
class GpuLibrary
{
public:
    static const GpuLibrary &builtin();
    static GpuLibrary fromJson(const QByteArray &json, const QString &origin);

    const QList<GpuSpec> &gpus() const { return m_gpus; }
    const GpuSpec *find(const QString &idOrAlias) const;

private:
    QList<GpuSpec> m_gpus;
};

/// Resolves --model: a preset id, a HuggingFace repo id, or a path to a
/// config.json, a model folder or a .gguf file (see importModel). Throws
/// kvscope::Error naming the value.
ModelArch resolveModel(const QString &text);

/// Resolves --gpu: a preset id or alias, or custom:MEMORY_GIB[:BANDWIDTH_GBS[:TFLOPS]].
/// Throws kvscope::Error naming the value.
GpuSpec resolveGpu(const QString &text);

} // namespace kvscope
