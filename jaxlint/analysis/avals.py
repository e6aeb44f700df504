"""Shapes and dtypes of arrays, where the code that makes them spells them out.

A jitted function compiles once per set of argument shapes and dtypes (and static values):
a call with an array of a new shape or dtype traces and compiles it again (a warm-up on a
one-row batch, a float32 warm-up before a bfloat16 loop). The analysis knows an array's
shape and dtype only where a constructor is given literals (``jnp.ones((64, 512))``,
``jax.random.normal(key, (n, 4), jnp.bfloat16)`` with ``n`` unknown is not known) or where
``x.astype(dtype)`` changes the dtype of a known array; any other operation makes an array
whose shape is not known. A call is taken to compile again only when, at some argument, it
and every earlier call of the function have known, different shapes or dtypes: unknown
never counts as different.

jit also compiles one program per pytree structure of its arguments (measured on CPU JAX,
``tests/semantic/compiles``): a list of another length, a tuple where a list was, a dict
with other keys, ``None`` where an array was, and a keyword where the warm-up passed the
argument by position (or another number of positional arguments) each compile again. The
structure is known where the call spells it: a literal ``None``, list, tuple or dict
(string keys) as the argument, an array or a Python number (one leaf), and the call's own
positional and keyword arguments (``STRUCTURE`` entries, keyed ``KEY#`` and ``ARGS``).
"""

from __future__ import annotations

import ast
from collections.abc import Callable, Collection, Sequence

import libcst as cst

from jaxlint.analysis.syntax import dotted, literal_text

# constructors: (position of the shape, position of the dtype); keywords ``shape``/``dtype``
CONSTRUCTORS: dict[str, tuple[int, int]] = {
    "jax.numpy.ones": (0, 1),
    "jax.numpy.zeros": (0, 1),
    "jax.numpy.empty": (0, 1),
    "jax.numpy.full": (0, 2),
    "jax.random.normal": (1, 2),
    "jax.random.uniform": (1, 2),
    "jax.random.truncated_normal": (3, 4),
}
DTYPES = frozenset({
    "float16", "bfloat16", "float32", "float64", "int8", "int16", "int32", "int64",
    "uint8", "uint16", "uint32", "uint64", "bool_", "complex64", "complex128"})
BUILTIN_DTYPES = {"float": "float32", "int": "int32", "bool": "bool_", "complex": "complex64"}
WEAK = "~weak"  # the dtype of a Python number given to jit: weakly typed
DEFAULT_DTYPE = "float32"  # (JAX without x64: see ``FlowAnalysis.avals_known``)
# without x64, a 64-bit dtype asked for is its 32-bit one (JAX warns and truncates)
WITHOUT_X64 = {"float64": "float32", "int64": "int32", "uint64": "uint32",
               "complex128": "complex64"}


def dtype_of(node: cst.BaseExpression | None) -> str | None:
    """``jnp.bfloat16``, ``np.float32``, ``"float32"``, ``float``: the dtype's name."""
    name = _dtype_name(node)
    return WITHOUT_X64.get(name, name) if name is not None else None


def _dtype_name(node: cst.BaseExpression | None) -> str | None:
    if node is None:
        return None
    if isinstance(node, cst.SimpleString):
        text = node.evaluated_value if isinstance(node.evaluated_value, str) else ""
        return text if text in DTYPES else None
    if isinstance(node, cst.Name) and node.value in BUILTIN_DTYPES:
        return BUILTIN_DTYPES[node.value]
    spelled = dotted(node) if isinstance(node, (cst.Name, cst.Attribute)) else None
    last = spelled.rsplit(".", 1)[-1] if spelled else None
    return last if last in DTYPES else None


def shape_text(literal: str) -> str | None:
    """``(1024, 1024)``, ``[64, 512]``, ``512``: the shape as one text, else None."""
    try:
        value = ast.literal_eval(literal)
    except (ValueError, SyntaxError, MemoryError, RecursionError):
        return None
    if isinstance(value, int) and not isinstance(value, bool):
        value = (value,)
    if isinstance(value, (tuple, list)) and all(
            isinstance(d, int) and not isinstance(d, bool) for d in value):
        return str(tuple(value))
    return None


def _argument(node: cst.Call, position: int, keyword: str) -> cst.BaseExpression | None:
    for arg in node.args:
        if arg.keyword is not None and arg.keyword.value == keyword:
            return arg.value
    positional = [a for a in node.args if a.keyword is None]
    if any(a.star for a in positional[:position + 1]):
        return None
    return positional[position].value if position < len(positional) else None


def number_literal(node: cst.BaseExpression) -> str | None:
    """``0.01``, ``-3``, ``1e-3``: "float" or "int" for a Python number written out."""
    if isinstance(node, cst.UnaryOperation) and isinstance(node.operator, (cst.Minus, cst.Plus)):
        node = node.expression
    if isinstance(node, cst.Float):
        return "float"
    if isinstance(node, cst.Integer):
        return "int"
    return None


def weak(node: cst.BaseExpression) -> tuple[str, ...]:
    """The aval of a Python number given to a jitted function: a scalar of JAX's default
    dtype for its kind, weakly typed (``0.01`` is not ``jnp.float32(0.01)``: each compiles
    its own program)."""
    kind = number_literal(node)
    return (f"():{BUILTIN_DTYPES[kind]}{WEAK}",) if kind is not None else ()


def _dimension(value: int | None) -> int | None:
    """``value`` if it can be an array's dimension (an ``int64``), else None: a product of
    huge literals in an unvetted file is not one (nor printable past 4,300 digits)."""
    return value if value is not None and 0 <= value < 2 ** 63 else None


def made(q: str, node: cst.Call, loop_literals: Sequence[tuple[str, list[str], object]],
         number: Callable[[cst.BaseExpression], int | None] | None = None
         ) -> tuple[str, ...]:
    """The avals of the array ``q(...)`` makes, if its shape and dtype are spelt out; a
    shape named by the variable of a loop over literals gives one per element; a scalar of
    a dtype made from a number (``jnp.float32(0.01)``, strongly typed). ``number``: the
    integer a name of the shape holds, if the analysis knows one (``BATCH = 128`` then
    ``(BATCH, 784)``)."""
    where = CONSTRUCTORS.get(q)
    if where is None:
        name = q.rsplit(".", 1)[-1]
        if q.startswith("jax.numpy.") and name in DTYPES and len(node.args) == 1 and (
                node.args[0].keyword is None and number_literal(node.args[0].value)):
            return (f"():{WITHOUT_X64.get(name, name)}",)
        return ()
    shape_node = _argument(node, where[0], "shape")
    if shape_node is None:
        texts: list[str] = []
    elif isinstance(shape_node, cst.Name):
        swept = [v for n, v, _ in reversed(loop_literals) if n == shape_node.value]
        known = _dimension(number(shape_node)) if number is not None and not swept else None
        texts = swept[0] if swept else [str(known)] if known is not None else []
    elif number is not None and isinstance(shape_node, (cst.Tuple, cst.List)) and all(
            isinstance(e, cst.Element) for e in shape_node.elements):
        dims = [_dimension(number(e.value)) for e in shape_node.elements]
        texts = [str(tuple(dims))] if None not in dims else []
    else:
        texts = [cst.Module([]).code_for_node(shape_node)]
    shapes = [shape_text(t) for t in texts] or [None]
    if None in shapes:
        shapes = ["?"]  # (its dtype may still be known)
    dtype_node = _argument(node, where[1], "dtype")
    if dtype_node is not None:
        dtype = dtype_of(dtype_node)
    elif q == "jax.numpy.full":
        fill = _argument(node, 1, "fill_value")
        text = literal_text(fill) if fill is not None else None
        dtype = None if text is None else "float32" if "." in text else "int32"
    else:
        dtype = DEFAULT_DTYPE
    if dtype is None and shapes == ["?"]:
        return ()
    return tuple(dict.fromkeys(f"{s}:{dtype or '?'}" for s in shapes if s is not None))


def as_dtype(avals: tuple[str, ...], node: cst.Call) -> tuple[str, ...]:
    """``x.astype(dtype)`` of an array whose avals are ``avals``."""
    dtype = dtype_of(node.args[0].value) if node.args and node.args[0].keyword is None else (
        None)
    if dtype is None:
        return ()
    return tuple(dict.fromkeys(f"{a.rsplit(':', 1)[0]}:{dtype}" for a in avals or ("?:",)))


Signature = tuple[tuple[str, tuple[str, ...]], ...]

STRUCTURE = "-"  # the dtype part of an entry that is a pytree structure, not an array
ARGS = "()"  # the key of the entry for how the call passes its arguments
LEAF = "one leaf"


def structure(node: cst.BaseExpression) -> str | None:
    """The pytree structure of an argument the call spells out: ``None``; a list, tuple or
    dict literal (string keys) at its top level, elements not looked into; a Python number
    (one leaf). None when the syntax does not say."""
    if isinstance(node, cst.Name) and node.value == "None":
        return "None"
    if isinstance(node, (cst.List, cst.Tuple)):
        if any(isinstance(e, cst.StarredElement) for e in node.elements):
            return None
        kind = "list" if isinstance(node, cst.List) else "tuple"
        return f"a {kind} of {len(node.elements)}"
    if isinstance(node, cst.Dict):
        keys = []
        for e in node.elements:
            if not (isinstance(e, cst.DictElement) and isinstance(e.key, cst.SimpleString)
                    and isinstance(e.key.evaluated_value, str)):
                return None
            keys.append(e.key.evaluated_value)
        return ("a dict with keys " + ", ".join(repr(k) for k in sorted(set(keys)))
                if keys else "an empty dict")
    return LEAF if number_literal(node) is not None else None


def passing(positional: int, keywords: Sequence[str]) -> tuple[str, tuple[str, ...]]:
    """The entry for how a call passes its (non-static) arguments: jit's cache key holds
    the tree of ``(args, kwargs)``, so ``f(x, s=1.0)`` after ``f(x, 1.0)`` compiles again."""
    words = f"{positional} positional"
    if keywords:
        names = [f"`{k}`" for k in sorted(keywords)]
        words += "; " + (", ".join(names[:-1]) + " and " if len(names) > 1 else "") + (
            names[-1] + " by keyword")
    return (ARGS, (f"{words}:{STRUCTURE}",))


def _is_structure(key: str) -> bool:
    return key == ARGS or key.endswith("#")


def _apart(a: str, b: str) -> bool:
    """Two avals ("shape:dtype", either part "?" when not known) surely different."""
    shape_a, _, dtype_a = a.rpartition(":")
    shape_b, _, dtype_b = b.rpartition(":")
    return ("?" not in (shape_a, shape_b) and shape_a != shape_b) or (
        "?" not in (dtype_a, dtype_b) and dtype_a != dtype_b)


def differs(earlier: Signature, now: Signature) -> bool:
    """Whether a call with ``now`` surely (or, over a loop's literal shapes, on some round)
    needs another program than one with ``earlier``: some argument with a shape or dtype
    known to be none of those ``earlier`` gave it."""
    before = dict(earlier)
    return any(any(all(_apart(b, a) for b in before.get(key, ())) for a in avals)
               for key, avals in now if avals and before.get(key))


def called_with(origin: object, called: Collection[object]) -> list[Signature | str]:
    """The signatures of the calls of the jitted function ``origin`` that a state's
    ``called`` set records (``(origin, "aval", signature)``; "?" where one was not known)."""
    return [c[2] for c in called  # type: ignore[index]
            if isinstance(c, tuple) and len(c) == 3 and c[0] is origin and c[1] == "aval"]


def recompiled_from(earlier: Sequence[Signature | str], now: Signature,
                    also: Sequence[Signature | str] = ()) -> tuple[str, str, str] | None:
    """When a call with ``now`` needs another program than every call of ``earlier`` (and
    ``also``) had: the text of the earlier arguments, for the message (the least, so that a
    set's order never changes it), what changed ("shape": some call differs in a shape or
    dtype, "structure": only in pytree structure), and the text of ``now``. None when there
    is no earlier call or one may share it."""
    if earlier and all(not isinstance(e, str) and differs(e, now) for e in [*earlier, *also]):
        arrays = tuple(entry for entry in now if not _is_structure(entry[0]))
        kind = "shape" if any(
            not isinstance(e, str) and differs(e, arrays) for e in [*earlier, *also]) else (
                "structure")
        # (how each passes its arguments is said where that is what changed)
        spoken = kind == "structure" and any(
            not isinstance(e, str) and dict(e).get(ARGS) != dict(now).get(ARGS)
            for e in earlier)
        return (min(text(e, spoken) for e in earlier if not isinstance(e, str)), kind,
                text(now, spoken))
    return None


def is_cast(q: str) -> bool:
    """``jnp.float32(x)``, ``jnp.bfloat16(x)``: a dtype's constructor, an elementwise cast."""
    return q.startswith("jax.numpy.") and q.rsplit(".", 1)[1] in DTYPES


def text(signature: Signature, arguments: bool = False) -> str:
    """The known shapes and dtypes of a call, for messages: ``(64, 512) float32``, a shape
    or dtype not known left out; a structure where it is more than one leaf (``a list of
    3``, ``None``), and the keywords the call passes (``s by keyword``); with
    ``arguments``, also how many it passes by position."""
    trees = {key[:-1]: avals[0].rpartition(":")[0] for key, avals in signature
             if key.endswith("#") and avals and not avals[0].startswith(LEAF + ":")}
    parts = []
    how = ""  # how the call passes its arguments
    for key, avals in signature:
        if key == ARGS:
            words = avals[0].rpartition(":")[0] if avals else ""
            keywords = words.partition("; ")[2]
            how = keywords or ("all by position" if arguments else "")
            continue
        if _is_structure(key):
            continue
        spoken = " or ".join(_spoken(a) for a in avals)
        tree = trees.pop(key, None)
        if tree is not None:
            parts.append(f"{tree} of {spoken}" if spoken and tree.startswith(
                ("a list", "a tuple")) else tree)
        elif spoken:
            parts.append(spoken)
    said = " and ".join(parts + list(trees.values()))
    if how:
        said = f"{said}, {how}" if said else f"arguments {how}"
    return said


def _spoken(aval: str) -> str:
    shape, _, dtype = aval.rpartition(":")
    if shape == "()" and dtype.endswith(WEAK):
        return f"a Python number (weakly typed {dtype[:-len(WEAK)]})"
    if shape == "()" and dtype != "?":
        return f"a {dtype} scalar"
    known = [part for part in (shape, dtype) if part != "?"]
    return " ".join(known) if known else "an array"
