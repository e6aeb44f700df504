"""A mapping whose copy costs what was written since, not what it holds.

The analysis copies a path's state at every branch, loop round and try block, and a state's
names are most of it: a module that binds a new name in every timed region and branches in
each copied all of them at every branch, the square of its length (issue 23's "regions with
loops and branches" growth case). A ``Table`` keeps what it holds in two parts:

- ``_top``: a small dict of its own (at most ``_SPILL`` entries), the recent writes;
- ``_levels``: older writes in dicts that are never changed again, newest first, shared
  with every copy made since they were frozen.

A copy copies ``_top`` and shares ``_levels``: O(``_SPILL``). A lookup tries ``_top``, then
each level; a level holds at least ``_GROWTH`` times as many entries as the one before it
(levels are merged when it would not), so there are O(log n) of them. A removal that an
older level still holds is a tombstone, ``_GONE``, dropped when the oldest level is merged.
Iterating merges every level into one (a cost of the table's size, which iterating pays
anyway), so a table iterated again does not merge again.

Two tables compare equal when they hold the same entries, as dicts do, and a table compares
equal to a dict holding them.
"""

from __future__ import annotations

from collections.abc import (
    ItemsView,
    Iterable,
    Iterator,
    KeysView,
    Mapping,
    MutableMapping,
    ValuesView,
)
from typing import Any, TypeVar, overload

K = TypeVar("K")
V = TypeVar("V")
D = TypeVar("D")

_SPILL = 32  # entries ``_top`` holds before it is frozen into a level
_GROWTH = 4  # each level at least this many times the size of the level before it


class _Sentinel:
    __slots__ = ("name",)

    def __init__(self, name: str) -> None:
        self.name = name

    def __repr__(self) -> str:
        return self.name


_GONE: Any = _Sentinel("_GONE")  # a removal that an older level still holds an entry for
_ABSENT: Any = _Sentinel("_ABSENT")  # not in this dict: look in the next one


class Table(MutableMapping[K, V]):
    """A mutable mapping with O(1) copies; see the module's docstring."""

    __slots__ = ("_len", "_levels", "_top")

    def __init__(self, items: Mapping[K, V] | Iterable[tuple[K, V]] | None = None) -> None:
        self._top: dict[K, V] = {}
        self._levels: tuple[dict[K, V], ...] = ()
        self._len = 0
        if items is not None:
            start = dict(items)
            if len(start) > _SPILL:
                self._levels = (start,)
                self._len = len(start)
            else:
                self._top = start
                self._len = len(start)

    # ------------------------------------------------------------------ reading
    def _find(self, key: K) -> V:
        """The value of ``key``, or ``_GONE`` when the table does not hold it."""
        value = self._top.get(key, _ABSENT)
        if value is not _ABSENT:
            return value
        for level in self._levels:
            value = level.get(key, _ABSENT)
            if value is not _ABSENT:
                return value
        return _GONE  # type: ignore[no-any-return]

    def __getitem__(self, key: K) -> V:
        value = self._find(key)
        if value is _GONE:
            raise KeyError(key)
        return value

    @overload
    def get(self, key: K, default: None = None) -> V | None: ...
    @overload
    def get(self, key: K, default: V | D) -> V | D: ...

    def get(self, key: K, default: Any = None) -> Any:
        value = self._find(key)
        return default if value is _GONE else value

    def __contains__(self, key: object) -> bool:
        return self._find(key) is not _GONE  # type: ignore[arg-type]

    def __len__(self) -> int:
        return self._len

    def __bool__(self) -> bool:
        return self._len > 0

    def flat(self) -> dict[K, V]:
        """Every entry, in one dict that must not be changed (it may be a level). The
        table keeps it as its only level, so the next iteration does not merge again."""
        if not self._levels:
            top = self._top
            if not any(v is _GONE for v in top.values()):
                return top
            self._top = {k: v for k, v in top.items() if v is not _GONE}
            return self._top
        if not self._top and len(self._levels) == 1:
            return self._levels[0]
        merged: dict[K, V] = {}
        for level in reversed(self._levels):
            merged.update(level)
        merged.update(self._top)
        merged = {k: v for k, v in merged.items() if v is not _GONE}
        self._levels, self._top = (merged,), {}
        return merged

    def __iter__(self) -> Iterator[K]:
        return iter(self.flat())

    def keys(self) -> KeysView[K]:
        return self.flat().keys()

    def values(self) -> ValuesView[V]:
        return self.flat().values()

    def items(self) -> ItemsView[K, V]:
        return self.flat().items()

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Table):
            return self._len == other._len and self.flat() == other.flat()
        if isinstance(other, dict):
            return self._len == len(other) and self.flat() == other
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"Table({self.flat()!r})"

    # ------------------------------------------------------------------ writing
    def __setitem__(self, key: K, value: V) -> None:
        top = self._top
        old = top.get(key, _ABSENT)
        if old is _ABSENT:
            old = self._find(key)
        if old is _GONE:
            self._len += 1
        top[key] = value
        if len(top) > _SPILL:
            self._spill()

    def __delitem__(self, key: K) -> None:
        if self.pop(key, _GONE) is _GONE:
            raise KeyError(key)

    @overload
    def pop(self, key: K) -> V: ...
    @overload
    def pop(self, key: K, default: V | D) -> V | D: ...

    def pop(self, key: K, default: Any = _ABSENT) -> Any:
        old = self._find(key)
        if old is _GONE:
            if default is _ABSENT:
                raise KeyError(key)
            return default
        self._len -= 1
        if self._levels:
            self._top[key] = _GONE  # an older level still holds it
            if len(self._top) > _SPILL:
                self._spill()
        else:
            del self._top[key]
        return old

    def add(self, key: K) -> None:
        """Set semantics (a table of names to True): hold ``key``."""
        self[key] = True  # type: ignore[assignment]

    def discard(self, key: K) -> None:
        """Set semantics: hold ``key`` no more."""
        self.pop(key, None)

    def update(self, *args: Any, **kwargs: Any) -> None:  # noqa: D102 (MutableMapping's)
        for key, value in dict(*args, **kwargs).items():
            self[key] = value

    def copy(self) -> Table[K, V]:
        """An independent table with the same entries: O(``_SPILL``)."""
        out: Table[K, V] = Table.__new__(Table)
        out._top = dict(self._top)
        out._levels = self._levels
        out._len = self._len
        return out

    def _spill(self) -> None:
        """Freeze ``_top`` into the newest level, merging levels until each is at least
        ``_GROWTH`` times the size of the one before it. Merging makes new dicts: the old
        levels may be shared with copies."""
        levels = [self._top, *self._levels]
        self._top = {}
        while len(levels) > 1 and len(levels[1]) < _GROWTH * len(levels[0]):
            newer, older = levels[0], levels[1]
            merged = dict(older)
            merged.update(newer)
            if len(levels) == 2:  # the oldest: no level left for a tombstone to hide
                merged = {k: v for k, v in merged.items() if v is not _GONE}
            levels[0:2] = [merged]
        self._levels = tuple(levels)
