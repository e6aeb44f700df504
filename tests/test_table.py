"""``Table``, the mapping the analysis' states keep names in: it must read exactly as a dict
would, after any mix of writes, removals and copies (whose levels are shared), and a copy
must never see a write made to its original or the other way round."""

from __future__ import annotations

import random

import pytest

from jaxlint.analysis.state import State, join_states
from jaxlint.analysis.table import _SPILL, Table
from jaxlint.analysis.values import Ref


def _same(table: Table[str, int], model: dict[str, int]) -> None:
    assert len(table) == len(model)
    assert bool(table) == bool(model)
    assert table == model
    assert dict(table.items()) == model
    assert set(table) == set(model)
    for key in [*model, "never"]:
        assert (key in table) == (key in model)
        assert table.get(key, -1) == model.get(key, -1)


@pytest.mark.parametrize("seed", range(6))
def test_a_table_reads_as_a_dict_through_writes_removals_and_copies(seed: int) -> None:
    rng = random.Random(seed)
    keys = [f"k{i}" for i in range(300)]
    tables: list[tuple[Table[str, int], dict[str, int]]] = [(Table(), {})]
    for step in range(6_000):
        table, model = rng.choice(tables)
        roll = rng.random()
        key = rng.choice(keys)
        if roll < 0.55:
            table[key] = model[key] = step
        elif roll < 0.8:
            assert table.pop(key, None) == model.pop(key, None)
        elif roll < 0.83 and len(tables) < 40:
            tables.append((table.copy(), dict(model)))
        elif roll < 0.86:
            _same(table, model)  # iterating merges the levels: reading on must not change
        else:
            assert table.get(key) == model.get(key)
    for table, model in tables:
        _same(table, model)


def test_a_copy_and_its_original_do_not_see_each_others_writes() -> None:
    original: Table[str, int] = Table({f"k{i}": i for i in range(5 * _SPILL)})
    copy = original.copy()
    for i in range(3 * _SPILL):  # enough to freeze and merge levels in both
        original[f"k{i}"] = -i
        copy.pop(f"k{i + 1}")
    assert original["k1"] == -1 and "k1" not in copy
    assert copy["k0"] == 0 and copy[f"k{4 * _SPILL}"] == 4 * _SPILL and "k1" in original
    assert len(original) == 5 * _SPILL and len(copy) == 5 * _SPILL - 3 * _SPILL


def test_removing_what_is_not_there_raises_as_a_dict_does() -> None:
    table: Table[str, int] = Table({"a": 1})
    table.copy()
    with pytest.raises(KeyError):
        del table["b"]
    with pytest.raises(KeyError):
        table.pop("b")
    with pytest.raises(KeyError):
        table["b"]  # noqa: B018
    del table["a"]
    assert not table and table == {}


def test_as_a_set_add_and_discard() -> None:
    names: Table[str, bool] = Table()
    names.add("x")
    names.add("x")
    names.discard("y")
    assert set(names) == {"x"} and len(names) == 1
    names.discard("x")
    assert not names


def test_joined_states_bind_only_names_bound_on_every_path() -> None:
    st = State()
    for i in range(3 * _SPILL):
        st.write(f"x{i}", Ref(f"m.x{i}"))
        st.bound.add(f"x{i}")
    then, other = st.copy(), st.copy()
    then.write("y", Ref("then.y"))
    then.bound.add("y")
    other.drop("x5")
    other.bound.discard("x5")
    out = join_states([then, other])
    assert "y" in out.env and "y" not in out.bound
    assert out.env["x5"] == Ref("m.x5") and "x5" not in out.bound
    assert "x6" in out.bound and len(out.bound) == 3 * _SPILL - 1
