// SPDX-License-Identifier: MIT
// The dense kernels built for avx512 (the instruction set comes from
// core/quantization/CMakeLists.txt).
#define Eigen Eigen_avx512
#define KVSCOPE_DENSE_BUILD kernelsAvx512
#define KVSCOPE_DENSE_ISA "avx512"
#include "core/quantization/densekernels.inc"
