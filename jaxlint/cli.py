"""Command line: parse arguments, run the engine on each file, print. No analysis here."""

from __future__ import annotations

import argparse
import inspect
import io
import os
import sys
import tokenize
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

from jaxlint import __version__, output
from jaxlint.codes import CODES
from jaxlint.config import Config, ConfigError, Resolver, load
from jaxlint.errors import SourceError
from jaxlint.files import (
    CACHE_DIRNAME,
    ChangedOnDisk,
    Excluder,
    NotWritten,
    PathError,
    discover,
    read,
    write_atomic,
)
from jaxlint.finding import FileError, Finding
from jaxlint.settings import Settings, might_matter
from jaxlint.text_lines import split_lines

if TYPE_CHECKING:
    from concurrent.futures import Future

    from jaxlint.cache import Cache

# libcst (and the engine that uses it) is imported only once a file passes ``might_matter``:
# most files in a tree, and most files pre-commit hands us, never need it.

EXIT_CLEAN, EXIT_FINDINGS, EXIT_ERROR = 0, 1, 2
EXIT_INTERRUPTED = 130  # 128 + SIGINT, as shells report it
TERMINAL_FORMATS = ("text", "concise", "full")
STORED_FORMATS = ("github", "gitlab", "sarif")  # place a notebook's findings in its JSON

# The default -j 0 analyses files in one process unless there are at least this many bytes to
# analyse: a worker process first imports libcst and the analysis (a few hundred ms), which
# the bundled fixtures (150 files, 85 KB) never won back on 2 cores, while 1.3 MB of them and
# the benchmark corpus ran 1.4x-1.5x faster on two (benchmarks/RESULTS.md, "One process or
# several", from benchmarks/jobs.py).
PARALLEL_MIN_BYTES = 512 * 1024
# Progress on a terminal's stderr only when this many files are to be analysed (a second or
# more); fewer finish before a progress line could be read.
PROGRESS_MIN_FILES = 20
# Runs over at least this many files use the cache's stat index (unchanged files are not
# read); for fewer, reading them costs less than loading the index.
STAT_INDEX_MIN_FILES = 50

SUBCOMMANDS = {
    "verify": "run scripts before and after the fix and compare what they measure "
    "(the only command that executes code)",
    "rule": "print a rule's documentation",
    "clean": f"remove the caches ({CACHE_DIRNAME}) in the current folder and below it",
    "server": "run a Language Server Protocol server on stdio for editors (needs the "
    "'server' extra)",
}


def _codes(text: str) -> list[str]:
    codes = [c.strip().upper() for c in text.split(",") if c.strip()]
    for c in codes:
        if not any(code.startswith(c) for code in CODES) and c not in ("ALL",):
            from jaxlint.config import did_you_mean

            raise argparse.ArgumentTypeError(f"unknown rule code or prefix: {c}"
                                             + did_you_mean(c, CODES, 0.75))
    return ["JAX" if c == "ALL" else c for c in codes]


def _patterns(text: str) -> list[str]:
    return [p.strip() for p in text.split(",") if p.strip()]


def _jobs(text: str) -> int:
    try:
        n = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: {text!r}") from None
    if n < 0:
        raise argparse.ArgumentTypeError(f"must be 0 (one per core) or more, not {n}")
    return n


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="jaxlint",
        description="Find (and fix) JAX timings that measure dispatch instead of work.",
        epilog="Subcommands: "
        + "; ".join(f"'jaxlint {k} ...' {v}" for k, v in SUBCOMMANDS.items())
        + ". Exit status: 0 clean (or --exit-zero), 1 findings remain, 2 a path could not "
        "be checked (0 with --exit-zero) or the command was wrong (usage, configuration).",
    )
    p.add_argument("paths", nargs="*", metavar="PATH", help="files or folders (default: .)")
    p.add_argument("--fix", action="store_true", help="apply safe fixes in place")
    p.add_argument("--unsafe-fixes", action="store_true",
                   help="also apply unsafe fixes (they move code or run it once more) with "
                   "--fix or --diff")
    p.add_argument("--diff", action="store_true",
                   help="print the fixes as a unified diff and write nothing")
    p.add_argument("--select", type=_codes, metavar="CODES",
                   help="comma-separated codes or prefixes to report (default: all); "
                   "replaces 'select' and 'extend-select' of the configuration")
    p.add_argument("--extend-select", type=_codes, action="extend", default=[],
                   metavar="CODES", help="codes or prefixes to report besides those selected")
    p.add_argument("--ignore", type=_codes, metavar="CODES",
                   help="comma-separated codes or prefixes not to report")
    p.add_argument("--format", "--output-format", dest="format", choices=output.FORMATS,
                   default="text", metavar="FORMAT",
                   help=f"output format: {', '.join(output.FORMATS)} (default: text); 'full' "
                   "shows source context, 'github', 'gitlab' and 'sarif' are for CI")
    p.add_argument("--statistics", action="store_true",
                   help="print the number of findings per rule instead of the findings "
                   "(as JSON with --format json or json-lines)")
    p.add_argument("--show-fixes", action="store_true",
                   help="with --format text, concise or full: show each file's fix as a "
                   "diff after its findings; with --fix, list what was fixed, per file and "
                   "code")
    p.add_argument("--add-noqa", action="store_true",
                   help="append '# noqa: CODE' to each line with a finding, so that a "
                   "codebase adopting jaxlint starts clean (and new code is checked)")
    p.add_argument("--show-files", action="store_true",
                   help="print the files that would be checked, one a line, and exit")
    p.add_argument("--show-settings", action="store_true",
                   help="print the settings the first file (or the current folder) is "
                   "checked with, and exit")
    p.add_argument("--watch", action="store_true",
                   help="check again whenever a file changes (needs the 'watch' extra)")
    p.add_argument("--output-file", "-o", metavar="PATH",
                   help="write the findings (or the diff, or the statistics) to PATH "
                   "instead of stdout, without colours")
    p.add_argument("--exit-zero", action="store_true",
                   help="exit 0 even when findings remain")
    p.add_argument("--config", metavar="PATH",
                   help="read [tool.jaxlint] from this pyproject.toml for every file "
                   "(default: for each file, the nearest one with a [tool.jaxlint] table in "
                   "its folder or above, up to the project root)")
    p.add_argument("--exclude", type=_patterns, action="extend", metavar="PATTERNS",
                   help="comma-separated gitignore-style patterns to leave out, replacing "
                   "'exclude' from the configuration and the default list")
    p.add_argument("--extend-exclude", type=_patterns, action="extend", default=[],
                   metavar="PATTERNS", help="patterns to leave out, besides the others")
    p.add_argument("--no-respect-gitignore", action="store_true",
                   help="check files that .gitignore files (and .git/info/exclude) ignore")
    p.add_argument("--force-exclude", action="store_true",
                   help="apply the excludes to paths named on the command line (and "
                   "--stdin-filename) too, as pre-commit hooks need")
    p.add_argument("--stdin-filename", metavar="PATH",
                   help="read the source from stdin and report it as PATH (for editors); "
                   "with --fix, the fixed source is written to stdout and findings to stderr")
    p.add_argument("-j", "--jobs", type=_jobs, default=0, metavar="N",
                   help="processes analysing files in parallel, at most one per core and "
                   "file (default 0: one per core when there is enough to analyse, else one)")
    p.add_argument("--no-cache", action="store_true",
                   help=f"do not read or write the cache ({CACHE_DIRNAME}/ beside the "
                   "configuration, or in the current folder)")
    p.add_argument("--no-index", action="store_true",
                   help="analyse each file alone, without what the modules it imports from "
                   "the project export")
    p.add_argument("--explain", metavar="PATH:LINE",
                   help="explain the findings at this line (in a notebook PATH:CELL:LINE): "
                   "the timed region, the JAX work still running at the stop and why it is "
                   "JAX work; where there is none, why not")
    p.add_argument("-q", "--quiet", action="store_true", help="no summary on stderr")
    p.add_argument(PRE_COMMIT, action="store_true",
                   help="as the first argument only, as the pre-commit hooks run: the "
                   "options end at the first argument that names an existing file or "
                   "folder, so a staged file named like an option is a file")
    p.add_argument("--version", action="version", version=f"jaxlint {__version__}")
    return p


@dataclass
class Run:
    findings: list[Finding] = field(default_factory=list)
    errors: list[FileError] = field(default_factory=list)  # paths that could not be checked
    fixed: int = 0
    held_back: int = 0
    diffs: list[str] = field(default_factory=list)
    texts: dict[str, str] = field(default_factory=dict)  # path -> source text, for output
    fixed_texts: dict[str, str] = field(default_factory=dict)  # path -> what --fix would write
    deps: set[str] = field(default_factory=set)  # project modules the analysis consulted
    absent: set[str] = field(default_factory=set)  # module files it looked for, not found
    fixed_files: list[str] = field(default_factory=list)  # files --fix wrote
    # notebooks with findings or errors, as checked: where their cells' lines are stored
    # (the github, gitlab and sarif formats address the file as stored)
    notebooks: dict[str, bytes] = field(default_factory=dict)
    fatal: list[str] = field(default_factory=list)  # the command failed (its report is lost)
    fixed_codes: dict[str, dict[str, int]] = field(default_factory=dict)  # path -> code -> n
    interrupted: bool = False  # Ctrl-C: what is here is what was done before it

    def merge(self, other: Run) -> None:
        self.findings.extend(other.findings)
        self.errors.extend(other.errors)
        self.fixed += other.fixed
        self.held_back += other.held_back
        self.diffs.extend(other.diffs)
        self.texts.update(other.texts)
        self.fixed_texts.update(other.fixed_texts)
        self.fixed_files.extend(other.fixed_files)
        self.notebooks.update(other.notebooks)
        self.fixed_codes.update(other.fixed_codes)


def _error_line(path: str, message: str, line: int | None = None, col: int = 0) -> str:
    return output.error_line(FileError(path, message, line, col))


def _error(run: Run, path: str, message: str, line: int | None = None, col: int = 0,
           cell: int | None = None) -> None:
    run.errors.append(FileError(path, message, line, col, cell))


def _settings(path: str, args: argparse.Namespace, config: Config,
              modules: dict[str, dict[str, object]]) -> Settings:
    return settings_for(path, config, args.select, args.ignore or (), not args.no_index,
                        modules, args.extend_select)


def settings_for(path: str, config: Config, select: Sequence[str] | None = None,
                 ignore: Sequence[str] = (), index: bool = True,
                 modules: dict[str, dict[str, object]] | None = None,
                 extend_select: Sequence[str] = ()) -> Settings:
    """What the engine needs to check ``path`` as the command line does: the configuration's
    rules (``select`` replaces, ``extend_select`` and ``ignore`` add to them) and, with
    ``index``, what the project's other modules export (``modules`` caches them across
    files)."""
    from jaxlint.settings import for_file

    cache = (modules if modules is not None else {}) if index else None
    return for_file(path, config, cache, select, ignore, extend_select=extend_select)


_MODULES: dict[str, dict[str, object]] = {}  # a worker process's project-index cache


def _check_one(path: str, data: bytes, args: argparse.Namespace, config: Config) -> Run:
    """One file's results; runs in a worker process under --jobs."""
    run = Run()
    _check_file(path, args, run, config, _MODULES, data)
    _release_freed()
    return run


TRIM_AFTER = 8 << 20  # bytes a worker grows by over one file before it gives memory back
_trim: Any = False  # glibc's malloc_trim, once looked up (None: not glibc)
_trimmed_at = 0  # this worker's resident bytes after its last trim


def _release_freed() -> None:
    """Give the memory freed by the file just checked back to the system. libcst's native
    parser needs some 0.5 kB for each byte of a module while it parses (35 MB for an 80 kB
    one) and frees it after, but glibc keeps freed pages for the process: each worker held
    its largest parse until the run ended, and a parallel run's peak was the sum of them.
    Only after a file that grew the worker by TRIM_AFTER: a page given back and needed
    again costs a page fault."""
    global _trim, _trimmed_at
    if _trim is False:
        _trim = None
        if sys.platform.startswith("linux"):
            try:
                import ctypes

                _trim = ctypes.CDLL(None).malloc_trim
            except (OSError, AttributeError):
                pass
    if _trim is not None and _resident() - _trimmed_at > TRIM_AFTER:
        _trim(0)
        _trimmed_at = _resident()


def _resident() -> int:
    """This process's resident memory in bytes (0 where unknown)."""
    try:
        with open("/proc/self/statm", "rb") as f:
            return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, IndexError):
        return 0


def _check_file(path: str, args: argparse.Namespace, run: Run, config: Config,
                modules: dict[str, dict[str, object]], data: bytes | None = None) -> None:
    if data is None:
        try:
            data = read(path)
        except OSError as exc:
            _error(run, path, f"cannot read: {exc.strerror or exc}")
            return
    if b"\0" in data:  # reported whatever the file says: no Python source holds NUL
        _error(run, path, "binary file (contains NUL bytes), skipped")
        return
    if not might_matter(data, config.extras, project=not args.no_index):
        return  # (after _check_all's test of the bytes alone: CPython's parse is done here,
        # in the worker processes, for a file that passes on a clock's name alone)
    notebook = path.endswith(".ipynb")
    try:
        settings = _settings(path, args, config, modules)
        if not notebook:
            # judged above (or by _check_all): the engine need not judge the bytes again
            settings = replace(settings, prefilter=False)
        if settings.index is not None:
            run.deps = settings.index.used  # type: ignore[attr-defined]
            run.absent = settings.index.absent  # type: ignore[attr-defined]
        if notebook and not (args.fix or args.diff):
            from jaxlint.notebook import build, lint_virtual, load

            # The bytes passed, but they hold outputs and markdown too: the code cells
            # decide (notebook.may_matter), before libcst is imported for them. A cell that
            # does not parse is one error line; the other cells are still linted.
            virtual = build(load(data, path), path, strict=False)
            found = lint_virtual(virtual, path, settings)
            run.findings.extend(found)
            for error in virtual.broken.values():
                _error(run, path, error.message, error.line, error.col, error.cell)
            if (found or virtual.broken) and args.format in STORED_FORMATS:
                run.notebooks[path] = data
            return
        from jaxlint.engine import fix_source, lint_source

        if args.fix or args.diff:
            from jaxlint.notebook import fix_notebook

            if notebook:
                result = fix_notebook(data, path, args.unsafe_fixes, settings)
            else:
                result = fix_source(data, path, unsafe_fixes=args.unsafe_fixes,
                                    settings=settings)
            assert isinstance(result.source, bytes)
            if result.source != data:
                if args.diff:
                    run.diffs.append(output.unified_diff(path, _text(data), _text(result.source)))
                    run.fixed += result.fixed
                else:
                    with _interrupt_deferred():  # a file written is a file reported
                        write_atomic(path, result.source, expected=data)
                        run.fixed_files.append(path)
                        run.fixed += result.fixed
                        run.fixed_codes[path] = result.fixed_codes
            run.held_back += result.held_back
            run.findings.extend(result.remaining)
            if notebook and result.remaining and args.format in STORED_FORMATS:
                run.notebooks[path] = result.source
            if result.remaining and args.format in ("full", "sarif"):
                run.texts[path] = _text(result.source)
        else:
            found = lint_source(data, path, settings=settings)
            run.findings.extend(found)
            if found and (args.format in ("full", "sarif") or args.show_fixes):
                run.texts[path] = _text(data)
                if args.format == "sarif" or args.show_fixes:
                    fixed = fix_source(data, path, unsafe_fixes=args.unsafe_fixes,
                                       settings=settings).source
                    assert isinstance(fixed, bytes)
                    if fixed != data:
                        run.fixed_texts[path] = _text(fixed)
    except SourceError as exc:
        cell = getattr(exc, "cell", None)
        _error(run, path, exc.message, exc.line, exc.col, cell)
        if cell is not None and args.format in STORED_FORMATS:
            run.notebooks[path] = data
    except ChangedOnDisk:
        _error(run, path, "changed on disk while being fixed; left as it is")
    except NotWritten as exc:
        _error(run, path, str(exc))
    except OSError as exc:
        _error(run, path, f"cannot write: {exc.strerror or exc}")
    except RecursionError:
        _error(run, path, "too deeply nested to analyse")
    except MemoryError:
        _error(run, path, "too complex to analyse (out of memory)")
    except Exception as exc:  # noqa: BLE001 - one file's failure is that file's error line
        _error(run, path, _internal(exc))


@contextmanager
def _interrupt_deferred() -> Iterator[None]:
    """Hold a Ctrl-C until the block is done (in the main thread of a process that has not
    chosen to ignore it), so a write and its record happen together or not at all."""
    import signal
    import threading

    if threading.current_thread() is not threading.main_thread() \
            or signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
        yield
        return
    held: list[int] = []
    previous = signal.signal(signal.SIGINT, lambda signum, frame: held.append(signum))
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)
    if held:
        raise KeyboardInterrupt


def _internal(exc: BaseException) -> str:
    return f"internal error ({type(exc).__name__}: {' '.join(str(exc).split())}); please report it"


def _text(data: bytes) -> str:
    """Source text decoded as Python (and libcst) decode it: PEP 263 cookie, BOM, UTF-8."""
    try:
        encoding, _ = tokenize.detect_encoding(io.BytesIO(data).readline)
        return data.decode(encoding)
    except (SyntaxError, LookupError, UnicodeError):
        return data.decode("utf-8", errors="replace")


def _color(stream: object) -> bool:
    """Colours for a person: on a terminal (not TERM=dumb), unless NO_COLOR is set to
    anything (no-color.org); FORCE_COLOR set to anything asks for them anywhere."""
    if os.environ.get("NO_COLOR"):
        return False
    if os.environ.get("FORCE_COLOR"):
        return True
    isatty = getattr(stream, "isatty", None)
    return bool(isatty and isatty()) and os.environ.get("TERM") != "dumb"


def _print(run: Run, args: argparse.Namespace) -> None:
    findings = sorted(run.findings, key=Finding.sort_key)
    errors = sorted(run.errors, key=FileError.sort_key)
    color = args.output_file is None and _color(sys.stdout)
    if args.diff:
        text = "".join(run.diffs)
    elif args.statistics:
        text = output.statistics(findings, args.format, color, errors)
    else:
        text = output.render(findings, args.format, sources=run.texts.get,
                             fixed=run.fixed_texts, unsafe_fixes=args.unsafe_fixes,
                             color=color and args.format in TERMINAL_FORMATS, errors=errors,
                             places=_Places(run.notebooks).place)
    if args.output_file is None:
        sys.stdout.write(text)
    else:
        try:
            _write_output(args.output_file, text)
        except OSError as exc:
            # The report is lost: the command failed, whatever --exit-zero says.
            run.fatal.append(_error_line(args.output_file,
                                         f"cannot write: {exc.strerror or exc}"))
    for e in errors:
        print(output.error_line(e), file=sys.stderr)
    for line in run.fatal:
        print(line, file=sys.stderr)
    if args.fix and args.show_fixes:
        _print_fixed(run)
    if args.quiet:
        return
    if run.errors or run.fatal:
        k = len(run.errors) + len(run.fatal)
        print(f"{k} error{'s' if k != 1 else ''}: some paths could not be checked.",
              file=sys.stderr)
    n = len(findings)
    fixable = sum(f.fixable and not f.unsafe for f in findings)
    unsafe = sum(f.fixable and f.unsafe for f in findings)
    noun = "finding" if n == 1 else "findings"
    held = (f" {run.held_back} unsafe fix{'es' if run.held_back != 1 else ''} held back: "
            "add --unsafe-fixes to apply." if run.held_back else "")
    if args.diff:
        would = sum(1 for _ in run.diffs)
        print(f"Would fix {run.fixed} finding{'s' if run.fixed != 1 else ''} "
              f"in {would} file{'s' if would != 1 else ''}"
              + (f" ({n} {noun} left)" if n else "") + "." + held, file=sys.stderr)
    elif args.fix:
        print(f"Fixed {run.fixed} finding{'s' if run.fixed != 1 else ''}"
              + (f", {n} remaining." if n else ".") + held, file=sys.stderr)
    elif n:
        parts = [f"{fixable} fixable with --fix"] if fixable else []
        if unsafe:
            parts.append(f"{unsafe} with --fix --unsafe-fixes")
        extra = f" ({', '.join(parts)})" if parts else ""
        print(f"Found {n} {noun}{extra}.", file=sys.stderr)
    elif not (run.errors or run.fatal):
        print("All checks passed.", file=sys.stderr)


def _write_output(path: str, text: str) -> None:
    """Write ``-o PATH``, never through a symbolic link: in a checkout someone else made,
    ``report.txt`` may be a link to a file outside it (``~/.bashrc``). Opened without
    blocking, so a FIFO planted there is an error, not a hang."""
    flags = (os.O_WRONLY | os.O_CREAT | getattr(os, "O_NOFOLLOW", 0)
             | getattr(os, "O_NONBLOCK", 0))
    try:
        fd = os.open(path, flags, 0o666)
    except OSError as exc:
        if os.path.islink(path):
            raise OSError(exc.errno, "it is a symbolic link (not followed)") from None
        raise
    with os.fdopen(fd, "w", encoding="utf-8", newline="") as f:
        import stat

        mode = os.fstat(fd).st_mode
        if stat.S_ISREG(mode):
            f.truncate()  # only now: a device or FIFO is written to, never truncated
        elif not stat.S_ISCHR(mode):  # /dev/null and a terminal are fine
            raise OSError(0, "not a regular file")
        os.set_blocking(fd, True)
        f.write(text)


PRE_COMMIT = "--pre-commit"


def _hook_argv(argv: Sequence[str], parser: argparse.ArgumentParser) -> list[str]:
    """``argv`` of a pre-commit hook (its entry's and the user's ``args:``, then the staged
    file names, which all exist) with ``--`` put where the file names start: at the first
    argument in an option's place (not the value of the option before it) that names an
    existing path. A staged ``--output-file=victim.py`` is then a file to lint, never an
    option, and the user's ``args:`` (which come before the file names) stay options."""
    takes_value = {option: action.nargs != 0 for action in parser._actions
                   for option in action.option_strings}
    longs = [o for o in takes_value if o.startswith("--")]
    out: list[str] = []
    i = 0
    while i < len(argv):
        arg = argv[i]
        if os.path.lexists(arg):  # a staged file, even one named ``--``
            break
        if arg == "--":
            i += 1
            break
        if not arg.startswith("-") or arg == "-":
            break
        out.append(arg)
        i += 1
        if arg.startswith("--"):
            name, eq, _ = arg.partition("=")
            known = [name] if name in takes_value else [o for o in longs if o.startswith(name)]
            if not eq and len(known) == 1 and takes_value[known[0]] and i < len(argv):
                out.append(argv[i])  # its value, whatever it names
                i += 1
            continue
        # -q, -j4, -o PATH, -qo PATH: the first letter that takes a value takes the rest
        for k in range(1, len(arg)):
            if takes_value.get("-" + arg[k], False):
                if k == len(arg) - 1 and i < len(argv):
                    out.append(argv[i])
                    i += 1
                break
    return [*out, "--", *argv[i:]]


def _print_fixed(run: Run) -> None:
    """What --fix changed, per file and code, as ``ruff --fix --show-fixes`` lists it."""
    from jaxlint.rules import rule_name

    done = {path: codes for path, codes in sorted(run.fixed_codes.items()) if codes}
    if not done:
        print("No findings were fixed.", file=sys.stderr)
        return
    total = sum(sum(codes.values()) for codes in done.values())
    print(f"Fixed {total} finding{'s' if total != 1 else ''}:", file=sys.stderr)
    for path, codes in done.items():
        print(f"- {output.printable(path)}:", file=sys.stderr)
        for code, k in codes.items():
            print(f"    {k} \N{MULTIPLICATION SIGN} {code} ({rule_name(code)})", file=sys.stderr)


class _Places:
    """Where a notebook's cell lines are stored in its file (``output.Places``), from the
    bytes the run checked, or (a cached result) read again."""

    def __init__(self, notebooks: dict[str, bytes]) -> None:
        self.notebooks = notebooks
        self.placers: dict[str, Any] = {}

    def place(self, path: str, cell: int, line: int, col: int) -> tuple[int, int] | None:
        placer = self.placers.get(path)
        if placer is None:
            from jaxlint.notebook_lines import Placer

            data = self.notebooks.get(path)
            if data is None:
                try:
                    data = read(path)
                except OSError:
                    data = b""
            placer = self.placers[path] = Placer(data)
        found: tuple[int, int] | None = placer.place(cell, line, col)
        return found


def _subcommand(argv: Sequence[str]) -> str | None:
    """The subcommand ``argv`` names, if any. A word that is also an existing path is a path:
    callers such as pre-commit append file names to ``jaxlint``, and a staged script named
    ``verify`` must be linted, never run."""
    if argv and argv[0] in SUBCOMMANDS and not os.path.lexists(argv[0]):
        return argv[0]
    return None


def main(argv: Sequence[str] | None = None) -> int:
    try:
        return _main(argv)
    except KeyboardInterrupt:  # before or after the files were checked: nothing half done
        _say("jaxlint: interrupted.")
        return EXIT_INTERRUPTED


def _say(line: str) -> None:
    """A line on stderr, if there is a stderr to write it to."""
    if sys.stderr is not None:
        try:
            print(line, file=sys.stderr, flush=True)
        except (OSError, ValueError):
            pass


def _stdout_gone() -> None:
    """Send what is left of stdout nowhere, so the interpreter's last flush at exit does
    not fail again (with a message about an ignored exception)."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):
        pass


def _report(run: Run, args: argparse.Namespace) -> int | None:
    """Print the results; EXIT_ERROR with one line if stdout cannot take them (closed, a
    full disk), None when it could."""
    if sys.stdout is None:
        _say("jaxlint: error: standard output is closed")
        return EXIT_ERROR
    try:
        _print(run, args)
        sys.stdout.flush()
    except BrokenPipeError:  # the reader stopped (jaxlint . | head): as other tools, quietly
        _stdout_gone()
    except OSError as exc:
        _stdout_gone()
        _say(f"jaxlint: error: cannot write to standard output: {exc.strerror or exc}")
        return EXIT_ERROR
    return None


def _main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    command = _subcommand(argv)
    if command == "verify":
        from jaxlint.verify import main as verify_main  # imports nothing heavy until it runs

        return verify_main(argv[1:])
    if command == "rule":
        return _rule(argv[1:])
    if command == "server":
        return _server(argv[1:])
    if command == "clean":
        return _clean(argv[1:])
    parser = build_parser()
    if argv and argv[0] == PRE_COMMIT:
        argv = [PRE_COMMIT, *_hook_argv(argv[1:], parser)]
    elif PRE_COMMIT in argv[: argv.index("--") if "--" in argv else len(argv)]:
        parser.error(f"{PRE_COMMIT} must be the first argument")
    args = parser.parse_args(argv)
    _check_usage(args, parser)
    if args.watch:
        return _watch(args)
    return _once(args)


def _check_usage(args: argparse.Namespace, parser: argparse.ArgumentParser) -> None:
    """Refuse options that cannot go together (exit 2 with argparse's usage line)."""
    if args.show_fixes and args.format not in TERMINAL_FORMATS and not args.statistics \
            and not args.fix:
        parser.error(f"--show-fixes shows fixes in --format text, concise or full, not "
                     f"{args.format} ('json' says which findings have one; 'sarif' always "
                     "carries them)")
    stdin = args.stdin_filename is not None or args.paths == ["-"]
    if args.add_noqa and (args.fix or args.diff or stdin or args.explain):
        parser.error("--add-noqa writes the files it checks: not with --fix, --diff, "
                     "--explain or standard input")
    if args.watch and (stdin or args.explain or args.add_noqa or args.show_files
                       or args.show_settings):
        parser.error("--watch checks files as they change: not with standard input, "
                     "--explain, --add-noqa, --show-files or --show-settings")
    if args.explain is not None:
        target, at = _explain_target(args.explain, parser)
        if args.paths or args.fix or args.diff:
            parser.error("--explain takes one PATH:LINE and no other paths, --fix or --diff")
        if os.path.isdir(target):
            parser.error(f"--explain takes a file, not a folder: {target!r}")
        if at[1] < 1 or (at[0] is not None and at[0] < 1):
            parser.error("--explain counts lines (and a notebook's cells) from 1")
        args.paths = [target]
        args.no_cache = True
        args.explain_at = at


def _once(args: argparse.Namespace) -> int:
    """One run over the paths: check them (or list them, show their settings, mark their
    findings), print, and say how it went."""
    run = Run()
    files: list[tuple[str, Config]] = []
    try:
        resolver = Resolver(load(args.config) if args.config else None,
                            warn=lambda line: print(line, file=sys.stderr), known=list(CODES))
        resolver.for_folder(".")  # a broken configuration here is reported, files or not
        excluder = Excluder(resolver.for_folder, args.exclude, args.extend_exclude,
                            False if args.no_respect_gitignore else None, warn=resolver.warn)
        if args.stdin_filename is not None or args.paths == ["-"]:
            return _stdin(args, resolver, excluder, run)
        # the formatter's line length, for the fixes' new lines
        fixing = args.fix or args.diff or args.show_fixes or args.format == "sarif"
        configs: dict[str, Config] = {}  # by the folder as named: its files share one
        for item in discover(args.paths or ["."], excluder, args.force_exclude):
            if isinstance(item, PathError):
                _error(run, item.path, item.message)
                continue
            folder = os.path.dirname(item)
            config = configs.get(folder)
            if config is None:
                config = resolver.for_file(item)
                if fixing:
                    config = replace(config, line_length=resolver.line_length(item))
                configs[folder] = config
            files.append((item, config))
        if args.show_settings:
            return _show_settings(files, args, resolver)
    except ConfigError as exc:
        print(f"jaxlint: error: {exc}", file=sys.stderr)
        return EXIT_ERROR
    if args.show_files:
        return _show_files(files, run)
    _check_all(files, args, resolver, run)
    if run.interrupted:
        return _interrupted(run, args)
    if getattr(args, "explain_at", None) is not None:
        return _explain(run, args.explain_at, files, args)
    if args.add_noqa:
        return _add_noqa(run, args)
    failed = _report(run, args)
    if failed is not None:
        return failed
    return _status(run, args)


def _show_files(files: list[tuple[str, Config]], run: Run) -> int:
    """``--show-files``: each file a run would check, in the order it checks them."""
    for path, _ in files:
        print(output.printable(path))
    for e in run.errors:
        print(output.error_line(e), file=sys.stderr)
    return EXIT_ERROR if run.errors else EXIT_CLEAN


def _show_settings(files: list[tuple[str, Config]], args: argparse.Namespace,
                   resolver: Resolver) -> int:
    """``--show-settings``: what the first file (or, with none, the current folder) is
    checked with, once the configuration and the command line are resolved."""
    from jaxlint.engine import enabled
    from jaxlint.files import DEFAULT_EXCLUDE
    from jaxlint.settings import selected

    path = files[0][0] if files else os.path.join(os.curdir, "-")
    config = resolver.for_file(path)
    select = args.select
    chosen = selected(config, select, args.extend_select)
    ignore = (*config.ignores_for(path), *(args.ignore or ()))
    on = [code for code in CODES if enabled(code, chosen, ignore)]
    exclude = args.exclude if args.exclude is not None else config.exclude
    cache = None if args.no_cache else resolver.cache_folder()

    def listed(items: Sequence[str]) -> str:
        return "[" + ", ".join(f'"{output.printable(i)}"' for i in items) + "]"

    rows = [
        ("file", output.printable(path) if files else "(none found; the current folder)"),
        ("configuration", output.printable(config.source) if config.source
         else "(none: the defaults)"),
        ("rules", ", ".join(on) or "(none)"),
        ("select", listed(chosen) if chosen is not None else "(all)"),
        ("ignore", listed(ignore)),
        ("timers", listed(sorted(config.extras.timers))),
        ("jax-work", listed(sorted(config.extras.work))),
        ("syncs", listed(sorted(config.extras.syncs))),
        ("exclude", listed(exclude) if exclude is not None
         else f"(the default list: {len(DEFAULT_EXCLUDE)} patterns)"),
        ("extend-exclude", listed([*config.extend_exclude, *args.extend_exclude])),
        ("respect-gitignore", "false" if args.no_respect_gitignore
         or not config.respect_gitignore else "true"),
        ("line-length", f"{resolver.line_length(path)} (for the lines fixes add)"),
        ("project index", "off (--no-index)" if args.no_index else "on"),
        ("cache", output.printable(os.path.join(cache, CACHE_DIRNAME)) if cache is not None
         else "off"),
    ]
    width = max(len(k) for k, _ in rows)
    for key, value in rows:
        print(f"{key:<{width}}  {value}")
    return EXIT_CLEAN


def _add_noqa(run: Run, args: argparse.Namespace) -> int:
    """``--add-noqa``: write a ``# noqa: CODE`` for each finding of the run into its file."""
    from jaxlint.add_noqa import add_noqa, add_noqa_notebook

    by_path: dict[str, list[Finding]] = {}
    for f in run.findings:
        by_path.setdefault(f.path, []).append(f)
    added = 0
    for path, found in sorted(by_path.items()):
        try:
            data = read(path)
            if path.endswith(".ipynb"):
                new, k = add_noqa_notebook(data, found)
            else:
                text = _text(data)
                fixed, k = add_noqa(text, found)
                new = _encode_like(data, text, fixed)
            if new != data:
                with _interrupt_deferred():
                    write_atomic(path, new, expected=data)
                added += k
        except SourceError as exc:
            _error(run, path, exc.message, exc.line, exc.col, getattr(exc, "cell", None))
        except (ChangedOnDisk, NotWritten, OSError) as exc:
            message = "changed on disk; left as it is" if isinstance(exc, ChangedOnDisk) \
                else str(exc) if isinstance(exc, NotWritten) \
                else f"cannot write: {getattr(exc, 'strerror', None) or exc}"
            _error(run, path, message)
    for e in sorted(run.errors, key=FileError.sort_key):
        print(output.error_line(e), file=sys.stderr)
    if not args.quiet:
        print(f"Added {added} noqa directive{'s' if added != 1 else ''}.", file=sys.stderr)
    return EXIT_ERROR if run.errors and not args.exit_zero else EXIT_CLEAN


def _encode_like(data: bytes, text: str, new: str) -> bytes:
    """``new`` encoded as ``data`` (decoded to ``text``) was: its codec and BOM."""
    if new == text:
        return data
    try:
        encoding, _ = tokenize.detect_encoding(io.BytesIO(data).readline)
    except SyntaxError:
        encoding = "utf-8"
    if encoding == "utf-8-sig":
        return b"\xef\xbb\xbf" + new.encode("utf-8")
    return new.encode(encoding)


def _watch(args: argparse.Namespace) -> int:
    """``--watch``: check, then check again each time a file that can change the result
    changes (sources, notebooks, configurations, ignore files), until interrupted."""
    try:
        import watchfiles
    except ImportError:
        print("jaxlint: error: --watch needs the 'watch' extra (watchfiles is missing); from "
              "a clone of jaxlint: python3 -m pip install '.[watch]'", file=sys.stderr)
        return EXIT_ERROR
    import time

    roots = [p for p in (args.paths or ["."]) if os.path.exists(p)]
    _once(args)
    sys.stdout.flush()
    if not roots:
        return EXIT_ERROR
    _say("Watching for file changes.")
    for changes in watchfiles.watch(*roots, watch_filter=_matters_to_watch,
                                    raise_interrupt=True):
        k = len({path for _, path in changes})
        _say(f"[{time.strftime('%H:%M:%S')}] {k} file{'s' if k != 1 else ''} changed; "
             "checking again.")
        _once(args)
        sys.stdout.flush()
        _say("Watching for file changes.")
    return EXIT_CLEAN


WATCHED_NAMES = frozenset({"pyproject.toml", "ruff.toml", ".ruff.toml", ".gitignore"})


def _matters_to_watch(change: object, path: str) -> bool:
    """A change that can change what a check reports: a source, a notebook, a
    configuration or an ignore file; not the cache, version control or bytecode."""
    parts = path.replace(os.sep, "/").split("/")
    if any(p in (CACHE_DIRNAME, ".git", ".hg", "__pycache__") for p in parts):
        return False
    name = parts[-1]
    return name.endswith((".py", ".ipynb")) or name in WATCHED_NAMES


def _clean(argv: list[str]) -> int:
    """``jaxlint clean``: remove every cache folder in the current folder and below it,
    entering no linked folder (a cache that is a link is removed as a link)."""
    import shutil

    p = argparse.ArgumentParser(prog="jaxlint clean", description=SUBCOMMANDS["clean"])
    p.parse_args(argv)
    failed = False

    def fail(err: OSError) -> None:
        nonlocal failed
        failed = True
        _say(output.printable(f"{err.filename or '.'}: error: "
                              f"{err.strerror or err}"))

    for folder, dirs, _ in os.walk(os.curdir, onerror=fail, followlinks=False):
        if CACHE_DIRNAME not in dirs:
            continue
        dirs.remove(CACHE_DIRNAME)
        path = os.path.join(folder, CACHE_DIRNAME)
        print(output.printable(f"Removing cache at: {path}"))
        try:
            if os.path.islink(path):
                os.unlink(path)
            else:
                shutil.rmtree(path)  # never follows a link inside it
        except OSError as exc:
            fail(exc)
    return EXIT_ERROR if failed else EXIT_CLEAN


def _explain_target(text: str, parser: argparse.ArgumentParser
                    ) -> tuple[str, tuple[int | None, int]]:
    """``PATH:LINE`` or ``PATH:CELL:LINE`` (a notebook's cell, from 1)."""
    parts = text.rsplit(":", 2)
    try:
        if len(parts) == 3 and parts[1].strip().removeprefix("cell ").isdigit():
            return parts[0], (int(parts[1].strip().removeprefix("cell ")), int(parts[2]))
        path, line = text.rsplit(":", 1)
        return path, (None, int(line))
    except ValueError:
        parser.error(f"--explain wants PATH:LINE (or PATH:CELL:LINE), not {text!r}")
        raise  # not reached: error() exits


def _explain(run: Run, at: tuple[int | None, int], files: list[tuple[str, Config]],
             args: argparse.Namespace) -> int:
    """Print each finding at the line with its evidence; 0 if there is one. Where there is
    none, why not (``jaxlint.quiet``): where the file or the region was lost, or what the
    analysis concluded about the timing there."""
    for e in run.errors:
        print(output.error_line(e), file=sys.stderr)
    cell, line = at
    found = [f for f in run.findings if f.line == line and (cell is None or f.cell == cell)]
    for f in found:
        print(f"{output.printable(f.location)}: {f.code} {output.printable(f.message)}")
        for text in (f.explanation or "(no further evidence recorded)").splitlines():
            print("    " + output.printable(text))
    if any(f.code == "JAX101" for f in found) and files:
        # where a wait the analysis cannot see would be (a finding that seems wrong)
        try:
            doubts = _quiet_answer("doubts", files[0][0], files[0][1], args, cell, line)
        except (SourceError, OSError):
            doubts = []
        for text in doubts:
            print("    " + output.printable(text))
    # the file could not be checked (its error line says why); a notebook's other cell
    # that does not parse leaves this one checked
    whole = any(e.cell is None or e.cell == cell for e in run.errors)
    if run.errors and (found or whole):
        return EXIT_ERROR
    if not found:
        where = f"cell {cell}, line {line}" if cell is not None else f"line {line}"
        print(f"jaxlint: no finding at {where}", file=sys.stderr)
        if files:
            path, config = files[0]
            try:
                why = _quiet_answer("reasons", path, config, args, cell, line)
            except SourceError as exc:
                why = [f"(why not could not be told: {exc.message})"]
            except OSError as exc:
                why = [f"(why not could not be told: {exc.strerror or exc})"]
            place = f"cell {cell}:{line}" if cell is not None else str(line)
            print(f"{output.printable(path)}:{place}: no finding")
            for text in why:
                print("    " + output.printable(text))
        return EXIT_ERROR if run.errors else EXIT_FINDINGS
    return EXIT_CLEAN


def _quiet_answer(which: str, path: str, config: Config, args: argparse.Namespace,
                  cell: int | None, line: int) -> list[str]:
    """``jaxlint.quiet``'s ``which`` answer, its lines named as the user counts them; where
    the analysis cannot speak of the line, why not (``reasons``) or nothing (``doubts``)."""
    found = _explained_source(path, config, args, cell, line)
    if isinstance(found, list):
        return found if which == "reasons" else []
    source, settings, at, place = found
    from jaxlint import quiet

    answer = quiet.reasons if which == "reasons" else quiet.doubts
    return [place(text) for text in answer(source, path, settings, at)]


def _explained_source(path: str, config: Config, args: argparse.Namespace,
                      cell: int | None, line: int
                      ) -> list[str] | tuple[str | bytes, Settings, int, Callable[[str], str]]:
    """What ``--explain`` analyses for a line: the module's source (a notebook's: the
    module its code cells make), the settings, the line in that module, and how to name
    its lines to the user (a notebook's cells); or why there is nothing to analyse (the
    prefilter skips the file, the line or cell is not there), as answer lines. The
    prefilter is asked before libcst is imported."""
    from jaxlint.quiet import SKIPPED_BY_PREFILTER

    data = read(path)
    settings = _settings(path, args, config, {})
    if not path.endswith(".ipynb"):
        if not might_matter(data, config.extras, project=not args.no_index):
            return [SKIPPED_BY_PREFILTER]
        count = len(split_lines(_text(data)))
        if line > count:
            return [f"The file has {count} line{'s' if count != 1 else ''}."]
        return data, replace(settings, prefilter=False), line, lambda text: text
    from jaxlint.notebook import build, load, may_matter, placed

    virtual = build(load(data, path), path, strict=False)
    if cell is None:
        return ["A notebook's line is asked for as PATH:CELL:LINE (its cell, counted from 1 "
                "as jaxlint reports it)."]
    if cell in virtual.broken:
        return [f"Cell {cell} does not parse ({virtual.broken[cell].message}), so it is "
                "not analysed."]
    at = [i + 1 for i, v in enumerate(virtual.lines) if v.cell == cell and v.line == line]
    if not at:
        return [f"Cell {cell} has no line {line} of code."]
    if not may_matter(virtual, config.extras, project=not args.no_index):
        return [SKIPPED_BY_PREFILTER]
    return (virtual.text, replace(settings, shown=virtual.shown, prefilter=False), at[0],
            lambda text: placed(text, virtual))


def _status(run: Run, args: argparse.Namespace) -> int:
    """The exit status, the same for files and for stdin: --diff fails when it prints one.
    --exit-zero is 0 whatever was found, paths that could not be checked included (they are
    in the report), unless the report itself could not be written."""
    if run.fatal:
        return EXIT_ERROR
    if args.exit_zero:
        return EXIT_CLEAN
    if run.errors:
        return EXIT_ERROR
    if args.diff:
        return EXIT_FINDINGS if run.diffs or run.findings else EXIT_CLEAN
    return EXIT_FINDINGS if run.findings else EXIT_CLEAN


def _interrupted(run: Run, args: argparse.Namespace) -> int:
    """Ctrl-C while files were checked: no findings (they would be a partial list), the
    errors met so far, and every file already fixed."""
    for e in run.errors:
        _say(output.error_line(e))
    if args.fix:
        k = len(run.fixed_files)
        if k:
            _say(f"jaxlint: interrupted; fixed {run.fixed} finding{'s' if run.fixed != 1 else ''}"
                 f" in {k} file{'s' if k != 1 else ''} before that: "
                 + output.printable(", ".join(sorted(run.fixed_files))))
        else:
            _say("jaxlint: interrupted; no file was changed.")
    else:
        _say("jaxlint: interrupted.")
    return EXIT_INTERRUPTED


def _exit_with_parent(main: int) -> None:
    """Pool worker initializer: end this worker as soon as the jaxlint process that started it
    is gone (killed, say) rather than leave it running, and fixing files, as an orphan."""
    import signal
    import threading
    import time

    # Ctrl-C reaches the whole process group: the main process decides what stops (it lets
    # each worker finish the file in hand, so a fix already started is written and reported).
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    _fewer_collections()  # as the main process (a worker that was not forked from it)
    parent = os.getppid()

    def orphaned() -> bool:
        if os.getppid() != parent:  # re-parented: the process that forked us died
            return True
        try:
            os.kill(main, 0)
        except ProcessLookupError:
            return True
        except OSError:
            pass
        return False

    def watch() -> None:
        while not orphaned():
            time.sleep(0.2)
        os._exit(1)

    if orphaned():
        os._exit(1)
    threading.Thread(target=watch, name="jaxlint-orphan-watch", daemon=True).start()


def _fewer_collections() -> None:
    """Collect cyclic garbage less often while analysing. A parsed module is tens of
    thousands of objects that live as long as its analysis, and the default threshold
    (700 allocations) has the collector walk them again and again: 6-7% of a run's CPU on
    the benchmark corpus, for 3-4 MB more at the peak. (Run by jaxlint's own processes
    only: the API leaves its caller's collector alone.)"""
    import gc

    gc.set_threshold(50_000, 20, 20)


def _open_cache(resolver: Resolver, args: argparse.Namespace) -> Cache | None:
    """The cache for this run, or None (its folder is unsafe: one warning)."""
    from jaxlint.cache import Cache, CacheRefused

    folder = resolver.cache_folder()
    if folder is None:
        return None
    try:
        options: tuple[object, ...] = (args.select, args.ignore, args.no_index)
        if args.extend_select:  # (only then: the other runs' cached results stay valid)
            options += (tuple(args.extend_select),)
        return Cache(folder, options)
    except CacheRefused as exc:
        print(output.printable(f"jaxlint: warning: not using the cache: "
                               f"{os.path.join(folder, CACHE_DIRNAME)} {exc}"),
              file=sys.stderr)
        return None


def _check_all(files: list[tuple[str, Config]], args: argparse.Namespace, resolver: Resolver,
               run: Run) -> None:
    """Read and prefilter every file here; analyse the rest (cached, or in parallel)."""
    use_cache = not (args.no_cache or args.fix or args.diff or args.show_fixes
                     or args.format in ("full", "sarif"))
    # Over many files, the stat index lets unchanged files go unread (jaxlint/cache.py).
    # Otherwise the cache is made (and its module imported) once a file passes the
    # prefilter: a few files are read faster than the index.
    by_stat = use_cache and len(files) >= STAT_INDEX_MIN_FILES
    cache = _open_cache(resolver, args) if by_stat else None
    use_cache = use_cache and (cache is not None or not by_stat)
    roots_of: dict[str, tuple[str, ...]] = {}  # import roots, by folder
    tops: dict[str, str] = {}  # see import_roots

    def roots_for(path: str) -> tuple[str, ...]:
        if args.no_index:
            return ()
        # By the folder as named: the files of a folder share it, and a walk names each
        # folder one way (files named on the command line may name one several ways).
        folder = os.path.dirname(path)
        found = roots_of.get(folder)
        if found is None:
            from jaxlint.project import import_roots

            found = roots_of[folder] = tuple(import_roots(path, tops))
        return found

    prints: dict[int, str] = {}  # configuration fingerprints, by id: files share configs

    def fingerprint(config: Config) -> str:
        found = prints.get(id(config))
        if found is None:
            found = prints[id(config)] = config.fingerprint()
        return found

    todo: list[tuple[int, str, bytes, str | None, Config]] = []
    stats: dict[int, tuple[str, os.stat_result]] = {}  # position in todo -> its signature
    results: dict[int, Run] = {}
    for i, (path, config) in enumerate(files):
        signature = st = None
        if by_stat and cache is not None:
            try:
                st = os.stat(path)  # before reading: a change after it makes a new signature
            except OSError:
                pass
            else:
                per_file = (fingerprint(config), config.ignores_for(path))
                signature = cache.signature(path, st, per_file, roots_for(path))
                known, hit = cache.lookup(path, signature)
                if known:
                    if hit is not None:
                        results[i] = Run(findings=hit)
                    continue
        try:
            data = read(path)
        except OSError as exc:
            results[i] = Run()
            _error(results[i], path, f"cannot read: {exc.strerror or exc}")
            continue
        if b"\0" not in data and not might_matter(data, config.extras,
                                                  project=not args.no_index, parse=False):
            if cache is not None and signature is not None and st is not None:
                cache.remember(path, signature, st, None)
            continue
        key = None
        if use_cache and cache is None:
            cache = _open_cache(resolver, args)
            use_cache = cache is not None
        if cache is not None:
            key = cache.key(path, data, (fingerprint(config), config.ignores_for(path)),
                            roots_for(path))
            hit = cache.get(key, path)
            if hit is not None:
                results[i] = Run(findings=hit)
                if signature is not None and st is not None:
                    cache.remember(path, signature, st, key)
                continue
        todo.append((i, path, data, key, config))
        if signature is not None and st is not None:
            stats[len(todo) - 1] = (signature, st)
    if todo:
        _fewer_collections()
    jobs = _processes(args.jobs, todo)
    progress = _Progress(len(todo), enabled=not args.quiet)
    done: dict[int, Run] = {}  # position in todo -> its results
    try:
        if jobs > 1:
            _check_in_pool(todo, args, jobs, done, progress)
        else:
            modules: dict[str, dict[str, object]] = {}
            for n, (_, path, data, _, config) in enumerate(todo):
                # Recorded before it is checked: a Ctrl-C held until its fix was written
                # (see _interrupt_deferred) arrives with the file's record filled in.
                done[n] = Run()
                _check_file(path, args, done[n], config, modules, data)
                progress.step()
    except KeyboardInterrupt:
        run.interrupted = True  # report what was done before it (and cache none of it)
    progress.close()
    for n, one in done.items():
        i, path, _, key, _ = todo[n]
        results[i] = one
        if cache is not None and key is not None and not one.errors and not run.interrupted:
            cache.put(key, path, one.findings, one.deps, one.absent)
            if n in stats:
                cache.remember(path, stats[n][0], stats[n][1], key)
    if cache is not None:
        cache.close()
    for i in sorted(results):
        run.merge(results[i])


def _check_in_pool(todo: list[tuple[int, str, bytes, str | None, Config]],
                   args: argparse.Namespace, workers: int, done: dict[int, Run],
                   progress: _Progress) -> None:
    """Check ``todo`` in worker processes, filling ``done``. On Ctrl-C, files not started
    are dropped, files in hand are finished, and their results are kept before it goes on."""
    import gc
    from concurrent.futures import ProcessPoolExecutor
    from concurrent.futures.process import BrokenProcessPool

    def collect(n: int, path: str, future: Future[Run]) -> None:
        try:
            done[n] = future.result()
        except BrokenProcessPool:  # a worker was killed (out of memory?) or crashed
            done[n] = Run()
            _error(done[n], path, "not checked: a jaxlint worker process died")
        except Exception as exc:  # noqa: BLE001 - e.g. a result that cannot be sent back
            done[n] = Run()
            _error(done[n], path, _internal(exc))

    forking = _forking()
    pool = ProcessPoolExecutor(max_workers=workers, mp_context=forking,
                               initializer=_exit_with_parent, initargs=(os.getpid(),))
    if forking is not None:
        # What this process holds when the workers are forked (libcst, the analysis, the
        # files read) is theirs too until a process writes to it, and a full collection
        # writes to every object it walks: frozen, the collectors leave it alone (5 MB
        # less at the peak on the benchmark's sdists).
        gc.freeze()
    futures: dict[int, Future[Run]] = {}
    try:
        # Largest first: the run ends when its last file does, and a large file started last
        # would leave the other workers idle (results are reported in the usual order).
        for n in sorted(range(len(todo)), key=lambda n: -len(todo[n][2])):
            _, path, data, _, config = todo[n]
            futures[n] = pool.submit(_check_one, path, data, args, config)
        for n, (_, path, _, _, _) in enumerate(todo):
            collect(n, path, futures[n])
            progress.step()
    except KeyboardInterrupt:
        pool.shutdown(wait=True, cancel_futures=True)
        for n, future in futures.items():
            if n not in done and future.done() and not future.cancelled():
                collect(n, todo[n][1], future)
        raise
    finally:
        pool.shutdown(wait=True)
        if forking is not None:
            gc.unfreeze()


def _forking() -> Any:
    """Where processes can be forked safely (Linux), workers forked from this one once it
    has imported libcst and the analysis: they share that import instead of each paying it
    (0.2-0.3 s of CPU apiece, more than most files cost). Elsewhere (macOS, Windows) the
    platform's default start method, and each worker imports them itself."""
    import multiprocessing

    if not sys.platform.startswith("linux") or \
            "fork" not in multiprocessing.get_all_start_methods():
        return None
    import jaxlint.engine  # noqa: F401 - before the fork, once for every worker
    import jaxlint.notebook  # noqa: F401

    # A forked worker flushes the streams it inherited when it ends: nothing may be waiting.
    for stream in (sys.stdout, sys.stderr):
        try:
            if stream is not None:
                stream.flush()
        except (OSError, ValueError):
            pass
    return multiprocessing.get_context("fork")


def _processes(jobs: int, todo: Sequence[tuple[Any, ...]]) -> int:
    """How many processes analyse ``todo``: ``jobs`` (0: one per core, or one alone when
    there is too little to analyse for workers to pay off), at most one per file and core."""
    cores = _cores()
    if jobs == 0:
        if sum(len(item[2]) for item in todo) < PARALLEL_MIN_BYTES:
            return 1
        jobs = cores
    return max(1, min(jobs, cores, len(todo)))


def _cores() -> int:
    """The cores this process may run on (a container's or taskset's share, not the
    machine's)."""
    if hasattr(os, "sched_getaffinity"):
        return max(1, len(os.sched_getaffinity(0)))
    return os.cpu_count() or 1


class _Progress:
    """``checking 12/40 files`` on a terminal's stderr, redrawn in place at most ten times a
    second and erased at the end; nothing when stderr is not a terminal or the run is
    short."""

    def __init__(self, total: int, enabled: bool = True) -> None:
        import time

        self.total, self.done = total, 0
        self.on = (enabled and total >= PROGRESS_MIN_FILES and sys.stderr.isatty()
                   and os.environ.get("TERM") != "dumb")
        self.clock = time.monotonic
        self.shown = float("-inf")
        if self.on:
            self._draw()

    def _draw(self) -> None:
        sys.stderr.write(f"\rjaxlint: checking {self.done}/{self.total} files")
        sys.stderr.flush()
        self.shown = self.clock()

    def step(self) -> None:
        self.done += 1
        if self.on and self.clock() - self.shown >= 0.1:
            self._draw()

    def close(self) -> None:
        if self.on:
            sys.stderr.write("\r\x1b[K")
            sys.stderr.flush()


def _stdin(args: argparse.Namespace, resolver: Resolver, excluder: Excluder, run: Run) -> int:
    """Editors: lint (or fix) the buffer on stdin as if it were the file it names, with that
    file's configuration."""
    path = args.stdin_filename or "-"
    try:
        if sys.stdin is None:
            raise OSError(0, "standard input is closed")
        data = sys.stdin.buffer.read()
    except OSError as exc:
        _say(f"jaxlint: error: cannot read standard input: {exc.strerror or exc}")
        return EXIT_ERROR
    if args.stdin_filename is None:
        config = resolver.for_folder(".")
    else:
        config = resolver.for_file(path)
        if args.force_exclude and excluder.excluded(path, False):
            if args.fix:
                sys.stdout.buffer.write(data)  # an editor replaces its buffer with this
            return EXIT_CLEAN
    if args.fix:
        from jaxlint.engine import fix_source

        settings = _settings(path, args, config, {})
        notebook = path.endswith(".ipynb")
        try:
            if notebook:  # the buffer is the notebook's JSON: fixed cell by cell, as a file
                from jaxlint.notebook import fix_notebook

                result = fix_notebook(data, path, args.unsafe_fixes, settings)
            else:
                result = fix_source(data, path, unsafe_fixes=args.unsafe_fixes,
                                    settings=settings)
        except SourceError as exc:
            sys.stdout.buffer.write(data)  # never lose the buffer
            line = None if notebook else exc.line
            print(_error_line(path, exc.message, line, exc.col), file=sys.stderr)
            return EXIT_ERROR
        assert isinstance(result.source, bytes)
        try:
            sys.stdout.buffer.write(result.source)
            sys.stdout.flush()
        except (OSError, AttributeError) as exc:  # closed (None) or full
            _stdout_gone()
            _say("jaxlint: error: cannot write to standard output: "
                 f"{getattr(exc, 'strerror', None) or 'it is closed'}")
            return EXIT_ERROR
        sys.stderr.write(output.render(result.remaining, "text"))
        return EXIT_FINDINGS if result.remaining and not args.exit_zero else EXIT_CLEAN
    _check_file(path, args, run, config, {}, data)
    failed = _report(run, args)
    if failed is not None:
        return failed
    return _status(run, args)


def _server(argv: list[str]) -> int:
    try:
        from jaxlint.server import main as server_main
    except ImportError as exc:  # pygls is an optional extra
        if (exc.name or "").split(".")[0] not in ("pygls", "lsprotocol"):
            raise
        print(f"jaxlint server: needs the 'server' extra ({exc.name or exc} is missing); "
              "from a clone of jaxlint: python3 -m pip install '.[server]'", file=sys.stderr)
        return EXIT_ERROR
    return server_main(argv)


def _rule(argv: list[str]) -> int:
    p = argparse.ArgumentParser(prog="jaxlint rule", description=SUBCOMMANDS["rule"])
    p.add_argument("code", nargs="?", help="a rule code such as JAX101 (default: list all)")
    args = p.parse_args(argv)
    from jaxlint.rules import RULES, rule_name

    if args.code is None:
        for code in RULES:
            print(f"{code}  {rule_name(code)}")
        return EXIT_CLEAN
    found = RULES.get(args.code.upper())
    if found is None:
        print(f"jaxlint rule: unknown rule code: {args.code}", file=sys.stderr)
        return EXIT_ERROR
    print(f"# {found.CODE} {rule_name(found.CODE)}\n")
    print(inspect.cleandoc(found.__doc__ or ""))
    return EXIT_CLEAN
