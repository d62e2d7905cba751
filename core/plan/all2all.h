// SPDX-License-Identifier: MIT
// vLLM's all-to-all backends (--all2all-backend): how data-parallel ranks exchange a MoE's tokens
// under expert parallelism, and the buffers the chosen one keeps on every GPU. vLLM allocates them
// in prepare_communication_buffer_for_model, after "Model loading took" is measured and before the
// profiling run; DeepEP takes them with cudaMalloc, outside PyTorch's allocator, so the profiling
// counts them in the memory outside PyTorch and the KV cache gives them up.
#pragma once

#include "core/scenario/scenario.h"

#include <cstdint>

namespace kvscope {

/// DeepEP's NVLink buffer: VLLM_DEEPEP_BUFFER_SIZE_MB's default, 1,024 MiB (vllm/envs.py; the
/// high-throughput manager's num_nvl_bytes, vllm/distributed/device_communicators/all2all.py).
inline constexpr std::int64_t DeepepNvlBufferBytes = 1024LL * 1024 * 1024;
/// The barrier signals and peer pointers DeepEP allocates after it: LEGACY_NUM_MAX_NVL_PEERS (8) ints,
/// pointers and pointers again (Buffer's constructor, csrc/legacy/buffer.hpp).
inline constexpr std::int64_t DeepepNvlTailBytes = 8 * 4 + 8 * 8 + 8 * 8;
/// DeepEP's workspace (LEGACY_NUM_WORKSPACE_BYTES, csrc/kernels/legacy/compiled.cuh).
inline constexpr std::int64_t DeepepWorkspaceBytes = 32LL * 1024 * 1024;
/// The GPUs DeepEP's NVLink buffers reach (LEGACY_NUM_MAX_NVL_PEERS): past them the EP group spans
/// nodes, and DeepEP adds an RDMA buffer in NVSHMEM's heap.
inline constexpr int DeepepNvlPeers = 8;

/// Whether vLLM runs a MoE's all-to-all kernels: data-parallel ranks with expert parallelism
/// (FusedMoEParallelConfig.use_all2all_kernels: dp_size > 1 and use_ep). Otherwise
/// --all2all-backend changes nothing.
bool usesAll2AllKernels(const Scenario &s);

/// The bytes the scenario's all-to-all backend keeps on every GPU: DeepEP's high-throughput
/// NVLink buffer, its tail and its workspace; 0 for vLLM's default and the naive backend, and
/// where no all-to-all kernels run.
std::int64_t all2allBufferBytes(const Scenario &s);

/// What kvscope plans of --all2all-backend: vLLM's; under its all-to-all kernels the default, naive,
/// or DeepEP's high-throughput kernels on NVIDIA GPUs within one node (at most 8 EP GPUs); the
/// backends whose buffers kvscope does not size are refused by name. Throws kvscope::Error.
void validateAll2AllBackend(const Scenario &s);

} // namespace kvscope
