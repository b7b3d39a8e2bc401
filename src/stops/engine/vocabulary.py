"""The open vocabulary of a deal: the verbs a seat may decide with and the kinds of event a
deal logs, each registered by the module that owns it.

The engine knows only its own few verbs (``stake lead play follow pass``) and the events of
staking, dealing, laying cards and paying. A phase brings the rest with it: it lists its
:class:`Verb` and :class:`EventType` specs when it registers
(``register_phase(..., verbs=..., events=...)``), and from then on
:class:`~stops.engine.actions.Action` accepts its verbs, records replay them, the narration
tells its events and the docs list them, with no edit of the engine. Why tables and not
code: a plug-in phase can add a decision of its own, and everything that reads decisions
(validation, records, the terminal, the PettingZoo codec) reads the same table.

The tables are global, as the verbs of a decision's dict form are: a name registered twice
by different owners is a :class:`ValueError` (the same spec again is harmless, so a module
imported twice, or two phases that share one spec, are fine). Event kinds are plain
interned strings; a phase module holds its own as constants (``POCHED: Final = "poched"``).
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any, Final

import attrs

if TYPE_CHECKING:
    from stops.engine.actions import Action
    from stops.engine.events import Event

ACTION_FIELDS: Final = ("card", "cards", "chips", "space", "as_rank")
"""The fields a decision may carry besides ``seat`` and ``action`` (and registered flags)."""


def _word(name: object) -> bool:
    """A lower-case word (``declare``, ``spare_swapped``): what a verb or event kind is."""
    return isinstance(name, str) and name.isidentifier() and name == name.lower()


def _fields(inst: object, attribute: object, value: tuple[str, ...]) -> None:
    if not isinstance(value, tuple):
        raise TypeError(f"a verb's fields are a tuple of names, got {value!r}")
    bad = [f for f in value if f not in ACTION_FIELDS]
    if bad:
        raise ValueError(f"a verb's fields are among {', '.join(ACTION_FIELDS)}; got "
                         f"{', '.join(map(repr, bad))}")


@attrs.frozen
class Verb:
    """A decision's verb and the fields it takes.

    ``fields`` are the Action fields it may carry; every one is required unless listed in
    ``optional``; of the fields in ``one_of`` exactly one must be given (a card or a list of
    cards). ``meaning(action)`` says in plain words what one legal choice does (``"declare
    Q♥: you show this card of your hand to everyone"``), for ``deal.explain`` and the choice list of
    ``stops play``; ``None`` lets the phase say it (or the verb and its fields are shown).
    ``doc`` is one line for the reference docs. ``most(variant)``, for a verb with
    ``chips``: the largest amount one such decision can name in that variant when its rules
    bound it (a bet limit); ``None`` (or no ``most``): only the stacks bound it. A fixed
    numbering of decisions (the PettingZoo codec) sizes the verb's family by it. ``label`` is
    a few words shown after the verb in a menu of choices (``swap (take the spare hand)``;
    "spare hand" is put in the variant's word).

    A verb whose only card field is ``cards`` is a choice of several cards at once: its
    ``cards`` are a set, kept sorted. Given as one of ``card`` or ``cards`` (``one_of``),
    they keep the order a turn lays them in.
    """

    name: str
    fields: tuple[str, ...] = attrs.field(default=(), validator=_fields)
    optional: tuple[str, ...] = attrs.field(default=(), validator=_fields)
    one_of: tuple[str, ...] = attrs.field(default=(), validator=_fields)
    meaning: Callable[[Action], str] | None = None
    doc: str = ""
    most: Callable[[Any], int | None] | None = None
    label: str = ""

    def __attrs_post_init__(self) -> None:
        if not _word(self.name) or self.name in ("seat", "action"):
            raise ValueError(f"a verb is a lower-case word, got {self.name!r}")
        extra = [f for f in (*self.optional, *self.one_of) if f not in self.fields]
        if extra:
            raise ValueError(f"verb {self.name!r}: {', '.join(map(repr, extra))} in optional "
                             "or one_of must be among its fields")
        if len(self.one_of) == 1:
            raise ValueError(f"verb {self.name!r}: one_of names two fields or more")
        # interned: the hot path compares verbs, and the engine's own are literals
        object.__setattr__(self, "name", sys.intern(self.name))


Describe = Callable[["Event", Callable[[int | None], str]], str]
"""``describe(event, name_of_seat)``: one line of plain English for an event."""


@attrs.frozen
class EventType:
    """A kind of event, what its fields mean and how to tell it.

    ``doc`` is one line saying what the fields mean (for the docs). ``describe(event,
    name_of_seat)`` tells one event (``"Ann shows Q♥ to the table"``; ``name_of_seat(None)`` is
    "nobody"); ``None`` gives a generic line. What the engine itself must know of a kind it
    does not own is declared here, not read off the kind's name:

    * ``shows``: the event's ``cards`` are ``seat``'s own, shown to whoever may see the event
      (a copy of the deal for that seat knows that hand holds the ones still unplayed);
    * ``swaps_spare``: in its public form, ``seat`` exchanged their whole hand with the spare
      hand (a copy rebuilding the hands as dealt undoes it);
    * ``in_account``: a private event the replay account of a whole deal shows (a hand as
      dealt, taken or chosen), where other private events are left out.
    """

    kind: str
    doc: str
    describe: Describe | None = None
    shows: bool = False
    swaps_spare: bool = False
    in_account: bool = False

    def __attrs_post_init__(self) -> None:
        if not _word(self.kind):
            raise ValueError(f"an event kind is a lower-case word, got {self.kind!r}")
        if type(self.kind) is str:
            object.__setattr__(self, "kind", sys.intern(self.kind))


VERBS: Final[dict[str, Verb]] = {}
"""Every registered verb by name: what :class:`~stops.engine.actions.Action` accepts."""
EVENT_TYPES: Final[dict[str, EventType]] = {}
"""Every registered kind of event."""
_VERB_OWNER: Final[dict[str, str]] = {}
_EVENT_OWNER: Final[dict[str, str]] = {}
SHOWS: Final[set[str]] = set()
"""Kinds whose ``cards`` are the seat's own, shown (see :class:`EventType`)."""
SWAPS_SPARE: Final[set[str]] = set()
IN_ACCOUNT: Final[set[str]] = set()


def _check(kind: str, name: str, new: object, old: object | None, owner: str,
           old_owner: str | None) -> None:
    if old is not None and old != new and old_owner != owner:
        raise ValueError(f"{kind} {name!r} is already registered by {old_owner!r}; "
                         f"{owner!r} registers another {kind} of that name")


def _checked(kind: str, specs: tuple[Any, ...], spec_type: type, name_of: Callable[[Any], str],
             table: Mapping[str, Any], owners: Mapping[str, str], owner: str) -> None:
    """Each of ``specs`` (verbs or event kinds, ``kind`` says which) is a ``spec_type``, is
    not given twice differently by ``owner``, and is not another owner's name."""
    seen: dict[str, Any] = {}
    for spec in specs:
        if not isinstance(spec, spec_type):
            raise TypeError(f"{kind}s are {spec_type.__name__} specs, got {spec!r}")
        name = name_of(spec)
        if name in seen and seen[name] != spec:
            raise ValueError(f"{kind} {name!r} is given twice, differently, by {owner!r}")
        seen[name] = spec
        _check(kind, name, spec, table.get(name), owner, owners.get(name))


def register_vocabulary(verbs: tuple[Verb, ...], events: tuple[EventType, ...],
                        owner: str) -> None:
    """Register ``verbs`` and ``events`` as ``owner``'s (a phase's name), all or nothing:
    a name already registered differently by another owner is a :class:`ValueError` and
    nothing is added. The same spec again is a no-op (two phases may list one shared spec);
    an owner that registers its own name again replaces it (a phase registered anew with
    ``replace=True``, a module reloaded)."""
    _checked("verb", verbs, Verb, lambda v: v.name, VERBS, _VERB_OWNER, owner)
    _checked("event kind", events, EventType, lambda t: t.kind, EVENT_TYPES, _EVENT_OWNER,
             owner)
    for v in verbs:
        if VERBS.get(v.name) != v:
            VERBS[v.name] = v
            _VERB_OWNER[v.name] = owner
    for t in events:
        if EVENT_TYPES.get(t.kind) == t:
            continue
        EVENT_TYPES[t.kind] = t
        _EVENT_OWNER[t.kind] = owner
        for flag, table in ((t.shows, SHOWS), (t.swaps_spare, SWAPS_SPARE),
                            (t.in_account, IN_ACCOUNT)):
            if flag:
                table.add(t.kind)
            else:
                table.discard(t.kind)


def register_verbs(*verbs: Verb, owner: str) -> None:
    """Add ``verbs`` to the table as ``owner``'s (see :func:`register_vocabulary`)."""
    register_vocabulary(verbs, (), owner)


def register_events(*types: EventType, owner: str) -> None:
    """Add ``types`` to the table of event kinds as ``owner``'s (see
    :func:`register_vocabulary`)."""
    register_vocabulary((), types, owner)


_BUILTINS: Final = "stops.rules.registry"
"""Where the built-in phases are installed from (named, not imported: a layer above)."""
_loaded: list[bool] = []


def load_builtins() -> bool:
    """Install the built-in phases (and so their verbs and events) if that has not been
    done; ``True`` if this call asked for them (look again). An unknown verb asks for this
    before it is refused: ``Action(0, "keep")`` works in a program that has loaded no variant
    yet. The registry installs them once, under its lock: a thread that asks while another
    installs waits for it."""
    if _loaded:
        return False
    from importlib import import_module

    import_module(_BUILTINS).default_registry()
    _loaded.append(True)
    return True


def verb(name: str) -> Verb:
    """The registered verb ``name``; a :class:`KeyError` that lists the verbs otherwise."""
    got = VERBS.get(name)
    if got is None and load_builtins():
        got = VERBS.get(name)
    if got is None:
        raise KeyError(f"unknown verb {name!r}; the verbs are {', '.join(VERBS)}")
    return got


def event_type(kind: str) -> EventType | None:
    """The registered kind ``kind`` (``None`` if no module registered it)."""
    got = EVENT_TYPES.get(kind)
    if got is None and load_builtins():
        got = EVENT_TYPES.get(kind)
    return got


def owner_of_verb(name: str) -> str | None:
    return _VERB_OWNER.get(name)


def owner_of_event(kind: str) -> str | None:
    return _EVENT_OWNER.get(kind)


# -- the engine's own verbs ---------------------------------------------------------------
# Their plain meaning is said by the phases (``stops.phases.base.plain_meaning``), which
# know the words of each variant.
STAKE: Final = Verb("stake", ("space", "chips"), optional=("chips",),
                    doc="put chips on a space of the layout (the amount, when the rule lets "
                        "the seat choose it)")
LEAD: Final = Verb("lead", ("card", "cards", "as_rank"), optional=("as_rank",),
                   one_of=("card", "cards"),
                   doc="start a sequence with a card (or several of one rank, a wild card "
                       "named ``as_rank``)")
PLAY: Final = Verb("play", ("card", "cards", "as_rank"), optional=("as_rank",),
                   one_of=("card", "cards"),
                   doc="lay a card (or several) in turn, going on with the sequence")
FOLLOW: Final = Verb("follow", ("card",), doc="lay the card due from the seat")
PASS: Final = Verb("pass", doc="let this turn go by")
CORE_VERBS: Final = (STAKE, LEAD, PLAY, FOLLOW, PASS)

register_verbs(*CORE_VERBS, owner="engine")
