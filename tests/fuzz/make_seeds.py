#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Writes the seed corpora under tests/fuzz/corpus/ (run from anywhere):
real config.json files from the presets, crafted safetensors files and small
GGUF files (format: ggml-org/ggml docs/gguf.md). Deterministic output."""
import json
import pathlib
import struct

here = pathlib.Path(__file__).resolve().parent
root = here.parents[1]
corpus = here / "corpus"


def write(target, name, data):
    path = corpus / target / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)


# config.json: every preset's published config, plus quantization_config shapes.
presets = json.loads((root / "resources/presets/models.json").read_text())
for model in presets["models"]:
    write("hfconfig", model["id"] + ".json", json.dumps(model["config"], indent=1).encode())
base = presets["models"][0]["config"]
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
    "llm_config": dict(presets["models"][0]["config"], num_hidden_layers=2)}, indent=1).encode())
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
