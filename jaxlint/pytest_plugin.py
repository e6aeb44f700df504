"""``pytest --jaxlint``: JAX timing mistakes in a benchmark suite, found statically and at run time.

Registered through the ``pytest11`` entry point and inactive unless ``--jaxlint`` is given:

* the collected test modules are linted as the command line lints them (their
  ``[tool.jaxlint]``, the project index, its excludes), and the findings are listed in
  pytest's summary, in a ``jaxlint`` section;
* every clock read the test modules make is checked for JAX work still running when it stops a
  region, as ``jaxlint verify --detect`` checks a script (``jaxlint.verify.live``), and so are
  pytest-benchmark's own reads: its timer is the instrumented clock (installed before
  pytest-benchmark reads ``--benchmark-timer``), and its runner is given the benchmarked
  function wrapped to keep its last result (pytest-benchmark drops it, as ``timeit`` does),
  for the first ``SAMPLED`` rounds of each benchmark only, so the rounds after them run and
  measure exactly as without jaxlint. A region with work pending at its stop is a warning
  (``JaxlintWarning``) on the test that ran it.

``--jaxlint=error`` makes both failures: the test whose clock read found pending work fails,
and so does a ``path::jaxlint`` item added for each test module with a static finding.

Importing this module costs nothing more than pytest's own import: the linter and the check
are imported only when ``--jaxlint`` is given.
"""

from __future__ import annotations

import os
import warnings
from collections.abc import Iterator
from types import FrameType
from typing import TYPE_CHECKING, Any

import pytest

if TYPE_CHECKING:
    from jaxlint.verify.detect import Static

SAMPLED = 5  # pytest-benchmark runner calls (calibration and rounds) checked per benchmark


class JaxlintWarning(UserWarning):
    """A JAX timing mistake jaxlint found in a test (at run time: work still running)."""


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("jaxlint", "JAX timing mistakes (jaxlint)")
    group.addoption(
        "--jaxlint", nargs="?", const="warn", default=None, choices=("warn", "error"),
        dest="jaxlint", metavar="warn|error",
        help="lint the collected test modules for JAX timings that miss "
             "jax.block_until_ready, and check at each clock read of the tests and of "
             "pytest-benchmark whether JAX work is still running: as warnings, or with "
             "--jaxlint=error as failures (write it after the paths, or with '=')")


@pytest.hookimpl(tryfirst=True)
def pytest_configure(config: pytest.Config) -> None:
    # First: the clock must be instrumented before pytest-benchmark loads its timer and
    # before the test modules import ``from time import perf_counter``.
    mode = config.getoption("jaxlint", None)
    if mode:
        config.pluginmanager.register(_Jaxlint(config, mode), "jaxlint-checks")


class _Failure(Exception):
    """The static findings of one module, under --jaxlint=error."""


class JaxlintItem(pytest.Item):
    """A test module's static findings: a failure under ``--jaxlint=error``."""

    def __init__(self, *, text: str, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.text = text

    def runtest(self) -> None:
        raise _Failure(self.text)

    def repr_failure(self, excinfo: pytest.ExceptionInfo[BaseException],
                     style: Any = None) -> str:
        if isinstance(excinfo.value, _Failure):
            return str(excinfo.value)
        return str(super().repr_failure(excinfo))

    def reportinfo(self) -> tuple[Any, int | None, str]:
        return self.path, None, f"{self.path.name}::jaxlint"


class _Jaxlint:
    """The plugin's state for one session (registered only with ``--jaxlint``)."""

    def __init__(self, config: pytest.Config, mode: str) -> None:
        from jaxlint.codes import CODES
        from jaxlint.config import Resolver
        from jaxlint.files import Excluder
        from jaxlint.verify.live import LiveCheck

        self.config = config
        self.mode = mode
        self.cwd = str(config.invocation_params.dir)
        self.resolver = Resolver(warn=self._warn, known=list(CODES))
        self.excluder = Excluder(self.resolver.for_folder)
        self.modules: dict[str, Any] = {}  # the project index's analysed modules
        self.files: set[str] = set()  # the test modules, as their code names them
        self.static: dict[str, list[Any]] = {}  # test module -> its static findings
        self.runtime: list[tuple[str, Any]] = []  # (test id, finding)
        self.sampling = False  # a checked round of a pytest-benchmark runner is running
        self.runner_code = _benchmark_runner_code()
        self.live = LiveCheck(self._owns)
        self.live.install()

    def _warn(self, line: str) -> None:
        warnings.warn(line, JaxlintWarning, stacklevel=2)

    def _owns(self, frame: FrameType) -> bool:
        code = frame.f_code
        return code.co_filename in self.files or (self.sampling and code is self.runner_code)

    def _display(self, path: str) -> str:
        rel = os.path.relpath(path, self.cwd)
        return path if rel.startswith("..") else rel

    # --------------------------------------------------------------- static
    # First, before ``-k`` / ``-m`` deselect: the module's ``jaxlint`` item is then selected
    # as its tests are (``-k synced`` runs no static check of its own).
    @pytest.hookimpl(tryfirst=True)
    def pytest_collection_modifyitems(self, session: pytest.Session, config: pytest.Config,
                                      items: list[pytest.Item]) -> None:
        from jaxlint.config import ConfigError

        modules: dict[str, pytest.Module] = {}
        for item in items:
            module = item.getparent(pytest.Module)
            if module is not None:
                modules.setdefault(str(module.path), module)
        self.files = set(modules) | {os.path.realpath(p) for p in modules}
        for path, module in modules.items():
            try:
                found = self._lint(path)
            except ConfigError as exc:
                raise pytest.UsageError(f"jaxlint: {exc}") from None
            self.static[path] = found
            if found and self.mode == "error":
                text = "\n".join(f"{f.location}: {f.code} {f.message}" for f in found)
                items.append(JaxlintItem.from_parent(module, name="jaxlint", text=text))

    def _lint(self, path: str) -> list[Any]:
        from jaxlint.engine import lint_source
        from jaxlint.errors import SourceError
        from jaxlint.settings import for_file, might_matter

        if self.excluder.excluded(path, False):
            return []
        config = self.resolver.for_file(path)
        try:
            with open(path, "rb") as fh:
                data = fh.read()
        except OSError:
            return []
        if not might_matter(data, config.extras, project=True):
            return []
        settings = for_file(path, config, self.modules)
        try:
            return lint_source(data, self._display(path), settings=settings)
        except SourceError:
            return []  # pytest reports the module's own errors

    # --------------------------------------------------------------- runtime
    @pytest.hookimpl(wrapper=True)
    def pytest_runtest_call(self, item: pytest.Item) -> Iterator[None]:
        self.live.take(0)  # what was read before the test is no test's
        self._keep_benchmark_results(item)
        try:
            result = yield
        except BaseException:
            found = self._pending(item)
            if found:
                item.add_report_section("call", "jaxlint", _lines(found))
            raise
        found = self._pending(item)
        if found and self.mode == "error":
            pytest.fail(_lines(found), pytrace=False)
        for f in found:
            path = os.path.join(self.cwd, f.path)
            warnings.warn_explicit(JaxlintWarning(f"{f.code} {f.message}"), JaxlintWarning,
                                   path, f.line)
        return result

    def _pending(self, item: pytest.Item) -> list[Any]:
        """The runtime findings of the test that just ran (``detect.runtime_findings``)."""
        import functools

        from jaxlint.verify.detect import runtime_findings, static_index
        from jaxlint.verify.live import placed

        out = []
        for file, checks in placed(self.live.take(), self.files.__contains__).items():
            index = static_index(self.static.get(file, []))
            found, _ = runtime_findings(self._display(file), checks,
                                        functools.partial(_read, file),
                                        functools.partial(_pair, index))
            out.extend(found)
        out = [f for f in out if self._enabled(f)]
        self.runtime.extend((item.nodeid, f) for f in out)
        return out

    def _enabled(self, finding: Any) -> bool:
        from jaxlint.engine import enabled

        path = os.path.join(self.cwd, finding.path)
        config = self.resolver.for_file(path)
        return enabled(finding.code, config.select, config.ignores_for(path))

    def _keep_benchmark_results(self, item: pytest.Item) -> None:
        """Give the test's pytest-benchmark fixture a runner whose first ``SAMPLED`` calls
        run the benchmarked function wrapped to keep its last result until the timer stops
        (one more Python call per iteration, in those rounds only) and are checked; later
        calls run the fixture's own runner, unchanged."""
        fixture = getattr(item, "funcargs", {}).get("benchmark")
        make = getattr(fixture, "_make_runner", None)
        if make is None or self.runner_code is None:
            return
        plugin = self
        budget = SAMPLED

        def make_runner(function: Any, args: Any, kwargs: Any) -> Any:
            last = None

            def keep(*a: Any, **k: Any) -> Any:
                nonlocal last
                last = function(*a, **k)
                return last

            checked, plain = make(keep, args, kwargs), make(function, args, kwargs)

            def runner(*a: Any, **k: Any) -> Any:
                nonlocal budget, last
                if budget <= 0:
                    return plain(*a, **k)
                budget -= 1
                plugin.sampling = True
                try:
                    return checked(*a, **k)
                finally:
                    plugin.sampling = False
                    last = None

            return runner

        fixture._make_runner = make_runner  # type: ignore[union-attr]

    # --------------------------------------------------------------- summary
    def pytest_terminal_summary(self, terminalreporter: Any) -> None:
        static = sorted((f for found in self.static.values() for f in found),
                        key=lambda f: f.sort_key())
        terminalreporter.write_sep("-", "jaxlint")
        for f in static:
            terminalreporter.write_line(f"{f.location}: {f.code} {f.message}")
        for nodeid, f in self.runtime:
            terminalreporter.write_line(f"{f.location}: {f.code} {f.message} (in {nodeid})")
        modules = sum(1 for found in self.static.values() if found)
        tests = len({nodeid for nodeid, _ in self.runtime})
        cost = self.live.cost_s()
        checked = (f"; the runtime check cost {cost * 1e6:.0f} us per clock read (median of "
                   f"{self.live.reads})") if cost is not None else "; no clock read checked"
        terminalreporter.write_line(
            f"jaxlint: {len(static)} static finding{'s' if len(static) != 1 else ''} in "
            f"{modules} of {len(self.static)} test modules, {len(self.runtime)} runtime "
            f"finding{'s' if len(self.runtime) != 1 else ''} in {tests} "
            f"test{'s' if tests != 1 else ''}{checked}")

    def pytest_unconfigure(self, config: pytest.Config) -> None:
        self.live.uninstall()


def _benchmark_runner_code() -> Any:
    """The code of pytest-benchmark's runner (the function whose two reads time a round),
    or None without pytest-benchmark."""
    try:
        from pytest_benchmark.fixture import BenchmarkFixture
    except ImportError:
        return None
    make = getattr(BenchmarkFixture, "_make_runner", None)
    consts = getattr(getattr(make, "__code__", None), "co_consts", ())
    return next((c for c in consts if getattr(c, "co_name", None) == "runner"), None)


def _lines(found: list[Any]) -> str:
    return "\n".join(f"{f.location}: {f.code} {f.message}" for f in found)


def _read(path: str) -> str:
    with open(path, "rb") as fh:
        return fh.read().decode("utf-8", "replace")


def _pair(index: Static) -> Static:
    return index
