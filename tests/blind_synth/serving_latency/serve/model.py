"""A small flax text classifier used by the serving engine."""
import flax.linen as nn
import jax
import jax.numpy as jnp


class BagOfEmbeddings(nn.Module):
    vocab: int = 30_000
    dim: int = 256
    n_labels: int = 20

    @nn.compact
    def __call__(self, tokens):
        emb = nn.Embed(self.vocab, self.dim)(tokens)
        mask = (tokens > 0)[..., None]
        pooled = (emb * mask).sum(1) / jnp.maximum(mask.sum(1), 1)
        h = nn.relu(nn.Dense(self.dim)(pooled))
        return nn.Dense(self.n_labels)(h)


def load(seq_len=128, seed=0, **kw):
    model = BagOfEmbeddings(**kw)
    params = model.init(jax.random.PRNGKey(seed), jnp.ones((1, seq_len), jnp.int32))
    return model, params
