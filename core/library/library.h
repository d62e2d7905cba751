// SPDX-License-Identifier: MIT
#pragma once

#include "core/gpu/gpuspec.h"
#include "core/model/modelarch.h"

#include <QByteArray>
#include <QList>
#include <QString>

namespace kvscope {

/// Presets of one kind (models, GPUs) from a JSON document
/// {"models": [...]} or {"gpus": [...]}, found by id, name or another name.
template <class Entry> class PresetLibrary
{
public:
    /// The presets compiled into the binary (resources/presets/); loaded once, then shared.
    static const PresetLibrary &builtin();

    /// Loads a presets document; throws kvscope::Error on a malformed entry.
    static PresetLibrary fromJson(const QByteArray &json, const QString &origin);

    const QList<Entry> &presets() const { return m_presets; }

    /// The preset whose id, display name or one of its other names (a model's
    /// HuggingFace repo ids, a GPU's aliases) is `text`, ignoring case and blanks around it.
    const Entry *find(const QString &text) const;

private:
    QList<Entry> m_presets;
};

/// The built-in model presets (models.json), each read through the same
/// config.json parser as an imported model.
using ModelLibrary = PresetLibrary<ModelArch>;
/// The built-in GPU presets (gpus.json).
using GpuLibrary = PresetLibrary<GpuSpec>;

extern template class PresetLibrary<ModelArch>;
extern template class PresetLibrary<GpuSpec>;

/// A data file compiled into the binary (":/presets/models.json"); throws
/// kvscope::Error when it is missing.
QByteArray readResource(const QString &path);

/// Resolves --model: a preset id, a HuggingFace repo id, or a path to a
/// config.json, a model folder or a .gguf file (see importModel). Throws
/// kvscope::Error naming the value.
ModelArch resolveModel(const QString &text);

/// The built-in draft presets (drafts.json): EAGLE drafts --speculative-config names.
const ModelLibrary &draftLibrary();

/// Resolves --speculative-config's "model": a draft preset's id or repo id, a model preset (a
/// draft_model drafter), or a config.json or model folder. Throws kvscope::Error naming the value.
ModelArch resolveDraftModel(const QString &text);

/// The preset whose driver reports `deviceName` (torch.cuda.get_device_name(), with spaces or with the
/// underscores vLLM's fused-MoE config file names put for them: "NVIDIA_L40S"); null when none does.
const GpuSpec *gpuForDeviceName(const QString &deviceName);

/// Resolves --gpu: a preset id or alias, a preset with its host's memory (PresetMemorySyntax), or a custom
/// GPU (CustomGpuSyntax, core/gpu/customgpu.h).
/// Throws kvscope::Error naming the value.
GpuSpec resolveGpu(const QString &text);

} // namespace kvscope
