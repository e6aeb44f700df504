#!/usr/bin/env python
"""End-to-end request latency of the serve engine.

python latency.py --requests 200 --batch 8 --seq-len 128
"""
import argparse

import numpy as np

from serve import Engine, LatencyRecorder, Timer
from serve import model as model_lib


def fake_requests(n, batch, seq_len, vocab, seed=0):
    rng = np.random.default_rng(seed)
    for _ in range(n):
        lengths = rng.integers(8, seq_len, batch)
        toks = rng.integers(1, vocab, (batch, seq_len)).astype(np.int32)
        toks[np.arange(seq_len)[None, :] >= lengths[:, None]] = 0
        yield toks


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--requests", type=int, default=200)
    ap.add_argument("--batch", type=int, default=8)
    ap.add_argument("--seq-len", type=int, default=128)
    ap.add_argument("--vocab", type=int, default=30_000)
    ap.add_argument("--dim", type=int, default=256)
    args = ap.parse_args()

    model, params = model_lib.load(seq_len=args.seq_len, vocab=args.vocab, dim=args.dim)
    engine = Engine(model, params)
    reqs = list(fake_requests(args.requests, args.batch, args.seq_len, args.vocab))

    with Timer() as cold:
        engine.warmup(reqs[0])
    print(f"cold start (compile + first request): {cold.elapsed_ms:.1f} ms")

    sync_rec, post_rec, poll_rec = LatencyRecorder(), LatencyRecorder(), LatencyRecorder()
    submit_rec = LatencyRecorder()
    for toks in reqs:
        with Timer() as t:
            engine.run_sync(toks)
        sync_rec.add(t.elapsed_ms)

        with Timer() as t:
            values, labels = engine.run_and_postprocess(toks)
        post_rec.add(t.elapsed_ms)

        with Timer() as t:
            fut = engine.submit(toks)
        submit_rec.add(t.elapsed_ms)
        engine.poll(fut)

        timer = Timer()
        timer.start()
        fut = engine.submit(toks)
        engine.poll(fut)
        poll_rec.add(timer.stop())

    print(sync_rec.report("logits (blocking)"))
    print(post_rec.report("logits + top-k"))
    print(poll_rec.report("logits (polling)"))
    print(submit_rec.report("submit"))
    print("last top-k labels:", np.asarray(labels)[0])


if __name__ == "__main__":
    main()
