"""start()/stop() methods of a timer object, the result waited for."""
import time

import jax
import jax.numpy as jnp

f = jax.jit(lambda a: jnp.sin(a) @ jnp.cos(a).T)
x = jnp.ones((1600, 1600))
jax.block_until_ready(f(x))

class Stopwatch:
    def start(self):
        self.t = time.perf_counter()

    def stop(self):
        return time.perf_counter() - self.t  # semantic: stop


watch = Stopwatch()
t0 = time.perf_counter()
watch.start()
y = f(x)
y.block_until_ready()
dt = watch.stop()

# semantic: reference: the same work, waited for
r0 = time.perf_counter()
jax.block_until_ready(f(x))
ref = time.perf_counter() - r0
