// SPDX-License-Identifier: MIT
#pragma once

#include <QString>
#include <QStringList>

namespace kvscope {

/// vLLM's --dtype: the floating-point type of unquantized weights and activations.
enum class WeightDtype { Auto, Float32, Float16, BFloat16 };

/// vLLM's --kv-cache-dtype. Float32 is not a vLLM choice; it is what "auto"
/// gives under --dtype float32, kept so the precision walk can start there.
enum class KvCacheDtype { Auto, Float32, Float16, BFloat16, Fp8, Fp8E4M3, Fp8E5M2 };

QString dtypeName(WeightDtype dtype);
QString dtypeName(KvCacheDtype dtype);

/// Parses vLLM's spellings (also "half", "float", "bf16", "fp16"); throws
/// kvscope::Error naming `option` and the value when it is not one of them.
WeightDtype parseWeightDtype(const QString &text, const QString &option = QStringLiteral("--dtype"));
KvCacheDtype parseKvCacheDtype(const QString &text,
                               const QString &option = QStringLiteral("--kv-cache-dtype"));

QStringList weightDtypeChoices();
QStringList kvCacheDtypeChoices();

/// Bytes per element; Auto must be resolved first.
int bytesPerElement(WeightDtype dtype);
int bytesPerElement(KvCacheDtype dtype);

/// vLLM's "auto": float16 for float32/float16 checkpoints, bfloat16 for
/// bfloat16 checkpoints and for configs that name no dtype.
WeightDtype resolveAutoDtype(WeightDtype requested, WeightDtype checkpointDtype);

/// --kv-cache-dtype auto follows the resolved --dtype; fp8 means fp8_e4m3.
KvCacheDtype resolveKvCacheDtype(KvCacheDtype requested, WeightDtype resolvedDtype);

} // namespace kvscope
