// SPDX-License-Identifier: MIT
#include "core/quantization/synthetic.h"

#include "core/common/enumtable.h"
#include "core/common/error.h"
#include "core/common/scenariofield.h"
#include "core/quantization/floatformat.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <numbers>
#include <vector>

namespace kvscope::quant {

namespace {

constexpr int StudentDegrees = 5;

std::uint64_t splitMix64(std::uint64_t &state)
{
    std::uint64_t z = (state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

/// xoshiro256** (Blackman & Vigna), seeded through SplitMix64 as its authors advise.
class Random
{
public:
    explicit Random(std::uint64_t seed)
    {
        for (std::uint64_t &word : m_state)
            word = splitMix64(seed);
    }

    std::uint64_t next()
    {
        const std::uint64_t result = rotate(m_state[1] * 5, 7) * 9;
        const std::uint64_t t = m_state[1] << 17;
        m_state[2] ^= m_state[0];
        m_state[3] ^= m_state[1];
        m_state[1] ^= m_state[2];
        m_state[0] ^= m_state[3];
        m_state[2] ^= t;
        m_state[3] = rotate(m_state[3], 45);
        return result;
    }

    /// Uniform in the open interval (0, 1).
    double uniform() { return (double(next() >> 11) + 0.5) * 0x1p-53; }

    /// Standard normal by Box-Muller; the second value of each pair is kept for the next call.
    double normal()
    {
        if (m_hasSpare) {
            m_hasSpare = false;
            return m_spare;
        }
        const double radius = std::sqrt(-2.0 * std::log(uniform()));
        const double angle = 2.0 * std::numbers::pi * uniform();
        m_spare = radius * std::sin(angle);
        m_hasSpare = true;
        return radius * std::cos(angle);
    }

    /// Standard Laplace (scale 1, std sqrt(2)) by inverting its CDF.
    double laplace()
    {
        const double u = uniform() - 0.5;
        return -std::copysign(std::log(1.0 - 2.0 * std::fabs(u)), u);
    }

    /// Student-t with `degrees` degrees of freedom by Bailey's polar method (1994).
    double studentT(int degrees)
    {
        for (;;) {
            const double u = 2.0 * uniform() - 1.0;
            const double v = 2.0 * uniform() - 1.0;
            const double w = u * u + v * v;
            if (w >= 1.0 || w == 0.0)
                continue;
            return u * std::sqrt(degrees * (std::pow(w, -2.0 / degrees) - 1.0) / w);
        }
    }

private:
    static std::uint64_t rotate(std::uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

    std::array<std::uint64_t, 4> m_state{};
    double m_spare = 0;
    bool m_hasSpare = false;
};

std::uint64_t rowSeed(std::uint64_t seed, std::int64_t row)
{
    std::uint64_t state = seed ^ (std::uint64_t(row) * 0xD1B54A32D192ED03ull);
    return splitMix64(state);
}

constexpr EnumSpelling<SyntheticKind> kindSpellings[] = {
    {SyntheticKind::Gaussian, "gaussian"},
    {SyntheticKind::Laplace, "laplace"},
    {SyntheticKind::StudentT, "student-t"},
    {SyntheticKind::Outliers, "outliers"},
};

} // namespace

double SyntheticSpec::effectiveStd() const
{
    if (standardDeviation > 0)
        return standardDeviation;
    return kind == SyntheticKind::Outliers ? 1.0 : 0.02;
}

QString SyntheticSpec::origin() const
{
    return QStringLiteral("synthetic:") + syntheticKindName(kind);
}

QString syntheticKindName(SyntheticKind kind)
{
    return enumName(kindSpellings, kind);
}

QStringList syntheticKindChoices()
{
    return enumChoices(kindSpellings);
}

SyntheticKind parseSyntheticKind(const QString &text, const QString &option)
{
    // Ignoring case (by folding, as QString::compare does), but not blanks.
    if (const auto kind = enumValue(kindSpellings, text.toCaseFolded()))
        return *kind;
    throw Error(QStringLiteral("%1: unknown synthetic kind '%2' (choose from %3)")
                    .arg(option, text, syntheticKindChoices().join(QStringLiteral(", "))));
}

void validate(const SyntheticSpec &spec)
{
    const auto checkDimension = [](std::int64_t value, CommandOption option) {
        if (value < 1 || value > MaxSyntheticDimension)
            throw Error(QStringLiteral("%1: %2 is outside 1..%3")
                            .arg(commandFlag(option))
                            .arg(value)
                            .arg(MaxSyntheticDimension));
    };
    checkDimension(spec.rows, CommandOption::Rows);
    checkDimension(spec.cols, CommandOption::Cols);
    const QString problem = standardDeviationProblem(spec.standardDeviation);
    if (!problem.isEmpty())
        throw Error(QStringLiteral("%1: %2 %3")
                        .arg(commandFlag(CommandOption::Std))
                        .arg(spec.standardDeviation)
                        .arg(problem));
    if (!(spec.channelScale >= 0) || !std::isfinite(spec.channelScale))
        throw Error(QStringLiteral("channel scale: %1 is not a positive multiplier").arg(spec.channelScale));
}

QString standardDeviationProblem(double deviation)
{
    if (deviation == 0)
        return {};
    if (!(deviation > 0) || !std::isfinite(deviation))
        return QStringLiteral("is not a positive standard deviation");
    if (deviation < SmallestSyntheticStd)
        return QStringLiteral("is below 2^-126 (%1), float32's smallest normal value: the samples would be "
                              "zero or subnormal")
            .arg(SmallestSyntheticStd, 0, 'g', 3);
    if (deviation > LargestSyntheticStd)
        return QStringLiteral("is above 2^108 (%1): the largest samples would overflow float32")
            .arg(LargestSyntheticStd, 0, 'g', 3);
    return {};
}

QList<OutlierChannel> outlierChannels(const SyntheticSpec &spec)
{
    static constexpr double activationMultipliers[] = {20.0, 45.0, 70.0, 100.0};
    static constexpr double channelShares[] = {0.25, 0.5, 0.75, 1.0};
    QList<OutlierChannel> channels;
    if (spec.channelScale == 0 && spec.kind != SyntheticKind::Outliers)
        return channels;
    const auto multiplier = [&](qsizetype i) {
        return spec.channelScale > 0 ? spec.channelScale * channelShares[i] : activationMultipliers[i];
    };
    const QList<std::int64_t> columns = pickColumns(spec.seed, spec.cols, 4);
    for (qsizetype i = 0; i < columns.size(); ++i)
        channels << OutlierChannel{columns.at(i), multiplier(i)};
    return channels;
}

QList<std::int64_t> pickColumns(std::uint64_t seed, std::int64_t cols, std::int64_t count)
{
    QList<std::int64_t> columns;
    std::uint64_t state = seed ^ 0x6F75746C69657273ull; // "outliers"
    const std::int64_t wanted = std::min(count, cols);
    while (columns.size() < wanted) {
        const std::int64_t column = std::int64_t(splitMix64(state) % std::uint64_t(cols));
        if (!columns.contains(column))
            columns << column;
    }
    return columns;
}

TensorData generateSynthetic(const SyntheticSpec &spec, const RunControl &control)
{
    validate(spec);
    const double deviation = spec.effectiveStd();
    std::vector<float> values(size_t(spec.rows * spec.cols));
    // Every kind draws unit-scale values, then multiplies by its column's scale.
    std::vector<double> columnScale(size_t(spec.cols), 1.0);
    for (const OutlierChannel &channel : outlierChannels(spec))
        columnScale[size_t(channel.column)] = channel.multiplier;

    const double laplaceScale = deviation / std::numbers::sqrt2;
    const double studentScale = deviation / std::sqrt(double(StudentDegrees) / (StudentDegrees - 2));
    const auto fillRow = [&](Random &random, float *out) {
        switch (spec.kind) {
        case SyntheticKind::Gaussian:
        case SyntheticKind::Outliers:
            for (std::int64_t col = 0; col < spec.cols; ++col)
                out[col] = float(columnScale[size_t(col)] * deviation * random.normal());
            break;
        case SyntheticKind::Laplace:
            for (std::int64_t col = 0; col < spec.cols; ++col)
                out[col] = float(columnScale[size_t(col)] * laplaceScale * random.laplace());
            break;
        case SyntheticKind::StudentT:
            for (std::int64_t col = 0; col < spec.cols; ++col)
                out[col] = float(columnScale[size_t(col)] * studentScale * random.studentT(StudentDegrees));
            break;
        }
        if (spec.storedAs == ElementType::BFloat16)
            for (std::int64_t col = 0; col < spec.cols; ++col)
                out[col] = roundToBf16(out[col]);
        else if (spec.storedAs == ElementType::Float16)
            for (std::int64_t col = 0; col < spec.cols; ++col)
                out[col] = roundToFp16(out[col]);
    };
    constexpr std::int64_t rowsPerChunk = 16;
    const std::int64_t chunks = (spec.rows + rowsPerChunk - 1) / rowsPerChunk;
    parallelChunks(
        chunks, workerCount(chunks),
        [&](std::int64_t chunk, int) {
            const std::int64_t end = std::min(spec.rows, (chunk + 1) * rowsPerChunk);
            for (std::int64_t row = chunk * rowsPerChunk; row < end; ++row) {
                Random random(rowSeed(spec.seed, row));
                fillRow(random, values.data() + row * spec.cols);
            }
        },
        control);
    return TensorData::fromFloats(std::move(values), spec.rows, spec.cols, spec.origin(),
                                  QStringLiteral("seed %1, std %2").arg(spec.seed).arg(deviation));
}

} // namespace kvscope::quant
