"""What is known at one program point, on all paths that reach it, and how paths join."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field, replace

from jaxlint.analysis.table import Table
from jaxlint.analysis.values import EMPTY, JaxVal, Site, Value, join_values


class Lineage:
    """Where a state's ``env`` came from: the lineage of the state it was copied from, and
    the names written since. A join or a loop's fixpoint test then visits only the names
    some path wrote since the paths split, not every name in scope: a module that binds a
    new name in every region and branches in each would otherwise cost the square of its
    length (issue 23's growth tests).

    ``version`` counts this lineage's writes; a copy keeps the version it was made at, so a
    write to a state after a copy was made from it is seen, and the short cut not taken.
    """

    __slots__ = ("depth", "parent", "parent_version", "version", "written")

    def __init__(self, parent: Lineage | None = None) -> None:
        self.parent = parent
        self.parent_version: int = parent.version if parent is not None else 0
        self.depth: int = parent.depth + 1 if parent is not None else 0
        self.version: int = 0
        self.written: set[str] = set()

    def wrote(self, key: str) -> None:
        self.version += 1
        self.written.add(key)


def changed_names(states: Iterable[State]) -> set[str] | None:
    """Names whose values may differ between ``states``: those written on any of their
    lineages since the latest one they share. None when they share none, or one was written
    to after a copy of it was made (then every name has to be compared)."""
    lines = [s.lineage for s in states]
    common = lines[0]
    for line in lines[1:]:
        a, b = common, line
        while a.depth > b.depth:
            a = a.parent  # type: ignore[assignment]
        while b.depth > a.depth:
            b = b.parent  # type: ignore[assignment]
        while a is not b:
            if a.parent is None or b.parent is None:
                return None
            a, b = a.parent, b.parent
        common = a
    names: set[str] = set()
    for line in lines:
        while line is not common:
            parent = line.parent
            assert parent is not None
            if parent.version != line.parent_version:
                return None
            names |= line.written
            line = parent
    return names


@dataclass
class State:
    """What is known at one program point, on all paths that reach it.

    Time is the analysis' own clock: every dispatch, timer read and other event gets the next
    *tick*, a number that only grows. Work runs in dispatch order, so "which work is still
    running, dispatched after which timer read" needs no sets of earlier reads per site: a
    site is inside a region when its tick is greater than the start read's tick.

    ``env``: what local names (and ``a.b`` attribute paths) hold.
    ``bound``: names bound on every path (safe to name in an inserted sync).
    ``pending``: work not yet waited for -> the tick of its latest dispatch.
    ``transferred``: work waited for only by a host transfer -> the same tick.
    ``reads``: timer calls executed so far -> the tick of the latest execution.
    ``timers``: names holding a timer reading -> the timer calls that may have made it.
    ``called``: jitted functions (by origin) called or compiled on every path so far.
    ``outer``: names the function being analysed reads from outside (its enclosing
    function's variables, or a module-level function's globals) whose values it waited for
    on every path so far.

    Events that a region contains but that are not state (a first, compiling call; a sync
    that waited for nothing) are kept in the frame's ``events``, in order, not here.

    Paths join by taking, for each entry, the latest tick: the union of what each path
    leaves running, as seen by a read made after both.
    """

    env: Table[str, Value] = field(default_factory=Table)
    bound: Table[str, bool] = field(default_factory=Table)  # a set: names -> True
    pending: dict[Site, int] = field(default_factory=dict)
    transferred: dict[Site, int] = field(default_factory=dict)
    reads: dict[Site, int] = field(default_factory=dict)
    timers: dict[str, frozenset[Site]] = field(default_factory=dict)
    called: frozenset[Site] = EMPTY
    # names read from outside the function being analysed (not given to it), whose values
    # it waited for on every path: the frame that defined and calls it waits for them
    outer: frozenset[str] = frozenset()
    live: bool = True
    lineage: Lineage = field(default_factory=Lineage, init=False, repr=False, compare=False)

    def copy(self) -> State:
        """An independent state. ``env`` and ``bound`` are tables, whose copies cost what
        was written since the last copy, not the number of names in scope."""
        out = State.__new__(State)
        out.env = self.env.copy()
        out.bound = self.bound.copy()
        out.pending = dict(self.pending)
        out.transferred = dict(self.transferred)
        out.reads = dict(self.reads)
        out.timers = dict(self.timers)
        out.called = self.called
        out.outer = self.outer
        out.live = self.live
        out.lineage = Lineage(self.lineage)
        return out

    def write(self, key: str, value: Value) -> None:
        """Bind ``key`` in ``env``: every write goes through here or ``drop`` (the lineage
        has to see it)."""
        self.env[key] = value
        self.lineage.wrote(key)

    def drop(self, key: str) -> None:
        self.env.pop(key, None)
        self.lineage.wrote(key)

    def tagged(self) -> tuple[dict[Site, int], ...]:
        """The tables whose entries a region can contain (by their ticks)."""
        return self.pending, self.transferred

    def same_shape(self, other: State, since: int, entry: State | None = None) -> bool:
        """Whether two rounds of a loop that began at tick ``since`` left the same state:
        the same values, and the ticks made in the loop in the same order (their numbers
        grow every round). Entries older than the loop are the same objects in both, so
        only what the loop made is ordered: the cost is the loop's, not the file's.
        ``entry``, the state the loop was entered with: only names written since then are
        compared (the others hold its values, made before the loop), and whether they are
        bound."""
        if (self.live != other.live or self.timers != other.timers
                or self.called != other.called):
            return False
        pairs: list[tuple[int, int]] = []
        names = None if entry is None else changed_names([self, other, entry])
        env, other_env = self.env, other.env
        if names is None:
            if env.keys() != other_env.keys() or self.bound != other.bound:
                return False
            items: Iterable[tuple[str, Value]] = env.items()
        else:
            bound, other_bound = self.bound, other.bound
            for key in names:
                if (key in env) != (key in other_env) or (key in bound) != (key in other_bound):
                    return False
            items = ((key, env[key]) for key in names if key in env)
        for key, mine in items:
            theirs = other_env[key]
            if mine is theirs:
                if isinstance(mine, JaxVal) and mine.tick > since:
                    pairs.append((mine.tick, mine.tick))
                continue
            if isinstance(mine, JaxVal) and isinstance(theirs, JaxVal):
                if replace(mine, tick=0) != replace(theirs, tick=0):
                    return False
                pairs.append((mine.tick, theirs.tick))
            elif mine != theirs:
                return False
        for mine_t, theirs_t in ((self.pending, other.pending),
                                 (self.transferred, other.transferred),
                                 (self.reads, other.reads)):
            if mine_t.keys() != theirs_t.keys():
                return False
            for site, tick in mine_t.items():
                if tick > since or theirs_t[site] > since:
                    pairs.append((tick, theirs_t[site]))
                elif tick != theirs_t[site]:
                    return False
        pairs.sort()
        for (a1, b1), (a2, b2) in zip(pairs, pairs[1:]):
            if (a1 == a2) != (b1 == b2) or b2 < b1:
                return False
        return all((a > since) == (b > since) for a, b in pairs)


def _merge_ticks(a: dict[Site, int], b: dict[Site, int]) -> None:
    for site, tick in b.items():
        old = a.get(site)
        if old is None or tick > old:
            a[site] = tick


def written_since(line: Lineage, mark: Lineage) -> set[str] | None:
    """Names written on the path from ``mark`` (an ancestor of ``line``) to ``line``,
    ``mark``'s own writes included; None when ``mark`` is not an ancestor."""
    names: set[str] = set()
    while line is not mark:
        names |= line.written
        parent = line.parent
        if parent is None:
            return None
        line = parent
    return names | mark.written


def join_states(states: Iterable[State]) -> State:
    live = [s for s in states if s.live]
    if not live:
        return State(live=False)
    out = live[0].copy()
    names = changed_names(live) if len(live) > 1 else None
    written = out.lineage.written
    env = out.env
    for other in live[1:]:
        other_env = other.env
        items = other_env.items() if names is None else (
            (name, other_env[name]) for name in names if name in other_env)
        for name, value in items:
            old = env.get(name)
            if old is None and name not in env:
                env[name] = value
            elif old is not value:
                env[name] = join_values(old, value)
            else:
                continue
            written.add(name)
        bound, other_bound = out.bound, other.bound
        if names is None:
            for name in [name for name in bound if name not in other_bound]:
                bound.discard(name)
                written.add(name)
        else:  # names no path wrote since they split are bound on all or on none
            for name in names:
                if name in bound and name not in other_bound:
                    bound.discard(name)
                    written.add(name)
        for mine, theirs in zip(out.tagged(), other.tagged()):
            _merge_ticks(mine, theirs)
        _merge_ticks(out.reads, other.reads)
        for name, sites in other.timers.items():
            out.timers[name] = out.timers.get(name, EMPTY) | sites
        out.called &= other.called
        out.outer &= other.outer
    return out
