"""The abstract values' joins: ``union_jax`` (one pass over a container literal's elements)
gives the value that folding ``join_jax`` over them gives."""

from __future__ import annotations

import functools

import libcst as cst
from hypothesis import given, settings
from hypothesis import strategies as st

from jaxlint.analysis.values import JaxVal, join_jax, union_jax

SITES = [cst.Name(f"s{i}") for i in range(6)]
sites = st.frozensets(st.sampled_from(SITES), max_size=4)
jax_values = st.builds(
    JaxVal, tick=st.integers(-1, 5), origin=sites, deps=sites, container=st.booleans(),
    uncovered=sites, opaque=st.booleans(), record=st.booleans(),
    shard=st.sampled_from(["", "one", "per_device"]),
    aval=st.sampled_from([(), ("(3,):float32",), ("(4,):float32",)]))


@settings(max_examples=300, deadline=None)
@given(st.lists(st.one_of(jax_values, st.none(), st.integers()), max_size=7))
def test_union_is_the_left_fold_of_joins(values: list[object]) -> None:
    jax = [v for v in values if isinstance(v, JaxVal)]
    expected = None
    if jax:
        folded = functools.reduce(join_jax, jax)
        expected = JaxVal(folded.tick, folded.origin, folded.deps, False, folded.uncovered,
                          folded.opaque, folded.record, folded.shard, folded.aval)
    assert union_jax(values) == expected


def test_members_kinds_follow_every_change_of_kind() -> None:
    from jaxlint.analysis.values import Members

    def kinds(m: Members) -> tuple[tuple[str, type], ...]:
        return tuple((k, type(v)) for k, v in m.items())

    m = Members(a=None)
    assert m.kinds() == kinds(m)
    m["b"] = JaxVal()
    assert m.kinds() == kinds(m)
    m["b"] = JaxVal(tick=3)  # same kind: the same key
    assert m.kinds() == kinds(m)
    m["a"] = JaxVal()
    m.update(c=None)
    m.setdefault("d", JaxVal())
    assert m.kinds() == kinds(m) and len(m.kinds()) == 4
    del m["c"]
    m.pop("d")
    assert m.kinds() == kinds(m) == (("a", JaxVal), ("b", JaxVal))
    m |= {"e": None}
    assert m.kinds() == kinds(m)
    m.clear()
    assert m.kinds() == ()
