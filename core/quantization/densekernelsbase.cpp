// SPDX-License-Identifier: MIT
// The dense kernels built for baseline (the instruction set comes from
// core/quantization/CMakeLists.txt).
#define Eigen Eigen_baseline
#define KVSCOPE_DENSE_BUILD kernelsBaseline
#define KVSCOPE_DENSE_ISA "baseline"
#include "core/quantization/densekernels.inc"
