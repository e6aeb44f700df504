"""Latency probe for the async inference server. Each handler mimics one of
the server code paths."""
import asyncio
import statistics
import time

import jax
import jax.numpy as jnp

PARAMS = None


@jax.jit
def predict(params, batch):
    return jax.nn.log_softmax(batch @ params, axis=-1)


async def handle(batch):
    t0 = time.perf_counter()
    logits = predict(PARAMS, batch)
    await asyncio.to_thread(jax.block_until_ready, logits)
    return time.perf_counter() - t0


async def handle_yield(batch):
    t0 = time.perf_counter()
    logits = predict(PARAMS, batch)
    await asyncio.sleep(0)  # let other requests in
    return time.perf_counter() - t0


async def handle_offload(batch):
    t0 = time.perf_counter()
    logits = await asyncio.to_thread(predict, PARAMS, batch)
    return time.perf_counter() - t0


async def handle_executor(batch):
    loop = asyncio.get_running_loop()
    t0 = time.perf_counter()
    logits = predict(PARAMS, batch)
    await loop.run_in_executor(None, jax.block_until_ready, logits)
    return time.perf_counter() - t0


async def main():
    global PARAMS
    PARAMS = jax.random.normal(jax.random.PRNGKey(0), (1024, 32000)) * 0.01
    batch = jnp.ones((64, 1024))
    predict(PARAMS, batch).block_until_ready()
    for h in (handle, handle_yield, handle_offload, handle_executor):
        lat = await asyncio.gather(*[h(batch) for _ in range(32)])
        print(f"{h.__name__:16s} p50={statistics.median(lat) * 1e3:.2f} ms")


if __name__ == "__main__":
    asyncio.run(main())
