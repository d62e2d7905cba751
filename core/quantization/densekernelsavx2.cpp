// SPDX-License-Identifier: MIT
// The dense kernels built for avx2 (the instruction set comes from
// core/quantization/CMakeLists.txt).
#define Eigen Eigen_avx2
#define KVSCOPE_DENSE_BUILD kernelsAvx2
#define KVSCOPE_DENSE_ISA "avx2"
#include "core/quantization/densekernels.inc"
