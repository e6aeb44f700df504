"""Joins and the loop fixpoint test visit only the names written since paths split.

``State.lineage`` lets a join skip the names no path wrote since the paths split (issue 23:
a module that binds a new name in every region and branches in each would otherwise cost
the square of its length). The short cut must never skip a name that differs: these tests
write in every way the analysis does and compare with what a full join knows.
"""

from __future__ import annotations

import libcst as cst

from jaxlint.analysis.state import State, changed_names, join_states
from jaxlint.analysis.table import Table
from jaxlint.analysis.values import Ref, TimerRead


def _reading(name: str) -> TimerRead:
    """A timer reading made at a call of its own: two readings join to both calls."""
    return TimerRead(frozenset({cst.Call(cst.Name(name))}))


def _full_join(states: list[State]) -> dict[str, object]:
    """The join a name-by-name comparison gives: the same states with no shared lineage."""
    return join_states([State(env=Table(dict(s.env)), bound=s.bound.copy())
                        for s in states]).env.flat()


def _module_state(n: int) -> State:
    st = State()
    for i in range(n):
        st.write(f"x{i}", Ref(f"m.x{i}"))
    return st


def test_a_join_of_two_branches_sees_exactly_what_each_wrote() -> None:
    st = _module_state(50)
    then, other = st.copy(), st.copy()
    then.write("x3", Ref("then.x3"))
    then.write("new", Ref("then.new"))
    other.drop("x7")
    assert changed_names([then, other]) == {"x3", "new", "x7"}
    out = join_states([then, other])
    assert out.env == _full_join([then, other])
    assert out.env["new"] == Ref("then.new")
    assert out.env["x7"] == Ref("m.x7")  # bound on one path: the value of that path
    assert out.env["x9"] is st.env["x9"]


def test_a_write_to_a_state_after_a_copy_of_it_is_still_joined() -> None:
    # ``if c: ...`` without ``else``: the other path is the state itself, written on after
    # the copy was made (here by hand: a short cut that ignored it would keep x1's old value)
    st = _module_state(10)
    st.write("t", _reading("before"))
    then = st.copy()
    st.write("t", _reading("later"))
    assert changed_names([then, st]) is None
    for paths in ([then, st], [st, then]):
        joined = join_states(paths).env["t"]
        assert isinstance(joined, TimerRead) and len(joined.sites) == 2
        assert join_states(paths).env == _full_join(paths)


def test_states_of_unrelated_origin_are_compared_name_by_name() -> None:
    a, b = _module_state(5), _module_state(5)
    b.write("x2", TimerRead(frozenset()))
    assert changed_names([a, b]) is None
    assert join_states([a, b]).env["x2"] != a.env["x2"]  # Ref joined with a reading


def test_nested_copies_carry_the_writes_of_every_level() -> None:
    st = _module_state(20)
    st.write("t4", _reading("module4"))
    st.write("t5", _reading("module5"))
    outer = st.copy()
    outer.write("t4", _reading("outer"))
    inner = outer.copy()
    inner.write("t5", _reading("inner"))
    deeper = inner.copy()
    assert changed_names([deeper, st]) == {"t4", "t5"}
    for paths in ([st, deeper], [deeper, st]):
        out = join_states(paths).env
        assert out == _full_join(paths)
        assert all(len(out[t].sites) == 2 for t in ("t4", "t5"))  # type: ignore[union-attr]
        assert out["x6"] is st.env["x6"]


def test_the_fixpoint_test_sees_a_name_a_round_wrote() -> None:
    entry = _module_state(30)
    head = entry.copy()
    head.write("y", Ref("round1.y"))
    again = head.copy()
    assert again.same_shape(head, since=0, entry=entry)
    again.write("x8", Ref("round2.x8"))
    assert not again.same_shape(head, since=0, entry=entry)
    assert not again.same_shape(head, since=0)
