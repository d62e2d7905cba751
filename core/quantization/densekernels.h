// SPDX-License-Identifier: MIT
// The dense float32 linear algebra under AWQ and GPTQ (core/quantization/
// denselinalg.h runs it on several threads): one table of single-threaded
// kernels, built with Eigen 3 for AVX-512, for AVX2 + FMA and for baseline
// x86-64 (elsewhere: baseline only); denseKernels() picks the one the CPU runs.
// Internal to core/quant; no Eigen type crosses this header.
#pragma once

#include <cstdint>

namespace kvscope::quant::dense {

/// A row-major float32 matrix: element (r, c) at data[r * stride + c].
struct MatrixRef
{
    float *data = nullptr;
    std::int64_t rows = 0;
    std::int64_t cols = 0;
    std::int64_t stride = 0;

    /// Rows [row, row + rowCount) and columns [col, col + colCount).
    MatrixRef block(std::int64_t row, std::int64_t col, std::int64_t rowCount, std::int64_t colCount) const
    {
        return {data + row * stride + col, rowCount, colCount, stride};
    }
};

struct ConstMatrixRef
{
    const float *data = nullptr;
    std::int64_t rows = 0;
    std::int64_t cols = 0;
    std::int64_t stride = 0;

    ConstMatrixRef() = default;
    ConstMatrixRef(const float *d, std::int64_t r, std::int64_t c, std::int64_t s)
        : data(d), rows(r), cols(c), stride(s)
    {}
    ConstMatrixRef(const MatrixRef &m) : data(m.data), rows(m.rows), cols(m.cols), stride(m.stride) {}

    ConstMatrixRef block(std::int64_t row, std::int64_t col, std::int64_t rowCount,
                         std::int64_t colCount) const
    {
        return {data + row * stride + col, rowCount, colCount, stride};
    }
};

/// An operand as used: the matrix itself or its transpose.
struct Operand
{
    ConstMatrixRef matrix;
    bool transposed = false;

    std::int64_t rows() const { return transposed ? matrix.cols : matrix.rows; }
    std::int64_t cols() const { return transposed ? matrix.rows : matrix.cols; }
    /// Rows [row, row + count) of the operand as used.
    Operand rowRange(std::int64_t row, std::int64_t count) const
    {
        return {transposed ? matrix.block(0, row, matrix.rows, count)
                           : matrix.block(row, 0, count, matrix.cols),
                transposed};
    }
    /// Columns [col, col + count) of the operand as used.
    Operand colRange(std::int64_t col, std::int64_t count) const
    {
        return {transposed ? matrix.block(col, 0, count, matrix.cols)
                           : matrix.block(0, col, matrix.rows, count),
                transposed};
    }
};

/// One build of the kernels.
struct Kernels
{
    const char *isa; ///< "avx512", "avx2", "baseline"
    /// c = beta * c + alpha * a * b (shapes checked by the caller).
    void (*multiply)(Operand a, Operand b, MatrixRef c, float alpha, float beta);
    /// The lower Cholesky factor of the symmetric block `a` (lower triangle read), written over
    /// its lower triangle; false when `a` is not positive definite.
    bool (*factorBlock)(MatrixRef a);
    /// b = b * inverse(transpose(l)), l lower triangular: the panel under a Cholesky block.
    void (*solvePanel)(ConstMatrixRef l, MatrixRef b);
    /// b = inverse(l) * b, l lower triangular.
    void (*solveLower)(ConstMatrixRef l, MatrixRef b);
};

Kernels kernelsBaseline();
Kernels kernelsAvx2();   ///< x86-64 builds only
Kernels kernelsAvx512(); ///< x86-64 builds only

/// The fastest build this CPU runs.
const Kernels &denseKernels();

} // namespace kvscope::quant::dense
