"""A PettingZoo AEC environment for any stops variant (the extra ``stops-cards[pettingzoo]``).

>>> from stops.interop.pettingzoo import env
>>> e = env(variant="boodle", players=4)
>>> e.reset(seed=1)
>>> for agent in e.agent_iter():
...     obs, reward, terminated, truncated, info = e.last()
...     action = None if terminated or truncated else (
...         e.action_space(agent).sample(obs["action_mask"]))
...     e.step(action)

Agents are ``"player_0"`` .. ``"player_{n-1}"`` (seat numbers). One episode is
``deals_per_episode`` deals of one :class:`stops.Table` (fewer if the variant's session ends
first, e.g. pot-and-kitty once every space is won). Only the seat that must decide is ever
selected; forced plays happen inside the engine.

**Actions** are indices into a fixed :class:`ActionCodec` per variant, built from the verbs
its phases declare (``variant.verbs()``, :mod:`stops.engine.vocabulary`), so a plug-in
phase's decisions get indices too: the 52 cards (a lead; while a seat chooses several cards
at once, such as its poker hand, "add this card to my choice"), one index per verb that takes
no field (``keep swap auction pass check call fold`` in Three-in-One), ``VERB k`` for k in
1..the verb's bound for each verb that takes an amount (``bid``; ``bet``, ``raise`` up to the
``bet_limit``; a verb its phase does not bound, such as an offer for the spare hand, up to
``amount_cap``, default 100: higher amounts cannot be expressed), ``VERB card`` (52 each) for
each phase's verb that takes one card, and ``stake <space> k`` for every layout space and k
in 1..the variant's largest stake choice; last, ``VERB <space> k`` for a phase's verb that
takes a space and an amount (Royal Rummy's ``wager``), up to ``amount_cap``. A choice of
several cards (a poker ``select``) is that many successive card picks; the real decision goes
to the engine with the last pick.
The legal indices are in ``obs["action_mask"]`` and ``info["action_mask"]``.

**Rewards** are chip changes: after every step each agent gets the change of its stack caused
by that step (the stakes placed automatically when the first deal starts are counted in the
first step), so an agent's cumulative reward over the episode is its stack change, and the
rewards of all agents add up to minus the change of chips on the layout.

**Observations** hold only what :meth:`stops.Deal.observe` shows that seat (plus the cards
the seat has picked so far for a ``select``, and the deals left in the episode), written
from those parts of the deal by :class:`stops.interop.encoding.VectorEncoder`; see
:attr:`StopsAECEnv.observation_layout` for the segments of the vector. After the segments
every game has (cards, stacks, layout, phase, seats) come those the phases of the variant's
flow declare, in flow order (:meth:`stops.phases.aids.PhaseAids.features`): the spare-hand
phase's ``high_bid`` (the highest bid of the auction running), the betting round's
``folded`` and ``in_pot`` (per seat); then ``deals_left``.

Rule options belong to the constructor; ``reset(seed=..., options=...)`` never rebuilds the
rules (``options`` passed to reset are accepted and ignored).
"""

from __future__ import annotations

import operator
import random
from collections.abc import Mapping
from math import comb
from typing import Any, Final

try:
    import gymnasium  # type: ignore[import-not-found, unused-ignore]
    import numpy as np  # type: ignore[import-not-found, unused-ignore]
    import numpy.typing as npt  # type: ignore[import-not-found, unused-ignore]
    from pettingzoo import AECEnv  # type: ignore[import-untyped, import-not-found, unused-ignore]
    from pettingzoo.utils.env_logger import (  # type: ignore[import-untyped, import-not-found, unused-ignore]
        EnvLogger,
    )
    from pettingzoo.utils.wrappers import (  # type: ignore[import-untyped, import-not-found, unused-ignore]
        OrderEnforcingWrapper,
    )
except ImportError as exc:  # pragma: no cover - exercised only without the extra
    raise ImportError(
        "stops.interop.pettingzoo needs the optional extra: pip install "
        "\"stops-cards[pettingzoo]\" (from a checkout: pip install \".[pettingzoo]\") "
        f"(missing: {exc.name})"
    ) from exc

import attrs

from stops.engine.actions import RANK_NAMES, Action, lead, simple, with_cards, with_chips
from stops.engine.cards import CARDS, Card
from stops.engine.deal import Deal
from stops.engine.errors import IllegalAction
from stops.engine.table import Table
from stops.engine.text import players_text
from stops.interop.encoding import VectorEncoder
from stops.phases.aids import PhaseAids
from stops.phases.rotation import RotationParams
from stops.rules.contracts import COMPANION, TURN_ORDER, WILD_CARD
from stops.rules.variant import Variant, load_variant

__all__ = ["AMOUNT_CAP", "ActionCodec", "StopsAECEnv", "env", "raw_env"]

AMOUNT_CAP: Final = 100
"""Largest amount of a decision whose phase sets no bound (an offer for the spare hand) the
action space can express: `VERB 1` .. `VERB 100`."""
CHIP_BOUND: Final = 1_000_000
"""Chip counts in the observation are clipped to ``[-CHIP_BOUND, CHIP_BOUND]``."""
_OWN_FAMILIES: Final = frozenset({"stake", "lead", "play", "follow"})
"""The engine's verbs that have families of their own below (a lead is a card index, plays and
follows come only in variants that have them); every other verb gets indices by its fields."""


def _stake_cap(variant: Variant) -> int:
    """The largest stake a seat may be asked to choose: the biggest whole-number parameter of
    the stake rule (``free: chips``, ``choose_one_card: card_chips`` ...) times the unit."""
    params = variant.policy("stake_rule").params
    amounts = [1]
    if params is not None and attrs.has(type(params)):
        amounts += [v for v in attrs.asdict(params).values()
                    if isinstance(v, int) and not isinstance(v, bool) and v > 0]
    return max(amounts) * max(1, variant.rules.stake_unit)


class ActionCodec:
    """A fixed numbering of every decision of a variant, for discrete-action learners.

    ``encode(action) -> int`` and ``decode(seat, index) -> Action`` are pure: index ``c`` in
    0..51 decodes to ``lead c``. (The environment reads a card index as "pick this card" while
    the seat is choosing several cards at once; such a decision (a ``select``) has no single
    index, see :meth:`encode_select`.)

    The indices follow ``variant.verbs()``, in the order of the variant's flow: card indices,
    then the field-less verbs (``simple_verbs``, from ``simple_base``), then a family of
    amounts per verb with ``chips`` (``chips_base[verb]``, ``chips_cap[verb]``), then 52 per
    phase verb with one ``card`` (``card_base[verb]``), then the stakes and the engine's
    play, follow and group families. A verb with another mix of fields has no index.
    """

    def __init__(self, variant: Variant, players: int, *, amount_cap: int = AMOUNT_CAP,
                 stake_cap: int | None = None) -> None:
        self.variant = variant
        self.players = players
        self.amount_cap = amount_cap
        self.stake_cap = stake_cap if stake_cap is not None else _stake_cap(variant)
        self.space_ids: tuple[str, ...] = variant.space_ids
        verbs = [v for v in variant.verbs() if v.name not in _OWN_FAMILIES]
        self.simple_verbs: tuple[str, ...] = tuple(v.name for v in verbs if not v.fields)
        self.cards_verbs: tuple[str, ...] = tuple(v.name for v in verbs
                                                  if v.fields == ("cards",))
        """Verbs that choose several cards at once: made of card picks (:meth:`encode_select`)."""
        labels = [f"card {CARDS[c]}" for c in range(52)]
        self.simple_base = len(labels)
        labels += list(self.simple_verbs)
        self.chips_base: dict[str, int] = {}
        self.chips_cap: dict[str, int] = {}
        for v in verbs:
            if v.fields == ("chips",):
                bound = v.most(variant) if v.most is not None else None
                # an amount only the stacks bound: as high as ``amount_cap`` can express
                cap = amount_cap if bound is None else max(1, bound)
                self.chips_base[v.name] = len(labels)
                self.chips_cap[v.name] = cap
                labels += [f"{v.name} {k}" for k in range(1, cap + 1)]
        self.card_base: dict[str, int] = {}
        for v in verbs:
            if v.fields == ("card",):
                self.card_base[v.name] = len(labels)
                labels += [f"{v.name} {CARDS[c]}" for c in range(52)]
        self._chips_at = sorted((b, v) for v, b in self.chips_base.items())
        self._card_at = sorted((b, v) for v, b in self.card_base.items())
        self.stake_base = len(labels)
        labels += [f"stake {s} {k}" for s in self.space_ids for k in range(1, self.stake_cap + 1)]
        # the families of the play in turn and of a companion card: only for variants that
        # have them, so the first games keep their action space
        turns = variant.policy(TURN_ORDER)
        self.in_turn: bool = turns.spec.in_turn
        comp = variant.policy(COMPANION)
        self.companion: int = comp.impl.card(comp.params)
        self.flag: str = comp.impl.flag(comp.params) if self.companion >= 0 else ""
        wild = variant.policy(WILD_CARD)
        self.wild: int = wild.impl.card(wild.params)
        self.wilds: frozenset[int] = frozenset(int(c) for c in wild.impl.cards(wild.params))
        """Every wild card (Pink Nines has two, either one standing for the same group)."""
        self.groups = self.in_turn and (
            (isinstance(turns.params, RotationParams) and turns.params.cards_per_turn != "one")
            or bool(self.wilds))
        self.play_base = len(labels)
        if self.in_turn and not self.groups:
            labels += [f"play {CARDS[c]}" for c in range(52)]
        self.follow_base = len(labels)
        if self.companion >= 0:
            labels += [f"follow {CARDS[c]}" for c in range(52)]
            labels += [f"follow {CARDS[c]} with {self.flag}" for c in range(52)]
            labels += [f"lead {CARDS[c]} with {self.flag}" for c in range(52)]
        self.group_base = len(labels)
        if self.groups:
            for verb in ("lead", "play"):
                for r in range(13):
                    for k in range(1, 5):
                        labels.append(f"{verb} {k} x {RANK_NAMES[r]}")
                        labels.append(f"{verb} {k} x {RANK_NAMES[r]} + wild")
                labels += [f"{verb} wild as {RANK_NAMES[r]}" for r in range(13)]
        # a phase's verb with a space and an amount (Royal Rummy's ``wager``): ``VERB space
        # k`` for every layout space; last, so that no other game's numbering moves
        self.spaced_base = len(labels)
        self.spaced_at: dict[str, tuple[int, int]] = {}
        for v in verbs:
            if set(v.fields) == {"space", "chips"}:
                bound = v.most(variant) if v.most is not None else None
                cap = amount_cap if bound is None else max(1, bound)
                self.spaced_at[v.name] = (len(labels), cap)
                labels += [f"{v.name} {s} {k}" for s in self.space_ids
                           for k in range(1, cap + 1)]
        self.labels: tuple[str, ...] = tuple(labels)
        self.n_actions = len(labels)
        self._simple = {v: self.simple_base + i for i, v in enumerate(self.simple_verbs)}
        self._space = {s: i for i, s in enumerate(self.space_ids)}

    def __len__(self) -> int:
        return self.n_actions

    def encode(self, action: Action) -> int:
        """The index of ``action``; :class:`ValueError` if it has none (a ``select``, or an
        amount above the caps)."""
        got = self.try_encode(action)
        if got is None:
            hint = (f" (a {action.action} is several card picks: encode_select)"
                    if action.action in self.cards_verbs else "")
            raise ValueError(f"{action} has no index in this action space{hint}")
        return got

    def try_encode(self, action: Action) -> int | None:
        verb = action.action
        if verb in ("lead", "play") and (action.cards is not None or action.as_rank is not None
                                         or (verb == "play" and self.groups)):
            return self._encode_group(action)
        if action.flags:
            if action.flags != (self.flag,) or action.card is None or verb not in (
                    "lead", "follow"):
                return None
            return self.follow_base + (104 if verb == "lead" else 52) + int(action.card)
        if verb == "lead":
            return None if action.card is None else int(action.card)
        if verb == "play":
            if action.card is None or not self.in_turn or self.groups:
                return None
            return self.play_base + int(action.card)
        if verb == "follow":
            return None if action.card is None or self.companion < 0 else (
                self.follow_base + int(action.card))
        if verb in self._simple:
            return self._simple[verb]
        base = self.card_base.get(verb)
        if base is not None:
            return None if action.card is None else base + int(action.card)
        k = action.chips
        if k is None or k < 1:
            return None
        base = self.chips_base.get(verb)
        if base is not None:
            return base + k - 1 if k <= self.chips_cap[verb] else None
        spaced = self.spaced_at.get(verb)
        if spaced is not None:
            first, cap = spaced
            if action.space not in self._space or k > cap:
                return None
            return first + self._space[action.space] * cap + k - 1
        if verb == "stake" and action.space in self._space and k <= self.stake_cap:
            return self.stake_base + self._space[action.space] * self.stake_cap + k - 1
        return None

    def encode_select(self, action: Action) -> list[int]:
        """A choice of several cards (a ``select``) as the card picks that make it, in card
        order."""
        if action.action not in self.cards_verbs or action.cards is None:
            raise ValueError(f"{action} is not a choice of several cards "
                             f"({', '.join(self.cards_verbs) or 'this variant has none'})")
        return [int(c) for c in action.cards]

    def decode(self, seat: int, index: int, legal: Any = None) -> Action:
        """The action ``index`` stands for, made by ``seat`` (a card index is a lead). A
        group index (several cards of one rank) needs ``legal``, the decisions on offer."""
        i = operator.index(index)
        if not 0 <= i < self.n_actions:
            raise ValueError(f"action index {index} is outside 0..{self.n_actions - 1}")
        if i < self.simple_base:
            return lead(seat, i)
        if i < self.simple_base + len(self.simple_verbs):
            return simple(seat, self.simple_verbs[i - self.simple_base])
        if i < self.stake_base:
            for base, verb in reversed(self._card_at):
                if i >= base:
                    return Action(seat, verb, card=Card(i - base))
            for base, verb in reversed(self._chips_at):
                if i >= base:
                    return with_chips(seat, verb, i - base + 1)
        if i < self.play_base:
            space, k = divmod(i - self.stake_base, self.stake_cap)
            return with_chips(seat, "stake", k + 1, self.space_ids[space])
        if i < self.follow_base:
            return Action(seat, "play", card=Card(i - self.play_base))
        if i < self.group_base:
            family, c = divmod(i - self.follow_base, 52)
            verb = "lead" if family == 2 else "follow"
            return Action(seat, verb, card=Card(c), flags=(self.flag,) if family else ())
        if i >= self.spaced_base:
            for verb, (first, cap) in sorted(self.spaced_at.items(),
                                             key=lambda kv: -kv[1][0]):
                if i >= first:
                    space, k = divmod(i - first, cap)
                    return with_chips(seat, verb, k + 1, self.space_ids[space])
        return self._decode_group(seat, i, legal)

    # -- several cards of one rank (a group), perhaps with the wild card ------------------
    # A group index says what matters in a game that builds by rank: the verb, the rank, how
    # many natural cards and whether the wild card goes too (or the wild card alone and the
    # rank it is named as). Which suits go is not part of it: ``decode`` takes the first
    # legal decision with that shape.
    _PER_VERB: Final = 13 * 4 * 2 + 13

    def _group_key(self, action: Action) -> tuple[str, int, int, bool] | None:
        cards = [int(c) for c in action.cards or (
            (action.card,) if action.card is not None else ())]
        wild = any(c in self.wilds for c in cards)
        natural = [c for c in cards if c not in self.wilds]
        ranks = {c % 13 for c in natural}
        if len(ranks) > 1 or len(natural) > 4:
            return None
        if natural:
            return action.action, ranks.pop(), len(natural), wild
        if not wild or action.as_rank is None or action.as_rank not in RANK_NAMES:
            return None
        return action.action, RANK_NAMES.index(action.as_rank), 0, True

    def _group_index(self, verb: str, rank: int, count: int, wild: bool) -> int:
        base = self.group_base + (self._PER_VERB if verb == "play" else 0)
        if count == 0:
            return base + 13 * 8 + rank
        return base + rank * 8 + (count - 1) * 2 + int(wild)

    def _encode_group(self, action: Action) -> int | None:
        if not self.groups:
            return None
        key = self._group_key(action)
        return None if key is None else self._group_index(*key)

    def _decode_group(self, seat: int, index: int, legal: Any) -> Action:
        if legal is None:
            raise ValueError(f"action {index} ({self.labels[index]}) stands for several cards "
                             "of one rank: decode it with the legal decisions "
                             "(decode(seat, index, legal))")
        for a in legal:
            if a.seat == seat and a.action in ("lead", "play") and self.try_encode(a) == index:
                return a  # type: ignore[no-any-return]
        raise ValueError(f"no legal decision matches action {index} ({self.labels[index]})")


class StopsAECEnv(AECEnv):  # type: ignore[misc, unused-ignore]
    """A stops variant as a PettingZoo AEC environment (see the module docstring).

    ``variant`` is a built-in name, a variant file path or a :class:`stops.Variant`;
    ``options`` override its rules (once, here). ``chips`` is every seat's starting stack,
    ``dealer`` the first dealer (``None``: the variant's ``first_dealer`` rule). The table is
    ``self.table`` and the deal in progress ``self.deal``.
    """

    metadata: dict[str, Any] = {  # noqa: RUF012 - PettingZoo reads it from the class
        "render_modes": ["ansi", "human"],
        "name": "stops_v0",
        "is_parallelizable": False,
    }

    def __init__(
        self,
        variant: str | Variant = "boodle",
        players: int = 4,
        chips: int = 50,
        deals_per_episode: int = 1,
        render_mode: str | None = None,
        options: Mapping[str, Any] | None = None,
        dealer: int | None = None,
    ) -> None:
        super().__init__()
        self.variant: Variant = load_variant(variant, options)
        lo, hi = self.variant.players
        if isinstance(players, bool) or not isinstance(players, int) or not lo <= players <= hi:
            raise ValueError(f"{self.variant.name} is for {players_text(lo, hi)}, not {players!r}")
        if not isinstance(deals_per_episode, int) or deals_per_episode < 1:
            raise ValueError(f"deals_per_episode must be at least 1, got {deals_per_episode!r}")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']} or "
                             f"None, got {render_mode!r}")
        self.n = players
        self.chips = chips
        self.deals_per_episode = deals_per_episode
        self.render_mode = render_mode
        self.dealer = dealer
        self.metadata = {**type(self).metadata,
                         "name": f"stops_{self.variant.name.replace('-', '_')}_v0"}
        self.codec = ActionCodec(self.variant, players)
        self.possible_agents: list[str] = [f"player_{i}" for i in range(players)]
        self._seat_of = {a: i for i, a in enumerate(self.possible_agents)}
        self._phases: tuple[str, ...] = (*self.variant.flow, "over")
        self._build_observation_layout()
        self.observation_spaces: dict[str, Any] = {a: self._observation_space()
                                                   for a in self.possible_agents}
        self.action_spaces: dict[str, Any] = {
            a: gymnasium.spaces.Discrete(self.codec.n_actions) for a in self.possible_agents}
        self._seed_rng = random.Random()
        # episode state (set by reset)
        self.agents: list[str] = []
        self.rewards: dict[str, float] = {}
        self._cumulative_rewards: dict[str, float] = {}
        self.terminations: dict[str, bool] = {}
        self.truncations: dict[str, bool] = {}
        self.infos: dict[str, dict[str, Any]] = {}
        self.agent_selection: str = self.possible_agents[0]
        self.table: Table | None = None
        self.deal: Deal | None = None
        self.deals_started = 0
        self.episode_over = False
        self._picked: list[int] = []
        self._zeros: npt.NDArray[np.int8] = np.zeros(self.codec.n_actions, dtype=np.int8)
        """All 0: copied for every mask of a seat not to act."""
        self._mask: npt.NDArray[np.int8] = self._zeros.copy()
        self._where: dict[int, int] = {}
        """Action index -> its position in ``legal_actions()`` (from the last mask)."""
        self._last_stacks: tuple[int, ...] = ()

    # -- spaces ---------------------------------------------------------------------------
    def _build_observation_layout(self) -> None:
        n, s = self.n, len(self.variant.space_ids)
        b = float(CHIP_BOUND)
        segments: list[tuple[str, int, float, float]] = [
            ("hand", 52, 0.0, 1.0),
            ("played", 52, 0.0, 1.0),
            ("spare_known", 52, 0.0, 1.0),
            ("last_card", 52, 0.0, 1.0),
            ("picked", 52, 0.0, 1.0),
            ("hand_sizes", n, 0.0, 52.0),
            ("spare_size", 1, 0.0, 52.0),
            ("stacks", n, -b, b),
            ("layout", s, -b, b),
            ("retired", s, 0.0, 1.0),
            ("phase", len(self._phases), 0.0, 1.0),
            ("seat", n, 0.0, 1.0),
            ("dealer", n, 0.0, 1.0),
            ("to_act", n, 0.0, 1.0),
        ]
        # then the features the phases of the flow declare, in flow order (who folded and
        # what each seat has bet, the highest bid for the spare hand ...)
        self._feature_aids: list[PhaseAids] = []
        self._chip_features: set[str] = set()
        for phase in self.variant.phases:
            aids: PhaseAids = phase.aids()
            features = aids.features(self.variant, n)
            if features:
                self._feature_aids.append(aids)
            for f in features:
                if any(f.name == seg[0] for seg in segments):
                    raise ValueError(f"two segments of the observation are named {f.name!r} "
                                     f"(the {phase.name} phase declares one)")
                if f.chips:
                    self._chip_features.add(f.name)
                segments.append((f.name, f.size, -b if f.chips else f.low,
                                 b if f.chips else f.high))
        segments.append(("deals_left", 1, 0.0, float(self.deals_per_episode)))
        self.observation_layout: dict[str, slice] = {}
        lows: list[float] = []
        highs: list[float] = []
        for name, size, low, high in segments:
            self.observation_layout[name] = slice(len(lows), len(lows) + size)
            lows += [low] * size
            highs += [high] * size
        self._obs_low = np.array(lows, dtype=np.float32)
        self._obs_high = np.array(highs, dtype=np.float32)
        self.observation_size = len(lows)
        self._starts: dict[str, int] = {k: sl.start for k, sl in self.observation_layout.items()}
        self._encoder = VectorEncoder(
            n, self.observation_size, self._starts, self._phases, self.variant.space_ids,
            self._feature_aids,
            [[(f.name, self._starts[f.name], f.size, f.chips)
              for f in aids.features(self.variant, n)] for aids in self._feature_aids],
            b)

    def _observation_space(self) -> Any:
        return gymnasium.spaces.Dict({
            "observation": gymnasium.spaces.Box(self._obs_low, self._obs_high,
                                                dtype=np.float32),
            "action_mask": gymnasium.spaces.Box(0, 1, (self.codec.n_actions,), dtype=np.int8),
        })

    def observation_space(self, agent: str) -> Any:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> Any:
        return self.action_spaces[agent]

    # -- the episode ----------------------------------------------------------------------
    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Start an episode on a new table. The same ``seed`` gives the same episode for the
        same actions; ``seed=None`` continues from the last seed given (or from entropy)."""
        if seed is not None:
            self._seed_rng = random.Random(seed)
            table_seed: int = seed
        else:
            table_seed = self._seed_rng.getrandbits(63)
        self.table = Table(self.variant, seats=self.n, chips=self.chips, seed=table_seed,
                           dealer=self.dealer)
        self._last_stacks = tuple(self.table.stacks)
        self.deal = None
        self.deals_started = 0
        self.episode_over = False
        self._picked = []
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self._advance()
        self._after_move()

    def _advance(self) -> None:
        """Start deals until some seat has a decision, or the episode is over."""
        table = self.table
        assert table is not None
        while self.deal is None or self.deal.is_terminal:
            if table.is_over or self.deals_started >= self.deals_per_episode:
                self.episode_over = True
                return
            self.deal = table.new_deal()
            self.deals_started += 1

    def _stacks_now(self) -> tuple[int, ...]:
        deal, table = self.deal, self.table
        assert deal is not None and table is not None
        # once a deal is over the table's stacks include any end-of-session share-out
        return tuple(table.stacks) if deal.is_terminal else deal.stacks

    def _after_move(self) -> None:
        """Masks, infos, terminations and the agent to act, after a reset or a step."""
        self._where = {}
        if (self.deal is not None and not self.episode_over
                and self.deal.current_seat is not None):
            self._mask = self._mask_of(self.deal.current_seat, self._where)
        else:
            self._mask = self._zeros.copy()
        if self.episode_over:
            self.terminations = dict.fromkeys(self.agents, True)
            self.agent_selection = self.agents[0]
        else:
            assert self.deal is not None and self.deal.current_seat is not None
            self.agent_selection = self.possible_agents[self.deal.current_seat]
        zeros = self._zeros
        chosen = None if self.episode_over else self.agent_selection
        self.infos = {a: {"action_mask": self._mask.copy() if a == chosen else zeros.copy()}
                      for a in self.agents}

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        deal = self.deal
        assert deal is not None
        seat = self._seat_of[agent]
        if action is None:
            raise IllegalAction("masked_action", f"{agent} must act; None is only for agents "
                                "that are done")
        try:
            # a numpy boolean (known by its dtype: numpy is optional, so not imported here)
            if isinstance(action, bool) or str(getattr(action, "dtype", "")) == "bool":
                raise TypeError("a boolean is not an action index")
            index = operator.index(action)
        except TypeError:
            raise IllegalAction("masked_action", f"an action is an index 0.."
                                f"{self.codec.n_actions - 1}, got {action!r}") from None
        if not 0 <= index < self.codec.n_actions or not self._mask[index]:
            label = (self.codec.labels[index] if 0 <= index < self.codec.n_actions
                     else "out of range")
            raise IllegalAction("masked_action", f"action {index} ({label}) is not legal for "
                                f"{agent} now; see its action mask")
        self._cumulative_rewards[agent] = 0.0
        choosing = self._choosing()
        if choosing is not None and index < 52:
            self._picked.append(index)
            if len(self._picked) == self._select_size():
                picked, self._picked = self._picked, []
                deal.apply(with_cards(seat, choosing, picked))
        else:
            legal = deal.legal_actions()
            chosen = self.codec.decode(seat, index, legal)
            where = self._where.get(index)
            if where is not None and legal[where] == chosen:
                deal.apply_index(where)  # the mask saw where it is among legal_actions()
            else:
                deal.apply(chosen)
        self._advance()
        now = self._stacks_now()
        self.rewards = {a: float(now[self._seat_of[a]] - self._last_stacks[self._seat_of[a]])
                        for a in self.agents}
        self._last_stacks = now
        self._accumulate_rewards()
        self._after_move()
        if self.render_mode == "human":
            self.render()

    # -- actions --------------------------------------------------------------------------
    def _choosing(self) -> str | None:
        """The verb of the choice of several cards on offer now (a ``select``), if any: a
        card index is then a pick."""
        deal = self.deal
        if deal is None:
            return None
        for verb in deal.legal_actions().verbs:
            if verb in self.codec.cards_verbs:
                return verb
        return None

    def _select_size(self) -> int:
        assert self.deal is not None
        first = self.deal.legal_actions()[0]
        return len(first.cards or ())

    def encode(self, action: Action) -> int:
        """The index of ``action`` (see :class:`ActionCodec`)."""
        return self.codec.encode(action)

    def decode(self, seat: int, index: int) -> Action:
        """What ``index`` means for ``seat`` now. While the seat chooses several cards (its
        poker hand) a card index is a pick, shown as the (partial) choice it would make."""
        i = operator.index(index)
        choosing = self._choosing() if 0 <= i < 52 else None
        if choosing is not None and self.deal is not None and self.deal.current_seat == seat:
            return with_cards(seat, choosing, sorted({*self._picked, i}))
        legal = self.deal.legal_actions() if self.deal is not None else None
        return self.codec.decode(seat, i, legal)

    def action_mask(self, seat: int) -> npt.NDArray[np.int8]:
        """``np.int8`` array: 1 for each index ``seat`` may play now (all 0 if not its turn)."""
        return self._mask_of(seat, None)

    def _mask_of(self, seat: int, where: dict[int, int] | None) -> npt.NDArray[np.int8]:
        """:meth:`action_mask`; fills ``where`` (when given) with each index's position in
        ``legal_actions()``, so that :meth:`step` can play it with ``apply_index``."""
        mask = self._zeros.copy()
        deal = self.deal
        if deal is None or deal.current_seat != seat:
            return mask
        legal = deal.legal_actions()
        codec = self.codec
        on: list[int] = []
        if any(v in codec.cards_verbs for v in legal.verbs):
            on.extend(self._pickable(deal, seat, legal))
        elif len(legal) <= 2 * codec.n_actions:
            encode = codec.try_encode
            for pos, a in enumerate(legal):
                i = encode(a)
                if i is not None:
                    on.append(i)
                    # exactly what decode(i) gives: no fields the index does not carry
                    if (where is not None and not a.flags and a.as_rank is None
                            and a.cards is None):
                        where.setdefault(i, pos)
        else:  # a long family (a bid up to a big stack): ask about each index instead
            on.extend(i for i in range(codec.n_actions)
                      if i < codec.play_base and codec.decode(seat, i) in legal)
        if on:
            mask[on] = 1
        else:
            raise RuntimeError(f"no legal decision of seat {seat} has an index in the action "
                               f"space ({legal!r}); raise the codec's caps")
        return mask

    def _pickable(self, deal: Deal, seat: int, legal: Any) -> set[int]:
        """Cards that keep the picks so far completable to a legal ``select``."""
        picked = set(self._picked)
        hand = [int(c) for c in deal.hand(seat)]
        k = len(legal[0].cards or ())
        if len(legal) == comb(len(hand), k):  # free choice: any cards of the hand
            return set(hand) - picked
        out: set[int] = set()
        for a in legal:
            cards = {int(c) for c in a.cards or ()}
            if picked <= cards:
                out |= cards - picked
        return out

    # -- observations ---------------------------------------------------------------------
    def observe(self, agent: str) -> dict[str, Any]:
        seat = self._seat_of[agent]
        deal = self.deal
        assert deal is not None
        mask = (self._mask.copy() if agent == self.agent_selection and not self.episode_over
                else self._zeros.copy())
        return {"observation": self._vector(deal, seat), "action_mask": mask}

    def _vector(self, deal: Deal, seat: int) -> npt.NDArray[np.float32]:
        """The observation vector of ``seat``: what :meth:`stops.Deal.observe` shows it, as
        :class:`~stops.interop.encoding.VectorEncoder` writes it (one copy into numpy)."""
        v = self._encoder.encode(deal, seat, self._picked,
                                 float(self.deals_per_episode - self.deals_started))
        return np.frombuffer(v, dtype=np.float32).copy()

    # -- display --------------------------------------------------------------------------
    def render(self) -> str | None:
        if self.render_mode is None:
            gymnasium.logger.warn("render() called without a render_mode "
                                  "(use render_mode='ansi' or 'human')")
            return None
        text = self._text()
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def _text(self) -> str:
        deal, table = self.deal, self.table
        if deal is None or table is None:
            return f"stops {self.variant.name}: not started (call reset)"
        who = "-" if deal.current_seat is None else self.possible_agents[deal.current_seat]
        lines = [
            f"stops {self.variant.name}: deal {self.deals_started}/{self.deals_per_episode}, "
            f"dealer player_{deal.dealer}, phase {deal.phase}, to act {who}"
            + (" (episode over)" if self.episode_over else ""),
            "stacks: " + "  ".join(f"{a} {s}" for a, s in zip(
                self.possible_agents, self._stacks_now(), strict=True)),
            "layout: " + "  ".join(
                f"{sid} {chips}" + ("*" if sid in deal.retired else "")
                for sid, chips in deal.layout.items()),
            "hand sizes: " + " ".join(str(c) for c in deal.counts)
            + (f" (spare {len(deal.spare)})" if deal.spare else ""),
        ]
        view = deal.observe(deal.current_seat if deal.current_seat is not None else 0)
        if view.sequence:
            lines.append("sequence: " + " ".join(str(c) for _s, c in view.sequence))
        if self._picked:
            lines.append("picked: " + " ".join(str(CARDS[c]) for c in self._picked))
        return "\n".join(lines)

    def close(self) -> None:
        """Nothing to release (no window, no subprocess)."""


raw_env = StopsAECEnv


class _OrderEnforcing(OrderEnforcingWrapper):  # type: ignore[misc, unused-ignore]
    """PettingZoo's ``OrderEnforcingWrapper``, with the same checks, whose ``step`` and
    ``last`` go straight to the environment: the wrapper's own ``last`` reads five
    attributes through its ``__getattr__`` (a check and a forward each) at every step."""

    def step(self, action: Any) -> None:
        if not self._has_reset:
            EnvLogger.error_step_before_reset()
        elif not self.env.agents:
            self._has_updated = True
            EnvLogger.warn_step_after_terminated_truncated()
        else:
            self._has_updated = True
            self.env.step(action)

    def last(self, observe: bool = True) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        if not self._has_reset:
            raise AttributeError("agent_selection cannot be accessed before reset")
        return self.env.last(observe)  # type: ignore[no-any-return]

    def __str__(self) -> str:
        return str(self.env)


def env(**kwargs: Any) -> Any:
    """A :class:`StopsAECEnv` wrapped in PettingZoo's ``OrderEnforcingWrapper``; keyword
    arguments go to :class:`StopsAECEnv`. ``env.unwrapped`` is the environment itself."""
    return _OrderEnforcing(StopsAECEnv(**kwargs))
