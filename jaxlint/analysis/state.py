"""What is known at one program point, on all paths that reach it, and how paths join."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field, replace

from jaxlint.analysis.values import EMPTY, JaxVal, Site, Value, join_values


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

    Events that a region contains but that are not state (a first, compiling call; a sync
    that waited for nothing) are kept in the frame's ``events``, in order, not here.

    Paths join by taking, for each entry, the latest tick: the union of what each path
    leaves running, as seen by a read made after both.
    """

    env: dict[str, Value] = field(default_factory=dict)
    bound: set[str] = field(default_factory=set)  # grown in place: copy() copies it
    pending: dict[Site, int] = field(default_factory=dict)
    transferred: dict[Site, int] = field(default_factory=dict)
    reads: dict[Site, int] = field(default_factory=dict)
    timers: dict[str, frozenset[Site]] = field(default_factory=dict)
    called: frozenset[Site] = EMPTY
    live: bool = True

    def copy(self) -> State:
        return replace(self, env=dict(self.env), bound=set(self.bound), pending=dict(self.pending),
                       transferred=dict(self.transferred), reads=dict(self.reads),
                       timers=dict(self.timers))

    def tagged(self) -> tuple[dict[Site, int], ...]:
        """The tables whose entries a region can contain (by their ticks)."""
        return self.pending, self.transferred

    def same_shape(self, other: State, since: int) -> bool:
        """Whether two rounds of a loop that began at tick ``since`` left the same state:
        the same values, and the ticks made in the loop in the same order (their numbers
        grow every round). Entries older than the loop are the same objects in both, so
        only what the loop made is ordered: the cost is the loop's, not the file's."""
        if (self.live != other.live or self.env.keys() != other.env.keys()
                or self.bound != other.bound or self.timers != other.timers
                or self.called != other.called):
            return False
        pairs: list[tuple[int, int]] = []
        for key, mine in self.env.items():
            theirs = other.env[key]
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


def join_states(states: Iterable[State]) -> State:
    live = [s for s in states if s.live]
    if not live:
        return State(live=False)
    out = live[0].copy()
    for other in live[1:]:
        env = out.env
        for name, value in other.env.items():
            if name not in env:
                env[name] = value
            elif env[name] is not value:
                env[name] = join_values(env[name], value)
        out.bound &= other.bound
        for mine, theirs in zip(out.tagged(), other.tagged()):
            _merge_ticks(mine, theirs)
        _merge_ticks(out.reads, other.reads)
        for name, sites in other.timers.items():
            out.timers[name] = out.timers.get(name, EMPTY) | sites
        out.called &= other.called
    return out
