"""Greedy decoding latency for a toy transformer-free language model.

python generate_with_helper.py --vocab 8192 --dim 512 --new-tokens 32
"""
import argparse
import time

import jax
import jax.numpy as jnp
import numpy as np


def init(key, vocab, dim):
    k1, k2, k3 = jax.random.split(key, 3)
    return {"emb": jax.random.normal(k1, (vocab, dim)) * 0.02,
            "w": jax.random.normal(k2, (dim, dim)) / np.sqrt(dim),
            "out": jax.random.normal(k3, (dim, vocab)) * 0.02}


@jax.jit
def next_token(params, state, tok):
    h = jnp.tanh(state @ params["w"] + params["emb"][tok])
    logits = h @ params["out"]
    return h, jnp.argmax(logits, axis=-1)


@jax.jit
def detokenize_scores(params, tokens):
    emb = params["emb"][tokens]
    return jnp.linalg.norm(emb, axis=-1).sum()


def prefill(params, prompt, dim):
    state = jnp.zeros((prompt.shape[0], dim))
    for t in range(prompt.shape[1]):
        state, _ = next_token(params, state, prompt[:, t])
    state.block_until_ready()  # make sure prefill is done before decode starts
    return state


def generate(params, prompt, dim, n_new):
    state = prefill(params, prompt, dim)
    tok = prompt[:, -1]
    out = []
    for _ in range(n_new):
        state, tok = next_token(params, state, tok)
        out.append(tok)
    return jnp.stack(out, axis=1)


def generate_and_score(params, prompt, dim, n_new):
    toks = generate(params, prompt, dim, n_new)
    toks = jax.block_until_ready(toks)
    return toks, float(detokenize_scores(params, toks))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--vocab", type=int, default=8192)
    ap.add_argument("--dim", type=int, default=512)
    ap.add_argument("--batch", type=int, default=8)
    ap.add_argument("--prompt-len", type=int, default=16)
    ap.add_argument("--new-tokens", type=int, default=32)
    args = ap.parse_args()

    params = init(jax.random.PRNGKey(0), args.vocab, args.dim)
    prompt = jax.random.randint(jax.random.PRNGKey(1), (args.batch, args.prompt_len), 0, args.vocab)
    generate_and_score(params, prompt, args.dim, args.new_tokens)  # warm-up: compiles next_token, stack and scorer

    t0 = time.perf_counter()
    toks = generate(params, prompt, args.dim, args.new_tokens)
    t_gen = time.perf_counter() - t0
    print(f"generate(): {t_gen * 1e3:.1f} ms for {args.new_tokens} tokens x {args.batch}")

    t0 = time.perf_counter()
    toks, score = generate_and_score(params, prompt, args.dim, args.new_tokens)
    t_full = time.perf_counter() - t0
    print(f"generate_and_score(): {t_full * 1e3:.1f} ms (score {score:.3f})")
    print(f"  -> {1e3 * t_full / args.new_tokens:.2f} ms/token")
    print("first row:", np.asarray(toks[0])[:10])


if __name__ == "__main__":
    main()
