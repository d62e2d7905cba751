// SPDX-License-Identifier: MIT
#include "core/quantization/awq.h"

#include "core/quantization/denselinalg.h"
#include "core/quantization/kernels.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace kvscope::quant {

namespace {

constexpr std::int64_t RowsPerChunk = 64;

/// `count` rows of `m` evenly spaced over all of them (all when it has no more).
std::vector<float> sampleRows(dense::ConstMatrixRef m, std::int64_t count, std::int64_t &taken)
{
    taken = std::min(count, m.rows);
    std::vector<float> rows(size_t(taken * m.cols));
    for (std::int64_t i = 0; i < taken; ++i) {
        const float *from = m.data + (i * m.rows / taken) * m.stride;
        std::copy(from, from + m.cols, rows.begin() + i * m.cols);
    }
    return rows;
}

double sumSquares(const std::vector<float> &values)
{
    double sum = 0;
    for (float v : values)
        sum += double(v) * double(v);
    return sum;
}

} // namespace

std::vector<double> channelMeanMagnitudes(dense::ConstMatrixRef activations)
{
    std::vector<double> sums(size_t(activations.cols), 0.0);
    for (std::int64_t r = 0; r < activations.rows; ++r) {
        const float *row = activations.data + r * activations.stride;
        for (std::int64_t c = 0; c < activations.cols; ++c)
            sums[size_t(c)] += std::fabs(double(row[c]));
    }
    for (double &sum : sums)
        sum /= double(std::max<std::int64_t>(activations.rows, 1));
    return sums;
}

std::vector<float> awqScales(const std::vector<double> &meanMagnitudes, double alpha)
{
    std::vector<float> scales(meanMagnitudes.size());
    float largest = 0;
    float smallest = std::numeric_limits<float>::max();
    for (size_t c = 0; c < scales.size(); ++c) {
        scales[c] = std::max(float(std::pow(meanMagnitudes[c], alpha)), 1e-4f);
        largest = std::max(largest, scales[c]);
        smallest = std::min(smallest, scales[c]);
    }
    const float norm = std::sqrt(largest * smallest);
    for (float &s : scales)
        s /= norm;
    return scales;
}

std::int64_t awqFoldBack(dense::ConstMatrixRef weights, const std::vector<float> &scales,
                         const Scheme &scheme, dense::MatrixRef out)
{
    const std::vector<std::int32_t> lengths = rowGroupLengths(scheme, weights.cols);
    std::vector<float> scaled(size_t(weights.cols));
    std::int64_t clipped = 0;
    for (std::int64_t r = 0; r < weights.rows; ++r) {
        const float *w = weights.data + r * weights.stride;
        float *y = out.data + r * out.stride;
        for (std::int64_t c = 0; c < weights.cols; ++c)
            scaled[size_t(c)] = w[c] * scales[size_t(c)];
        clipped += kernels::dequantizeIntUnits(scaled.data(), lengths.data(), std::int64_t(lengths.size()),
                                               intRule(scheme), scheme.bits, y);
        for (std::int64_t c = 0; c < weights.cols; ++c)
            y[c] /= scales[size_t(c)];
    }
    return clipped;
}

FittedWeights awqQuantize(dense::ConstMatrixRef weights, dense::ConstMatrixRef calibration,
                          const Scheme &scheme, const RunControl &control)
{
    const std::vector<double> magnitudes = channelMeanMagnitudes(calibration);

    // The subsample the search scores on, and its exact output Y = X W^T.
    std::int64_t tokens = 0;
    std::int64_t outputs = 0;
    const std::vector<float> x = sampleRows(calibration, AwqSearchTokens, tokens);
    const std::vector<float> w = sampleRows(weights, AwqSearchOutputs, outputs);
    const dense::ConstMatrixRef sampleX(x.data(), tokens, calibration.cols, calibration.cols);
    const dense::ConstMatrixRef sampleW(w.data(), outputs, weights.cols, weights.cols);
    std::vector<float> folded(w.size());
    std::vector<float> outputError(size_t(tokens * outputs));
    const dense::MatrixRef foldedRef{folded.data(), outputs, weights.cols, weights.cols};
    const dense::MatrixRef errorRef{outputError.data(), tokens, outputs, outputs};

    double bestAlpha = 0;
    double bestError = std::numeric_limits<double>::infinity();
    for (int point = 0; point < AwqGridPoints; ++point) {
        const double alpha = double(point) / AwqGridPoints;
        awqFoldBack(sampleW, awqScales(magnitudes, alpha), scheme, foldedRef);
        for (size_t i = 0; i < folded.size(); ++i)
            folded[i] = w[i] - folded[i];
        // X (W - W')^T: the output error, without the cancellation of Y - Y'.
        dense::multiply(
            {sampleX, false}, {foldedRef, true}, errorRef, 1.0f, 0.0f,
            control.slice(double(point) / (AwqGridPoints + 1), double(point + 1) / (AwqGridPoints + 1)));
        const double error = sumSquares(outputError);
        if (error < bestError) {
            bestError = error;
            bestAlpha = alpha;
        }
    }

    FittedWeights fitted;
    fitted.awqAlpha = bestAlpha;
    fitted.values.resize(size_t(weights.rows * weights.cols));
    const std::vector<float> scales = awqScales(magnitudes, bestAlpha);
    const std::int64_t chunks = (weights.rows + RowsPerChunk - 1) / RowsPerChunk;
    std::vector<std::int64_t> clipped(size_t(chunks), 0);
    const dense::MatrixRef all{fitted.values.data(), weights.rows, weights.cols, weights.cols};
    parallelChunks(
        chunks, workerCount(chunks),
        [&](std::int64_t chunk, int) {
            const std::int64_t first = chunk * RowsPerChunk;
            const std::int64_t count = std::min(RowsPerChunk, weights.rows - first);
            clipped[size_t(chunk)] = awqFoldBack(weights.block(first, 0, count, weights.cols), scales, scheme,
                                                 all.block(first, 0, count, weights.cols));
        },
        control.slice(double(AwqGridPoints) / (AwqGridPoints + 1), 1.0));
    for (std::int64_t c : clipped)
        fitted.clipped += c;
    return fitted;
}

} // namespace kvscope::quant
