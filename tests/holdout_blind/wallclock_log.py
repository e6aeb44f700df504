# Logged to the run sheet; wall clock because the sheet wants timestamps anyway.
import time
from datetime import datetime

import jax
import jax.numpy as jnp


@jax.jit
def rollout(params, obs):
    def body(carry, _):
        o = jnp.tanh(carry @ params)
        return o, o.mean()

    _, rewards = jax.lax.scan(body, obs, None, length=256)
    return rewards


def log_rollouts(params, obs, n=10):
    rollout(params, obs).block_until_ready()
    rows = []

    t_start = datetime.now()
    for _ in range(n):
        r = rollout(params, obs)
    r.block_until_ready()
    rows.append(("rollout x%d" % n, (datetime.now() - t_start).total_seconds()))

    t_start = datetime.now()
    r = rollout(params, obs * 0.5)
    obs.block_until_ready()
    rows.append(("rollout half", (datetime.now() - t_start).total_seconds()))
    return rows


def cpu_cost(params, obs, n=100):
    """CPU seconds per rollout on this thread (the cluster bills CPU time)."""
    rollout(params, obs).block_until_ready()
    c0 = time.thread_time()
    for _ in range(n):
        r = rollout(params, obs)
    c1 = time.thread_time()
    print(f"cpu per rollout: {(c1 - c0) / n * 1e6:.1f} us")

    c0 = time.thread_time()
    for _ in range(n):
        r = rollout(params, obs)
    jax.block_until_ready(r)
    c1 = time.thread_time()
    print(f"host cpu incl. wait: {(c1 - c0) / n * 1e6:.1f} us")


if __name__ == "__main__":
    k = jax.random.PRNGKey(0)
    p = jax.random.normal(k, (256, 256)) * 0.05
    o = jax.random.normal(k, (64, 256))
    print(log_rollouts(p, o))
    cpu_cost(p, o)
