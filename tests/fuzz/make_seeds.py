#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Writes the named seeds under tests/fuzz/named/ (run from anywhere):
real config.json files from the presets, crafted safetensors files and small
GGUF files (format: ggml-org/ggml docs/gguf.md). Deterministic output."""
import json
import pathlib
import struct

here = pathlib.Path(__file__).resolve().parent
root = here.parents[1]
corpus = here / "named"


def write(target, name, data):
    path = corpus / target / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)


# config.json: every preset's published config, plus quantization_config shapes.
presets = json.loads((root / "resources/presets/models.json").read_text())
for model in presets["models"]:
    write("hfconfig", model["id"] + ".json", json.dumps(model["config"], indent=1).encode())
base = next(m for m in presets["models"] if m["id"] == "llama-3.1-8b")["config"]
quant_configs = {
    "awq": {"quant_method": "awq", "bits": 4, "group_size": 128, "zero_point": True, "version": "gemm"},
    "gptq": {"quant_method": "gptq", "bits": 4, "group_size": 128, "desc_act": False, "sym": True},
    "fp8-block": {"quant_method": "fp8", "activation_scheme": "dynamic", "weight_block_size": [128, 128]},
    "bnb-nf4": {"quant_method": "bitsandbytes", "load_in_4bit": True, "bnb_4bit_quant_type": "nf4",
                "bnb_4bit_use_double_quant": True},
    "compressed-tensors-w4a16": {"quant_method": "compressed-tensors", "format": "pack-quantized",
        "config_groups": {"group_0": {"targets": ["Linear"], "input_activations": None,
            "weights": {"num_bits": 4, "type": "int", "strategy": "group", "group_size": 128, "symmetric": False}}},
        "ignore": ["lm_head", "re:.*mlp.gate$"]},
}
# Shapes no preset has: a Qwen2-MoE shared expert with its gate, a nested llm_config.
write("hfconfig", "qwen1.5-moe-a2.7b.json", json.dumps({
    "architectures": ["Qwen2MoeForCausalLM"], "model_type": "qwen2_moe", "hidden_size": 2048,
    "intermediate_size": 5632, "num_hidden_layers": 24, "num_attention_heads": 16, "num_key_value_heads": 16,
    "num_experts": 60, "num_experts_per_tok": 4, "moe_intermediate_size": 1408,
    "shared_expert_intermediate_size": 5632, "decoder_sparse_step": 1, "vocab_size": 151936,
    "max_position_embeddings": 32768, "use_sliding_window": False, "sliding_window": 32768,
    "torch_dtype": "bfloat16"}, indent=1).encode())
write("hfconfig", "internvl-llm-config.json", json.dumps({
    "architectures": ["InternVLChatModel"], "model_type": "internvl_chat", "torch_dtype": "bfloat16",
    "llm_config": dict(base, num_hidden_layers=2)}, indent=1).encode())
for name, q in quant_configs.items():
    write("hfconfig", "llama-" + name + ".json", json.dumps(dict(base, quantization_config=q), indent=1).encode())


# safetensors: u64 LE header length, JSON header, data.
def safetensors(tensors, metadata=None):
    header, offset = {}, 0
    if metadata:
        header["__metadata__"] = metadata
    for name, dtype, shape, size in tensors:
        header[name] = {"dtype": dtype, "shape": shape, "data_offsets": [offset, offset + size]}
        offset += size
    blob = json.dumps(header, separators=(",", ":")).encode()
    return struct.pack("<Q", len(blob)) + blob + bytes(offset)


write("safetensors", "llama-layer.safetensors", safetensors([
    ("model.layers.0.self_attn.q_proj.weight", "BF16", [8, 8], 128),
    ("model.layers.0.self_attn.k_proj.weight", "BF16", [4, 8], 64),
    ("model.layers.0.input_layernorm.weight", "F32", [8], 32),
], {"format": "pt"}))
write("safetensors", "awq-packed.safetensors", safetensors([
    ("model.layers.0.mlp.down_proj.qweight", "I32", [16, 2], 128),
    ("model.layers.0.mlp.down_proj.qzeros", "I32", [1, 2], 8),
    ("model.layers.0.mlp.down_proj.scales", "F16", [1, 16], 32),
]))
write("safetensors", "fp8-scales.safetensors", safetensors([
    ("w", "F8_E4M3", [4, 4], 16), ("w_scale", "F32", [], 4), ("b", "BOOL", [3], 3), ("i", "I64", [1], 8),
]))
write("safetensors", "empty.safetensors", safetensors([]))


# GGUF v3: magic, u32 version, u64 tensor count, u64 kv count, kvs, tensor infos, padding, data.
def gstr(s):
    b = s.encode()
    return struct.pack("<Q", len(b)) + b


def kv_u32(k, v): return gstr(k) + struct.pack("<II", 4, v)
def kv_str(k, v): return gstr(k) + struct.pack("<I", 8) + gstr(v)
def kv_f32(k, v): return gstr(k) + struct.pack("<If", 6, v)
def kv_bool(k, v): return gstr(k) + struct.pack("<IB", 7, 1 if v else 0)
def kv_strs(k, items): return gstr(k) + struct.pack("<IIQ", 9, 8, len(items)) + b"".join(gstr(i) for i in items)
def kv_u32s(k, items): return gstr(k) + struct.pack("<IIQ", 9, 4, len(items)) + b"".join(struct.pack("<I", i) for i in items)


def gguf(kvs, tensors, alignment=32):
    infos, offset = b"", 0
    for name, shape, ggml_type, size in tensors:
        infos += gstr(name) + struct.pack("<I", len(shape)) + b"".join(struct.pack("<Q", d) for d in shape)
        infos += struct.pack("<IQ", ggml_type, offset)
        offset = (offset + size + alignment - 1) // alignment * alignment
    out = b"GGUF" + struct.pack("<IQQ", 3, len(tensors), len(kvs)) + b"".join(kvs) + infos
    out += bytes(-len(out) % alignment)
    return out + bytes(offset)


F32, F16, Q4_0, Q8_0, Q4_K, Q6_K = 0, 1, 2, 8, 12, 14
tokens = ["<s>", "</s>"] + ["t%d" % i for i in range(14)]
llama = [kv_str("general.architecture", "llama"), kv_str("general.name", "seed"), kv_u32("general.file_type", 7),
         kv_u32("general.alignment", 32), kv_u32("llama.block_count", 1), kv_u32("llama.context_length", 256),
         kv_u32("llama.embedding_length", 32), kv_u32("llama.feed_forward_length", 64),
         kv_u32("llama.attention.head_count", 2), kv_u32("llama.attention.head_count_kv", 1),
         kv_f32("llama.attention.layer_norm_rms_epsilon", 1e-5), kv_strs("tokenizer.ggml.tokens", tokens)]
layer = [("blk.0.attn_norm.weight", [32], F32, 128), ("blk.0.attn_q.weight", [32, 32], Q8_0, 32 * 34),
         ("blk.0.attn_k.weight", [32, 16], Q4_0, 16 * 18), ("blk.0.attn_v.weight", [32, 16], F16, 16 * 32 * 2),
         ("blk.0.attn_output.weight", [32, 32], Q8_0, 32 * 34), ("blk.0.ffn_norm.weight", [32], F32, 128),
         ("blk.0.ffn_gate.weight", [32, 64], Q8_0, 64 * 34), ("blk.0.ffn_up.weight", [32, 64], Q8_0, 64 * 34),
         ("blk.0.ffn_down.weight", [64, 32], Q8_0, 32 * 2 * 34)]
write("gguf", "llama-q8_0.gguf", gguf(llama, [("token_embd.weight", [32, 16], Q8_0, 16 * 34),
                                               ("output_norm.weight", [32], F32, 128)] + layer))
write("gguf", "q4_k-q6_k.gguf", gguf([kv_str("general.architecture", "qwen3"), kv_u32("qwen3.block_count", 1),
                                       kv_u32("qwen3.embedding_length", 256), kv_u32("qwen3.attention.head_count", 2),
                                       kv_u32("qwen3.attention.head_count_kv", 2), kv_u32("qwen3.attention.key_length", 128),
                                       kv_u32("qwen3.feed_forward_length", 256), kv_u32("qwen3.vocab_size", 2)],
                                      [("token_embd.weight", [256, 2], Q4_K, 288), ("output.weight", [256, 2], Q6_K, 420)]))
write("gguf", "gemma2-swa.gguf", gguf([kv_str("general.architecture", "gemma2"), kv_u32("gemma2.block_count", 4),
                                        kv_u32("gemma2.embedding_length", 64), kv_u32("gemma2.attention.head_count", 2),
                                        kv_u32("gemma2.attention.head_count_kv", 1), kv_u32("gemma2.attention.key_length", 32),
                                        kv_u32("gemma2.feed_forward_length", 128), kv_u32("gemma2.attention.sliding_window", 16),
                                        kv_u32("gemma2.context_length", 128), kv_u32("gemma2.vocab_size", 10)], []))
write("gguf", "moe-per-layer.gguf", gguf([kv_str("general.architecture", "gpt-oss"), kv_u32("gpt-oss.block_count", 2),
                                           kv_u32("gpt-oss.embedding_length", 64), kv_u32("gpt-oss.attention.head_count", 4),
                                           kv_u32s("gpt-oss.attention.head_count_kv", [2, 1]),
                                           kv_u32("gpt-oss.attention.sliding_window", 8), kv_u32("gpt-oss.expert_count", 4),
                                           kv_u32("gpt-oss.expert_used_count", 2), kv_u32("gpt-oss.feed_forward_length", 64),
                                           kv_u32("gpt-oss.expert_feed_forward_length", 64), kv_bool("x.flag", True),
                                           kv_u32("gpt-oss.vocab_size", 8)], []))
write("gguf", "deepseek2-mla.gguf", gguf([kv_str("general.architecture", "deepseek2"), kv_u32("deepseek2.block_count", 2),
                                           kv_u32("deepseek2.embedding_length", 64), kv_u32("deepseek2.attention.head_count", 2),
                                           kv_u32("deepseek2.attention.head_count_kv", 2), kv_u32("deepseek2.attention.kv_lora_rank", 32),
                                           kv_u32("deepseek2.attention.key_length", 48), kv_u32("deepseek2.attention.value_length", 32),
                                           kv_u32("deepseek2.rope.dimension_count", 16), kv_u32("deepseek2.feed_forward_length", 128),
                                           kv_u32("deepseek2.expert_count", 4), kv_u32("deepseek2.expert_used_count", 2),
                                           kv_u32("deepseek2.expert_shared_count", 1), kv_u32("deepseek2.leading_dense_block_count", 1),
                                           kv_u32("deepseek2.expert_feed_forward_length", 32), kv_u32("deepseek2.vocab_size", 8)], []))


# .npy (numpy/lib/format.py): magic, version, little-endian header length, a
# dict literal padded with spaces to a multiple of 64 bytes, then the data.
def npy(descr, shape, data, version=(1, 0), fortran=False, header=None):
    if header is None:
        dims = "".join("%d, " % d for d in shape) if len(shape) == 1 else ", ".join(str(d) for d in shape)
        header = "{'descr': '%s', 'fortran_order': %s, 'shape': (%s), }" % (descr, fortran, dims)
    length_bytes = 2 if version[0] == 1 else 4
    text = header.encode()
    pad = -(6 + 2 + length_bytes + len(text) + 1) % 64
    text += b" " * pad + b"\n"
    length = struct.pack("<H" if length_bytes == 2 else "<I", len(text))
    return b"\x93NUMPY" + bytes(version) + length + text + data


odd_floats = [0.5, -1.25, 3.0e38, -3.0e38, 1.0e-45, -0.0, float("inf"), float("-inf"), float("nan"), 448.0,
              57344.0, 1.0e-8]
write("npy", "f4-2x6.npy", npy("<f4", [2, 6], struct.pack("<12f", *odd_floats)))
write("npy", "f2-4x8.npy", npy("<f2", [4, 8], struct.pack("<32e", *[(i - 16) / 4 for i in range(32)])))
write("npy", "bf16-2x16.npy", npy("<V2", [2, 16], b"".join(struct.pack("<f", v)[2:] for v in (odd_floats * 3)[:32])))
write("npy", "v2-bf16-bar.npy", npy("|V2", [1, 64], bytes(range(128)), version=(2, 0)))
write("npy", "v3-f4-1x32.npy", npy("<f4", [1, 32], struct.pack("<32f", *range(32)), version=(3, 0)))
write("npy", "fortran.npy", npy("<f4", [2, 2], struct.pack("<4f", 1, 2, 3, 4), fortran=True))
write("npy", "big-endian.npy", npy(">f4", [2, 2], struct.pack(">4f", 1, 2, 3, 4)))
write("npy", "three-d.npy", npy("<f2", [2, 2, 2], bytes(16)))
write("npy", "scalar.npy", npy("<f4", [], struct.pack("<f", 1)))
write("npy", "empty-rows.npy", npy("<f4", [0, 4], b""))
write("npy", "int64-vector.npy", npy("<i8", [3], struct.pack("<3q", 1, 2, 3)))
write("npy", "python2-long.npy", npy("<f4", [], b"", header="{'descr': '<f4', 'fortran_order': False, "
                                                           "'shape': (2L, 2L), }") + struct.pack("<4f", 1, 2, 3, 4))
write("npy", "truncated.npy", npy("<f4", [4, 4], bytes(20)))


# Scenario files (.kvscope): the format core/document/scenariofile.h writes.
tiny_llama = {"architectures": ["LlamaForCausalLM"], "model_type": "llama", "hidden_size": 2048,
              "intermediate_size": 5632, "num_attention_heads": 32, "num_key_value_heads": 4,
              "num_hidden_layers": 22, "vocab_size": 32000, "max_position_embeddings": 2048,
              "torch_dtype": "bfloat16"}
lab_card = {"format": "kvscope-gpu-1", "id": "custom-lab-card", "name": "lab card", "vendor": "",
            "memory_bytes": 48 << 30, "bandwidth_gbps": 900, "tflops_bf16_dense": 180, "fp8_native": False,
            "custom": True}


def scenario_file(scenario, **sections):
    return json.dumps(dict({"format": "kvscope-scenario", "version": 1, "scenario": scenario}, **sections),
                      indent=4, sort_keys=True).encode()


write("scenariofile", "minimal.kvscope", scenario_file({"model": "llama-3.1-8b", "gpu": "h100-sxm"}))
write("scenariofile", "full.kvscope", scenario_file(
    {"model": "pasted:1", "gpu": "custom-lab-card", "dtype": "bfloat16", "quantization": "awq", "group-size": 64,
     "kv-cache-dtype": "fp8", "gpu-memory-utilization": 0.85, "batch-size": 32, "seq-len": 4096,
     "tensor-parallel-size": 2, "max-model-len": 2048, "block-size": 32, "prompt-len": 1024,
     "max-num-seqs": 64, "max-num-batched-tokens": 8192, "mamba-ssm-cache-dtype": "float32",
     "bandwidth-efficiency": 0.7, "compute-efficiency": 0.5},
    models=[{"id": "pasted:1", "name": "Tiny Llama", "config": json.dumps(tiny_llama)},
            {"id": "imported:/models/x", "path": "/models/x"}],
    gpus=[lab_card], charts={"growth-axis": "batch", "growth-scale": "log"},
    quantization={"input": "synthetic:gaussian", "rows": 512, "cols": 1024, "seed": 7, "std": 0.02,
                  "scheme": ["int8", "nf4"], "group-size": 128, "bins": 64, "no-saturation": True,
                  "unit-scale": False, "histogram": "relative", "log-counts": True},
    comparison=[{"kv-cache-dtype": "auto"}, {"model": "qwen2.5-7b", "batch-size": 8}]))
write("scenariofile", "custom-gpu-option.kvscope", scenario_file(
    {"model": "qwen3-30b-a3b", "gpu": "custom:24:1008:165", "kv-cache-dtype": "fp8_e5m2", "quantization": "fp8"}))
write("scenariofile", "gguf-kv.kvscope", scenario_file(
    {"model": "deepseek-v3", "gpu": "b200", "tensor-parallel-size": 8, "kv-cache-dtype": "auto",
     "seq-len": 131072, "batch-size": 1000000}))
write("scenariofile", "file-source.kvscope", scenario_file(
    {"model": "gemma-3-27b", "gpu": "h200"}, quantization={"input": "/tmp/w.npy", "tensor": "w"}))
write("scenariofile", "eplb.kvscope", scenario_file(
    {"model": "deepseek-v3", "gpu": "h200", "tensor-parallel-size": 8, "enable-expert-parallel": True,
     "enable-eplb": True, "eplb-config": '{"num_redundant_experts": 32, "window_size": 100}'}))
write("scenariofile", "data-parallel.kvscope", scenario_file(
    {"model": "deepseek-v2-lite", "gpu": "h100-sxm", "data-parallel-size": 2, "enable-expert-parallel": True,
     "all2all-backend": "deepep_high_throughput", "batch-size": 64, "seq-len": 2048, "prompt-len": 1024}))
write("scenariofile", "sglang-pools.kvscope", scenario_file(
    {"model": "gpt-oss-20b", "gpu": "b200", "engine": "sglang", "swa-full-tokens-ratio": 0.5,
     "mem-fraction-static": 0.85, "batch-size": 8, "seq-len": 4096}))
write("scenariofile", "sglang-layout-flags.kvscope", scenario_file(
    {"model": "deepseek-v2-lite", "gpu": "h100-sxm", "engine": "sglang", "tensor-parallel-size": 4, "data-parallel-size": 2,
     "enable-dp-attention": True, "enable-dp-lm-head": True, "moe-dense-tp-size": 1}))
write("scenariofile", "newer.kvscope", json.dumps({"format": "kvscope-scenario", "version": 2,
                                                    "scenario": {"model": "x", "gpu": "y"}}).encode())


# Command lines: one argument per line, as kvscope COMMAND's options.
def command_line(target, name, *arguments):
    write(target, name, "".join(a + "\n" for a in arguments).encode())


command_line("cli_calc", "defaults.txt")
command_line("cli_calc", "json.txt", "--json")
command_line("cli_calc", "help.txt", "--help")
command_line("cli_calc", "llama-70b-tp2.txt", "--model", "llama-3.1-70b", "--gpu", "h100-sxm",
             "--tensor-parallel-size", "2", "--kv-cache-dtype", "fp8", "--max-model-len", "32768",
             "--batch-size", "64", "--seq-len", "16384", "--json")
command_line("cli_calc", "awq-group.txt", "--model=qwen2.5-72b", "--quantization=awq", "--group-size=-1",
             "--gpu=custom:80:2039:312", "--gpu-memory-utilization=0.95", "--dtype=float16")
command_line("cli_calc", "hybrid.txt", "--model", "qwen3-30b-a3b", "--mamba-ssm-cache-dtype", "float32",
             "--block-size", "64", "--max-num-seqs", "256", "--max-num-batched-tokens", "8192",
             "--prompt-len", "512", "--bandwidth-efficiency", "0.8", "--compute-efficiency", "1")
command_line("cli_calc", "huge.txt", "--model", "llama-3.1-405b", "--gpu", "custom:0.5", "--batch-size",
             "1000000", "--seq-len", "1000000000", "--tensor-parallel-size", "1048576")
command_line("cli_calc", "bad-value.txt", "--batch-size", "-4", "extra")
command_line("cli_calc", "eplb.txt", "--model", "deepseek-v3", "--gpu", "h200", "--tensor-parallel-size", "8",
             "--enable-expert-parallel", "--enable-eplb", "--eplb-config",
             '{"num_redundant_experts": 32, "window_size": 1000000, "policy": "default"}', "--json")
command_line("cli_calc", "data-parallel.txt", "--model", "qwen3-30b-a3b", "--gpu", "h100-sxm",
             "--data-parallel-size", "2", "--max-loras", "4", "--max-lora-rank", "16",
             "--batch-size", "64", "--seq-len", "2048", "--prompt-len", "1024", "--request-rate", "2", "--json")
command_line("cli_calc", "attention-groups.txt", "--engine", "sglang", "--model", "deepseek-v2-lite", "--gpu",
             "h100-sxm", "--tp-size", "4", "--dp-size", "4", "--enable-dp-attention", "--json")
command_line("cli_calc", "sglang-pools.txt", "--engine", "sglang", "--model", "qwen3-next-80b-a3b", "--gpu",
             "h100-sxm", "--tp-size", "4", "--swa-full-tokens-ratio", "0.25", "--json")
command_line("cli_calc", "sglang-lora.txt", "--engine", "sglang", "--model", "llama-3.1-8b",
             "--max-loras-per-batch", "4", "--max-lora-rank", "48", "--formulas")
command_line("cli_calc", "sglang-layout-flags.txt", "--engine", "sglang", "--model", "deepseek-v2-lite", "--gpu",
             "h100-sxm", "--tp-size", "4", "--dp-size", "2", "--enable-dp-attention", "--enable-dp-lm-head",
             "--moe-dense-tp-size", "1", "--json")
command_line("cli_calc", "lora-experts.txt", "--model", "gpt-oss-20b", "--max-loras", "4", "--max-lora-rank", "16",
             "--vllm-version", "0.12.0", "--formulas")
command_line("cli_quant", "defaults.txt")
command_line("cli_quant", "schemes.txt", "--scheme", "int4,int3-sym-g64,fp8-e4m3", "--scheme", "nf4",
             "--group-size", "-1", "--rows", "64", "--cols", "128", "--seed", "7", "--std", "1", "--bins", "4096",
             "--no-saturation", "--unit-scale", "--json")
command_line("cli_quant", "synthetic-kind.txt", "--input", "synthetic:outliers", "--tensor", "w")
command_line("cli_quant", "file.txt", "--input", "/tmp/w.safetensors", "--tensor", "model.w", "--histogram",
             "/tmp/h.csv", "--scheme", "mxfp4")
command_line("cli_quant", "list.txt", "--input", "synthetic:gaussian", "--list")
for target in ("cli_models", "cli_gpus"):
    command_line(target, "all.txt")
    command_line(target, "json.txt", "--json")
    command_line(target, "help.txt", "--help")
command_line("cli_models", "search.txt", "--search", "llama 3.1", "70b")
command_line("cli_models", "nothing.txt", "--json", "no-such-model")
command_line("cli_gpus", "search.txt", "--search", "H100", "sxm")
command_line("cli_gpus", "nothing.txt", "tpu")


# Stored settings (QSettings' INI text, keys of ui/state/settingkeys.cpp).
# The library's lists of maps are @Variant(...) blobs that QSettings encodes
# itself: those seeds (library.conf, two-of-each.conf) are files kvscope wrote.
write("settingsfile", "scenario.conf", b"""[General]
ui\\language=zh_CN

[scenario]
model=qwen3-30b-a3b
gpu=h200
tensorParallelSize=2
dtype=bfloat16
quantization=awq
groupSize=64
kvCacheDtype=fp8
gpuMemoryUtilization=0.85
blockSize=32
maxModelLen=32768
batchSize=64
seqLen=16384

[explorer]
growthAxis=batch
growthScale=log

[quantization]
source=synthetic
synthetic\\kind=outliers
synthetic\\rows=256
synthetic\\cols=512
synthetic\\seed=7
synthetic\\std=1
file\\path=/tmp/w.npy
file\\tensor=w
schemes=int8, nf4, mxfp4
groupSize=64
bins=64
fp8Saturate=false
fp8UnitScale=true
histogram=relative
logY=false

[library]
recentFiles=/tmp/a.kvscope, /tmp/model.gguf

[window]
tab=1
""")
write("settingsfile", "unusable.conf", b"[scenario]\nmodel=llama-99b\nbatchSize=-4\ngpuMemoryUtilization=7\n"
      b"seqLen=\x01\x02\xff\n[quantization]\nschemes=int8, int8\nlogY=maybe\n[library]\nimported=not a list\n"
      b"customGpus=@Invalid()\n[window]\ngeometry=@ByteArray(\\x1\\xd9)\ntab=99\n")

# vllm bench serve --save-result files: the committed example, results without
# --max-concurrency (num_prompts sends), figures at the edges of the calibration
# (faster than the datasheet allows, slower than 5 % of it) and broken fields.
bench = json.loads((root / "tests/data/vllm-bench-result.json").read_text())
write("benchresult", "vllm-bench-result.json", json.dumps(bench).encode())
write("benchresult", "all-at-once.json", json.dumps(dict(bench, max_concurrency=None, num_prompts=64)).encode())
write("benchresult", "faster-than-datasheet.json", json.dumps(dict(bench, median_itl_ms=0.5)).encode())
write("benchresult", "slower-than-floor.json", json.dumps(dict(bench, median_itl_ms=900.0)).encode())
write("benchresult", "long-context.json", json.dumps(dict(bench, max_concurrency=1, total_input_tokens=200 * 120000,
                                                          median_itl_ms=9.4)).encode())
# Start-up logs: the verbatim lines of the validation's vLLM and SGLang logs (tests/data/vllm-logs.json,
# each with its public source), a vLLM engine-config line with rank prefixes, SGLang's MLA pool line, a
# refused start and junk.
for entry in json.loads((root / "tests/data/vllm-logs.json").read_text()):
    if entry["id"] in (1, 2, 3, 43, 45, 46, 48):
        write("startuplog", f"log-{entry['id']}.log", "\n".join(entry["verbatim"]).encode())
write("startuplog", "engine-config-tp2.log", (
    "INFO 08-20 10:00:00 [__init__.py:1] vLLM API server version 0.10.1.1\n"
    "(EngineCore_0 pid=9) INFO 08-20 10:00:05 [core.py:74] Initializing a V1 LLM engine (v0.10.1.1) with config: "
    "model='Qwen/Qwen2.5-7B-Instruct', dtype=torch.bfloat16, max_seq_len=16384, tensor_parallel_size=2, "
    "pipeline_parallel_size=1, quantization=None, enforce_eager=False, kv_cache_dtype=fp8, "
    "compilation_config={\"level\":3, \"cudagraph_capture_sizes\": [512, 504]}\n"
    "(Worker_TP0 pid=10) DEBUG 08-20 10:00:09 [gpu_worker.py:230] worker init memory snapshot: torch_peak=0.0GiB, "
    "free_memory=77.66GiB, total_memory=79.19GiB, cuda_memory=1.53GiB\n"
    "(Worker_TP1 pid=11) INFO 08-20 10:00:20 [gpu_model_runner.py:1] Model loading took 7.11 GiB and 9.3 seconds\n"
).encode())
write("startuplog", "sglang-mla-ranks.log", (
    "python -m sglang.launch_server --model-path deepseek-ai/DeepSeek-V3 --tp 8 --mem-fraction-static 0.9\n"
    "[2025-11-04 05:27:13 DP0 TP0 EP0] Load weight begin. avail mem=139.00 GB\n"
    "[2025-11-04 05:27:13 DP0 TP0 EP0] Load weight end. type=DeepseekV3ForCausalLM, dtype=torch.bfloat16, "
    "avail mem=75.11 GB, mem usage=63.89 GB.\n"
    "[2025-11-04 05:27:13 DP0 TP7 EP7] KV Cache is allocated. #tokens: 524288, KV size: 17.16 GB\n"
    "[2025-11-04 05:27:20 TP0] max_total_num_tokens=524288, chunked_prefill_size=8192, max_prefill_tokens=16384, "
    "max_running_requests=4096, context_len=163840, available_gpu_mem=10.54 GB\n"
).encode())
write("startuplog", "sglang-hybrid-pools.log", (
    "[2026-02-01 10:00:00] server_args=ServerArgs(model_path='openai/gpt-oss-120b', tp_size=4, "
    "mem_fraction_static=0.85, swa_full_tokens_ratio=0.5, max_lora_rank=None)\n"
    "[2026-02-01 10:00:30 TP0] Load weight end. type=GptOssForCausalLM, dtype=torch.bfloat16, "
    "avail mem=150.12 GB, mem usage=16.31 GB.\n"
    "[2026-02-01 10:00:31 TP0] Use sliding window memory pool. full_layer_tokens=2000000, swa_layer_tokens=1000000\n"
    "[2026-02-01 10:00:31 TP0] KV Cache is allocated. #tokens: 2000000, K size: 33.00 GB, V size: 33.00 GB\n"
).encode())
write("startuplog", "refused.log", (
    "vllm serve meta-llama/Llama-3.1-8B-Instruct --max-model-len 1000000\n"
    "ValueError: To serve at least one request with the models's max seq len (1000000), (122.07 GiB KV cache is "
    "needed, which is larger than the available KV cache memory (54.26 GiB). Based on the available memory, the "
    "estimated maximum model length is 444000.\n"
).encode())
write("startuplog", "junk.log", bytes(range(256)) + b"server_args=ServerArgs(tp_size=\xff, model_path='\n")
write("benchresult", "broken-fields.json", json.dumps(dict(bench, completed=0, median_itl_ms="8.1",
                                                           max_concurrency=1.5)).encode())
