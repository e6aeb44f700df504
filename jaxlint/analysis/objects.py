"""Classes, instances, attributes and decorators.

A class body is interpreted once to learn its members; its methods are then analysed with
``self`` an ``Instance``, constructors first, so that what ``__init__`` stores on ``self``
(``self.fn = jax.jit(...)``) is a member when other methods use it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import TYPE_CHECKING

import libcst as cst

from jaxlint.analysis import names
from jaxlint.analysis.names import CallKind
from jaxlint.analysis.state import State
from jaxlint.analysis.syntax import StmtLoc, annotated_fields, dotted, walk
from jaxlint.analysis.values import (
    INPUT,
    Func,
    HostValue,
    Instance,
    JaxCallable,
    JaxVal,
    Klass,
    LibObject,
    Ref,
    Site,
    Transform,
    Value,
    join_values,
)

if TYPE_CHECKING:
    from jaxlint.analysis.calls import Frame
    from jaxlint.analysis.flow import FlowAnalysis

_PYTREE_DECORATORS = frozenset({"register_dataclass", "register_pytree_node_class",
                                "register_pytree_with_keys_class", "register_static"})


CONSTRUCTORS = frozenset({"__init__", "setup", "__post_init__"})


def _constructor(fn: Func) -> bool:
    """A method that sets up a new instance's attributes (flax's ``setup`` too)."""
    return isinstance(fn.node, cst.FunctionDef) and fn.node.name.value in CONSTRUCTORS


class Objects:
    """The objects part of ``FlowAnalysis`` (see the module docstring)."""

    _klass: Klass | None  # the class whose body is being interpreted
    # its frame and the names of the scope around the class statement (``FlowAnalysis``)
    _class_outer: tuple[Frame, Mapping[str, Value]] | None

    def _make_callable(self: FlowAnalysis, origin: Site, jitted: bool,
                       static: tuple[tuple[int, ...], tuple[str, ...]] = ((), ()),
                       fn: Value = None, pmapped: bool = False) -> JaxCallable:
        """A function made by a transformation; ``static``: its static argument numbers and
        names, matched to ``fn``'s parameters when it is the file's own. ``pmapped``: the
        transformation maps over devices; the callable is marked so only when the function
        is the file's own and returns one array (not a tuple, whose ``[0]`` is an output)."""
        if not jitted and isinstance(fn, JaxCallable) and fn.jitted:
            # ``vmap(jitted)``: calling it calls the jitted function, which compiles on its
            # first call (for the batched shapes)
            return JaxCallable(jitted=True, origin=fn.origin, static=fn.static)
        if jitted:
            origin = self._jit_origin(origin, fn, jitted, static)
        self.frame.created.add(origin)
        self.made_in[origin] = set(self.frame.loop_stmts)
        nums, argnames = static
        spec: list[tuple[int | None, str | None]] = []
        if nums or argnames:
            params = (self._positional_params(fn.node) if isinstance(fn, Func) else [])
            for n in nums:
                spec.append((n, params[n] if n < len(params) else None))
            for name in argnames:
                if not any(name == known for _, known in spec):
                    spec.append((params.index(name) if name in params else None, name))
        body = fn.node if isinstance(fn, Func) else origin
        return JaxCallable(jitted=jitted, origin=origin, static=tuple(spec),
                           pmapped=pmapped and _returns_one_value(body))

    def _apply_decorator(self: FlowAnalysis, deco: Value, value: Value,
                         stmt: cst.FunctionDef) -> Value:
        if isinstance(deco, Transform):
            return self._make_callable(stmt, deco.jit, (deco.static_nums, deco.static_names),
                                       value, deco.pmap)
        if isinstance(deco, Ref):
            if self.capture is not None and self.absolute(deco.name) in self.capture:
                # another module's timing decorator (``@timer`` of a ``utils.py``): it is
                # called with the function, which leaves JAX work running or not
                # (``FlowAnalysis.follow_callers``; the function itself is of this module).
                # JAX work of its own, whatever it is given: ``onp.dot(a, a.T)`` is given
                # NumPy arrays by its callers, ``jnp.dot(a, a.T)`` computes on any.
                self.capture[self.absolute(deco.name)].append(
                    [(None, "", JaxCallable(synced=not self._leaves_running(value, alone=True)))])
            kind = self._classify(deco.name)
            if kind is CallKind.TRANSFORM:
                q = self.as_jax(deco.name)
                return self._make_callable(stmt, q in names.JIT_TRANSFORMS,
                                           pmapped=q in names.PMAP_TRANSFORMS)
            if deco.name in ("builtins.staticmethod", "builtins.classmethod", "builtins.property"):
                return value
            if kind is CallKind.UNKNOWN and self.jax_library(deco.name):
                return JaxCallable()
        if isinstance(deco, JaxCallable):
            return JaxCallable()
        if isinstance(deco, Func) and isinstance(value, (Func, JaxCallable)):
            # The file's own decorator: what it returns (a timing wrapper around the
            # function, which then times each call in its own frame) replaces the function.
            node = stmt.decorators[0].decorator if stmt.decorators else stmt
            wrapped = self._call_func(deco, node, [(None, "", value)], None, State())
            if isinstance(wrapped, Func) and isinstance(wrapped.node, cst.FunctionDef):
                uses = self.decorations.setdefault(wrapped.node, [])
                if not any(d is stmt for d, _ in uses):
                    # this wrapper (a factory's may wait for the result) around this function
                    uses.append((stmt, self._leaves_running(value)
                                 and self._leaves_running(wrapped)))
            if isinstance(wrapped, (Func, JaxCallable)):
                return wrapped
        return value

    def _leaves_running(self: FlowAnalysis, value: Value, alone: bool = False) -> bool:
        """Whether calling ``value`` (a decorated function) returns with JAX work of its
        own still running. ``alone``: whatever it is given, as another module's decorator
        must judge it (given host values, with other modules' functions looked up as under
        a clock, it still dispatches JAX work: ``jnp.dot(a, a.T)`` or a jitted step does,
        ``onp.dot(a, a.T)`` on NumPy arrays its callers give does not)."""
        if isinstance(value, JaxCallable):
            return not value.synced
        if not isinstance(value, Func):
            return False
        given = None if alone else INPUT
        params: dict[str, Value] = {p: given for p in self._positional_params(value.node)}
        bump = 1 if alone else 0
        self._under_timer += bump
        try:
            return self._call_function(value, params).leaves_running
        finally:
            self._under_timer -= bump

    def _exec_ClassDef(self: FlowAnalysis, stmt: cst.ClassDef, st: State) -> State:
        self._loc = StmtLoc(stmt, True)
        # What it inherits from the file's own classes (later bases first, so earlier ones
        # win, as in the MRO); a base learns of its subclasses, whose overrides of its
        # abstract methods are what calling them on a base-typed object runs. From a JAX
        # library's class (``nn.Module``) it inherits that library's methods.
        parents = [self._eval(base.value, st) for base in stmt.bases]
        library = next((p.library if isinstance(p, Klass) else p.name for p in parents
                        if (isinstance(p, Klass) and p.library)
                        or (isinstance(p, Ref) and self.jax_library(p.name))), None)
        klass = Klass(stmt, library=library)
        for parent in reversed(parents):
            if isinstance(parent, Klass):
                klass.members.update(parent.members)
                self._subclasses.setdefault(parent.node, set()).add(stmt)
        self._klasses[stmt] = klass
        outer, outer_names = self._klass, self._class_outer
        self._klass = klass
        if outer is None:
            # (a class nested in a class body reads the scope around the outer class, as
            # Python's class bodies do not see each other's names)
            self._class_outer = (self.frame, st.env)
        body_state = State()
        try:
            body_state = self._exec_suite(stmt.body, body_state)
        finally:
            self._klass, self._class_outer = outer, outer_names
        klass.members.update(body_state.env)
        self._bind(stmt.name, klass, st)
        # Learn the instance's attributes before any method is analysed at a call:
        # constructors first, then every other method. A module run as another module's
        # import (``imported``: the project index asking what it exports) analyses its
        # constructors only: ``export`` analyses a method when a linted file asks for it,
        # and interpreting every method of a large module's classes was most of the cost
        # of linting the files that import it.
        methods = [v for v in klass.members.values() if isinstance(v, Func)]
        methods.sort(key=lambda f: not _constructor(f))
        if self.imported:
            methods = [f for f in methods if _constructor(f)]
        for fn in methods:
            self._call_function(fn, self._default_params(fn))
        return st

    def _attribute_of(self: FlowAnalysis, base: Value, attr: str, node: cst.CSTNode,
                      st: State) -> Value:
        if isinstance(base, JaxVal):
            if attr in names.SHARD_LISTS:
                return replace(base, shard="shards")  # indexed, one device's (JAX107)
            if attr in names.WORK_ATTRIBUTES:
                return self._operate(node, [base], st)
            if attr in names.INERT_ATTRIBUTES:
                return None
            if base.record:
                return replace(base, record=False)  # a field of a record: the JAX values
            return base  # a field of a pytree (state.params) or ``.at``
        if isinstance(base, (Instance, Klass)):
            klass = base.klass if isinstance(base, Instance) else base
            found = klass.members.get(attr)
            if found is None and isinstance(base, Instance):
                found = self._annotated(klass.node, attr)
            return found
        if isinstance(base, LibObject):
            return base.holds if base.holds is not None else LibObject()
        if isinstance(base, Ref):
            return Ref(f"{base.name}.{attr}")
        if isinstance(base, HostValue):
            return base  # ``frame.values``, ``h5file["group"].attrs``: still on the host
        return None

    def is_pytree_class(self: FlowAnalysis, klass: Klass) -> bool:
        """Whether instances of the file's class are pytrees JAX sees into: a NamedTuple, a
        registered dataclass or class (``@jax.tree_util.register_dataclass``,
        ``register_pytree_node_class``, ``@flax.struct.dataclass``, ``@chex.dataclass``), a
        module of flax or equinox. A plain ``@dataclass`` or class is one opaque leaf. Not
        known (a base or decorator of another module): taken for a pytree."""
        node = klass.node
        decorators = [dotted(d.decorator.func if isinstance(d.decorator, cst.Call)
                             else d.decorator) or "" for d in node.decorators]
        if any(d.rsplit(".", 1)[-1] in _PYTREE_DECORATORS or d.startswith(("flax.", "struct",
                                                                            "chex"))
               for d in decorators):
            return True
        plain = all(d.rsplit(".", 1)[-1] == "dataclass" and not d.startswith(
            ("struct", "flax", "chex")) for d in decorators) and decorators
        bases = [dotted(b.value) or "" for b in node.bases]
        if any(b.rsplit(".", 1)[-1] in ("NamedTuple", "Module", "PyTreeNode", "Struct")
               for b in bases):
            return True
        if bases and not all(b in ("object", "") or isinstance(self.globals.get(b), Klass)
                             for b in bases):
            return True  # a base of another module: not known
        return not plain and bool(bases)

    def _annotated(self: FlowAnalysis, node: cst.ClassDef, attr: str) -> Value:
        """An attribute the class body only annotates (``sampler: BaseSampler``) with one of
        the file's classes: an instance of it."""
        annotation = annotated_fields(node).get(attr)
        return self._instance_of(annotation) if annotation is not None else None

    def _instance_of(self: FlowAnalysis, annotation: cst.BaseExpression) -> Value:
        """An instance of the file's class that an annotation names (``Base``, ``"Base"``,
        ``Optional[Base]``), else None."""
        if isinstance(annotation, cst.Subscript) and len(annotation.slice) == 1:
            inner = annotation.slice[0].slice
            if isinstance(inner, cst.Index):
                return self._instance_of(inner.value)
            return None
        name = None
        if isinstance(annotation, cst.Name):
            name = annotation.value
        elif isinstance(annotation, cst.SimpleString):
            name = annotation.raw_value
        value = self.globals.get(name) if name else None
        if isinstance(value, Klass):
            return Instance(value)
        if isinstance(value, Ref) and value.name[:1] != "." and (
                self.jax_library(value.name) or self._project_computes(value.name)):
            # ``solver: NEAlgorithm`` of a JAX library, or of the project's own JAX code
            return LibObject(value.name)
        return None

    def _overrides(self: FlowAnalysis, klass: Klass, attr: str) -> list[tuple[Func, Klass]]:
        """The implementations of ``attr`` in the file's subclasses of ``klass`` (for a call
        of an abstract method on an object typed as the base)."""
        out: list[tuple[Func, Klass]] = []
        todo = list(self._subclasses.get(klass.node, ()))
        seen: set[cst.ClassDef] = set()
        while todo:
            node = todo.pop()
            if node in seen:
                continue
            seen.add(node)
            sub = self._klasses.get(node)
            if sub is None:
                continue
            member = sub.members.get(attr)
            if isinstance(member, Func) and member is not klass.members.get(attr):
                out.append((member, sub))
            todo.extend(self._subclasses.get(node, ()))
        return out

    @staticmethod
    def is_abstract(fn: Func) -> bool:
        """A method whose body does nothing or raises (``...``, ``pass``,
        ``raise NotImplementedError``), or that is marked ``@abstractmethod``."""
        node = fn.node
        if not isinstance(node, cst.FunctionDef):
            return False
        if any(dotted(d.decorator) in ("abstractmethod", "abc.abstractmethod")
               for d in node.decorators):
            return True
        body = node.body.body if isinstance(node.body, cst.IndentedBlock) else [node.body]
        stmts = [s for s in body if not (
            isinstance(s, cst.SimpleStatementLine) and len(s.body) == 1
            and isinstance(s.body[0], cst.Expr) and isinstance(
                s.body[0].value, (cst.SimpleString, cst.ConcatenatedString)))]
        if len(stmts) != 1 or not isinstance(stmts[0], cst.SimpleStatementLine):
            return False
        small = stmts[0].body[0]
        return isinstance(small, (cst.Pass, cst.Raise)) or (
            isinstance(small, cst.Expr) and isinstance(small.value, cst.Ellipsis))

    def _harvest_attributes(self: FlowAnalysis, fn: Func, params: dict[str, Value],
                            exits: list[State]) -> None:
        """Remember what a method stores on ``self`` (``self.fn = jax.jit(...)`` in
        ``__init__``) so other methods see it as an attribute of the instance."""
        if fn.owner is None or isinstance(fn.node, cst.Lambda):
            return
        positional = self._positional_params(fn.node)
        if not positional or not isinstance(params.get(positional[0]), Instance):
            return
        prefix = positional[0] + "."
        members = fn.owner.members
        for st in exits:
            for key, value in st.env.items():
                if not key.startswith(prefix) or "." in key[len(prefix):] or value is None:
                    continue
                attr = key[len(prefix):]
                if isinstance(value, JaxVal):
                    value = INPUT
                if attr not in members or not isinstance(members[attr], (Func, JaxCallable)):
                    members[attr] = join_values(members.get(attr), value)


def _returns_one_value(node: object) -> bool:
    """Whether the function ``node`` (a ``def`` or ``lambda``) returns one value, never a
    tuple literal: its pmapped result is then one array spread over the devices, and
    ``out[0]`` one device's part of it."""
    if isinstance(node, cst.Lambda):
        return not isinstance(node.body, cst.Tuple)
    if not isinstance(node, cst.FunctionDef):
        return False
    returns = [n for n in walk(node, skip=(cst.FunctionDef, cst.Lambda, cst.ClassDef))
               if isinstance(n, cst.Return)]
    return bool(returns) and all(r.value is not None and not isinstance(r.value, cst.Tuple)
                                 for r in returns)
