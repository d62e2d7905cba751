// SPDX-License-Identifier: MIT
#include "core/quantization/denselinalg.h"

#include "core/common/error.h"

#include <algorithm>

namespace kvscope::quant::dense {

namespace {

/// Rows of an output panel: large enough that a kernel runs near its peak,
/// small enough that two threads share the work evenly.
constexpr std::int64_t PanelRows = 128;
/// Columns factored at once by choleskyLower.
constexpr std::int64_t CholeskyBlock = 256;

std::int64_t panelCount(std::int64_t rows)
{
    return (rows + PanelRows - 1) / PanelRows;
}

/// Runs work(firstRow, rowCount) over panels of `rows` rows in parallel.
template <typename Work> void forEachPanel(std::int64_t rows, const RunControl &control, Work work)
{
    const std::int64_t panels = panelCount(rows);
    parallelChunks(
        panels, workerCount(panels),
        [&](std::int64_t panel, int) {
            const std::int64_t first = panel * PanelRows;
            work(first, std::min(PanelRows, rows - first));
        },
        control);
}

/// Eigen's loops read what these shapes say they may: every entry point
/// checks the shapes it hands over (a mismatch is a defect, not a user error),
/// so that a wrong one fails there rather than as a read outside a buffer.
void requireLayout(const ConstMatrixRef &m)
{
    if (m.rows < 0 || m.cols < 0 || (m.rows > 1 && m.stride < m.cols) ||
        (m.rows > 0 && m.cols > 0 && !m.data))
        throw Error(QStringLiteral("internal: a dense matrix [%1, %2] with stride %3")
                        .arg(m.rows)
                        .arg(m.cols)
                        .arg(m.stride));
}

void requireShapes(bool agree, const char *operation)
{
    if (!agree)
        throw Error(
            QStringLiteral("internal: %1 of matrices whose shapes disagree").arg(QLatin1String(operation)));
}

void requireProduct(const Operand &a, const Operand &b, const MatrixRef &c)
{
    for (const ConstMatrixRef &m : {a.matrix, b.matrix, ConstMatrixRef(c)})
        requireLayout(m);
    requireShapes(a.cols() == b.rows() && c.rows == a.rows() && c.cols == b.cols(), "a product");
}

} // namespace

void multiplyHere(Operand a, Operand b, MatrixRef c, float alpha, float beta)
{
    requireProduct(a, b, c);
    denseKernels().multiply(a, b, c, alpha, beta);
}

void multiply(Operand a, Operand b, MatrixRef c, float alpha, float beta, const RunControl &control)
{
    requireProduct(a, b, c);
    const Kernels &kernels = denseKernels();
    forEachPanel(c.rows, control, [&](std::int64_t first, std::int64_t count) {
        kernels.multiply(a.rowRange(first, count), b, c.block(first, 0, count, c.cols), alpha, beta);
    });
}

void gram(ConstMatrixRef x, MatrixRef g, float scale, const RunControl &control)
{
    requireLayout(x);
    requireLayout(g);
    requireShapes(g.rows == x.cols && g.cols == x.cols, "a Gram matrix");
    const Kernels &kernels = denseKernels();
    const Operand transposed{x, true};
    // Panel [first, first + count) of rows: columns [0, first + count), the lower part.
    forEachPanel(x.cols, control, [&](std::int64_t first, std::int64_t count) {
        const std::int64_t width = first + count;
        kernels.multiply(transposed.rowRange(first, count), Operand{x.block(0, 0, x.rows, width), false},
                         g.block(first, 0, count, width), scale, 0.0f);
    });
}

bool choleskyLower(MatrixRef a, const RunControl &control)
{
    requireLayout(a);
    requireShapes(a.rows == a.cols, "a Cholesky factorization");
    const Kernels &kernels = denseKernels();
    const std::int64_t n = a.rows;
    for (std::int64_t k = 0; k < n; k += CholeskyBlock) {
        const std::int64_t width = std::min(CholeskyBlock, n - k);
        const MatrixRef diagonal = a.block(k, k, width, width);
        if (!kernels.factorBlock(diagonal))
            return false;
        const std::int64_t below = k + width;
        if (below == n)
            break;
        const MatrixRef panel = a.block(below, k, n - below, width);
        forEachPanel(panel.rows, control, [&](std::int64_t first, std::int64_t count) {
            kernels.solvePanel(diagonal, panel.block(first, 0, count, width));
        });
        // Trailing lower triangle minus panel * panel^T: panel rows [first, first + count)
        // touch columns up to their own last row only.
        forEachPanel(panel.rows, control, [&](std::int64_t first, std::int64_t count) {
            const std::int64_t extent = first + count;
            kernels.multiply(Operand{panel.block(first, 0, count, width), false},
                             Operand{panel.block(0, 0, extent, width), true},
                             a.block(below + first, below, count, extent), -1.0f, 1.0f);
        });
    }
    return true;
}

void invertLower(ConstMatrixRef l, MatrixRef out, const RunControl &control)
{
    requireLayout(l);
    requireLayout(out);
    requireShapes(l.rows == l.cols && out.rows == l.rows && out.cols == l.cols, "a triangular inverse");
    const Kernels &kernels = denseKernels();
    const std::int64_t n = l.rows;
    // Columns [first, first + count) of the inverse solve l X = I there; rows above `first` are 0.
    const std::int64_t panels = panelCount(n);
    parallelChunks(
        panels, workerCount(panels),
        [&](std::int64_t panel, int) {
            const std::int64_t first = panel * PanelRows;
            const std::int64_t count = std::min(PanelRows, n - first);
            // Rows above the panel (the inverse's upper triangle) are not written.
            for (std::int64_t r = first; r < n; ++r)
                for (std::int64_t c = first; c < first + count; ++c)
                    out.data[r * out.stride + c] = r == c ? 1.0f : 0.0f;
            kernels.solveLower(l.block(first, first, n - first, n - first),
                               out.block(first, first, n - first, count));
        },
        control);
}

const Kernels &denseKernels()
{
    static const Kernels chosen = [] {
#if defined(KVSCOPE_DENSE_X86_VARIANTS)
        __builtin_cpu_init();
        if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512dq") &&
            __builtin_cpu_supports("avx512vl") && __builtin_cpu_supports("avx512bw") &&
            __builtin_cpu_supports("fma"))
            return kernelsAvx512();
        if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma"))
            return kernelsAvx2();
#endif
        return kernelsBaseline();
    }();
    return chosen;
}

} // namespace kvscope::quant::dense
