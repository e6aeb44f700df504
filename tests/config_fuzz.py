"""Generated configuration files, and what must hold when jaxlint reads them.

A ``pyproject.toml`` comes from a hostile or careless checkout: any text, any TOML, any value
of any type under any ``[tool.jaxlint]`` key, deep nesting. Reading it must give a usable
configuration or a ``ConfigError`` (one line for the user), never another exception; and a
configuration that loads must lint and fix a timing program without crashing. Used by
tests/test_config_fuzz.py (few examples) and scripts/fuzz.py (many).
"""

from __future__ import annotations

import os
import tempfile
import traceback
from typing import Any

from hypothesis import strategies as st

from jaxlint.config import KEYS, ConfigError, load

PROGRAM = (
    "import time\nimport jax\nimport jax.numpy as jnp\n\n"
    "def run(x):\n    t0 = time.perf_counter()\n    y = jnp.dot(x, x)\n"
    "    return time.perf_counter() - t0\n"
)

ATOMS = st.one_of(
    st.booleans(), st.integers(min_value=-2**70, max_value=2**70),
    st.floats(allow_nan=False, allow_infinity=False), st.text(max_size=10),
    st.sampled_from(["JAX101", "JAX", "JAX1", "", " ", "E501", "time.perf_counter",
                     "my.timer", "*.py", "**/x", "[", "!", "/abs", "..", "\\", "\x00"]),
)
VALUES = st.recursive(
    ATOMS, lambda inner: st.lists(inner, max_size=4)
    | st.dictionaries(st.text(max_size=6), inner, max_size=3), max_leaves=10)


def _string(text: str) -> str:
    """A TOML basic string (every character escaped as TOML allows)."""
    out = []
    for ch in text:
        if ch in '"\\':
            out.append("\\" + ch)
        elif ord(ch) < 0x20 or ord(ch) == 0x7F or 0xD800 <= ord(ch) <= 0xDFFF:
            out.append(f"\\u{ord(ch):04x}" if ord(ch) < 0xD800 else "?")
        else:
            out.append(ch)
    return '"' + "".join(out) + '"'


def toml_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return repr(value)
    if isinstance(value, str):
        return _string(value)
    if isinstance(value, list):
        return "[" + ", ".join(toml_value(v) for v in value) + "]"
    return "{" + ", ".join(f"{_string(k)} = {toml_value(v)}" for k, v in value.items()) + "}"


@st.composite
def configs(draw: st.DrawFn) -> str:
    """The text of a pyproject.toml: a [tool.jaxlint] table of drawn keys and values, a
    misplaced one (``tool = "jaxlint"``), deep nesting, or arbitrary text."""
    kind = draw(st.sampled_from(["table", "table", "table", "scalar", "deep", "text"]))
    if kind == "text":
        return draw(st.text(max_size=80))
    if kind == "scalar":
        return f"tool = {toml_value(draw(VALUES))}\n"
    if kind == "deep":
        depth = draw(st.integers(min_value=1, max_value=3000))
        return "[tool.jaxlint]\nselect = " + "[" * depth + "]" * depth + "\n"
    keys = sorted(KEYS) + ["bogus", "per-file-ignores"]
    table = draw(st.dictionaries(st.sampled_from(keys), VALUES, max_size=5))
    lines = ["[tool.jaxlint]"]
    lines += [f"{_string(k)} = {toml_value(v)}" for k, v in table.items()]
    return "\n".join(lines) + "\n"


def check_config(text: str) -> list[str]:
    """What went wrong reading ``text`` as a pyproject.toml and linting with it."""
    from jaxlint import fix_source, lint_source
    from jaxlint.settings import for_file

    with tempfile.TemporaryDirectory() as folder:
        path = os.path.join(folder, "pyproject.toml")
        with open(path, "w", encoding="utf-8", errors="surrogatepass") as f:
            f.write(text)
        try:
            config = load(path)
        except ConfigError as exc:
            message = str(exc)
            if "\n" in message.strip() or not message.strip():
                return [f"config error not one line: {message!r}"]
            return []
        except Exception:  # noqa: BLE001 - the finding itself
            return ["crash reading: " + traceback.format_exc(limit=3)]
        script = os.path.join(folder, "bench.py")
        try:
            settings = for_file(script, config, None)
            lint_source(PROGRAM, script, settings=settings)
            fix_source(PROGRAM, script, settings=settings)
        except Exception:  # noqa: BLE001
            return ["crash linting: " + traceback.format_exc(limit=3)]
    return []
