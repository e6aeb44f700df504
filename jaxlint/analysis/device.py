"""The device: dispatching work and waiting for it.

JAX runs a device's work in dispatch order. Each dispatch gets the next tick of the
analysis' clock and is pending until something waits for a value that covers it
(``jax.block_until_ready``, a host copy, a truth test); waiting for a value waits for
everything dispatched before it. A host copy moves work to ``transferred``: it is finished,
but the copy was timed too (JAX104).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from jaxlint.analysis.state import State
from jaxlint.analysis.timers import IDLE, INEFFECTIVE, SYNCED
from jaxlint.analysis.values import (
    EMPTY,
    Instance,
    JaxVal,
    LibObject,
    Site,
    Value,
)

if TYPE_CHECKING:
    from jaxlint.analysis.flow import FlowAnalysis


class Device:
    """The device part of ``FlowAnalysis`` (see the module docstring)."""

    # ------------------------------------------------------------------ effects
    def _tick(self: FlowAnalysis) -> int:
        self._now += 1
        return self._now

    def _event(self: FlowAnalysis, site: Site) -> int:
        """A new tick for work a region may contain (a dispatch, or the work a function's
        caller left running), noted in the journal that timer reads look back through."""
        tick = self._tick()
        self._journal.append((tick, site))
        return tick

    def _dispatch(self: FlowAnalysis, site: Site, inputs: Sequence[Value], st: State) -> JaxVal:
        """``site`` dispatches device work; return the (pending) value it produces.

        Values dispatched before this run keep their older ticks, so they no longer cover
        the site: nothing else needs updating."""
        self.frame.did_work = True
        tick = self._event(site)
        if site not in self.site_loops:
            self.site_loops[site] = tuple(self.frame.loop_stmts)
        st.pending[site] = tick
        st.transferred.pop(site, None)
        deps = EMPTY
        for v in inputs:
            if isinstance(v, JaxVal):
                deps = deps | v.origin | v.deps
        return JaxVal(tick, frozenset({site}), deps)

    def _operate(self: FlowAnalysis, site: Site, inputs: Sequence[Value], st: State
                 ) -> JaxVal | None:
        """An operation on values (``y @ y``, ``y[0]``, ``y.sum()``): device work when one
        of them is known to be a JAX value; on results of unknown functions only, another
        such result."""
        if all(v.opaque for v in inputs if isinstance(v, JaxVal)):
            return self._opaque()
        if any(isinstance(v, JaxVal) and v.shard in ("shards", "listed") for v in inputs):
            # an operation on an array's shard list or one listed shard
            # (``y.addressable_shards[0].data.squeeze(0)``): one device's data, not a
            # result that syncing waits for the whole of: not followed (see JaxVal.shard)
            return None
        return self._dispatch(site, inputs, st)

    def _note_unknown(self: FlowAnalysis) -> None:
        """The frame being run relied on something not known here (``Summary.unknown``)."""
        if self._frames:
            self._frames[-1].unknown = True

    def _opaque(self: FlowAnalysis) -> JaxVal:
        """What a function or object not known here makes of the JAX values it is given
        (the frame notes that what it leaves running is a guess: ``Summary.unknown``)."""
        self._note_unknown()
        return JaxVal(self._now, opaque=True)

    def ineffective_sync(self: FlowAnalysis, site: Site, kind: str) -> None:
        """A call written as a sync that cannot wait (``kind``, see ``no_op_syncs``): noted,
        with its place among the frame's events, so that a region knows the ones it holds
        (``Region.ineffective``, JAX107)."""
        self.no_op_syncs[site] = kind
        self.frame.events.append((self._tick(), site, INEFFECTIVE))

    def _sync(self: FlowAnalysis, value: Value, st: State, transfer: bool = False,
              site: Site | None = None) -> None:
        """Wait for ``value`` (and, in dispatch order, everything before it).

        ``site`` is the syncing call; a real sync that finds none of the pending work to wait
        for is remembered as idle (it synced the wrong value: an input, a stale result).
        """
        if isinstance(value, (LibObject, Instance)) and value.holds is not None:
            value = value.holds
        if not isinstance(value, JaxVal):
            return
        frame = self.frame
        if (not transfer and frame.func is not None and frame.func.owner is None
                and 0 <= value.tick < frame.entered and value.origin and not value.opaque
                and frame.func.node.params not in value.origin
                and frame.entry not in value.origin):
            # made before this call and not given to it: a variable of the enclosing
            # function (or a global of a module-level function), which its caller waits
            # for too, as bound at the call (free variables are read when the function
            # runs; ``Summary.outer_syncs``)
            scope = frame.func.closure[0] if frame.func.closure else self.globals
            names = frozenset(n for n, v in scope.items() if v is value)
            if names:
                st.outer = st.outer | names
        waited = False
        for work, tick in list(st.pending.items()):
            if value.covers(work, tick):
                waited = True
                del st.pending[work]
                if transfer:
                    st.transferred[work] = tick
                    self.transfer_where.setdefault(work, self._loc)
                    self.transfer_loops.setdefault(work, self.all_loops())
        if not transfer:
            for work, tick in list(st.transferred.items()):
                if value.covers(work, tick):
                    waited = True
                    del st.transferred[work]
        if site is not None and not transfer and not waited and (st.pending or st.transferred):
            self.frame.events.append((self._tick(), site, IDLE))
        elif site is not None and not transfer and waited:
            self.frame.events.append((self._tick(), site, SYNCED))
            self.context_of.setdefault(site, (tuple(self.frame.loop_stmts),
                                              tuple(self.frame.branches)))

    def _sync_all(self: FlowAnalysis, st: State, transfer: bool = False,
                  site: Site | None = None) -> None:
        self._sync(JaxVal(self._now), st, transfer, site)

    def _truth(self: FlowAnalysis, value: Value, st: State) -> None:
        """Python asks for ``bool(value)`` (``if``, ``while``, ``assert``, ``and``): it waits.

        It is a host copy, but one the algorithm needs (a convergence test, a check), not one
        added to the timing, so it counts as a real wait: JAX104 does not report it.
        """
        self._sync(value, st)
