"""gitignore patterns, matched in time linear in the pattern and the path.

A checkout's ``.gitignore`` is input nobody vetted. Translated to one regular expression
per pattern (as pathspec does) a line such as ``*a*a*a*a*a*a*a*a*a*a*a*a*b`` makes Python's
backtracking engine try every way of splitting a long name among the stars: minutes for one
name of 30 characters. pathspec's linear backends need re2 or hyperscan, neither of them a
dependency here, so the patterns are compiled here, following git's own reading of them
(``dir.c`` and ``wildmatch.c``):

- a line is split on ``\\n`` only (a ``\\r`` before it dropped), its trailing spaces dropped
  unless escaped; blank lines and lines starting with ``#`` are nothing; ``!`` negates; a
  trailing ``/`` matches folders only;
- a pattern with no other ``/`` matches the name of an entry at any depth; one with a
  ``/`` matches the path from the pattern's folder (a leading ``/`` only anchors it);
- ``*`` and ``?`` match within one name, ``[...]`` one character (``!`` or ``^`` negate,
  ranges, ``[:alpha:]`` classes); ``**`` between slashes matches any number of folders, a
  trailing ``/**`` everything inside; any other ``**`` is ``*``;
- what git never matches is never matched, and never raises: an unclosed ``[``, a trailing
  ``\\``, an unknown ``[:class:]``, a lone ``!`` or ``/``; a reversed range such as
  ``[z-a]`` matches only the character before the ``-``, as in git (Python's ``re``
  refuses it);
- an entry inside an ignored folder is ignored (git does not look inside it), whatever a
  later ``!`` says; otherwise the last pattern that matches decides.

How no match can take long: a name pattern with at most one ``*`` is a regular expression
with one unbounded repetition, whose backtracking is bounded by the length of the name
times the pattern's; one with more stars is split at them into pieces of fixed length, and
a star between pieces never needs another try than the leftmost place of the next piece (a
star matches anything in a name), so each piece is searched once, left to right. Path
patterns are matched name by name with a set of positions in the pattern (``**`` included):
the time is the path's names times the pattern's, and never more.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

# What [:name:] means to git's wildmatch (ASCII only, as git's ctype is), as ranges.
_CLASSES: dict[str, tuple[tuple[int, int], ...]] = {
    "alnum": ((48, 57), (65, 90), (97, 122)),
    "alpha": ((65, 90), (97, 122)),
    "blank": ((9, 9), (32, 32)),
    "cntrl": ((0, 31), (127, 127)),
    "digit": ((48, 57),),
    "graph": ((33, 126),),
    "lower": ((97, 122),),
    "print": ((32, 126),),
    "punct": ((33, 47), (58, 64), (91, 96), (123, 126)),
    "space": ((9, 13), (32, 32)),
    "upper": ((65, 90),),
    "xdigit": ((48, 57), (65, 70), (97, 102)),
}

_STAR = "*"  # a token: any run of characters within a name
_STARS = "**"  # a token: two stars or more, ``**`` where git reads it so, else ``*``
_SLASH = "/"  # a token: the separator (outside brackets, escaped or not)
_NEVER_CLASS = "(?!)"  # a bracket that matches no character


class _Never(Exception):
    """The pattern can match nothing, as git reads it."""


def _char(c: str) -> str:
    return f"\\U{ord(c):08x}"


def _bracket(text: str, i: int) -> tuple[str, int]:
    """The regular expression for the bracket expression starting after ``[`` at ``i``,
    and the index after its ``]``; as wildmatch.c reads one."""
    n = len(text)
    negated = False
    if i < n and text[i] in "!^":
        negated = True
        i += 1
    ranges: list[tuple[int, int]] = []
    prev: str | None = None
    first = True
    while True:
        if i >= n:
            raise _Never  # no closing bracket: git aborts the whole match
        c = text[i]
        if c == "]" and not first:
            i += 1
            break
        first = False
        if c == "\\":
            i += 1
            if i >= n:
                raise _Never
            c = text[i]
            ranges.append((ord(c), ord(c)))
            prev = c
            i += 1
        elif c == "-" and prev is not None and i + 1 < n and text[i + 1] != "]":
            i += 1
            hi = text[i]
            if hi == "\\":
                i += 1
                if i >= n:
                    raise _Never
                hi = text[i]
            if ord(prev) <= ord(hi):
                ranges.append((ord(prev), ord(hi)))
            # (a reversed range matches no character, as in git; the lone ``prev`` already
            # added stays: wildmatch matched it before it saw the ``-``)
            prev = None
            i += 1
        elif c == "[" and i + 1 < n and text[i + 1] == ":":
            end = text.find("]", i + 2)
            if end == -1:
                raise _Never
            if end - 1 >= i + 2 and text[end - 1] == ":":
                name = text[i + 2:end - 1]
                if name not in _CLASSES:
                    raise _Never  # a malformed [:class:]: git aborts
                ranges.extend(_CLASSES[name])
                prev = None
                i = end + 1
            else:  # no ":]": a plain "["
                ranges.append((ord("["), ord("[")))
                prev = "["
                i += 1
        else:
            ranges.append((ord(c), ord(c)))
            prev = c
            i += 1
    body = "".join(_char(chr(lo)) if lo == hi else f"{_char(chr(lo))}-{_char(chr(hi))}"
                   for lo, hi in ranges)
    if negated:
        return f"[^/{body}]", i
    return (f"(?![/])[{body}]" if body else _NEVER_CLASS), i


def _tokens(text: str) -> list[str]:
    """``text`` as tokens: ``_STAR``, ``_SLASH``, or the regular expression of one
    character (a literal, ``?``, a bracket). Raises _Never."""
    out: list[str] = []
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if c == "\\":
            if i + 1 >= n:
                raise _Never  # a trailing backslash: git's pattern matches nothing
            c = text[i + 1]
            out.append(_SLASH if c == "/" else re.escape(c))
            i += 2
        elif c == "*":
            j = i
            while j < n and text[j] == "*":
                j += 1
            out.append(_STAR if j - i == 1 else _STARS)
            i = j
        elif c == "?":
            out.append("[^/]")
            i += 1
        elif c == "[":
            regex, i = _bracket(text, i + 1)
            out.append(regex)
        elif c == "/":
            out.append(_SLASH)
            i += 1
        else:
            out.append(re.escape(c))
            i += 1
    return out


class Glob:
    """What may match one name: ``match(name)`` in time bounded by the name's length times
    the pattern's (see the module's docstring). Compiled when first asked: most lines of a
    long ignore file are never tried (a name without wildcards is looked up)."""

    __slots__ = ("regex", "safe", "_tokens", "whole", "pieces")

    def __init__(self, tokens: Sequence[str]) -> None:
        pieces: list[list[str]] = [[]]
        for t in tokens:
            if t in (_STAR, _STARS):
                if pieces[-1] or len(pieces) == 1:
                    pieces.append([])
            else:
                pieces[-1].append(t)
        self._tokens = pieces
        self.regex = "[^/]*".join("".join(p) for p in pieces)
        # at most one star: one bounded repetition, safe to join with others
        self.safe = len(pieces) <= 2
        self.whole: re.Pattern[str] | None = None
        # (expression, length) of each piece: a piece has one character a token
        self.pieces: list[tuple[re.Pattern[str], int]] | None = None

    def match(self, name: str) -> bool:
        if self.safe:
            whole = self.whole
            if whole is None:
                whole = self.whole = re.compile(self.regex, re.DOTALL)
            return whole.fullmatch(name) is not None
        pieces = self.pieces
        if pieces is None:
            pieces = self.pieces = [(re.compile("".join(p), re.DOTALL), len(p))
                                    for p in self._tokens]
        (first, n0), (last, n1) = pieces[0], pieces[-1]
        end = len(name) - n1
        if end < n0 or first.match(name, 0, n0) is None \
                or last.fullmatch(name, end) is None:
            return False
        pos = n0
        for piece, size in pieces[1:-1]:
            found = piece.search(name, pos, end)  # leftmost is best: a star takes the rest
            if found is None:
                return False
            pos = found.start() + size
        return True


ANY_NAME = Glob([_STAR])
DEEP = None  # a path pattern's ``**``: any number of names


@dataclass(frozen=True)
class Rule:
    """One line of an ignore file. ``name``: for a pattern without a slash, what the entry's
    name must match; ``parts``: for the others, a Glob per name of the path (DEEP for
    ``**``), from the pattern's folder. A rule whose pattern can match nothing has neither.
    ``literal``: the name or path (``a/b``) a pattern without wildcards matches, if any."""

    negate: bool
    dir_only: bool
    name: Glob | None
    parts: tuple[Glob | None, ...] | None
    literal: str | None = None

    @property
    def never(self) -> bool:
        return self.name is None and self.parts is None and self.literal is None


def parse_line(line: str) -> Rule | None:
    """The rule of one line of an ignore file or configuration (no newline in it), or None
    for a line that is nothing (blank, a comment). Never raises."""
    if line.endswith("\r"):
        line = line[:-1]
    # trailing spaces go, unless escaped (git's trim_trailing_spaces)
    end = len(line)
    while end and line[end - 1] == " ":
        backslashes = 0
        k = end - 2
        while k >= 0 and line[k] == "\\":
            backslashes += 1
            k -= 1
        if backslashes % 2:
            break
        end -= 1
    line = line[:end]
    if not line or line.startswith("#"):
        return None
    negate = line.startswith("!")
    if negate:
        line = line[1:]
    dir_only = line.endswith("/")
    if dir_only:
        line = line[:-1]
    never = Rule(negate, dir_only, None, None)
    if not line:
        return never  # "!" or "/" alone: git matches nothing with them
    try:
        tokens = _tokens(line)
    except _Never:
        return never
    if "/" not in line:  # git's test: any slash, even inside a bracket or escaped
        literal = _literal(tokens)
        return Rule(negate, dir_only, Glob(tokens) if literal is None else None, None, literal)
    if line.startswith("/"):  # anchors the pattern (an escaped one does not: see below)
        tokens = tokens[1:]
    names: list[list[str]] = [[]]
    for t in tokens:
        if t == _SLASH:
            names.append([])
        else:
            names[-1].append(t)
    parts: list[Glob | None] = []
    for i, name in enumerate(names):
        if not name:
            return never  # ``a//b`` or ``\/a``: a path has no empty name
        if name == [_STARS]:  # ``**`` alone between slashes
            if i == len(names) - 1:
                parts.append(ANY_NAME)  # a trailing ``/**``: something inside
            if not parts or parts[-1] is not DEEP:
                parts.append(DEEP)
            continue
        parts.append(Glob(name))
    literal = None
    if DEEP not in parts:
        plain = [_literal(name) for name in names]
        if all(p is not None for p in plain):
            literal = "/".join(p for p in plain if p is not None)
    return Rule(negate, dir_only, None, tuple(parts), literal)


def _literal(tokens: Sequence[str]) -> str | None:
    """The text ``tokens`` match if they are all plain characters (``re.escape`` of one),
    else None."""
    out = []
    for t in tokens:
        if len(t) == 1 and t not in (_STAR, _SLASH):
            out.append(t)
        elif len(t) == 2 and t[0] == "\\":
            out.append(t[1])
        else:
            return None
    return "".join(out)


def parse(lines: Iterable[str]) -> list[Rule]:
    return [r for r in (parse_line(line) for line in lines) if r is not None]


def split_lines(text: str) -> list[str]:
    """The lines of an ignore file as git splits them: on ``\\n`` only (``str.splitlines``
    also splits on form feeds, ``\\x1c`` and U+2028, which a pattern may hold), a byte
    order mark at the start dropped."""
    if text.startswith("\ufeff"):
        text = text[1:]
    return text.split("\n")


# --- matching ---------------------------------------------------------------------------


def _advance(parts: Sequence[Glob | None], states: frozenset[int], name: str
             ) -> frozenset[int]:
    """The positions in ``parts`` after matching one more name of a path."""
    out: set[int] = set()
    for i in states:
        if i < len(parts):
            part = parts[i]
            if part is DEEP:
                out.add(i)
            elif part.match(name):
                out.add(i + 1)
    return _closure(parts, out)


def _closure(parts: Sequence[Glob | None], states: Iterable[int]) -> frozenset[int]:
    """``states`` and the positions past any ``**`` at them (which may match no name)."""
    out = set(states)
    todo = list(out)
    while todo:
        i = todo.pop()
        if i < len(parts) and parts[i] is DEEP and i + 1 not in out:
            out.add(i + 1)
            todo.append(i + 1)
    return frozenset(out)


_START = frozenset({0})


def path_matches(rule: Rule, names: Sequence[str]) -> bool:
    """Whether ``rule`` (a path pattern) matches the path of ``names`` from its folder."""
    parts = rule.parts
    assert parts is not None
    states = _closure(parts, _START)
    for name in names:
        states = _advance(parts, states, name)
        if not states:
            return False
    return len(parts) in states


class Rules:
    """The rules of one ignore file (or one configuration list), for paths relative to one
    folder. ``decide(names, is_dir)`` is the last matching rule's answer (True: left out,
    False: taken back by ``!``, None: no rule matches); ``in_folder`` gives it for the
    entries of one folder, with what depends on the folder alone worked out once."""

    def __init__(self, rules: Sequence[Rule]) -> None:
        self.rules = [r for r in rules if not r.never]
        self.name_rules = [(i, r) for i, r in enumerate(self.rules) if r.parts is None]
        self.path_rules = [(i, r) for i, r in enumerate(self.rules) if r.parts is not None]
        # Names without wildcards (most lines of a long ignore file) are looked up; the
        # other name patterns are tried only where one expression of the safe ones (or an
        # unsafe one on its own) says some of them matches.
        self.literal_names: dict[str, list[int]] = {}
        self.glob_names: list[tuple[int, Rule]] = []
        for i, r in self.name_rules:
            if r.name is None:
                assert r.literal is not None
                self.literal_names.setdefault(r.literal, []).append(i)
            else:
                self.glob_names.append((i, r))
        safe = [r.name.regex for _, r in self.glob_names if r.name is not None and r.name.safe]
        self.any_safe = re.compile("|".join(f"(?:{x})" for x in safe), re.DOTALL) \
            if safe else None
        self.unsafe = [r.name for _, r in self.glob_names
                       if r.name is not None and not r.name.safe]
        self.literal_paths: dict[str, list[int]] = {}
        self.glob_paths: list[tuple[int, Rule]] = []
        for i, r in self.path_rules:
            if r.literal is not None:
                self.literal_paths.setdefault(r.literal, []).append(i)
            else:
                self.glob_paths.append((i, r))

    def __bool__(self) -> bool:
        return bool(self.rules)

    def below(self, floor: Sequence[str]) -> Rules:
        """These rules as seen by a walk started in ``floor`` (names from the rules'
        folder) although they exclude it: the path patterns that match ``floor`` or a
        folder above it do not count below it."""
        drop = set()
        for i, r in self.path_rules:
            if any(path_matches(r, floor[:k]) for k in range(1, len(floor) + 1)):
                drop.add(i)
        return Rules([r for i, r in enumerate(self.rules) if i not in drop])

    def names_only(self) -> Rules:
        """The rules without a slash: what applies to entries outside the rules' folder."""
        return Rules([r for r in self.rules if r.parts is None])

    def _name_candidate(self, name: str) -> bool:
        if self.any_safe is not None and self.any_safe.fullmatch(name) is not None:
            return True
        return any(g.match(name) for g in self.unsafe)

    def _last_name_rule(self, name: str, is_dir: bool, before: int) -> int:
        """The index of the last name rule below ``before`` matching ``name``, or -1."""
        best = -1
        for i in self.literal_names.get(name, ()):
            if i < before and (is_dir or not self.rules[i].dir_only):
                best = max(best, i)
        if self.glob_names and self._name_candidate(name):
            for i, r in reversed(self.glob_names):
                if i <= best:
                    break
                if i < before and (is_dir or not r.dir_only) and r.name is not None \
                        and r.name.match(name):
                    best = i
                    break
        return best

    def decide(self, names: Sequence[str], is_dir: bool) -> bool | None:
        """The answer for the path of ``names`` (from the rules' folder) itself; the
        folders above it are the caller's to ask (see ``ignored``)."""
        best = self._last_name_rule(names[-1], is_dir, len(self.rules)) if names else -1
        if self.path_rules:
            for i in self.literal_paths.get("/".join(names), ()):
                if i > best and (is_dir or not self.rules[i].dir_only):
                    best = i
            for i, r in reversed(self.glob_paths):
                if i <= best:
                    break
                if (is_dir or not r.dir_only) and path_matches(r, names):
                    best = i
                    break
        return None if best < 0 else not self.rules[best].negate

    def in_folder(self, folder: Sequence[str]) -> FolderRules:
        return FolderRules(self, folder)


class FolderRules:
    """``Rules.decide`` for the entries of one folder (``folder``: its names from the rules'
    folder), asked as (name, is a folder)."""

    __slots__ = ("rules", "prefix", "paths")

    def __init__(self, rules: Rules, folder: Sequence[str]) -> None:
        self.rules = rules
        self.prefix = "/".join(folder) + "/" if folder else ""
        # the path patterns that can still match an entry here, each with where it stands
        self.paths: list[tuple[int, Rule, frozenset[int]]] = []
        for i, r in rules.glob_paths:
            parts = r.parts
            assert parts is not None
            states = _closure(parts, _START)
            for name in folder:
                states = _advance(parts, states, name)
                if not states:
                    break
            if states:
                self.paths.append((i, r, states))

    def __call__(self, name: str, is_dir: bool) -> bool | None:
        rules = self.rules
        best = rules._last_name_rule(name, is_dir, len(rules.rules))
        if rules.literal_paths:
            for i in rules.literal_paths.get(self.prefix + name, ()):
                if i > best and (is_dir or not rules.rules[i].dir_only):
                    best = i
        for i, r, states in reversed(self.paths):
            if i <= best:
                break
            if is_dir or not r.dir_only:
                parts = r.parts
                assert parts is not None
                if len(parts) in _advance(parts, states, name):
                    best = i
                    break
        return None if best < 0 else not rules.rules[best].negate


def ignored(levels: Sequence[tuple[Rules, Sequence[str]]], is_dir: bool, skip: int = 0
            ) -> bool:
    """Whether a path is left out by ``levels``: (rules, the path's names from their
    folder), weakest first, the last one with an answer deciding. A folder above the path
    that is left out leaves the path out, whatever a later ``!`` says (git does not look
    inside it). ``skip``: how many of the longest names' first folders are not asked (the
    walk was started below them)."""
    if not levels:
        return False
    full = max(len(names) for _, names in levels)
    for depth in range(skip + 1, full + 1):  # the folders above, top down, then the path
        cut = full - depth  # names of the path left off the end
        answer = None
        for rules, names in levels:
            if len(names) - cut >= 1:  # (else that level's folder is below this one)
                found = rules.decide(names[:len(names) - cut], is_dir if cut == 0 else True)
                if found is not None:
                    answer = found
        if answer:
            return True
    return False
