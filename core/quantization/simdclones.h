// SPDX-License-Identifier: MIT
#pragma once

/// Builds a function for AVX-512, AVX2 and baseline x86-64; the loader picks
/// the best one the CPU runs (GCC function multi-versioning). Elsewhere the
/// function is built once for the target.
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__) && defined(__linux__)
#define KVSCOPE_SIMD_CLONES __attribute__((target_clones("arch=x86-64-v4", "arch=x86-64-v3", "default")))
#else
#define KVSCOPE_SIMD_CLONES
#endif

/// Helpers of a cloned function must be inlined to get its instruction set.
#define KVSCOPE_INLINE inline __attribute__((always_inline))
