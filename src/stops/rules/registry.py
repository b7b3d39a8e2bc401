"""Names that YAML may use, and the Python code behind them.

A variant file never imports code: every phase and every policy it mentions is looked up by
name in a :class:`Registry`. The built-in registry knows the phases and policies shipped with
``stops``; a program adds its own with :meth:`Registry.register_policy` or
:meth:`Registry.register_phase` (explicitly), or opts in to installed plug-ins through
:meth:`Registry.load_entry_points` with an allow-list.

A *slot* is one rule question with several possible answers ("what may be led after a stop",
"what happens at a block"). Each answer is a *policy*: a named Python object, with an optional
attrs class for its parameters so that ``{use: free, chips: 4}`` is checked like everything else.
"""

from __future__ import annotations

import ast
import functools
import inspect
import sys
import threading
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any, Concatenate, ParamSpec, TypeVar

import attrs

from stops.engine.errors import StopsError
from stops.engine.vocabulary import EventType, Verb, register_vocabulary
from stops.rules.contracts import SLOTS, DealShape

F = TypeVar("F")


def doc_of(impl: object) -> str:
    """The docstring of a registered policy or phase (of its class, for an instance).

    The compiled build (mypyc) drops docstrings from the modules it compiles, so when one is
    missing it is read from the module's source file, which every build ships beside the
    extension: the reference docs and ``stops rules`` read the same in both builds.
    """
    doc = getattr(impl, "__doc__", None)
    if doc:
        return str(doc).strip()
    is_def = inspect.isclass(impl) or (callable(impl) and hasattr(impl, "__qualname__"))
    target = impl if is_def else type(impl)
    module = sys.modules.get(getattr(target, "__module__", ""), None)
    file = getattr(module, "__file__", None)
    name = getattr(target, "__qualname__", "")
    if not file or not name:
        return ""
    return _source_docs(str(Path(file).with_name(Path(file).name.split(".")[0] + ".py"))).get(
        name, "")


def restore_field_types(cls: type) -> None:
    """Give a parameter class its declared field types back in the compiled build.

    mypyc replaces a compiled module's annotations with runtime classes (``Literal[...]``
    becomes ``type``, ``tuple[Card, ...]`` becomes ``tuple``), which would lose what the
    loader checks and the schema states. As with :func:`doc_of`, the declarations are read
    back from the module's source, which every build ships beside the extension. In the
    pure-Python build the annotations are intact and nothing changes.
    """
    module = sys.modules.get(cls.__module__)
    file = getattr(module, "__file__", None)
    if module is None or not file or file.endswith(".py"):
        return
    source = Path(file).with_name(Path(file).name.split(".")[0] + ".py")
    declared = _source_annotations(str(source)).get(cls.__qualname__)
    if not declared:
        return
    namespace = dict(vars(module))
    resolved = {name: eval(text, namespace) for name, text in declared.items()}
    for f in attrs.fields(cls):
        if f.name in resolved:
            object.__setattr__(f, "type", resolved[f.name])
    cls.__annotations__ = {**getattr(cls, "__annotations__", {}), **resolved}


@functools.cache
def _source_annotations(path: str) -> dict[str, dict[str, str]]:
    """The field annotations, as source text, of each top-level class in a source file."""
    try:
        tree = ast.parse(Path(path).read_text(encoding="utf-8"))
    except (OSError, SyntaxError, ValueError):
        return {}
    out: dict[str, dict[str, str]] = {}
    for node in tree.body:
        if isinstance(node, ast.ClassDef):
            out[node.name] = {sub.target.id: ast.unparse(sub.annotation) for sub in node.body
                              if isinstance(sub, ast.AnnAssign)
                              and isinstance(sub.target, ast.Name)}
    return out


@functools.cache
def _source_docs(path: str) -> dict[str, str]:
    """Docstrings of the top-level classes and functions (and methods) in a source file."""
    try:
        tree = ast.parse(Path(path).read_text(encoding="utf-8"))
    except (OSError, SyntaxError, ValueError):
        return {}
    out: dict[str, str] = {}
    for node in tree.body:
        if isinstance(node, ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            out[node.name] = (ast.get_docstring(node, clean=False) or "").strip()
            if isinstance(node, ast.ClassDef):
                for sub in node.body:
                    if isinstance(sub, ast.FunctionDef | ast.AsyncFunctionDef):
                        out[f"{node.name}.{sub.name}"] = (
                            ast.get_docstring(sub, clean=False) or "").strip()
    return out


@attrs.frozen
class SlotSpec:
    """One policy slot: what question it answers and what a policy for it must provide."""

    name: str
    doc: str
    protocol: str
    default: str
    brings: tuple[str, ...] = ()
    """The other slots a policy of this slot may bring into force (an ``after_stop`` rule
    that can leave a player unable to lead brings ``failed_lead``): what a policy that does
    not declare ``brings`` is taken to bring."""


@attrs.frozen
class PolicySpec:
    """A registered policy: ``impl`` is called or instantiated by the phase that owns the slot.

    ``params`` is an attrs class whose fields are the policy's YAML parameters (or ``None``).
    ``text`` renders the rule in plain English for ``stops rules``, given the parameters.
    """

    slot: str
    name: str
    impl: Any
    params: type | None
    doc: str
    text: Callable[[Any], str] | None = None
    plugin: str | None = None
    check: Callable[[Any, Any], list[Any]] | None = None
    """``check(variant, params)``: problems that stop the variant from loading; each a
    message, or ``(parameter, message)`` to point at one parameter."""
    explain: Callable[..., Any] | None = None
    """For ``after_stop``: ``explain(deal, seat, card, broken_suit, allowed)`` says why a card
    may not be led (an :class:`~stops.engine.errors.IllegalAction`, or ``None``)."""
    lint: Callable[[Any, Any], list[str]] | None = None
    """``lint(variant, params)``: ways the variant loads but the policy cannot do its job
    (it needs a phase that is not in the flow, say). ``stops check`` reports them; unlike
    ``check`` they do not stop the variant from loading."""
    pays: Callable[[Any, Any], Iterable[str]] | None = None
    """``pays(variant, params)``: the layout spaces this policy can ever pay out. Declared by
    every built-in; ``stops check`` warns about a space that nothing can win only when every
    policy and phase in use has declared what it pays."""
    describe: Callable[[Any, Any], str] | None = None
    """``describe(variant, params)``: the rule as it reads in one variant's printed rules,
    where that depends on more than the parameters (the pack, the layout, another slot's
    rule). Without it the printed rules use ``text(params)``. Either may be empty: the rule
    has nothing to tell the players of that variant (no wild card, no run prize)."""
    phrase: str | None = None
    """Words the policy's text contains whenever it says anything, in every variant and
    with any parameters, and that no other policy's text contains: how a reader (and the
    tests) find the rule in a variant's printed rules."""
    brings: Callable[[Any], Iterable[str]] | None = None
    """``brings(params)``: the other slots this policy, with these parameters, brings into
    force: an ``after_stop`` rule that can leave a player holding cards unable to lead brings
    ``failed_lead``; a ``failed_lead`` rule that can go round to a block brings
    ``block_outcome``. Without it, the slot's own ``brings`` (everything it may bring)."""
    excuses: Callable[[Any, Any], str] | None = None
    """``excuses(variant, params)``: whom this policy excuses from paying for the cards he
    holds when someone goes out (it publishes :class:`~stops.policies.endings.Excused`), in
    words ("the holder of the Pope"), or ``""`` for nobody. A going-out rule that honours the
    excuse names it."""
    before_first_deal: bool = False
    """``match_end`` only: the table asks the policy before the first deal too, so a table
    that cannot start (``until_short``: a stack below the first stake) says so at once."""
    why: Callable[[Any, Any], str | None] | None = None
    """``match_end`` only: ``why(table, params)``, why the policy ended the session, in the
    table's words for ``Table.end_reason`` (``None``: the table says it itself)."""
    tracks_contributions: bool = False
    """``final_share`` only: the shares need what each seat put on each space during the
    session, so the chip ledger keeps that account (it does not otherwise)."""
    in_turn: bool = False
    """``turn_order`` only: the play goes turn by turn round the table (a seat on turn lays
    or passes), not by whoever holds the next card; a wild card or a rank-only succession
    needs it."""
    direction: Callable[[Any], str] | None = None
    """``turn_order`` only: ``direction(params)``, ``"clockwise"`` or ``"anticlockwise"``,
    the way turns go with these parameters (without it, clockwise): the first lead
    ``next_in_turn`` goes to the dealer's left or right by it."""
    keeps_suit: Callable[[Any], bool] | None = None
    """``after_stop`` only: ``keeps_suit(params)``, whether a seat that receives a passed
    lead is bound by the same restriction (without it, it is)."""
    exempts_winner: Callable[[Any], bool] | None = None
    """``stake_rule`` only: ``exempts_winner(params)``, whether the last deal's winner stakes
    nothing in the next deal unless he deals it (docs/family-rulings.md F33): the table puts him in
    the deal's ``exempt`` seats. Without it, nobody is exempt."""
    states: tuple[type, ...] = ()
    """The classes of per-deal state the policy keeps (``deal.state(T)``, see
    :class:`stops.engine.deal.DealState`), kept for the whole deal: a deal makes only
    state that a phase or policy of its variant declares."""
    heading: Callable[[str], str] | None = None
    """``final_share`` only, for a share-out that deals hands (``final_share`` table
    events): ``heading(dealer)``, the line that opens its narration in ``stops play``, given
    how the final dealer is named ("you", "seat 2"). Without it, a plain line."""
    hand_only: bool = False
    """``after_stop`` only: the rule answers from the seat's own hand and the suit just
    stopped alone, never from which seat it is (every built-in rule does). What a lead or a
    passed lead proves to the other seats is then the same whoever made it, so
    ``clone_for`` works each proof out once for every seat, not once per seat (the proofs
    fill a per-variant cache as deals go by: a fifth of a search's ``clone_for`` in
    compiled Boodle before it was full). Without it, each seat's proofs are worked out
    apart."""


@attrs.frozen
class PhaseSpec:
    """A registered phase. ``settings`` is an attrs class of the phase's own rule settings
    (the deal phase's shape, say), written in YAML as flat rules (``deal_shape: table``)."""

    name: str
    impl: Any
    doc: str
    requires: tuple[str, ...] = ()
    slots: tuple[str, ...] = ()
    plugin: str | None = None
    settings: type | None = None
    check: Callable[[Any], list[str]] | None = None
    """``check(variant)``: problems with a variant whose flow has this phase."""
    pays: Callable[[Any], Iterable[str]] | None = None
    """``pays(variant)``: the layout spaces this phase itself can pay out (see PolicySpec)."""
    turns_up: bool = False
    """The phase turns up the last card dealt (Pope Joan's trumps): stacked deals and
    records of a variant with it name the turn-up (``turn_up``)."""
    shape: Callable[[Any], DealShape] | None = None
    """``shape(variant)``: the phase deals the hands, and this builds its
    :class:`~stops.rules.contracts.DealShape` (hand sizes, stacked sizes, the spare's name)
    from the variant's settings; the variant holds it as ``deal_shape``."""
    verbs: tuple[Verb, ...] = ()
    """The verbs of the decisions this phase offers (its own, and any engine verb it uses),
    registered in :mod:`stops.engine.vocabulary` with it."""
    events: tuple[EventType, ...] = ()
    """The kinds of event this phase logs that the engine does not own."""


@attrs.frozen
class OptionOwner:
    """Who owns a flat rule name such as ``change_suit_fallback``: a parameter ``field`` of
    policy ``name`` in slot ``slot``, or (``slot`` None) a setting of phase ``name``."""

    slot: str | None
    name: str
    field: str
    type: Any


def option_name(field: attrs.Attribute) -> str:  # type: ignore[type-arg]
    """The flat rule name of a parameter or setting field (its ``option`` metadata, or its
    own name). Flat names are what ``-o NAME=VALUE``, records' ``options`` and the flat form
    ``rules: {NAME: VALUE}`` use."""
    return str(field.metadata.get("option") or field.name)


def unalias(field: attrs.Attribute, value: Any) -> Any:  # type: ignore[type-arg]
    """``value`` with a value alias (see :func:`param`) replaced by the value it names."""
    names = field.metadata.get("value_aliases")
    if names and isinstance(value, str):
        return names.get(value, value)
    return value


def option_aliases(field: attrs.Attribute) -> tuple[str, ...]:  # type: ignore[type-arg]
    """Other flat names a field is also known by (a game's own name for a shared setting:
    the Comet's ``comet_turn`` is the rotation's ``turn_length``)."""
    return tuple(field.metadata.get("aliases") or ())


def option_names(field: attrs.Attribute) -> tuple[str, ...]:  # type: ignore[type-arg]
    """The flat name of a field, then its aliases."""
    return (option_name(field), *option_aliases(field))


def has_flat_name(field: attrs.Attribute) -> bool:  # type: ignore[type-arg]
    """Whether a field may be given by its flat name: fields made with :func:`param` may; a
    plain attrs field (``chips`` of a stake rule, say) is only ever written inline."""
    return "option" in field.metadata


def param(default: Any, doc: str, *, option: str | None = None, validator: Any = None,
          factory: Callable[[], Any] | None = None, aliases: tuple[str, ...] = (),
          value_aliases: dict[str, str] | None = None) -> Any:
    """An attrs field for a policy parameter or phase setting, with its documentation and
    (optionally) the flat rule name it is known by when that differs from the field name,
    and other flat names (``aliases``) that mean the same.
    A mutable default (a mapping) is given as ``factory`` (``default`` is then ignored).
    ``value_aliases`` maps other accepted names of a value to the value (a game's own name
    for a shared choice, say ``share`` for ``per_player``); the loader and the schema accept
    them.

    Typed ``Any`` on purpose: in a module the compiled build compiles, a field made by a
    call typed as the field's own type is checked at import and refused."""
    meta: dict[str, Any] = {"doc": doc, "option": option}
    if aliases:
        meta["aliases"] = tuple(aliases)
    if value_aliases:
        meta["value_aliases"] = dict(value_aliases)
    if factory is not None:
        return attrs.field(factory=factory, metadata=meta, validator=validator)
    if isinstance(default, list | dict | set):
        raise TypeError("use a tuple or frozen value as a parameter default, or factory=")
    return attrs.field(default=default, metadata=meta, validator=validator)


def inline_param(doc: str, *, factory: Callable[[], Any]) -> Any:
    """An attrs field for a parameter written only inline, under its rule (no flat name:
    see :func:`has_flat_name`), with its documentation and a factory for its mutable
    default (a mapping of spaces, say). Typed ``Any`` as :func:`param` is."""
    return attrs.field(factory=factory, metadata={"doc": doc})


class RegistryError(StopsError):
    """A registration that would make names ambiguous, or a plug-in that is not allowed."""


class Registry:
    """Maps slot and phase names to code. Copy it to extend it without touching the default."""

    def __init__(self) -> None:
        self.slots: dict[str, SlotSpec] = {}
        self.policies: dict[tuple[str, str], PolicySpec] = {}
        self.phases: dict[str, PhaseSpec] = {}
        self._options: dict[str, list[OptionOwner]] | None = None
        self.version = 0
        """Grows with every registration: a variant built from this registry is stale once
        it has moved (the cache of :func:`stops.rules.variant.load_variant` keys on it)."""

    def copy(self) -> Registry:
        r = Registry()
        r.slots = dict(self.slots)
        r.policies = dict(self.policies)
        r.phases = dict(self.phases)
        return r

    def options(self) -> dict[str, list[OptionOwner]]:
        """Every flat rule name a parameter or phase setting is known by, and its owners."""
        if self._options is None:
            index: dict[str, list[OptionOwner]] = {}
            for (slot, name), spec in self.policies.items():
                if spec.params is not None:
                    for f in attrs.fields(attrs.resolve_types(spec.params)):
                        if not has_flat_name(f):
                            continue
                        for opt in option_names(f):
                            index.setdefault(opt, []).append(
                                OptionOwner(slot, name, f.name, f.type))
            for name, ph in self.phases.items():
                if ph.settings is not None:
                    for f in attrs.fields(attrs.resolve_types(ph.settings)):
                        if not has_flat_name(f):
                            continue
                        for opt in option_names(f):
                            index.setdefault(opt, []).append(
                                OptionOwner(None, name, f.name, f.type))
            self._options = index
        return self._options
    def __reduce__(self) -> tuple[Any, ...]:
        """Pickle as the default registry plus what differs from it (entries shared with the
        default go by name, so the built-ins' helpers need not pickle)."""
        if self is _DEFAULT:
            return (default_registry, ())
        d = _DEFAULT
        slots = {k: v for k, v in self.slots.items() if d.slots.get(k) is not v}
        policies = {k: v for k, v in self.policies.items() if d.policies.get(k) is not v}
        phases = {k: v for k, v in self.phases.items() if d.phases.get(k) is not v}
        return (_rebuild_registry, (sorted(self.slots), sorted(self.policies),
                                    sorted(self.phases), slots, policies, phases))

    # -- registration ---------------------------------------------------------------------
    def add_slot(self, name: str, doc: str, protocol: str, default: str,
                 brings: Iterable[str] = ()) -> None:
        self.slots[name] = SlotSpec(name, doc, protocol, default, tuple(brings))

    def register_policy(
        self, slot: str, name: str, *, params: type | None = None,
        text: Callable[[Any], str] | None = None, replace: bool = False,
        plugin: str | None = None, check: Callable[[Any, Any], list[Any]] | None = None,
        explain: Callable[..., Any] | None = None,
        pays: Callable[[Any, Any], Iterable[str]] | None = None,
        lint: Callable[[Any, Any], list[str]] | None = None,
        describe: Callable[[Any, Any], str] | None = None,
        phrase: str | None = None,
        brings: Callable[[Any], Iterable[str]] | None = None,
        excuses: Callable[[Any, Any], str] | None = None,
        before_first_deal: bool = False,
        why: Callable[[Any, Any], str | None] | None = None,
        tracks_contributions: bool = False,
        in_turn: bool = False,
        direction: Callable[[Any], str] | None = None,
        keeps_suit: Callable[[Any], bool] | None = None,
        exempts_winner: Callable[[Any], bool] | None = None,
        states: Iterable[type] = (),
        heading: Callable[[str], str] | None = None,
        hand_only: bool = False,
    ) -> Callable[[F], F]:
        """Decorator: register ``impl`` as policy ``name`` for ``slot``.

        ``impl`` is whatever the slot's protocol asks for (see ``docs/reference.md``). Names
        must be new unless ``replace=True``. ``text(params)`` renders the rule as prose
        (``describe(variant, params)`` as it reads in one variant, when that differs), and
        ``phrase`` is the words that find it in the printed rules; ``brings(params)`` names
        the slots the rule brings into force. ``check(spec, params)`` returns problems with a
        variant that uses the policy (a missing kitty space, say), checked at load time.
        ``explain`` (``after_stop`` only) says why a refused lead is refused.

        A policy's optional capabilities are declared here, never read off the function:
        ``before_first_deal`` and ``why`` (``match_end``), ``tracks_contributions``
        (``final_share``), ``in_turn`` and ``direction`` (``turn_order``), ``keeps_suit``
        and ``hand_only`` (``after_stop``), ``exempts_winner`` (``stake_rule``), ``heading``
        (``final_share``); ``states``, the classes of per-deal state it keeps
        (``deal.state(T)``). A policy that is an object (a
        ``ClaimPolicy``, a ``WildCard``) declares its capabilities as members of its slot's
        protocol instead (:mod:`stops.rules.contracts`). See :class:`PolicySpec`.
        """

        def deco(impl: F) -> F:
            if slot not in self.slots:
                raise RegistryError(f"no policy slot {slot!r}; slots are {sorted(self.slots)}")
            if (slot, name) in self.policies and not replace:
                raise RegistryError(f"policy {name!r} is already registered for slot {slot!r}")
            if params is not None and not attrs.has(params):
                raise RegistryError(f"params for {slot}.{name} must be an attrs class")
            if params is not None:
                restore_field_types(params)
            _check_members(slot, name, impl)
            doc = doc_of(impl)
            self.policies[(slot, name)] = PolicySpec(
                slot, name, impl, params, doc, text, plugin, check, explain, lint, pays,
                describe, phrase, brings, excuses, before_first_deal, why,
                tracks_contributions, in_turn, direction, keeps_suit, exempts_winner,
                _state_types(f"policy {slot}.{name}", states), heading, hand_only)
            self._options = None
            self.version += 1
            return impl

        return deco

    def register_phase(
        self, name: str, *, requires: Iterable[str] = (), slots: Iterable[str] = (),
        replace: bool = False, plugin: str | None = None, settings: type | None = None,
        check: Callable[[Any], list[str]] | None = None,
        pays: Callable[[Any], Iterable[str]] | None = None,
        turns_up: bool = False, shape: Callable[[Any], DealShape] | None = None,
        verbs: Iterable[Verb] = (), events: Iterable[EventType] = (),
    ) -> Callable[[F], F]:
        """Decorator: register a phase class under ``name`` (see :mod:`stops.rules.contracts`).

        ``settings`` is an attrs class of the phase's own rule settings (each field made with
        :func:`param`); the variant structures it and the phase reads ``variant.settings(name)``.
        ``turns_up`` declares that the phase turns up the last card dealt, and ``shape`` that
        it deals the hands (see :class:`PhaseSpec`). ``verbs`` are the
        :class:`~stops.engine.vocabulary.Verb` specs of the decisions it offers (its own, and
        any engine verb it uses, such as ``pass``) and ``events`` the
        :class:`~stops.engine.vocabulary.EventType` specs of the kinds it logs: they are
        registered in the engine's tables, so ``Action`` accepts the verbs, records replay
        them and the narration and docs tell the events (a name another module owns with
        another spec is a :class:`RegistryError`).
        """
        verb_specs = tuple(verbs)
        event_specs = tuple(events)

        def deco(impl: F) -> F:
            if name in self.phases and not replace:
                raise RegistryError(f"phase {name!r} is already registered")
            if settings is not None and not attrs.has(settings):
                raise RegistryError(f"settings for phase {name} must be an attrs class")
            if settings is not None:
                restore_field_types(settings)
            phase: Any = impl  # a phase class (PhaseProtocol): it declares state_types
            _state_types(f"phase {name}", phase.state_types)
            try:
                register_vocabulary(verb_specs, event_specs, owner=name)
            except (TypeError, ValueError) as e:
                raise RegistryError(f"phase {name!r}: {e}") from None
            doc = doc_of(impl)
            self.phases[name] = PhaseSpec(name, impl, doc, tuple(requires), tuple(slots), plugin,
                                          settings, check, pays, turns_up, shape, verb_specs,
                                          event_specs)
            self._options = None
            self.version += 1
            return impl

        return deco

    # -- lookup ---------------------------------------------------------------------------
    def policy(self, slot: str, name: str) -> PolicySpec:
        try:
            return self.policies[(slot, name)]
        except KeyError:
            raise RegistryError(
                f"no policy {name!r} for {slot}; known: {', '.join(self.policy_names(slot))}"
            ) from None

    def policy_names(self, slot: str) -> list[str]:
        return sorted(n for (s, n) in self.policies if s == slot)

    def load_entry_points(self, allow: Iterable[str], group: str = "stops.plugins") -> list[str]:
        """Opt in to installed plug-ins: call the entry points of the allowed distributions.

        Each entry point must name a function ``register(registry)``. Only entry points whose
        *distribution* is named in ``allow`` are loaded (names compared as the packaging
        standard normalises them), so installing a package never changes a game by itself,
        and an entry point cannot enable itself by choosing a name on the list.
        Returns the names of the entry points loaded.
        """
        from importlib.metadata import entry_points

        allowed = {_normal(a) for a in allow}
        loaded: list[str] = []
        for ep in entry_points(group=group):
            dist = ep.dist.name if ep.dist is not None else ""
            if not dist or _normal(dist) not in allowed:
                continue
            fn = ep.load()
            fn(self)
            loaded.append(ep.name)
        return loaded


@functools.cache
def _members(protocol: type) -> tuple[str, ...]:
    """The members a policy object must have: its slot protocol's methods and attributes
    (none for a protocol that is a call signature, such as ``after_stop``)."""
    names = {*vars(protocol).get("__annotations__", {}),
             *(k for k, v in vars(protocol).items() if callable(v))}
    return tuple(sorted(n for n in names if not n.startswith("_")))


_PROTOCOLS: dict[str, type] = {s.name: s.protocol for s in SLOTS
                               if isinstance(s.protocol, type)}


def _check_members(slot: str, name: str, impl: object) -> None:
    """Refuse, when it is registered, a policy object that lacks a member of its slot's
    protocol: the phases read every member directly (no capability probes), so a missing
    one would otherwise fail in the middle of a deal. This is the one place that asks what
    an object has, and it asks once, of the protocol's declared members."""
    protocol = _PROTOCOLS.get(slot)
    if protocol is None:
        return
    missing = [m for m in _members(protocol) if not hasattr(impl, m)]
    if missing:
        raise RegistryError(
            f"policy {name!r} for {slot} lacks {', '.join(missing)}: a {slot} policy has every "
            f"member of {protocol.__name__} (stops.rules.contracts); subclass the slot's base "
            "class (docs/house-rules.md) to inherit the defaults")


def _state_types(owner: str, states: Iterable[type]) -> tuple[type, ...]:
    """Declared per-deal state classes, refused at registration unless each is a class a
    deal can make (called with no arguments) and copy (``copy()``, for ``Deal.clone``)."""
    out = tuple(states)
    for kind in out:
        if not isinstance(kind, type) or not hasattr(kind, "copy"):
            raise RegistryError(
                f"{owner}: deal state {kind!r} must be a class with a copy() method (see "
                "stops.engine.deal.DealState)")
    return out


def _normal(name: str) -> str:
    """A distribution name as PEP 503 normalises it (``Stops_Cards`` is ``stops-cards``)."""
    import re

    return re.sub(r"[-_.]+", "-", name).lower()


_DEFAULT = Registry()
_BUILTINS = "stops.builtins"
"""The module that installs the built-in phases and policies into the default registry. It
sits in a higher layer, so it is named here, not imported: the registry loads it the first
time the default registry is asked for, and a program that never plays (``stops --version``)
never loads the games."""
_installing = False
_installed = False
_install_lock = threading.RLock()
"""Held while the built-ins install: another thread asking for the default registry then
waits for them, rather than seeing it half filled."""


def _with_builtins() -> Registry:
    global _installing, _installed
    if not _installed:
        with _install_lock:
            if not _installing:
                _installing = True  # first: installing asks for the default registry again
                from importlib import import_module

                import_module(_BUILTINS)
                _installed = True
    return _DEFAULT


def _rebuild_registry(slot_names: list[str], policy_keys: list[tuple[str, str]],
                      phase_names: list[str], slots: dict[str, SlotSpec],
                      policies: dict[tuple[str, str], PolicySpec],
                      phases: dict[str, PhaseSpec]) -> Registry:
    r = Registry()
    d = _with_builtins()
    r.slots = {k: slots[k] if k in slots else d.slots[k] for k in slot_names}
    r.policies = {}
    for k in policy_keys:
        pk = (str(k[0]), str(k[1]))
        r.policies[pk] = policies[pk] if pk in policies else d.policies[pk]
    r.phases = {k: phases[k] if k in phases else d.phases[k] for k in phase_names}
    return r


def default_registry() -> Registry:
    """The registry that variant files use unless told otherwise.

    The built-in phases and policies (:mod:`stops.builtins`) are installed into it the first
    time it is asked for; programs add their own with :func:`register_policy`.
    """
    return _with_builtins()


P = ParamSpec("P")
R = TypeVar("R")


def _on_default(method: Callable[Concatenate[Registry, P], R]) -> Callable[P, R]:
    """``method`` of :class:`Registry`, called on the default registry: the module-level
    functions take exactly the method's arguments (one list of keywords, typed once)."""
    def call(*args: P.args, **kwargs: P.kwargs) -> R:
        return method(default_registry(), *args, **kwargs)

    functools.update_wrapper(call, method)
    signature = inspect.signature(method)  # without ``self``, for help() and editors
    call.__signature__ = signature.replace(  # type: ignore[attr-defined]
        parameters=list(signature.parameters.values())[1:])
    return call


register_policy = _on_default(Registry.register_policy)
"""Register a policy in the default registry (the common case for house rules); the
arguments of :meth:`Registry.register_policy`."""

register_phase = _on_default(Registry.register_phase)
"""Register a phase class in the default registry; the arguments of
:meth:`Registry.register_phase`."""
