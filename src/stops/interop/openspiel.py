"""Every stops variant as an OpenSpiel Python game (the extra ``stops-cards[openspiel]``).

>>> import pyspiel
>>> import stops.interop.openspiel          # registers every built-in variant
>>> game = pyspiel.load_game("python_stops_boodle(players=4,chips=50)")
>>> state = game.new_initial_state()

**Names.** Importing this module registers each built-in variant with ``pyspiel`` as
``python_stops_<name>``, the variant's name with every run of characters other than letters
and digits written ``_``: ``python_stops_boodle``, ``python_stops_three_in_one``,
``python_stops_pot_and_kitty_four_kings`` (:func:`game_name`). A house variant (a file, or a
:class:`stops.Variant` built with options) is registered with :func:`register`, under its own
name or one you give; :func:`load_game` registers and loads in one call.

**Parameters** (flat, as OpenSpiel wants them): ``players`` (default 4, or the variant's
nearest player count), ``chips`` (every seat's starting stack, default 50) and ``dealer``
(the dealing seat, default 0). Rule options are not game parameters (an option's value may
hold commas, which break OpenSpiel's game strings): build the variant with its options and
register it (``register("boodle", options={...}, name="python_stops_boodle_house")``).

**One game is one deal** at a fresh table: ``returns()`` are the deal's chip results
(:meth:`stops.Deal.returns`), 0 for everyone until the deal is over (reward model
``TERMINAL``). The utility is ``GENERAL_SUM``: the seats' results add up to minus what the
deal left on the layout (a pot or kitty carried over), which differs from deal to deal.
``min_utility`` / ``max_utility`` come from the stacks of the fresh table: where a seat that
is short pays what it can, ``-chips`` and ``(players - 1) * chips``; where it runs into debt
(``chip_shortfall: debt``, most of the games) minus / plus the table's chips
(``players * chips``), an envelope rather than a proof: a seat could in principle run deeper
into debt in one deal, which random play at the default stacks never comes near (the worst
seen is a little over one stack, in Three-in-One's betting).

**Chance: the deal, one card at a time.** The game starts with one chance node per card of
the pack (``EXPLICIT_STOCHASTIC``); each outcome is a card index 0..51 (``CARDS``) among the
cards not dealt yet, all equally likely. The cards go to the hands and the spare hand in the
variant's own dealing order (round the table from the dealer's left, the spare hand taking
its turn where the variant says, each hand its size), so the deal has the same distribution as
the table's shuffle; then the deal starts as a stacked deal (:meth:`stops.Table.new_deal`
with ``hands`` and ``spare``, and the turn-up where the variant turns one up: the card the
deal phase would turn up, the last dealt to the spare or, under ``deal_shape: table``, the
first card of the stock). Stakes that the rules place before the deal are made after these
chance nodes but before any seat sees a card (the cards are face down until the deal phase
hands them over), which is the same game: the shuffle does not depend on the stakes. A
variant whose flow has no ``deal`` phase (a plug-in that deals its own way) cannot be
registered.

**Actions** are the indices of the :class:`~stops.interop.codec.
ActionCodec` (one fixed numbering per variant and player count: ``num_distinct_actions`` is
its size; ``action_to_string`` gives its label). A choice of several cards at once (a poker
hand) is that many successive card picks, as in PettingZoo. An index that is not legal raises
:class:`pyspiel.SpielError` and changes nothing.

**Observations** are built from :meth:`stops.Deal.observe` for the seat only (the seat's own
picks of a choice in progress added). The observation tensor is the PettingZoo observation
vector (:attr:`StopsAECEnv.observation_layout`); the information-state tensor is that vector
followed by the seat's visible events in order (``history``: ``history_rows`` =
``len(pack) * (players + 4)`` rows, each the event's kind, seat, cards, chips, space and
receiving seat; rows past the last event are 0; a deal with more events than rows, which random
play never comes near, keeps its first events there and all in the string). The
strings are text: the observation string the seat's view now, the information-state string
every event the seat has seen, in order (perfect recall). While the pack is being dealt no
seat sees a card: the strings say how many cards are dealt, the tensors are 0.

**Serialization** is OpenSpiel's for Python games (the state's attributes pickled; a
:class:`stops.Deal` pickles by its own state and its variant by what it is), so
``pyspiel.serialize_game_and_state`` and ``pickle`` round-trip; ``clone()`` copies the deal
with :meth:`stops.Deal.clone`.
"""

from __future__ import annotations

import os
import random
import re
from collections.abc import Mapping
from math import comb
from typing import Any, Final

try:
    import numpy as np  # type: ignore[import-not-found, unused-ignore]
    import pyspiel  # type: ignore[import-not-found, import-untyped, unused-ignore]
except ImportError as exc:  # pragma: no cover - exercised only without the extra
    raise ImportError(
        "stops.interop.openspiel needs the optional extra: pip install "
        "\"stops-cards[openspiel]\" (from a checkout: pip install \".[openspiel]\") "
        f"(missing: {exc.name})"
    ) from exc

from stops.engine.actions import with_cards
from stops.engine.cards import CARDS
from stops.engine.deal import SPARE, Deal
from stops.engine.determinize import clone_for
from stops.engine.errors import StopsError
from stops.engine.table import Table
from stops.engine.text import players_text
from stops.interop.codec import CHIP_BOUND, ActionCodec
from stops.interop.encoding import ObservationLayout, VectorEncoder
from stops.phases.dealing import deal_order, deal_shape, sized_plan
from stops.rules.variant import Variant, list_variants, load_variant

__all__ = ["PREFIX", "StopsGame", "StopsObserver", "StopsState", "game_name", "load_game",
           "register", "register_builtins", "registered"]

PREFIX: Final = "python_stops_"
RESAMPLE_TRIES: Final = 4
"""Calls of ``clone_for`` a resampling makes before it gives up (each already tries hundreds
of imagined deals)."""
"""Every stops game's OpenSpiel short name starts with this."""
DEFAULT_PLAYERS: Final = 4
DEFAULT_CHIPS: Final = 50
MAX_DECISIONS: Final = 1000
"""Decisions a deal may take, for ``max_game_length`` (after the chance nodes of the deal):
a generous bound, not a proof (no built-in deal in random play takes a tenth of it)."""
HISTORY_EXTRA: Final = 4
"""The information-state tensor's event history has ``len(pack) * (players + 4)`` rows: the
visible events of a deal grow with the pack and the players (random play of the built-ins
shows at most about half of that: Play or Pay, where every seat that cannot play pays, 334
events at 8 players against 624 rows)."""

_VARIANTS: dict[str, Variant] = {}
_CLASSES: list[type] = []
"""Short name -> the variant registered under it (by this module)."""


def game_name(variant: str | Variant) -> str:
    """The OpenSpiel short name of a variant (or variant name): ``python_stops_`` and the
    name in lower case, every run of other characters than letters and digits as ``_``."""
    name = variant.name if isinstance(variant, Variant) else str(variant)
    return PREFIX + re.sub(r"[^0-9a-z]+", "_", name.lower()).strip("_")


def registered() -> dict[str, Variant]:
    """The games this module registered: short name -> variant."""
    return dict(_VARIANTS)


def _default_players(variant: Variant) -> int:
    lo, hi = variant.players
    return min(max(DEFAULT_PLAYERS, lo), hi)


def _same(a: Variant, b: Variant) -> bool:
    return a is b or (a.record_ref == b.record_ref and a.record_options == b.record_options)


def register(variant: str | os.PathLike[str] | Variant, *, name: str | None = None,
             options: Mapping[str, Any] | None = None) -> str:
    """Register ``variant`` (a built-in name, a variant file or a :class:`stops.Variant`,
    with rule ``options`` applied) as an OpenSpiel game; returns its short name (``name``,
    default :func:`game_name` of the variant). Registering the same variant under the same
    name again does nothing; another variant under a taken name is refused (give ``name``)."""
    v = load_variant(variant, options)  # an unknown name: the library's error, with the list
    if "deal" not in v.flow:
        raise ValueError(f"{v.name}: the OpenSpiel game deals the pack through chance nodes "
                         "into the deal phase's hands, and this variant's flow has no deal "
                         "phase (" + ", ".join(v.flow) + ")")
    short = name if name is not None else game_name(v)
    if not isinstance(short, str) or not re.fullmatch(r"[a-z][a-z0-9_]*", short):
        raise ValueError(f"an OpenSpiel game name is lower-case letters, digits and _, "
                         f"starting with a letter; got {short!r}")
    known = _VARIANTS.get(short)
    if known is not None:
        if _same(known, v):
            return short
        raise ValueError(f"{short} is already registered for another variant "
                         f"({known.name}); register this one under another name (name=...)")
    if short in pyspiel.registered_names():
        raise ValueError(f"{short} is already an OpenSpiel game; register {v.name} under "
                         "another name (name=...)")
    lo, hi = v.players
    game_type = pyspiel.GameType(
        short_name=short,
        long_name=f"Python stops {v.name}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.GENERAL_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=hi,
        min_num_players=lo,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification={"players": _default_players(v), "chips": DEFAULT_CHIPS,
                                 "dealer": 0},
    )
    _VARIANTS[short] = v
    # a class per game, not a closure: OpenSpiel's registry keeps the factory to the end of
    # the process, and a class (which refers to itself) is never freed there, while a
    # closure would be freed after the interpreter is gone (a crash at exit)
    game_class = type(f"StopsGame_{short}", (StopsGame,),
                      {"game_type": game_type, "variant": v, "__module__": __name__})
    _CLASSES.append(game_class)
    pyspiel.register_game(game_type, game_class)
    return short


def register_builtins() -> list[str]:
    """Register every built-in variant (done on import); their short names."""
    return [register(n) for n in list_variants()]


def load_game(variant: str | os.PathLike[str] | Variant, *, options: Mapping[str, Any] |
              None = None, **params: int) -> Any:
    """Register ``variant`` (see :func:`register`) and load it with game ``params``
    (``players``, ``chips``, ``dealer``): a ``pyspiel.Game``."""
    return pyspiel.load_game(register(variant, options=options), params)


def _unpickle_game(short: str, variant: Variant, params: dict[str, int]) -> Any:
    return pyspiel.load_game(register(variant, name=short), params)


def _whole(params: Mapping[str, Any], key: str, default: int) -> int:
    value = params.get(key, default)
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError(f"game parameter {key} must be a whole number, got {value!r}")
    return value


class StopsGame(pyspiel.Game):  # type: ignore[misc]
    """One deal of a stops variant (see the module docstring); made by OpenSpiel from the
    registered name and the game parameters."""

    game_type: Any
    """The registered ``pyspiel.GameType`` (set on each registered game's class)."""
    variant: Variant
    """The variant played (set on each registered game's class)."""

    def __init__(self, params: Mapping[str, Any] | None = None) -> None:
        game_type, variant = self.game_type, self.variant
        params = dict(params or {})
        unknown = set(params) - {"players", "chips", "dealer"}
        if unknown:
            raise ValueError(f"{game_type.short_name} has no parameter "
                             f"{', '.join(sorted(unknown))} (players, chips, dealer)")
        n = _whole(params, "players", _default_players(variant))
        lo, hi = variant.players
        if not lo <= n <= hi:
            raise ValueError(f"{variant.name} is for {players_text(lo, hi)}, not {n}")
        chips = _whole(params, "chips", DEFAULT_CHIPS)
        if chips < 1:
            raise ValueError(f"game parameter chips (each seat's stack) must be at least 1, "
                             f"got {chips}")
        dealer = _whole(params, "dealer", 0)
        if not 0 <= dealer < n:
            raise ValueError(f"game parameter dealer must be a seat 0..{n - 1}, got {dealer}")
        self.players = n
        self.chips = chips
        self.dealer = dealer
        self.codec = ActionCodec(variant, n)
        self.deck: tuple[int, ...] = tuple(int(c) for c in variant.deck)
        self.plan = self._plan()
        """Who gets each card, in dealing order: a seat, or SPARE."""
        # the turn-up, where the variant has one: the last card dealt to the spare, or
        # under deal_shape table the first card of the stock (as the deal phase reads it)
        shape = deal_shape(variant)
        self.turn_up_at: int | None = None
        if variant.turns_up:
            spare_at = [i for i, who in enumerate(self.plan) if who == SPARE]
            self.turn_up_at = spare_at[0] if shape.shape == "table" else spare_at[-1]
        self.layout = ObservationLayout(variant, n)
        """The observation vector's segments: the PettingZoo environment's, for one deal."""
        self.obs_size: int = self.layout.size
        self.kinds: dict[str, int] = {t.kind: i for i, t in enumerate(variant.event_types())}
        self.space_at: dict[str, int] = {s: i for i, s in enumerate(variant.space_ids)}
        k, s = len(self.kinds) + 1, len(self.space_at) + 1
        self.row_parts: dict[str, tuple[int, int]] = {}
        at = 0
        for part, size in (("kind", k), ("seat", n + 1), ("cards", 52), ("chips", 1),
                           ("space", s), ("to_seat", n + 1)):
            self.row_parts[part] = (at, size)
            at += size
        self.row_size = at
        self.history_rows = len(self.deck) * (n + HISTORY_EXTRA)
        # a fresh table holds players * chips, all in the stacks: a seat that pays what it
        # can loses at most its stack and wins at most the others'; under debt the table's
        # chips either way (an envelope, not a proof: see the module docstring)
        debt = variant.rules.chip_shortfall == "debt"
        super().__init__(game_type, pyspiel.GameInfo(
            num_distinct_actions=self.codec.n_actions,
            max_chance_outcomes=52,
            num_players=n,
            min_utility=-float(n * chips if debt else chips),
            max_utility=float(n * chips if debt else (n - 1) * chips),
            max_game_length=len(self.deck) + MAX_DECISIONS,
        ), params)

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickle by what the game is (its name, its variant and its parameters): the
        unpickling process registers the variant if it has not (a house variant too)."""
        params = {"players": self.players, "chips": self.chips, "dealer": self.dealer}
        return (_unpickle_game, (self.game_type.short_name, self.variant, params))

    def _plan(self) -> list[int]:
        v, n = self.variant, self.players
        order = deal_order(n, self.dealer, v.rules.spare_hand,
                           v.rules.deal_spare_position == "first", tuple(range(n)))
        shape = deal_shape(v)
        pack = len(self.deck)
        if shape.shape != "n_plus_one":
            sizes = shape.sizes(n)
            return sized_plan(order, {**dict.fromkeys(range(n), sizes[0]), SPARE: sizes[-1]},
                              pack)
        return [order[i % len(order)] for i in range(pack)]

    def new_initial_state(self) -> StopsState:
        return StopsState(self)

    def make_py_observer(self, iig_obs_type: Any = None,
                         params: Mapping[str, Any] | None = None) -> StopsObserver:
        return StopsObserver(
            iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False), self, params)

    # -- decisions ------------------------------------------------------------------------
    def choosing(self, deal: Deal) -> str | None:
        """The verb of a choice of several cards on offer now (a card index is then a pick)."""
        for verb in deal.legal_actions().verbs:
            if verb in self.codec.cards_verbs:
                return verb
        return None

    def pickable(self, deal: Deal, seat: int, picked: list[int]) -> list[int]:
        """Cards that keep ``picked`` completable to a legal choice of several cards."""
        legal = deal.legal_actions()
        hand = [int(c) for c in deal.hand(seat)]
        k = len(legal[0].cards or ())
        if len(legal) == comb(len(hand), k):  # a free choice: any cards of the hand
            return sorted(set(hand) - set(picked))
        have = set(picked)
        out: set[int] = set()
        for a in legal:
            cards = {int(c) for c in a.cards or ()}
            if have <= cards:
                out |= cards - have
        return sorted(out)

    def positions(self, deal: Deal) -> dict[int, int]:
        """Action index -> the position in ``legal_actions()`` of the first legal decision
        with that index (decisions the action space cannot express are left out)."""
        where: dict[int, int] = {}
        encode = self.codec.try_encode
        for pos, a in enumerate(deal.legal_actions()):
            i = encode(a)
            if i is not None:
                where.setdefault(i, pos)
        return where


class StopsState(pyspiel.State):  # type: ignore[misc]
    """A deal in progress: the cards dealt so far (chance), then the :class:`stops.Deal`."""

    def __init__(self, game: StopsGame) -> None:
        super().__init__(game)
        self.dealt: list[int] = []
        """The cards dealt so far, in dealing order (the chance outcomes)."""
        self.deal: Deal | None = None
        self.picked: list[int] = []
        """The cards picked so far of a choice of several cards."""

    def _game(self) -> StopsGame:
        g: StopsGame = self.get_game()
        return g

    # -- whose turn -----------------------------------------------------------------------
    def current_player(self) -> int:
        deal = self.deal
        if deal is None:
            return int(pyspiel.PlayerId.CHANCE)
        if deal.current_seat is None:
            return int(pyspiel.PlayerId.TERMINAL)
        return deal.current_seat

    def is_terminal(self) -> bool:
        return self.deal is not None and self.deal.is_terminal

    def chance_outcomes(self) -> list[tuple[int, float]]:
        left = self._left()
        p = 1.0 / len(left)
        return [(c, p) for c in left]

    def _left(self) -> list[int]:
        gone = set(self.dealt)
        return [c for c in self._game().deck if c not in gone]

    def _legal_actions(self, player: int) -> list[int]:
        deal = self.deal
        if deal is None or deal.current_seat != player:
            return []
        g = self._game()
        if g.choosing(deal) is not None:
            return g.pickable(deal, player, self.picked)
        legal = sorted(g.positions(deal))
        if not legal:
            raise pyspiel.SpielError(
                f"no legal decision of seat {player} has an index in the action space "
                f"({deal.legal_actions()!r})")
        return legal

    # -- moves ----------------------------------------------------------------------------
    def _apply_action(self, action: int) -> None:
        g = self._game()
        a = int(action)
        deal = self.deal
        if deal is None:
            if a not in self._left():
                raise pyspiel.SpielError(f"chance outcome {action} is not a card left to deal "
                                         f"({len(self._left())} left)")
            self.dealt.append(a)
            if len(self.dealt) == len(g.plan):
                self._start()
            return
        seat = deal.current_seat
        if seat is None:
            raise pyspiel.SpielError("the deal is over: no action applies")
        choosing = g.choosing(deal)
        if choosing is not None:
            if a not in g.pickable(deal, seat, self.picked):
                raise pyspiel.SpielError(self._illegal(g, seat, a))
            self.picked.append(a)
            if len(self.picked) == len(deal.legal_actions()[0].cards or ()):
                picked, self.picked = self.picked, []
                deal.apply(with_cards(seat, choosing, picked))
            return
        pos = g.positions(deal).get(a)
        if pos is None:
            raise pyspiel.SpielError(self._illegal(g, seat, a))
        deal.apply_index(pos)

    def _illegal(self, g: StopsGame, seat: int, a: int) -> str:
        label = g.codec.labels[a] if 0 <= a < g.codec.n_actions else "out of range"
        return (f"action {a} ({label}) is not legal for seat {seat} now; legal: "
                f"{self._legal_actions(seat)[:20]}")

    def _start(self) -> None:
        """All cards are dealt: start the deal with them as stacked hands."""
        g = self._game()
        hands: list[list[str]] = [[] for _ in range(g.players)]
        spare: list[str] = []
        for who, c in zip(g.plan, self.dealt, strict=True):
            (spare if who == SPARE else hands[who]).append(str(CARDS[c]))
        turn_up = None if g.turn_up_at is None else str(CARDS[self.dealt[g.turn_up_at]])
        table = Table(g.variant, seats=g.players, chips=g.chips, seed=0, dealer=g.dealer)
        deal = table.new_deal(hands=hands, spare=spare if g.variant.rules.spare_hand else None,
                              turn_up=turn_up)
        deal.detach()
        self.deal = deal

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> StopsState:
        """A state ``player_id`` cannot tell from this one, drawn at random (ISMCTS's
        determinization): the cards it has not seen dealt again (:meth:`stops.Deal.clone_for`),
        everything it has seen kept. ``probability_sampler`` (OpenSpiel's, a callable giving
        numbers in [0, 1)) seeds the draw."""
        g = self._game()
        rng = random.Random(int(probability_sampler() * 2.0**53))
        new = g.new_initial_state()
        deal = self.deal
        if deal is None or not deal.dealt_hands:
            # no card handed over yet: any deal will do; the decisions so far (stakes) again
            order = [c for c in g.deck]
            rng.shuffle(order)
            for c in order[:len(self.dealt)]:
                new.apply_action(c)
            if deal is None:
                return new
            for c in order[len(self.dealt):]:
                new.apply_action(c)
            assert new.deal is not None
            for a in deal.actions:
                new.deal.apply(a)
            return new
        imagined = None
        for _ in range(RESAMPLE_TRIES):
            try:
                imagined = clone_for(deal, player_id, rng)
                break
            except StopsError:
                # clone_for's bounded tries all failed (Tripoley after its showdown can be
                # that tight, about one call in a thousand): draw again from the same rng
                continue
        if imagined is None:
            raise pyspiel.SpielError(f"no deal fitting seat {player_id}'s view was found in "
                                     f"{RESAMPLE_TRIES} draws of clone_for")
        new.dealt = self._dealing_order(imagined)
        new.deal = imagined
        # a choice of several cards in progress is the chooser's secret: kept only for him
        new.picked = list(self.picked) if deal.current_seat == player_id else []
        return new

    def _dealing_order(self, deal: Deal) -> list[int]:
        """An order of the pack that deals ``deal``'s hands and spare (its turn-up, if any,
        where the deal turns it up)."""
        g = self._game()
        queues: dict[int, list[int]] = {s: [int(c) for c in h]
                                        for s, h in enumerate(deal.dealt_hands)}
        spare = [int(c) for c in deal.dealt_spare]
        if g.turn_up_at is not None and deal.last_dealt in spare:
            spare.remove(deal.last_dealt)
        queues[SPARE] = spare
        out: list[int] = []
        for i, who in enumerate(g.plan):
            if i == g.turn_up_at and deal.last_dealt >= 0:
                out.append(deal.last_dealt)
            else:
                out.append(queues[who].pop(0))
        return out

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"deal {CARDS[int(action)]}"
        g = self._game()
        a = int(action)
        return g.codec.labels[a] if 0 <= a < g.codec.n_actions else f"action {a}"

    # -- results --------------------------------------------------------------------------
    def returns(self) -> list[float]:
        deal = self.deal
        if deal is None or not deal.is_terminal:
            return [0.0] * self._game().players
        return [float(r) for r in deal.returns()]

    def __str__(self) -> str:
        deal = self.deal
        if deal is None:
            return "dealing: " + " ".join(str(CARDS[c]) for c in self.dealt)
        lines = [f"phase {deal.phase}, to act {deal.current_seat}, dealer {deal.dealer}",
                 "stacks " + " ".join(map(str, deal.stacks)),
                 "layout " + " ".join(f"{k} {v}" for k, v in sorted(deal.layout.items())),
                 "retired " + " ".join(sorted(deal.retired))]
        lines += [f"hand {s}: " + " ".join(str(c) for c in deal.hand(s))
                  for s in range(deal.n)]
        lines.append("spare: " + " ".join(str(CARDS[c]) for c in sorted(deal.spare)))
        lines.append("decisions: " + " ".join(
            f"{a.seat}:{a.action}" for a in deal.actions))
        if self.picked:
            lines.append("picked: " + " ".join(str(CARDS[c]) for c in self.picked))
        return "\n".join(lines)


def _event_text(e: Any) -> str:
    parts = [str(e.kind)]
    if e.seat is not None:
        parts.append(f"seat {e.seat}")
    if e.card is not None:
        parts.append(str(e.card))
    if e.cards:
        parts.append("[" + " ".join(str(c) for c in e.cards) + "]")
    if e.chips:
        parts.append(f"amount {e.chips}")
    if e.space is not None:
        parts.append(f"on {e.space}")
    if e.to_seat is not None:
        parts.append(f"to seat {e.to_seat}")
    if e.note:
        parts.append(f"({e.note})")
    return " ".join(parts)


class StopsObserver:
    """OpenSpiel's observer interface (``open_spiel.python.observation``) for a stops game.

    ``perfect_recall=False`` (the observation): the PettingZoo vector of the seat's view and
    a text of it. ``perfect_recall=True`` (the information state): the same vector followed by
    the seat's visible events (``history``), and a text of every event the seat has seen.
    Only one seat's own view: ``private_info`` must be ``SINGLE_PLAYER`` and
    ``public_info`` true (the other kinds are not offered)."""

    def __init__(self, iig_obs_type: Any, game: StopsGame,
                 params: Mapping[str, Any] | None) -> None:
        if params:
            raise ValueError(f"observation parameters are not supported, got {dict(params)}")
        if (iig_obs_type.private_info != pyspiel.PrivateInfoType.SINGLE_PLAYER
                or not iig_obs_type.public_info):
            raise ValueError("a stops observer shows one seat's own view: private_info "
                             "SINGLE_PLAYER with public_info")
        self.game = game
        self.encoder: VectorEncoder = game.layout.encoder()
        """This observer's own encoder (it keeps what it has read of the deal last shown)."""
        self.recall: bool = bool(iig_obs_type.perfect_recall)
        size = game.obs_size
        shapes: list[tuple[str, tuple[int, ...]]] = [("observation", (game.obs_size,))]
        if self.recall:
            shapes.append(("history", (game.history_rows, game.row_size)))
            size += game.history_rows * game.row_size
        self.tensor = np.zeros(size, np.float32)
        self.dict: dict[str, Any] = {}
        at = 0
        for name, shape in shapes:
            n = int(np.prod(shape))
            self.dict[name] = self.tensor[at:at + n].reshape(shape)
            at += n

    def set_from(self, state: StopsState, player: int) -> None:
        self.tensor.fill(0)
        deal = state.deal
        if deal is None:
            return  # no seat has seen a card yet
        picked = state.picked if deal.current_seat == player else ()
        # a one-deal game: no deal is left to start once the cards are dealt. The seat's own
        # array (no copy of it made first), copied straight into the tensor
        self.dict["observation"][:] = np.frombuffer(
            self.encoder.encode(deal, player, picked, 0.0, False), dtype=np.float32)
        if self.recall:
            self._history(deal.seen_by(player), player)

    def _history(self, events: tuple[Any, ...], player: int) -> None:
        g = self.game
        rows = self.dict["history"]
        n = g.players
        kind0, _ = g.row_parts["kind"]
        seat0, _ = g.row_parts["seat"]
        cards0, _ = g.row_parts["cards"]
        chips0, _ = g.row_parts["chips"]
        space0, _ = g.row_parts["space"]
        to0, _ = g.row_parts["to_seat"]
        unknown_kind = len(g.kinds)
        b = float(CHIP_BOUND)
        for r, e in enumerate(events[:g.history_rows]):
            row = rows[r]
            row[kind0 + g.kinds.get(e.kind, unknown_kind)] = 1.0
            row[seat0 + (n if e.seat is None else e.seat)] = 1.0
            if e.card is not None:
                row[cards0 + int(e.card)] = 1.0
            for c in e.cards:
                row[cards0 + int(c)] = 1.0
            row[chips0] = min(b, max(-b, float(e.chips)))
            row[space0 + (g.space_at.get(e.space, len(g.space_at)) if e.space is not None
                          else len(g.space_at))] = 1.0
            row[to0 + (n if e.to_seat is None else e.to_seat)] = 1.0

    def string_from(self, state: StopsState, player: int) -> str:
        deal = state.deal
        if deal is None:
            return f"seat {player}; dealing: {len(state.dealt)} cards dealt"
        view = deal.observe(player)
        head = [f"seat {player}", f"phase {view.phase}", f"to act {view.current_seat}",
                "hand " + " ".join(str(c) for c in view.hand)]
        if deal.current_seat == player and state.picked:
            head.append("picked " + " ".join(str(CARDS[c]) for c in state.picked))
        if self.recall:
            return "; ".join(head) + "\n" + "\n".join(_event_text(e) for e in view.events)
        head += [
            "hand sizes " + " ".join(map(str, view.hand_sizes)),
            f"spare size {view.spare_size}",
            "stacks " + " ".join(map(str, view.stacks)),
            "layout " + " ".join(f"{k} {v}" for k, v in sorted(view.layout.items())),
            "retired " + " ".join(sorted(view.retired)),
            "played " + " ".join(f"{s}:{c}" for s, c in view.plays),
            "sequence " + " ".join(str(c) for _s, c in view.sequence),
        ]
        if view.spare is not None:
            head.append("spare " + " ".join(str(c) for c in view.spare))
        return "; ".join(head)


register_builtins()
