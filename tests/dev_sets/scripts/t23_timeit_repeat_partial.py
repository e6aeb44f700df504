import functools
import timeit

import jax
import jax.numpy as jnp


@jax.jit
def bilinear_resize(img):
    return jax.image.resize(img, (img.shape[0], 512, 512, img.shape[-1]), "bilinear")


def run_once(fn, *args):
    return jax.block_until_ready(fn(*args))


def main():
    imgs = jax.random.uniform(jax.random.PRNGKey(0), (32, 224, 224, 3))
    run_once(bilinear_resize, imgs)
    call = functools.partial(run_once, bilinear_resize, imgs)
    times = timeit.repeat(call, repeat=5, number=10)  # mark:A
    best = min(times) / 10
    print(f"resize 224->512 x32: {best * 1e3:.2f} ms")


if __name__ == "__main__":
    main()
