from __future__ import annotations

import os

import pytest

# The blind synthetic set is code to lint, not tests: its pytest-benchmark suite
# (blind_synth/benchsuite/test_bench_kernels.py) needs a plugin the suite does not use.
collect_ignore = ["blind_synth"]


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--update-fixtures",
        action="store_true",
        help="rewrite fixtures/**/NAME.fixed.py from the current fixer (review the diff!)",
    )


def pytest_configure(config: pytest.Config) -> None:
    """A background job of a non-interactive shell (``pytest ... &`` in a script) starts with
    Ctrl-C ignored, and passes that on to every process it starts: the tests of what Ctrl-C
    does would fail (``--watch`` waited 30 s for its exit), as no user's terminal runs
    jaxlint. Ctrl-C is given back its default here (in each pytest-xdist worker too)."""
    import signal

    if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
        signal.signal(signal.SIGINT, signal.default_int_handler)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The fixture tests ask several questions of each fixture, and fixture_support answers
    each question once per test process: run them one fixture after another, so that the
    test processes of pytest-xdist (which take consecutive tests) share the answers."""
    at = [k for k, item in enumerate(items) if item.nodeid.startswith("tests/test_fixtures.py")
          and "path" in getattr(getattr(item, "callspec", None), "params", {})]
    ordered = sorted((items[k] for k in at), key=lambda item: str(item.callspec.params["path"]))
    for k, item in zip(at, ordered):
        items[k] = item


@pytest.fixture(scope="session", autouse=True)
def _share_fixture_answers(tmp_path_factory: pytest.TempPathFactory) -> None:
    """Under pytest-xdist, the test processes of this run share fixture_support's answers
    through a folder of the run's own temporary folder (which every worker's is inside)."""
    import fixture_support

    if os.environ.get("PYTEST_XDIST_WORKER"):
        shared = tmp_path_factory.getbasetemp().parent / "fixture-answers"
        shared.mkdir(exist_ok=True)
        fixture_support.SHARED = shared
