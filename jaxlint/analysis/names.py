"""What the analysis knows about names from outside the file: timers, JAX, NumPy, builtins.

Everything here is keyed by fully qualified name (``jax.numpy.dot``, ``time.perf_counter``),
as libcst's scope analysis resolves it whatever the import style, so ``import time as t``,
``from time import perf_counter as pc`` and ``from jax import numpy as jnp`` all land here.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import Enum


class CallKind(Enum):
    """What calling a qualified name does, as far as timing is concerned."""

    TIMER = "timer"  # reads a clock
    HARNESS = "harness"  # times a callable or statement many times (timeit.timeit)
    HARNESS_TIMER = "harness_timer"  # makes a timeit.Timer
    SYNC = "sync"  # waits for its JAX arguments (jax.block_until_ready)
    TRANSFER = "transfer"  # copies JAX arguments to the host, which waits for them
    TREE_MAP = "tree_map"  # maps a function over pytrees: a sync, work or nothing by its function
    TRANSFORM = "transform"  # returns a function whose calls are JAX work (jax.jit, jax.vmap)
    PARTIAL = "partial"  # functools.partial: the result behaves like its first argument
    WORK = "work"  # dispatches device work and returns (a pytree of) arrays
    NO_WORK = "no_work"  # a JAX-namespace call that dispatches nothing (jax.devices)
    HOST = "host"  # a NumPy call: no JAX work; a transfer when given JAX values
    UNKNOWN = "unknown"


TIMERS = frozenset(
    {
        "time.perf_counter",
        "time.perf_counter_ns",
        "time.time",
        "time.time_ns",
        "time.monotonic",
        "time.monotonic_ns",
        "time.process_time",
        "time.process_time_ns",
        "time.thread_time",
        "time.thread_time_ns",
        "timeit.default_timer",
        # datetime readings: ``(datetime.now() - start).total_seconds()``
        "datetime.datetime.now",
        "datetime.datetime.utcnow",
        "datetime.datetime.today",
    }
)

# Methods of a clock reading that give the same reading in another form
# (``datetime.now().replace(microsecond=0)``, ``.timestamp()``).
READING_METHODS = frozenset({"replace", "astimezone", "timestamp", "__float__"})

HARNESSES = frozenset({"timeit.timeit", "timeit.repeat"})
HARNESS_TIMERS = frozenset({"timeit.Timer"})
HARNESS_METHODS = frozenset({"timeit", "repeat", "autorange"})

SYNCS = frozenset({"jax.block_until_ready"})

# Host transfers: they wait for their JAX arguments as a side effect of copying them.
TRANSFERS = frozenset(
    {
        "jax.device_get",
        "builtins.print",
        "builtins.float",
        "builtins.int",
        "builtins.bool",
        "builtins.complex",
        "builtins.str",
        "builtins.repr",
        "builtins.format",
        # pretty-printing formats the value, as ``print`` does
        "pprint.pprint",
        "pprint.pformat",
        "pprint.pp",
    }
)

# Functions whose output's shape is their input's values (``jnp.nonzero(mask)``, the indices
# where it is true): without ``size=`` JAX reads the input on the host to know the shape,
# which waits for it, and puts the answer on the device; with ``size=`` (a fixed shape) it
# is one more computation dispatched. ``jnp.where`` given only a condition is ``nonzero``.
VALUE_SHAPED_CALLS = frozenset(
    f"jax.numpy.{n}" for n in ("nonzero", "flatnonzero", "argwhere", "unique", "unique_all",
                               "unique_counts", "unique_inverse", "unique_values",
                               "union1d", "intersect1d", "setdiff1d", "setxor1d",
                               "compress", "extract")
)

# Methods of a JAX array that copy it to the host.
TRANSFER_METHODS = frozenset({"item", "tolist", "__array__", "tobytes", "__float__", "__int__"})

# Attributes and methods of a JAX array that dispatch nothing and wait for nothing.
INERT_ATTRIBUTES = frozenset(
    {
        "shape",
        "dtype",
        "ndim",
        "size",
        "nbytes",
        "itemsize",
        "sharding",
        "device",
        "devices",
        "is_fully_replicated",
        "is_fully_addressable",
        "committed",
        "weak_type",
        "aval",
        "delete",
        "is_deleted",
        "is_ready",
        "copy_to_host_async",
        "addressable_shards",
        "global_shards",
        "lower",
        "trace",
        "eval_shape",
    }
)

# Methods of a JAX array that compute (``jax.Array``'s NumPy-like methods). A method of a
# "JAX value" that is none of these, nor inert nor a transfer (``state.release_pages()``,
# ``engine.generate(...)``), shows the value is some other object holding or making JAX
# values: its result is treated as an unknown function's (see ``_opaque``), not as work.
ARRAY_METHODS = frozenset(
    {
        "all", "any", "argmax", "argmin", "argpartition", "argsort", "astype", "choose",
        "clip", "compress", "conj", "conjugate", "copy", "cumprod", "cumsum", "cummax",
        "cummin", "diagonal", "dot", "flatten", "max", "mean", "min", "nonzero", "prod",
        "ptp", "ravel", "repeat", "reshape", "round", "searchsorted", "sort", "squeeze",
        "std", "sum", "swapaxes", "take", "trace", "transpose", "var", "view", "set",
        "add", "multiply", "divide", "power", "apply", "get", "to_device", "addressable_data",
        "__getitem__", "__add__", "__sub__", "__mul__", "__matmul__", "__truediv__",
    }
)

# What a JAX array is an instance of, for ``isinstance`` guards.
ARRAY_TYPES = frozenset({"jax.Array", "jax.numpy.ndarray", "jax.core.Array",
                         "jaxlib.xla_extension.ArrayImpl", "jax.interpreters.xla.DeviceArray"})

# Attributes every JAX array has (``hasattr(y, "block_until_ready")``).
ARRAY_ATTRIBUTES = frozenset({"block_until_ready", "is_ready", "addressable_shards",
                              "sharding", "devices", "copy_to_host_async"})

# Attributes of a JAX array that are themselves device operations.
WORK_ATTRIBUTES = frozenset({"T", "mT", "real", "imag"})

# Methods of a dict or list that give (views of) what it holds.
CONTAINER_READERS = frozenset({"items", "values", "get", "pop", "copy", "popitem"})

# Methods that put their argument into a container the receiver holds (results.append(y)).
CONTAINER_MUTATORS = frozenset({"append", "extend", "insert", "add", "update", "setdefault"})

TREE_MAPS = frozenset(
    {
        "jax.tree_util.tree_map",
        "jax.tree.map",
        "jax.tree_map",
        "jax.tree_util.tree_map_with_path",
        "jax.tree.map_with_path",
    }
)

# Function transformations: their result is a function whose calls dispatch work.
TRANSFORMS = frozenset(
    {
        "jax.jit",
        "jax.pmap",
        "jax.vmap",
        "jax.grad",
        "jax.value_and_grad",
        "jax.checkpoint",
        "jax.remat",
        "jax.ad_checkpoint.checkpoint",
        "jax.jacfwd",
        "jax.jacrev",
        "jax.jacobian",
        "jax.hessian",
        "jax.named_call",
        "jax.custom_jvp",
        "jax.custom_vjp",
        "jax.shard_map",
        "jax.experimental.shard_map.shard_map",
        "jax.experimental.pjit.pjit",
        "jax.api.jit",
        "flax.linen.jit",
        "flax.linen.vmap",
        "flax.nnx.jit",
        "flax.nnx.jit_partial",
        "flax.nnx.vmap",
        "flax.nnx.grad",
        "flax.nnx.value_and_grad",
        "flax.nnx.pmap",
        "flax.nnx.remat",
        "equinox.filter_jit",
        "equinox.filter_vmap",
        "equinox.filter_pmap",
        "equinox.filter_grad",
        "equinox.filter_value_and_grad",
        "equinox.filter_checkpoint",
    }
)

# The transformations whose functions compile on their first call (and cache the result).
JIT_TRANSFORMS = frozenset(
    {
        "jax.jit",
        "jax.pmap",
        "jax.api.jit",
        "jax.experimental.pjit.pjit",
        "flax.linen.jit",
        "flax.nnx.jit",
        "flax.nnx.jit_partial",
        "flax.nnx.pmap",
        "equinox.filter_jit",
        "equinox.filter_pmap",
    }
)

# The transformations that map a function over devices: a call's result holds one part per
# device along its leading axis.
PMAP_TRANSFORMS = frozenset({"jax.pmap", "flax.nnx.pmap", "equinox.filter_pmap"})

# Attributes of a JAX array that list its shards, one per device it has addressable.
SHARD_LISTS = frozenset({"addressable_shards", "device_buffers"})

PARTIALS = frozenset({"functools.partial"})

# Calls that drop every compiled program: the next call of each jitted function compiles.
CLEAR_CACHES = frozenset({"jax.clear_caches", "jax.clear_backends"})

# Calls whose device work only fills new buffers (no computation on the values of their
# inputs): left running at a stop after the region's work was waited for, they are not
# timed work (``Timers.regions``). An optax optimizer's ``init`` is one too (zeros shaped
# like the parameters): ``calls._library_method``.
FILL_CALLS = frozenset(
    f"jax.numpy.{n}" for n in ("zeros", "ones", "full", "empty", "zeros_like", "ones_like",
                               "full_like", "empty_like", "eye", "identity", "arange")
)
# ... and calls that put host data on the device: given no JAX value, they fill a buffer
# from it (``jnp.asarray(logs["step"])``); given one, they may compute (a dtype conversion).
TO_DEVICE_CALLS = frozenset({"jax.numpy.asarray", "jax.numpy.array", "jax.device_put"})
# ... and calls that select or rearrange elements without arithmetic over them
# (``x = jnp.where(err < 0.1, x, jnp.nan)`` after a host read of ``err``), or join arrays
# into one (``jnp.concatenate([prompt] + generated, axis=1)`` of tokens already read).
REARRANGE_CALLS = frozenset(
    f"jax.numpy.{n}" for n in ("where", "reshape", "ravel", "transpose", "squeeze",
                               "expand_dims", "nan_to_num", "concatenate", "stack",
                               "hstack", "vstack", "dstack", "column_stack", "append")
)

# Calls that join arrays into a longer one (``jax.numpy.`` or ``numpy.``): an array rebound
# to one of them made of itself on each round of a loop grows (``calls._grows_in``).
GROW_CALLS = frozenset({"concatenate", "append", "hstack", "vstack", "column_stack",
                        "row_stack", "dstack"})

# Control flow that, called outside jit, traces its function and compiles the loop; JAX
# keeps the result for the same function object, so a function made anew on each call (a
# nested ``def`` or ``lambda``) compiles on every call.
LAX_CONTROL_FLOW = frozenset(
    {
        "jax.lax.while_loop",
        "jax.lax.fori_loop",
        "jax.lax.scan",
        "jax.lax.map",
        "jax.lax.cond",
        "jax.lax.switch",
        "jax.lax.associative_scan",
    }
)

# Builtins that give an iterator over what they are given, and the mapping methods that give
# a view of a dict: neither is a registered pytree, so ``jax.block_until_ready(outs.values())``
# or ``jax.block_until_ready(iter(outs))`` sees one leaf that is no array and waits for
# nothing (measured: 0.2 ms against a 750 ms computation, CPU, jax 0.10). (``list(...)`` of
# either is a list, which is a pytree.)
ITERATOR_BUILTINS = frozenset({"iter", "map", "filter", "zip", "reversed", "enumerate"})
VIEW_METHODS = frozenset({"values", "items"})

# Of those, the ones that wrap the given function in a closure of their own on every call
# (``lax.map`` scans ``lambda _, x: ((), f(x))`` made anew): called outside jit, each call
# traces and compiles a new loop, even over a module-level function (measured: 80 ms a
# call against 0.3 ms for ``lax.scan`` over the same function, CPU, jax 0.10).
LAX_WRAPS_ANEW = frozenset({"jax.lax.map"})

# Calls that give a pytree's leaves (or the pytree itself, flattened): a loop over them that
# blocks each leaf waits for all of it.
TREE_LEAVES = frozenset(
    {
        "jax.tree_util.tree_leaves",
        "jax.tree.leaves",
        "jax.tree_leaves",
        "jax.tree_util.tree_flatten",
        "jax.tree.flatten",
        "jax.tree_flatten",
        "jax.tree_util.tree_leaves_with_path",
        "jax.tree.leaves_with_path",
    }
)

# Calls that build a pytree from a tree structure and leaves: the leaves (their second
# argument) are what it holds.
TREE_UNFLATTEN = frozenset(
    {"jax.tree_util.tree_unflatten", "jax.tree.unflatten", "jax.tree_unflatten"}
)

# Barriers across hosts: they run a tiny computation on every device and block on it, so
# (work running in dispatch order) everything dispatched before them is finished.
BARRIERS = frozenset(
    {
        "jax.experimental.multihost_utils.sync_global_devices",
    }
)

# Calls that run a function on other arguments in a thread or executor and give its result:
# the index of the function among the positional arguments.
RUNNERS = {"asyncio.to_thread": 0}
RUNNER_METHODS = {"run_in_executor": 1, "submit": 0}
# Methods of pools and executors that call a function on each element of iterables.
MAP_METHODS = frozenset({"map", "imap", "imap_unordered", "starmap"})

# Functions at the top level of ``jax`` that dispatch device work (or run a function that
# does, as ``jax.jvp(f, ...)``). Any other ``jax.name(...)`` dispatches none: the rest of
# the top level is transformations (above), syncs and transfers (above), and configuration,
# meshes, devices and introspection (``jax.set_mesh``, ``jax.typeof``).
TOP_LEVEL_WORK = frozenset(
    {
        "jax.device_put",
        "jax.device_put_replicated",
        "jax.device_put_sharded",
        "jax.make_array_from_callback",
        "jax.make_array_from_single_device_arrays",
        "jax.make_array_from_process_local_data",
        "jax.jvp",
        "jax.vjp",
        "jax.linearize",
        "jax.pure_callback",
        "jax.random",
        "jax.numpy",
        "jax.lax",
        "jax.nn",
    }
)

# Calls in the JAX namespace that dispatch no device work. Anything else under ``jax.`` does,
# except at its top level (``TOP_LEVEL_WORK``).
# What the project index says of a function of another module that neither computes, nor
# waits, nor copies: calling it dispatches nothing.
INERT = "jaxlint.inert"

NO_WORK = frozenset(
    {
        INERT,
        "jax.devices",
        "jax.local_devices",
        "jax.device_count",
        "jax.local_device_count",
        "jax.process_index",
        "jax.process_count",
        "jax.default_backend",
        "jax.effects_barrier",  # waits for effects, not for ordinary results: not a sync
        "jax.clear_caches",
        "jax.live_arrays",
        "jax.make_jaxpr",
        "jax.eval_shape",
        "jax.ShapeDtypeStruct",
        "jax.ensure_compile_time_eval",
        "jax.disable_jit",
        "jax.default_device",
        "jax.named_scope",
        "jax.typeof",
        "jax.numpy.dtype",
        "jax.numpy.finfo",
        "jax.numpy.iinfo",
        "jax.numpy.shape",
        "jax.numpy.ndim",
        "jax.numpy.result_type",
        "jax.numpy.promote_types",
        "jax.numpy.issubdtype",
        "jax.numpy.can_cast",
        "jax.numpy.isdtype",
        "jax.random.key_data",
    }
)

NO_WORK_PREFIXES = (
    "jax.config.",
    "jax.distributed.",
    "jax.experimental.compilation_cache.",
    "jax.experimental.serialize_executable.",
    "jax.experimental.multihost_utils.",  # host-side helpers (barriers are in BARRIERS)
    # JAX's own internals: compiling, caching, configuration, bookkeeping (not arrays)
    "jax._src.compilation_cache",
    "jax._src.compiler",
    "jax._src.cache_key",
    "jax._src.config",
    "jax._src.distributed",
    "jax._src.monitoring",
    "jax._src.profiler",
    "jax._src.path",
    "jax._src.util",
    "jax._src.traceback_util",
    "jax._src.xla_bridge",
    "jax._src.lib.",
    "jax.extend.backend.",
    "jax.sharding.",
    "jax.experimental.mesh_utils.",
    "jax.profiler.",
    "jax.debug.",
    "jax.dtypes.",
    "jax.errors.",
    "jax.typing.",
    "jax.stages.",
    "jax.monitoring.",
    "jax.tree_util.",
    "jax.tree.",
)

# Libraries built on JAX whose functions compute on the JAX values they are given.
JAX_LIBRARIES = (
    "flax.", "optax.", "equinox.", "haiku.", "chex.", "jaxopt.", "diffrax.", "optimistix.",
    "lineax.", "numpyro.", "blackjax.", "distrax.", "rlax.", "jraph.", "brax.", "mujoco.mjx.",
    "jax_md.", "neural_tangents.", "tensorflow_probability.substrates.jax.", "einops.",
    "ott.", "evosax.", "gymnax.", "jumanji.", "dm_pix.", "praxis.", "levanter.", "haliax.",
    "penzai.", "trax.",
)

# Libraries that work on the host: given JAX arrays they copy them there (a plot, a log
# line, a metric writer, a file, another framework's tensor), which waits for them.
HOST_PREFIXES = (
    "numpy.", "matplotlib.", "pandas.", "PIL.", "imageio.", "wandb.", "tensorboardX.",
    "torch.", "tensorflow.", "sklearn.", "scipy.", "json.", "pickle.", "csv.",
    "logging.", "absl.logging.", "tqdm.", "clu.metric_writers.", "mlflow.", "seaborn.",
    "cv2.", "h5py.",
    # flax's TensorBoard writer: ``summary_writer.scalar("loss", loss, step)`` converts the
    # value to a host number as it writes it
    "flax.metrics.tensorboard.",
)

# Functions of JAX libraries that restructure a tree of arrays without computing: they give
# back the same arrays (no work of their own, and what is pending stays pending).
RESTRUCTURE = frozenset({
    "flax.core.freeze", "flax.core.unfreeze", "flax.core.copy",
    "flax.core.frozen_dict.freeze", "flax.core.frozen_dict.unfreeze",
    "flax.core.frozen_dict.copy", "flax.core.FrozenDict", "flax.core.frozen_dict.FrozenDict",
    "flax.traverse_util.flatten_dict", "flax.traverse_util.unflatten_dict",
})

# Functions of JAX libraries that write their JAX values to storage (a checkpoint, bytes):
# they copy them to the host first, which waits for them, as a host library's call does.
# (Orbax's asynchronous save also returns only once the arrays are on the host.)
HOST_WRITERS = frozenset({
    "flax.training.checkpoints.save_checkpoint",
    "flax.training.checkpoints.save_checkpoint_multiprocess",
    "flax.serialization.to_bytes",
    "flax.serialization.msgpack_serialize",
    "equinox.tree_serialise_leaves",
})

# Elementwise functions of jax.numpy: on scalars (a learning-rate schedule of the step
# counter) they make a few scalars; no reduction, product, factorisation or constructor.
ELEMENTWISE = frozenset(f"jax.numpy.{name}" for name in (
    "cos", "sin", "tan", "arccos", "arcsin", "arctan", "arctan2", "cosh", "sinh", "tanh",
    "exp", "exp2", "expm1", "log", "log2", "log10", "log1p", "sqrt", "cbrt", "square",
    "power", "float_power", "abs", "absolute", "sign", "floor", "ceil", "round", "rint",
    "trunc", "minimum", "maximum", "fmin", "fmax", "clip", "where", "select", "negative",
    "reciprocal", "mod", "remainder", "floor_divide", "true_divide", "divide", "multiply",
    "add", "subtract", "logical_and", "logical_or", "logical_not", "less", "greater",
    "less_equal", "greater_equal", "equal", "not_equal", "isnan", "isfinite", "asarray",
    "array"))

# A class of a package outside the project (the project index does not know it), used as
# a ``with`` item, whose name says it is a timer (``with mlxu.Timer() as t:``,
# ``with ContextTimer(timer, "fwd"):``): it reads the clock on entry and on exit, as the
# library timers below do. (Not the standard library's ``threading.Timer`` or
# ``timeit.Timer``, which are no context managers.) Without the index nothing is guessed.
TIMER_CLASS = re.compile(r"\w*Timer|Stop[Ww]atch")
NOT_TIMER_CLASSES = frozenset({"threading.Timer", "timeit.Timer"})

# Timers of libraries used in ``with``: they read the clock on entry and on exit, so the
# ``with`` body is a timed region (``with py_utils.timeit() as period:``).
LIBRARY_TIMERS = frozenset(
    {
        "praxis.py_utils.timeit",
        "codetiming.Timer",
        "contexttimer.Timer",
    }
)

# Methods of JAX libraries' objects that give what the object has computed (metrics, samples,
# state): a value made by then, so waiting for it, or copying it, waits for that work.
LIBRARY_READERS = frozenset(
    {"compute", "get_samples", "get_extra_fields", "get_metrics", "result", "results",
     "summary", "state_dict", "get_state", "value", "values"}
)

# Functions of JAX libraries that copy what they are given to the host.
LIBRARY_TRANSFERS = frozenset(
    {
        "flax.training.common_utils.get_metrics",
        "flax.jax_utils.unreplicate_and_get",
        # acme's JAX utilities: ``device_get`` of the first replica (``as_numpy`` by
        # default), ``np.asarray`` of every leaf
        "acme.jax.utils.get_from_first_device",
        "acme.jax.utils.fetch_devicearray",
        "acme.jax.utils.to_numpy",
        "acme.jax.utils.to_numpy_squeeze",
        "numpyro.infer.MCMC.print_summary",
        "numpyro.diagnostics.print_summary",
        "numpyro.diagnostics.summary",
        "mujoco.mjx.get_data_into",
        "mujoco.mjx.get_data",
        # gathers every process's arrays into NumPy arrays on each host
        "jax.experimental.multihost_utils.process_allgather",
    }
)


# The name of a function that copies what it is given to the host (``unreplicate_and_get``,
# ``fetch_to_host``, ``to_numpy``): a function nothing else is known of (not the file's, not
# in the project index, not a known library's) with such a name is taken for a transfer.
HOST_FETCH_NAME = re.compile(r"(?:^|_)(?:device_get|and_get|to_host|to_numpy|fetch)(?:$|_)")

# A tokenizer's decoding methods (Hugging Face tokenizers and processors, SentencePiece,
# tiktoken): given token ids as JAX arrays, they read them on the host to make text. Asked
# of an object nothing else is known of, by the name that holds it (``tokenizer``,
# ``self.processor``, ``tok``, ``sp_model``): a ``decode`` of anything else (a model's, a
# VAE's) may be JAX work.
DECODE_METHODS = frozenset({"decode", "batch_decode", "convert_ids_to_tokens"})
TOKENIZER_NAME = re.compile(r"(?i)(?:^|[._])(?:\w*tokeni[sz]er\w*|tok|processor|sp_model|sp|"
                            r"vocab\w*)$")


@dataclass(frozen=True)
class Extras:
    """A project's own names (from ``[tool.jaxlint]``): clocks, JAX work and syncs."""

    timers: frozenset[str] = frozenset()
    work: frozenset[str] = frozenset()
    syncs: frozenset[str] = frozenset()

    def needles(self) -> tuple[str, ...]:
        """Text that a file using one of these names must contain."""
        return tuple(n.rsplit(".", 1)[-1] for n in self.timers)


NO_EXTRAS = Extras()


def classify(qualified_name: str, extras: Extras = NO_EXTRAS) -> CallKind:
    """What a call of ``qualified_name`` does; the one table every rule relies on."""
    name = qualified_name
    if name in extras.timers:
        return CallKind.TIMER
    if name in extras.syncs:
        return CallKind.SYNC
    if name in extras.work:
        return CallKind.WORK
    if name in TIMERS:
        return CallKind.TIMER
    if name in HARNESSES:
        return CallKind.HARNESS
    if name in HARNESS_TIMERS:
        return CallKind.HARNESS_TIMER
    if name in SYNCS:
        return CallKind.SYNC
    if name in TRANSFERS or name in LIBRARY_TRANSFERS:
        return CallKind.TRANSFER
    if name in TREE_MAPS:
        return CallKind.TREE_MAP
    if name in TRANSFORMS:
        return CallKind.TRANSFORM
    if name in PARTIALS:
        return CallKind.PARTIAL
    if name in NO_WORK or name.startswith(NO_WORK_PREFIXES):
        return CallKind.NO_WORK
    if name.count(".") == 1 and name.startswith("jax."):
        # ``jax.set_mesh``, ``jax.make_mesh``, ``jax.typeof``: the top level of ``jax`` is
        # mostly transformations, configuration and bookkeeping; only these compute.
        return CallKind.WORK if name in TOP_LEVEL_WORK else CallKind.NO_WORK
    if name.startswith("jax.") or name == "jax":
        return CallKind.WORK
    if name.startswith(HOST_PREFIXES) or name in HOST_WRITERS:
        return CallKind.HOST
    return CallKind.UNKNOWN


# Packages named for JAX that are no library computing on JAX values: the backend itself
# and annotation helpers.
NOT_JAX_NAMED_LIBRARIES = frozenset({"jax", "jaxlib", "jaxtyping"})


# A library of several frameworks whose JAX classes say so by name: Hugging Face's
# ``FlaxAutoModel``, ``FlaxBertModel`` (in ``modeling_flax_*``), whose outputs are JAX
# arrays. (Not diffusers: its Flax pipelines hand back NumPy images, copied inside.)
FLAX_NAMED = ("transformers.",)


def is_jax_library(qualified_name: str) -> bool:
    if qualified_name.startswith(JAX_LIBRARIES):
        return True
    return qualified_name.startswith(FLAX_NAMED) and any(
        part.startswith(("Flax", "modeling_flax"))
        for part in qualified_name.split(".")[1:])


def jax_named_package(qualified_name: str) -> str | None:
    """The top-level package of ``qualified_name`` when its name says it is built on JAX
    (``jaxfluids``, ``jax_cosmo``, ``jaxley``), else None. Whether the project itself
    holds it is for the caller to ask."""
    top, dot, _ = qualified_name.partition(".")
    if dot and top.startswith("jax") and top not in NOT_JAX_NAMED_LIBRARIES:
        return top
    return None
