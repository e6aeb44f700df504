import time

import jax
import jax.numpy as jnp


@jax.jit
def step(state, x):
    w = state["w"]
    loss, g = jax.value_and_grad(lambda w: jnp.mean(jnp.sin(x @ w) ** 2))(w)
    return {"w": w - 0.1 * g}, loss


@jax.jit
def embed(table, ids):
    return jnp.take(table, ids, axis=0).sum(1)


def main():
    key = jax.random.PRNGKey(7)
    x = jax.random.normal(key, (2048, 512))
    state = {"w": jax.random.normal(key, (512, 512)) * 0.02}
    table = jax.random.normal(key, (50_000, 256))
    ids = jax.random.randint(key, (4096, 20), 0, 50_000)
    state, loss = step(state, x)
    jax.block_until_ready(state)
    embed(table, ids).block_until_ready()

    t0 = time.perf_counter()
    for _ in range(50):
        state, loss = step(state, x)
    jax.block_until_ready(state)
    print(f"loss {float(loss):.5f}")
    t_train = time.perf_counter() - t0

    t0 = time.perf_counter()
    for _ in range(50):
        state, loss = step(state, x)
    print("loss:", loss.shape, loss.dtype)
    t_train2 = time.perf_counter() - t0

    t0 = time.perf_counter()
    e = embed(table, ids)
    print(e[:2, :4])
    t_embed = time.perf_counter() - t0

    t0 = time.perf_counter()
    e = embed(table, ids)
    print("rows embedded:", len(e))
    t_embed2 = time.perf_counter() - t0

    print(t_train, t_train2, t_embed, t_embed2)


if __name__ == "__main__":
    main()
