#!/usr/bin/env python3
"""Writes the stand-in chat model that the tests serve with llama.cpp's llama-server.

No model weights can be downloaded where Memoir is built, so the tests make a model of their own: a GGUF of
llama.cpp's "llama" architecture whose vocabulary (tokens, scores, types, special ids and chat template) is copied from one of the
vocab-only GGUFs in llama.cpp's models/ folder, written with the gguf-py package of the same source.

Its weights are set by hand, not trained. Every block's output projections (attn_output, ffn_down) are zero, so
the residual stream is the current token's embedding and the model is a first-order Markov chain over a few token
classes, chosen so that answers end soon: after a word it likes a quote or a full stop, after a full stop the end
of the text, after a closing bracket the end of the text. Under a JSON schema (llama-server's constrained
decoding) that makes every string a word or two and every answer complete well within a few hundred tokens; in
plain text it writes a few words and stops. The blocks still compute at full size, so the `smollm2` shape costs a
CPU what a model of SmolLM2-135M's size costs (the benchmark's shape); `tiny` keeps the test suite fast.

Needs numpy and PyYAML (gguf-py imports both): Debian's python3-numpy and python3-yaml.
"""

import argparse
import re
import sys

import numpy as np

SHAPES = {
    # name: (embedding, layers, feed-forward, heads, kv heads)
    "tiny": (64, 2, 128, 4, 4),
    "smollm2": (576, 30, 1536, 9, 3),
}

# Next-token preferences (logits) per class of the current token. Classes not listed get 0.
WORD, QUOTE, STOP, CLOSE, END, START, OTHER, EMPTY = range(8)
CLASSES = 8
PREFERENCES = {
    START: {WORD: 3.0},
    WORD: {QUOTE: 3.0, STOP: 2.8},
    QUOTE: {WORD: 3.0, END: 2.4},
    STOP: {END: 3.0, WORD: 2.0},
    CLOSE: {END: 3.0, QUOTE: 2.5, CLOSE: 1.0},
    # A word after punctuation too: where a token such as '":"' has just opened a string, a closing quote next would
    # leave it blank.
    OTHER: {QUOTE: 3.0, CLOSE: 2.6, WORD: 3.0},
    END: {},
}
# A token holding a whole empty string ('""', ' "",'): under a schema it writes a blank answer, which a step's reader
# refuses as it refuses a real model's, and which a real model does not write. Drawn now and then at temperature 0.7,
# it failed the real-model-server test; every class avoids it.
EMPTY_STRING_LOGIT = -8.0


END_OF_TURN = {"<|end|>", "<|endoftext|>", "<|eot_id|>", "<|im_end|>", "</s>"}


def token_class(text: str, token_type: int, token_id: int, eos: int) -> int:
    if token_id == eos or text in END_OF_TURN:
        return END
    if token_type != 1:  # control, byte, unknown, unused tokens
        return START if text == "<0x0A>" else OTHER
    bare = text.replace("\u2581", "")
    if '""' in bare:
        return EMPTY
    # A quote alone, or the punctuation JSON puts before one (':"', ',"', '{"'): it opens or closes a string.
    if re.fullmatch(r'[:,\[{]*"', bare):
        return QUOTE
    if bare == ".":
        return STOP
    if bare in ("}", "]"):
        return CLOSE
    if len(bare) >= 2 and bare.isalpha() and bare.isascii():
        return WORD
    return OTHER


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--gguf-py", required=True, help="llama.cpp's gguf-py folder")
    parser.add_argument("--vocab", required=True, help="a vocab-only GGUF from llama.cpp's models/ folder")
    parser.add_argument("--out", required=True)
    parser.add_argument("--shape", choices=sorted(SHAPES), default="tiny")
    parser.add_argument("--context", type=int, default=32768, help="the context length the model declares")
    args = parser.parse_args()

    sys.path.insert(0, args.gguf_py)
    import gguf  # noqa: E402  (from the llama.cpp source the server was built from)

    vocab = gguf.GGUFReader(args.vocab)
    fields = {name: field.contents() for name, field in vocab.fields.items()}
    tokens = fields["tokenizer.ggml.tokens"]
    types = fields["tokenizer.ggml.token_type"]
    eos = fields["tokenizer.ggml.eos_token_id"]
    n_vocab = len(tokens)
    n_embd, n_layer, n_ff, n_head, n_head_kv = SHAPES[args.shape]

    rng = np.random.default_rng(20261126)
    classes = np.array([token_class(t, types[i], i, eos) for i, t in enumerate(tokens)])
    basis = np.eye(n_embd, dtype=np.float32)[:CLASSES]
    embeddings = basis[classes] + rng.normal(0, 0.01, (n_vocab, n_embd)).astype(np.float32)
    # RMSNorm turns a unit class vector into sqrt(n_embd) times itself; the output rows undo that factor.
    preference = np.zeros((CLASSES, CLASSES), dtype=np.float32)
    for current, nexts in PREFERENCES.items():
        for following, logit in nexts.items():
            preference[current, following] = logit
    preference[:, EMPTY] = EMPTY_STRING_LOGIT
    output = (preference[:, classes].T @ basis) / np.sqrt(n_embd)

    writer = gguf.GGUFWriter(args.out, "llama")
    writer.add_name(f"memoir-standin-{args.shape}")
    writer.add_context_length(args.context)
    writer.add_embedding_length(n_embd)
    writer.add_block_count(n_layer)
    writer.add_feed_forward_length(n_ff)
    writer.add_head_count(n_head)
    writer.add_head_count_kv(n_head_kv)
    writer.add_rope_dimension_count(n_embd // n_head)
    writer.add_layer_norm_rms_eps(1e-5)
    writer.add_vocab_size(n_vocab)
    writer.add_file_type(gguf.LlamaFileType.ALL_F32)
    for name, field in vocab.fields.items():
        if name.startswith("tokenizer."):
            value = fields[name]
            if field.types[0] == gguf.GGUFValueType.ARRAY:
                writer.add_array(name, value)
            else:
                writer.add_key_value(name, value, field.types[0])

    head_dim = n_embd // n_head
    kv_dim = head_dim * n_head_kv

    def weights(rows: int, cols: int) -> np.ndarray:
        return rng.normal(0, 0.02, (rows, cols)).astype(np.float32)

    writer.add_tensor("token_embd.weight", embeddings)
    writer.add_tensor("output_norm.weight", np.ones(n_embd, dtype=np.float32))
    writer.add_tensor("output.weight", output.astype(np.float32))
    for layer in range(n_layer):
        block = f"blk.{layer}"
        writer.add_tensor(f"{block}.attn_norm.weight", np.ones(n_embd, dtype=np.float32))
        writer.add_tensor(f"{block}.attn_q.weight", weights(n_embd, n_embd))
        writer.add_tensor(f"{block}.attn_k.weight", weights(kv_dim, n_embd))
        writer.add_tensor(f"{block}.attn_v.weight", weights(kv_dim, n_embd))
        writer.add_tensor(f"{block}.attn_output.weight", np.zeros((n_embd, n_embd), dtype=np.float32))
        writer.add_tensor(f"{block}.ffn_norm.weight", np.ones(n_embd, dtype=np.float32))
        writer.add_tensor(f"{block}.ffn_gate.weight", weights(n_ff, n_embd))
        writer.add_tensor(f"{block}.ffn_up.weight", weights(n_ff, n_embd))
        writer.add_tensor(f"{block}.ffn_down.weight", np.zeros((n_embd, n_ff), dtype=np.float32))

    writer.write_header_to_file()
    writer.write_kv_data_to_file()
    writer.write_tensors_to_file()
    writer.close()


if __name__ == "__main__":
    main()
