"""Environment-steps/s of a jitted CartPole-style rollout + policy-gradient update.

python rl_rollout_throughput.py --envs 256 --horizon 128 --iters 20
"""
import argparse
import functools
import time

import jax
import jax.numpy as jnp
import numpy as np


def env_step(state, action):
    x, v, th, om = state.T
    force = jnp.where(action == 1, 10.0, -10.0)
    om_new = om + 0.02 * (9.8 * jnp.sin(th) - 0.05 * force * jnp.cos(th))
    v_new = v + 0.02 * force / 1.1
    new = jnp.stack([x + 0.02 * v, v_new, th + 0.02 * om, om_new], axis=1)
    done = (jnp.abs(new[:, 2]) > 0.21) | (jnp.abs(new[:, 0]) > 2.4)
    return jnp.where(done[:, None], 0.0, new), 1.0 - done.astype(jnp.float32)


def policy_logits(params, obs):
    return jnp.tanh(obs @ params["w1"]) @ params["w2"]


@functools.partial(jax.jit, static_argnums=(3,))
def rollout(params, state, key, horizon):
    def body(carry, k):
        s = carry
        a = jax.random.categorical(k, policy_logits(params, s))
        s2, r = env_step(s, a)
        return s2, (s, a, r)
    state, traj = jax.lax.scan(body, state, jax.random.split(key, horizon))
    return state, traj


@jax.jit
def pg_update(params, traj, lr=1e-2):
    obs, act, rew = traj
    ret = jnp.cumsum(rew[::-1], axis=0)[::-1]

    def loss(p):
        logp = jax.nn.log_softmax(policy_logits(p, obs))
        chosen = jnp.take_along_axis(logp, act[..., None], -1)[..., 0]
        return -jnp.mean(chosen * (ret - ret.mean()))

    g = jax.grad(loss)(params)
    return jax.tree_util.tree_map(lambda p, gp: p - lr * gp, params, g), ret[0].mean()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--envs", type=int, default=256)
    ap.add_argument("--horizon", type=int, default=128)
    ap.add_argument("--iters", type=int, default=20)
    args = ap.parse_args()

    k1, k2, key = jax.random.split(jax.random.PRNGKey(0), 3)
    params = {"w1": jax.random.normal(k1, (4, 64)) * 0.5, "w2": jax.random.normal(k2, (64, 2)) * 0.1}
    state = jnp.zeros((args.envs, 4))
    key, sub = jax.random.split(key)
    state, traj = rollout(params, state, sub, args.horizon)
    params, _ = pg_update(params, traj)
    jax.block_until_ready(params)

    returns = []
    t0 = time.perf_counter()
    for _ in range(args.iters):
        key, sub = jax.random.split(key)
        state, traj = rollout(params, state, sub, args.horizon)
        params, avg_ret = pg_update(params, traj)
        returns.append(avg_ret)
    sps = args.iters * args.envs * args.horizon / (time.perf_counter() - t0)
    print(f"train: {sps:,.0f} env-steps/s, mean return {np.mean(returns):.1f}")

    t0 = time.perf_counter()
    for _ in range(args.iters):
        key, sub = jax.random.split(key)
        state, traj = rollout(params, state, sub, args.horizon)
        state.block_until_ready()
        params, avg_ret = pg_update(params, traj)
    sps2 = args.iters * args.envs * args.horizon / (time.perf_counter() - t0)
    print(f"train (wait on env state): {sps2:,.0f} env-steps/s")

    t0 = time.perf_counter()
    for _ in range(args.iters):
        key, sub = jax.random.split(key)
        state, traj = rollout(params, state, sub, args.horizon)
        jax.tree_util.tree_map(lambda a: a.block_until_ready, traj)
    rollout_sps = args.iters * args.envs * args.horizon / (time.perf_counter() - t0)

    t0 = time.perf_counter()
    for _ in range(args.iters):
        key, sub = jax.random.split(key)
        state, traj = rollout(params, state, sub, args.horizon)
    jax.block_until_ready(traj)
    rollout_ok = args.iters * args.envs * args.horizon / (time.perf_counter() - t0)
    print(f"rollout only: {rollout_sps:,.0f} env-steps/s (tree_map) vs {rollout_ok:,.0f} (blocked)")

    # longer horizons for the plot
    for h in (args.horizon * 2, args.horizon * 4):
        t0 = time.perf_counter()
        for _ in range(args.iters):
            key, sub = jax.random.split(key)
            state, traj = rollout(params, state, sub, h)
        jax.block_until_ready(traj)
        print(f"horizon {h}: {args.iters * args.envs * h / (time.perf_counter() - t0):,.0f} env-steps/s")


if __name__ == "__main__":
    main()
