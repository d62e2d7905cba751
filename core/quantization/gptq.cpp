// SPDX-License-Identifier: MIT
#include "core/quantization/gptq.h"

#include "core/common/error.h"
#include "core/quantization/denselinalg.h"
#include "core/quantization/quantizers.h"
#include "core/quantization/simdclones.h"

#include <algorithm>
#include <memory>

namespace kvscope::quant {

namespace {

/// Output rows one worker quantizes through all columns: rows are independent
/// in GPTQ (they share H only), so chunks of rows run in parallel.
constexpr std::int64_t RowsPerChunk = 256;

/// U = cholesky(H^-1, upper), row-major [n, n] (upper part; below is 0), from
/// the calibration activations: H = 2 X^T X / n, dead columns, dampening.
std::unique_ptr<float[]> inverseHessianFactor(dense::ConstMatrixRef calibration, std::vector<bool> &dead,
                                              const RunControl &control)
{
    const std::int64_t n = calibration.cols;
    // X with its columns reversed, so that its Gram matrix is H reversed.
    std::unique_ptr<float[]> reversed(new float[size_t(calibration.rows * n)]);
    for (std::int64_t r = 0; r < calibration.rows; ++r) {
        const float *from = calibration.data + r * calibration.stride;
        std::reverse_copy(from, from + n, reversed.get() + r * n);
    }
    // Not zeroed (a 64 MiB memset and its page faults cost more than the Cholesky
    // factorization): gram() writes the lower triangle, and nothing reads the upper one.
    std::unique_ptr<float[]> h(new float[size_t(n * n)]);
    const dense::MatrixRef hessian{h.get(), n, n, n};
    // H = 2 X^T X / nsamples (add_batch accumulates exactly that).
    dense::gram({reversed.get(), calibration.rows, n, n}, hessian, 2.0f / float(calibration.rows),
                control.slice(0.0, 0.5));
    reversed.reset();

    double diagonalSum = 0;
    dead.assign(size_t(n), false);
    for (std::int64_t i = 0; i < n; ++i) {
        float &d = h[size_t(i * n + i)];
        if (d == 0.0f) { // a column no activation reaches: H_ii = 1, its weights zeroed
            d = 1.0f;
            dead[size_t(n - 1 - i)] = true;
        }
        diagonalSum += d;
    }
    const auto damp = float(GptqDampening * diagonalSum / double(n));
    for (std::int64_t i = 0; i < n; ++i)
        h[size_t(i * n + i)] += damp;
    if (!dense::choleskyLower(hessian, control.slice(0.5, 0.75)))
        throw Error(
            QStringLiteral("GPTQ: the Hessian 2 X^T X / n of the calibration activations is not positive "
                           "definite even after dampening by %1 x its mean diagonal")
                .arg(GptqDampening));
    const std::unique_ptr<float[]> inverse(new float[size_t(n * n)]);
    dense::invertLower(hessian, {inverse.get(), n, n, n}, control.slice(0.75, 1.0));
    // U = J L^-1 J: U_ij = (L^-1)_{n-1-i, n-1-j}, upper where L^-1 is lower (only
    // the upper triangle of U is read).
    std::unique_ptr<float[]> u = std::move(h); // the factor is spent: its buffer takes U
    for (std::int64_t i = 0; i < n; ++i)
        std::reverse_copy(inverse.get() + (n - 1 - i) * n, inverse.get() + (n - i) * n, u.get() + i * n);
    return u;
}

/// target -= error * coefficient over `count` rows: the update of one later
/// column of the block, most of the column loop's time.
KVSCOPE_SIMD_CLONES
void subtractScaled(float *target, const float *error, float coefficient, std::int64_t count)
{
    for (std::int64_t r = 0; r < count; ++r)
        target[r] -= error[r] * coefficient;
}

/// GPTQ's column loop (fasterquant) over `rows` output rows, row-major,
/// replaced in place by the quantized weights.
std::int64_t quantizeRows(dense::MatrixRef rows, const float *u, const Scheme &scheme)
{
    const std::int64_t n = rows.cols;
    const std::int64_t count = rows.rows;
    const IntRule rule = intRule(scheme);
    const std::int64_t group = scheme.groupSize == WholeRow ? n : scheme.groupSize;
    std::vector<IntGrid> grids(static_cast<size_t>(count));
    // The block transposed (W1: column k of the block is a contiguous run of
    // `count`), as it stood at the block's start (W), and its errors (Err1).
    std::vector<float> block(size_t(GptqBlockSize * count));
    std::vector<float> start(block.size());
    std::vector<float> errors(block.size());
    std::int64_t clipped = 0;

    // find_params(W[:, j:j + groupsize]): the reference reads W, whose columns in
    // the current block are as they stood when the block began.
    const auto findGrids = [&](std::int64_t first, std::int64_t blockFirst, std::int64_t blockEnd) {
        const std::int64_t end = std::min(first + group, n);
        for (std::int64_t r = 0; r < count; ++r) {
            float lo = 0;
            float hi = 0;
            for (std::int64_t c = first; c < end; ++c) {
                const float v = c < blockEnd ? start[size_t((c - blockFirst) * count + r)]
                                             : rows.data[r * rows.stride + c];
                lo = c == first ? v : std::min(lo, v);
                hi = c == first ? v : std::max(hi, v);
            }
            grids[size_t(r)] = intGrid(rule, scheme.bits, lo, hi);
        }
    };

    for (std::int64_t first = 0; first < n; first += GptqBlockSize) {
        const std::int64_t width = std::min(GptqBlockSize, n - first);
        const std::int64_t end = first + width;
        for (std::int64_t k = 0; k < width; ++k)
            for (std::int64_t r = 0; r < count; ++r)
                block[size_t(k * count + r)] = rows.data[r * rows.stride + first + k];
        std::copy(block.begin(), block.begin() + width * count, start.begin());

        for (std::int64_t k = 0; k < width; ++k) {
            const std::int64_t j = first + k;
            if (j % group == 0)
                findGrids(j, first, end);
            float *column = block.data() + k * count;
            float *error = errors.data() + k * count;
            const float diagonal = u[j * n + j];
            for (std::int64_t r = 0; r < count; ++r) {
                bool wasClipped = false;
                const float q = dequantizeInt(column[r], grids[size_t(r)], wasClipped);
                clipped += wasClipped ? 1 : 0;
                error[r] = (column[r] - q) / diagonal;
                column[r] = q;
            }
            // W1[:, i:] -= err1 Hinv1[i, i:] within the block.
            for (std::int64_t later = k + 1; later < width; ++later)
                subtractScaled(block.data() + later * count, error, u[j * n + first + later], count);
        }
        for (std::int64_t k = 0; k < width; ++k)
            for (std::int64_t r = 0; r < count; ++r)
                rows.data[r * rows.stride + first + k] = block[size_t(k * count + r)];
        // The lazy batch update: W[:, i2:] -= Err1 Hinv[i1:i2, i2:].
        if (end < n)
            dense::multiplyHere({{errors.data(), width, count, count}, true},
                                {{u + first * n + end, width, n - end, n}, false},
                                rows.block(0, end, count, n - end), -1.0f, 1.0f);
    }
    return clipped;
}

} // namespace

FittedWeights gptqQuantize(dense::ConstMatrixRef weights, dense::ConstMatrixRef calibration,
                           const Scheme &scheme, const RunControl &control)
{
    const std::int64_t n = weights.cols;
    std::vector<bool> dead;
    const std::unique_ptr<float[]> u = inverseHessianFactor(calibration, dead, control.slice(0.0, 0.5));

    FittedWeights fitted;
    fitted.values.reserve(size_t(weights.rows * n));
    for (std::int64_t r = 0; r < weights.rows; ++r) {
        const float *row = weights.data + r * weights.stride;
        fitted.values.insert(fitted.values.end(), row, row + n);
    }
    for (std::int64_t c = 0; c < n; ++c)
        if (dead[size_t(c)])
            for (std::int64_t r = 0; r < weights.rows; ++r)
                fitted.values[size_t(r * n + c)] = 0.0f;

    const std::int64_t chunks = (weights.rows + RowsPerChunk - 1) / RowsPerChunk;
    std::vector<std::int64_t> clipped(size_t(chunks), 0);
    const dense::MatrixRef all{fitted.values.data(), weights.rows, n, n};
    parallelChunks(
        chunks, workerCount(chunks),
        [&](std::int64_t chunk, int) {
            const std::int64_t first = chunk * RowsPerChunk;
            const std::int64_t count = std::min(RowsPerChunk, weights.rows - first);
            clipped[size_t(chunk)] = quantizeRows(all.block(first, 0, count, n), u.get(), scheme);
        },
        control.slice(0.5, 1.0));
    for (std::int64_t c : clipped)
        fitted.clipped += c;
    return fitted;
}

} // namespace kvscope::quant
