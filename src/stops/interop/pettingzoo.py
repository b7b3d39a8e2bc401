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
from typing import Any

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


from stops.engine.actions import Action, with_cards
from stops.engine.cards import CARDS
from stops.engine.deal import Deal
from stops.engine.errors import IllegalAction
from stops.engine.table import Table
from stops.engine.text import players_text
from stops.interop.codec import AMOUNT_CAP, ActionCodec
from stops.interop.encoding import ObservationLayout
from stops.interop.envcore import AECLoop, EnvCore
from stops.rules.variant import Variant, load_variant

__all__ = ["AMOUNT_CAP", "ActionCodec", "StopsAECEnv", "env", "raw_env"]

_F32 = np.dtype(np.float32)
"""The observation's dtype, made once (numpy need not resolve ``np.float32`` each time)."""
_NUMPY_INTS: frozenset[type] = frozenset(np.dtype(c).type for c in np.typecodes["AllInteger"])
"""numpy's integer types: an index of one of them (what ``action_space(agent).sample(mask)``
and an ``argmax`` give) is played by the core's usual step as an ``int`` would be."""

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
        self._build_observation_layout()
        self.observation_spaces: dict[str, Any] = {a: self._observation_space()
                                                   for a in self.possible_agents}
        self.action_spaces: dict[str, Any] = {
            a: gymnasium.spaces.Discrete(self.codec.n_actions) for a in self.possible_agents}
        self._seed_rng = random.Random()
        self._core = EnvCore(self.variant, players, chips, deals_per_episode, dealer,
                             self.codec, self._encoder)
        """The episode's table, deal, masks and step, numpy-free (compiled in the compiled
        build): this class turns what it keeps into numpy arrays and PettingZoo's dicts."""
        # episode state (set by reset)
        self.agents: list[str] = []
        self.rewards: dict[str, float] = {}
        self._cumulative_rewards: dict[str, float] = {}
        self.terminations: dict[str, bool] = {}
        self.truncations: dict[str, bool] = {}
        self.infos: dict[str, dict[str, Any]] = {}
        self.agent_selection: str = self.possible_agents[0]
        self._zeros: npt.NDArray[np.int8] = np.zeros(self.codec.n_actions, dtype=np.int8)
        """All 0: copied for every mask of a seat not to act."""
        self._idle: npt.NDArray[np.int8] = self._zeros.copy()
        self._idle.flags.writeable = False
        """The mask of every agent not to act (all 0), shared and read-only: one array for
        them all, not a copy per agent per step."""
        self._live: npt.NDArray[np.int8] = np.frombuffer(self._core.buf, dtype=np.int8)
        """The mask of the seat to act, rewritten in place by the core at every step (its
        ``buf``, and the numpy array over it made once): what the agents are given are
        copies of it."""
        self._core.attach(self.possible_agents, self._live.copy, self._idle, np.frombuffer, _F32,
                          _NUMPY_INTS)

    @property
    def table(self) -> Table | None:
        """The episode's table (``None`` before the first reset)."""
        return self._core.table

    @property
    def deal(self) -> Deal | None:
        """The deal in progress (``None`` before the first reset)."""
        return self._core.deal

    @property
    def deals_started(self) -> int:
        return self._core.deals_started

    @property
    def episode_over(self) -> bool:
        return self._core.episode_over

    @property
    def _picked(self) -> list[int]:
        return self._core.picked

    @property
    def _mask(self) -> npt.NDArray[np.int8]:
        """The mask of the seat to act as the environment keeps it (all 0 if none)."""
        return self._live if self._core.seat >= 0 else self._idle

    # -- spaces ---------------------------------------------------------------------------
    def _build_observation_layout(self) -> None:
        layout = ObservationLayout(self.variant, self.n, self.deals_per_episode)
        self._feature_aids = layout.feature_aids
        self.observation_layout: dict[str, slice] = layout.slices
        self._obs_low = np.array(layout.lows, dtype=np.float32)
        self._obs_high = np.array(layout.highs, dtype=np.float32)
        self.observation_size = layout.size
        self._encoder = layout.encoder()

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
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self._core.reset(table_seed)
        self.infos = {a: {"action_mask": self._idle} for a in self.agents}
        self._after_move()

    def _after_move(self) -> None:
        """Infos, terminations and the agent to act, after a reset or a step. Only the
        agent that acted and the agent to act get new infos: ``infos`` is updated in place
        (every other agent's info is the one it had, its mask the shared all-0 one)."""
        core = self._core
        seat = core.seat
        if seat < 0:
            assert core.episode_over
            core.episode_end(self.__dict__)
            return
        infos = self.infos
        was = self.agent_selection
        chosen = self.agent_selection = self.possible_agents[seat]
        if was != chosen:
            infos[was] = {"action_mask": self._idle}
        infos[chosen] = {"action_mask": self._live.copy()}

    def step(self, action: int | None) -> None:
        core = self._core
        if core.step(self.agent_selection, action, self.terminations, self.truncations,
                     self._cumulative_rewards, self.infos):
            # the usual step (a legal index of the agent to act), done by the core: the
            # rewards, the cumulative rewards and the infos of the agents it concerns
            rewards = core.rewards
            if rewards is not None:
                self.rewards = rewards
            if core.seat >= 0:
                self.agent_selection = self.possible_agents[core.seat]
            else:
                self._after_move()
            if self.render_mode == "human":
                self.render()
            return
        # anything else (an agent done, an action to convert or refuse) as it always was
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        core = self._core
        if action is None:
            raise IllegalAction("masked_action", f"{agent} must act; None is only for agents "
                                "that are done")
        if type(action) is int:  # the usual index: no bool, nothing to convert
            index = action
        else:
            try:
                if isinstance(action, bool | np.bool_):
                    raise TypeError("a boolean is not an action index")
                index = operator.index(action)
            except TypeError:
                raise IllegalAction("masked_action", f"an action is an index 0.."
                                    f"{self.codec.n_actions - 1}, got {action!r}") from None
        if not 0 <= index < core.size or not core.on[index]:
            label = (self.codec.labels[index] if 0 <= index < self.codec.n_actions
                     else "out of range")
            raise IllegalAction("masked_action", f"action {index} ({label}) is not legal for "
                                f"{agent} now; see its action mask")
        self._cumulative_rewards[agent] = 0.0
        changes = core.play(self._seat_of[agent], index)
        if changes is not None:
            self.rewards = {a: changes[self._seat_of[a]] for a in self.agents}
            self._accumulate_rewards()
        # else: no chip moved, and ``rewards`` is all 0.0 already (adding 0.0 changes no sum)
        self._after_move()
        if self.render_mode == "human":
            self.render()

    # -- actions --------------------------------------------------------------------------
    def _choosing(self) -> str | None:
        """The verb of the choice of several cards on offer now (a ``select``), if any: a
        card index is then a pick."""
        return self._core.choosing_now()

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
        deal = self.deal
        if deal is None or deal.current_seat != seat:
            return self._zeros.copy()
        on = self._core.mask_on(deal, seat, where)[0]
        return np.frombuffer(self.codec.mask_bytes(self.codec.n_actions, on), dtype=np.int8)

    # -- observations ---------------------------------------------------------------------
    def last(self, observe: bool = True) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        """PettingZoo's ``last``, the same five values, without its extra call per step."""
        return self._core.last(self.agent_selection, observe, self._cumulative_rewards,
                               self.terminations, self.truncations, self.infos)

    def observe(self, agent: str) -> dict[str, Any]:
        return self._core.observe(agent)

    def loop(self) -> AECLoop:
        """The AEC loop's ``step`` and ``last`` over this environment's state, for the
        wrapper to call straight (see :class:`stops.interop.envcore.AECLoop`)."""
        return AECLoop(self._core, self.__dict__, self.step,
                       self.render if self.render_mode == "human" else None,
                       EnvLogger.warn_step_after_terminated_truncated)

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
                self.possible_agents, self._core.stacks_now(), strict=True)),
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
    ``last`` go straight to the environment's core: the wrapper's own ``last`` reads five
    attributes through its ``__getattr__`` (a check and a forward each) at every step.

    Every attribute read of a class with a ``__getattr__`` goes through a slower hook (and
    is never specialized by the interpreter): ``step`` reads two. Once reset (which can
    never be undone) ``step`` and ``last`` are the bound methods of the environment's
    :class:`~stops.interop.envcore.AECLoop`, attributes of the instance: no frame of the
    wrapper or of the environment at all (the loop is compiled in the compiled build)."""

    def __init__(self, env: StopsAECEnv) -> None:
        self._loop = env.loop()  # before the base class writes ``_has_updated``
        super().__init__(env)

    @property
    def _has_updated(self) -> bool:
        """Whether ``step`` or ``reset`` was called since ``agent_iter`` last looked: kept
        by the loop (:class:`stops.interop.envcore.AECLoop`), whose ``step`` sets it."""
        return self._loop.updated

    @_has_updated.setter
    def _has_updated(self, value: bool) -> None:
        self._loop.updated = value

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        super().reset(seed=seed, options=options)
        # once reset (never undone), the wrapper's one check of ``last`` is passed for good
        # and ``step`` checks only that some agent is left: both go straight to the loop
        self.last = self._loop.last  # type: ignore[method-assign]
        self.step = self._loop.step  # type: ignore[method-assign]

    def step(self, action: Any) -> None:
        env = self.env
        if self._has_reset and env.agents:
            self._has_updated = True
            env.step(action)
        elif not self._has_reset:
            EnvLogger.error_step_before_reset()
        else:
            self._has_updated = True
            EnvLogger.warn_step_after_terminated_truncated()

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
