// SPDX-License-Identifier: MIT
#include "core/gpu/customgpu.h"

#include "core/common/checked.h"
#include "core/common/error.h"
#include "core/common/units.h"

#include <cmath>

#include <QRegularExpression>

namespace kvscope {

namespace {

constexpr std::int64_t MaxCustomMemory = std::int64_t(1) << 50; // 1 PiB
constexpr double MaxRate = 1e7;                                 // GB/s or TFLOPS

void checkRate(const QString &field, std::optional<double> value)
{
    if (value && (!std::isfinite(*value) || *value < 0 || *value > MaxRate))
        throw Error(QStringLiteral("custom GPU: %1 must be a number between 0 and %2, got %3")
                        .arg(field)
                        .arg(MaxRate, 0, 'g')
                        .arg(*value));
}

QString slug(const QString &name)
{
    QString s = name.toLower();
    s.replace(QRegularExpression(QStringLiteral("[^a-z0-9.]+")), QStringLiteral("-"));
    while (s.startsWith(QLatin1Char('-')))
        s.remove(0, 1);
    while (s.endsWith(QLatin1Char('-')))
        s.chop(1);
    return s;
}

std::optional<double> optionalNumber(const QJsonObject &o, const char *key, const QString &origin)
{
    const QJsonValue v = o.value(QLatin1String(key));
    if (v.isUndefined() || v.isNull())
        return std::nullopt;
    if (!v.isDouble())
        throw Error(QStringLiteral("%1: field '%2' must be a number").arg(origin, QLatin1String(key)));
    return v.toDouble();
}

/// Decimal text to an exact integer of millionths ("23.5" -> 23,500,000).
std::optional<std::int64_t> parseMillionths(const QString &text)
{
    static const QRegularExpression pattern(QStringLiteral("^\\s*(\\d{1,9})(?:\\.(\\d{1,6}))?\\s*$"));
    const QRegularExpressionMatch m = pattern.match(text);
    if (!m.hasMatch())
        return std::nullopt;
    return m.captured(1).toLongLong() * 1'000'000 +
           m.captured(2).leftJustified(6, QLatin1Char('0')).toLongLong();
}

} // namespace

GpuSpec customGpu(const CustomGpuInput &in)
{
    if (in.memoryBytes <= 0 || in.memoryBytes > MaxCustomMemory)
        throw Error(QStringLiteral("custom GPU: memory must be between 1 byte and 1 PiB, got %1 bytes")
                        .arg(in.memoryBytes));
    if (!std::isfinite(in.bandwidthGBs) || in.bandwidthGBs < 0 || in.bandwidthGBs > MaxRate)
        throw Error(QStringLiteral("custom GPU: bandwidth must be a number between 0 and %1 GB/s, got %2")
                        .arg(MaxRate, 0, 'g')
                        .arg(in.bandwidthGBs));
    checkRate(QStringLiteral("BF16 TFLOPS"), in.tflopsBf16);
    checkRate(QStringLiteral("FP8 TFLOPS"), in.tflopsFp8);
    checkRate(QStringLiteral("INT8 TFLOPS"), in.tflopsInt8);
    checkRate(QStringLiteral("FP32 vector TFLOPS"), in.tflopsFp32Vector);
    checkRate(QStringLiteral("interconnect GB/s"), in.interconnectGBs);
    GpuSpec g;
    g.name = in.name.trimmed().isEmpty() ? QStringLiteral("Custom GPU") : in.name.trimmed();
    const QString s = slug(g.name);
    g.id = s.isEmpty()                             ? QStringLiteral("custom")
           : s.startsWith(QLatin1String("custom")) ? s
                                                   : QStringLiteral("custom-") + s;
    g.vendor = in.vendor;
    g.memoryBytes = in.memoryBytes;
    g.memoryBasis = QStringLiteral("custom");
    g.marketedGb = double(in.memoryBytes) / 1e9;
    g.bandwidthGBs = in.bandwidthGBs;
    g.tflopsBf16 = in.tflopsBf16;
    g.tflopsFp16 = in.tflopsBf16;
    g.tflopsFp8 = in.tflopsFp8;
    g.tflopsInt8 = in.tflopsInt8;
    g.tflopsFp32Vector = in.tflopsFp32Vector;
    g.fp8Native = in.fp8Native;
    g.interconnectGBs = in.interconnectGBs;
    g.custom = true;
    g.notes = QStringLiteral("entered by the user; the budget starts from %1").arg(formatGiB(in.memoryBytes));
    return g;
}

GpuSpec customGpu(const QString &name, std::int64_t memoryBytes, double bandwidthGBs,
                  std::optional<double> tflopsBf16)
{
    CustomGpuInput in;
    in.name = name;
    in.memoryBytes = memoryBytes;
    in.bandwidthGBs = bandwidthGBs;
    in.tflopsBf16 = tflopsBf16;
    return customGpu(in);
}

QJsonObject gpuToJson(const GpuSpec &g)
{
    QJsonObject o;
    o.insert(QStringLiteral("format"), QStringLiteral("kvscope-gpu-1"));
    o.insert(QStringLiteral("id"), g.id);
    o.insert(QStringLiteral("name"), g.name);
    o.insert(QStringLiteral("vendor"), g.vendor);
    o.insert(QStringLiteral("memory_bytes"), qint64(g.memoryBytes));
    o.insert(QStringLiteral("bandwidth_gbps"), g.bandwidthGBs);
    const auto put = [&](const char *key, std::optional<double> v) {
        if (v)
            o.insert(QLatin1String(key), *v);
    };
    put("tflops_bf16_dense", g.tflopsBf16);
    put("tflops_fp8_dense", g.tflopsFp8);
    put("tflops_int8_dense", g.tflopsInt8);
    put("tflops_fp32_vector", g.tflopsFp32Vector);
    put("interconnect_gbps", g.interconnectGBs);
    o.insert(QStringLiteral("fp8_native"), g.fp8Native);
    o.insert(QStringLiteral("custom"), g.custom);
    return o;
}

GpuSpec customGpuFromJson(const QJsonObject &o, const QString &origin)
{
    const QJsonValue memory = o.value(QLatin1String("memory_bytes"));
    const double bytes = memory.toDouble(-1);
    if (!memory.isDouble() || bytes != std::floor(bytes) || bytes <= 0 || bytes > double(MaxCustomMemory))
        throw Error(QStringLiteral("%1: field 'memory_bytes' must be a positive integer of at most 1 PiB")
                        .arg(origin));
    CustomGpuInput in;
    in.name = o.value(QLatin1String("name")).toString();
    in.vendor = o.value(QLatin1String("vendor")).toString();
    in.memoryBytes = std::int64_t(bytes);
    in.bandwidthGBs = optionalNumber(o, "bandwidth_gbps", origin).value_or(0);
    in.tflopsBf16 = optionalNumber(o, "tflops_bf16_dense", origin);
    in.tflopsFp8 = optionalNumber(o, "tflops_fp8_dense", origin);
    in.tflopsInt8 = optionalNumber(o, "tflops_int8_dense", origin);
    in.tflopsFp32Vector = optionalNumber(o, "tflops_fp32_vector", origin);
    in.interconnectGBs = optionalNumber(o, "interconnect_gbps", origin);
    in.fp8Native = o.value(QLatin1String("fp8_native")).toBool();
    try {
        return customGpu(in);
    } catch (const Error &error) {
        throw Error(QStringLiteral("%1: %2").arg(origin, error.message()));
    }
}

QVariantMap gpuToVariantMap(const GpuSpec &gpu)
{
    return gpuToJson(gpu).toVariantMap();
}

GpuSpec customGpuFromVariantMap(const QVariantMap &map, const QString &origin)
{
    return customGpuFromJson(QJsonObject::fromVariantMap(map), origin);
}

GpuSpec parseCustomGpuOption(const QString &text, const QString &option)
{
    const QStringList parts = text.split(QLatin1Char(':'));
    const auto fail = [&]() -> GpuSpec {
        throw Error(QStringLiteral("%1: '%2' is not %3 (e.g. custom:24:1008:165)")
                        .arg(option, text, QLatin1String(CustomGpuSyntax)));
    };
    if (parts.size() < 2 || parts.size() > 5 ||
        parts.first().compare(QLatin1String("custom"), Qt::CaseInsensitive) != 0)
        return fail();
    const std::optional<std::int64_t> millionths = parseMillionths(parts.at(1));
    if (!millionths || *millionths == 0)
        return fail();
    // GiB x 10^-6 exactly: millionths x 2^30 / 10^6, floored.
    const std::int64_t bytes = mulDivFloor(*millionths, GiB, 1'000'000);
    CustomGpuInput in;
    in.name = QStringLiteral("Custom GPU %1 GiB").arg(parts.at(1).trimmed());
    in.memoryBytes = bytes;
    bool ok = true;
    if (parts.size() > 2) {
        in.bandwidthGBs = parts.at(2).toDouble(&ok);
        if (!ok)
            return fail();
    }
    if (parts.size() > 3) {
        in.tflopsBf16 = parts.at(3).toDouble(&ok);
        if (!ok)
            return fail();
    }
    if (parts.size() > 4) {
        in.interconnectGBs = parts.at(4).toDouble(&ok);
        if (!ok)
            return fail();
    }
    try {
        GpuSpec gpu = customGpu(in);
        gpu.id = text.trimmed().toLower();
        return gpu;
    } catch (const Error &error) {
        throw Error(QStringLiteral("%1: %2").arg(option, error.message()));
    }
}

GpuSpec presetWithMemory(const GpuSpec &preset, const QString &memoryGiB, const QString &option)
{
    const std::optional<std::int64_t> millionths = parseMillionths(memoryGiB);
    // GiB x 10^-6 exactly: millionths x 2^30 / 10^6, floored.
    const std::int64_t bytes = millionths ? mulDivFloor(*millionths, GiB, 1'000'000) : 0;
    if (bytes <= 0 || bytes > MaxCustomMemory)
        throw Error(
            QStringLiteral("%1: '%2:%3': after the preset, the memory must be a number of GiB between "
                           "1 byte and 1 PiB")
                .arg(option, preset.id, memoryGiB));
    GpuSpec gpu = preset;
    gpu.presetId = preset.id;
    gpu.id = QStringLiteral("%1:%2").arg(preset.id, memoryGiB.trimmed());
    gpu.name = QStringLiteral("%1 (%2 GiB)").arg(preset.name, memoryGiB.trimmed());
    gpu.aliases.clear();
    gpu.memoryBytes = bytes;
    gpu.memoryBasis = QStringLiteral("cuda");
    gpu.nvidiaSmiMib = 0;
    return gpu;
}

} // namespace kvscope
