import jax
import jax.numpy as jnp

from .steps import make_eval_step, make_train_step
from .timing import Throughput, timer


def apply(params, x):
    return jax.nn.relu(x @ params["w1"]) @ params["w2"]


def init(key, d=784, h=1024, c=10):
    k1, k2 = jax.random.split(key)
    return {"w1": jax.random.normal(k1, (d, h)) * 0.02, "w2": jax.random.normal(k2, (h, c)) * 0.02}


def run(batches, epochs=3):
    params = init(jax.random.PRNGKey(0))
    train_step = make_train_step(apply, lr=0.1)
    eval_step = make_eval_step(apply)
    x0, y0 = batches[0]
    params, _ = train_step(params, x0, y0)
    eval_step(params, x0, y0).block_until_ready()

    for epoch in range(epochs):
        with timer(f"epoch {epoch}"):
            for x, y in batches:
                params, loss = train_step(params, x, y)
            jax.block_until_ready(params)

        with timer(f"eval {epoch}"):
            accs = [eval_step(params, x, y) for x, y in batches]
        print("acc", float(jnp.mean(jnp.stack(accs))))
    return params


def lr_probe(batches, lrs=(0.3, 0.03)):
    """Throughput should not depend on lr; sanity check the new step factory."""
    params = init(jax.random.PRNGKey(1))
    n = sum(x.shape[0] for x, _ in batches)
    hi, lo = (make_train_step(apply, lr) for lr in lrs)

    with Throughput(n) as tp_hi:
        for x, y in batches:
            params, loss = hi(params, x, y)
        jax.block_until_ready(params)

    x0, y0 = batches[0]
    jax.block_until_ready(lo(params, x0, y0))
    with Throughput(n) as tp_lo:
        for x, y in batches:
            params, loss = lo(params, x, y)
        jax.block_until_ready(params)
    print(f"lr={lrs[0]}: {tp_hi.rate:.0f}/s   lr={lrs[1]}: {tp_lo.rate:.0f}/s")
