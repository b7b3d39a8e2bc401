"""The ISMCTS bot: information-set Monte Carlo tree search over deals its seat might be in.

A seat does not know the other hands, so it cannot search the real deal. Each iteration
instead *determinizes*: it asks its observation for a full deal that agrees with everything
the seat knows (:meth:`~stops.engine.observation.Observation.imagine`, which is
``deal.clone_for(seat, rng)`` bound by ``deal.observe``: the bot never holds the deal), walks
one tree down that deal, and plays the rest out. Over many iterations the tree's statistics
average over the deals the seat cannot tell apart.

**One tree, every seat's decisions in it (single-observer ISMCTS, Cowling, Powley and
Whitehouse 2012).** The tree is keyed by the decisions made since the root, whoever made
them; each node keeps the chips won by the seat whose decision led to it, and that seat's
choice at the node above is made by UCB on its own chips. Other seats thus play as well as
the search can make them, not as a fixed policy would. Why not a tree per seat
(multi-observer): it costs a walk of every tree each iteration, and the bot's budget is
small (150 iterations per decision by default); what it buys, keeping a decision the
searching seat cannot see (a spare-hand swap, a hand chosen in secret) from telling the
search more than the seat would know, matters only below the root, where the few visits
carry little weight. The root, where the bot's own decision is made, is exact: every
determinization is one of the seat's deals.

A round of the search:

1. **Determinize**: ``obs.imagine(rng)``; if no deal fits what the seat knows (clone_for's
   bounded tries fail), the round is lost and the budget spent; with no deal at all, the
   heuristic's choice is played.
2. **Sweep the root**: each of the seat's actions is tried on a copy of that *same* deal, one
   iteration each (common random numbers: the root's actions are compared on the same
   imagined deals, so the difference between two leads is measured, not two noisy totals).
3. **Select** below the root: at each decision with more than one legal action (a forced
   one is played without a node), the candidates are the node's children legal *in this
   deal* (each has its *availability* counted, so an action that is often illegal is not
   penalised for it), and UCB picks among them:
   ``mean + c * sqrt(ln(availability) / visits)``, the mean of that seat's chips normalised
   into [0, 1] by the least and most any seat has won in the search so far.
4. **Expand** (progressive widening): a node holds at most ``1 + sqrt(visits)`` children,
   and one more may be added when it holds fewer (or none legal here): the heuristic bot's
   choice for the deal at hand first (a phase's aids give it:
   :meth:`~stops.phases.aids.PhaseAids.advise`), then legal actions drawn at random. The
   walk stops at the new node. So another seat plays its heuristic move until the search
   has visits enough to try others, and a large family (the 1,287 poker hands of five cards
   from thirteen, a long bid range: more than :data:`WIDE` actions) is never listed, at the
   root too.
5. **Roll out**: the heuristic bot (or uniform random: ``rollout="random"``) plays every seat
   to the end of the deal.
6. **Back up**: each node on the path adds the chips its seat won (``deal.returns()``).

**The decision** is the heuristic's choice unless another root action beat it on the same
imagined deals by more than ``confidence`` standard errors of the paired differences (then
the one that beat it by most). Why: at a budget of 100 to 200 iterations the root's
means differ by less than their noise in most positions, and a search that follows its
noisy best mean plays worse than the heuristic it rolls out with (measured: docs/bots.md);
it wins where one action is clearly better, which is where the search finds it. With
``confidence=0`` the decision is the best mean among the root's well-visited actions.

**Budget**: ``iterations`` (deterministic: the same seed and the same observations give the
same decisions) and/or ``seconds`` of CPU time per decision (stops at the first reached).
The bot reads no variant: it plays every built-in and any house variant through the step
API; only the heuristic rollout knows the family's ways.
"""

from __future__ import annotations

import math
import random
import time
from typing import TYPE_CHECKING, Any, Final

from stops.bots.base import legal_of
from stops.bots.heuristic import HeuristicBot
from stops.engine.actions import Action
from stops.engine.errors import StopsError
from stops.engine.observation import NoDeterminizer
from stops.rules.registry import Registry

if TYPE_CHECKING:
    from stops.engine.deal import Deal
    from stops.engine.observation import Observation
    from stops.rules.variant import Variant

DEFAULT_ITERATIONS: Final = 150
"""Iterations per decision when no budget is given (see docs/bots.md for how it was chosen)."""
DEFAULT_EXPLORATION: Final = 0.7
"""UCB's exploration constant ``c``, on chips normalised into [0, 1]."""
DEFAULT_CONFIDENCE: Final = 2.5
"""How sure the search must be to overrule the heuristic: the paired gain of another action
over the heuristic's choice, in standard errors (0: the root's best mean, whatever)."""
ROLLOUTS: Final = ("heuristic", "random")
"""The rollout policies: the heuristic bot in every seat, or uniform random play."""
WIDE: Final = 24
"""A decision with more legal actions than this widens progressively instead of offering
them all (a poker selection has 1,287)."""
MAX_ROLLOUT: Final = 100_000
"""Decisions a rollout may take before the search calls the deal stuck (an engine bug)."""


class BotParameterError(StopsError, ValueError):
    """A bot parameter that cannot be used (a budget of 0, an unknown rollout policy)."""


class _Node:
    """One decision in the tree: the seat that made it, how often it was chosen
    (``visits``) and could have been (``avail``), that seat's chips summed over the
    iterations through it, and the decisions after it."""

    __slots__ = ("avail", "children", "seat", "total", "visits")

    def __init__(self, seat: int) -> None:
        self.seat = seat
        self.visits = 0
        self.avail = 0
        self.total = 0.0
        self.children: dict[Action, _Node] = {}


def _whole(name: str, value: object) -> int | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise BotParameterError(f"ismcts: {name} must be a whole number of at least 1, "
                                f"got {value!r}")
    return value


def _positive(name: str, value: object, *, zero: bool = False) -> float | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int | float) \
            or not math.isfinite(value) or value < 0 or (value == 0 and not zero):
        need = "at least 0" if zero else "more than 0"
        raise BotParameterError(f"ismcts: {name} must be a number {need}, got {value!r}")
    return float(value)


class ISMCTSBot:
    """Information-set Monte Carlo tree search (see the module's text for the algorithm).

    ``iterations``: determinized deals searched per decision; ``seconds``: CPU seconds per
    decision (with only ``seconds`` given, iterations are unbounded; with neither,
    :data:`DEFAULT_ITERATIONS`). ``exploration``: UCB's constant on chips normalised into
    [0, 1]. ``rollout``: ``"heuristic"`` or ``"random"``. ``seed``: every draw of the search
    (determinizations, expansion order, the rollout bot's samples) comes from it, so with an
    iteration budget the same seed and the same observations give the same decisions.

    A bad parameter raises :class:`BotParameterError` naming it. The bot needs observations
    that can imagine deals (made by ``deal.observe``; see
    :attr:`~stops.engine.observation.Observation.can_imagine`) and refuses others.
    """

    name: str = "ismcts"

    def __init__(self, seed: int = 0, registry: Registry | None = None, *,
                 variant: Variant | None = None, iterations: int | None = None,
                 seconds: float | None = None, exploration: float = DEFAULT_EXPLORATION,
                 rollout: str = "heuristic", confidence: float = DEFAULT_CONFIDENCE
                 ) -> None:
        """``registry`` and ``variant`` are accepted like every bot factory's; the search
        reads the rules from the deals it imagines, and the heuristic rollout its variant."""
        self.iterations = _whole("iterations", iterations)
        self.seconds = _positive("seconds", seconds)
        c = _positive("exploration", exploration, zero=True)
        z = _positive("confidence", confidence, zero=True)
        if rollout not in ROLLOUTS:
            raise BotParameterError(f"ismcts: rollout must be one of {', '.join(ROLLOUTS)}, "
                                    f"got {rollout!r}")
        if self.iterations is None and self.seconds is None:
            self.iterations = DEFAULT_ITERATIONS
        self.exploration = c if c is not None else DEFAULT_EXPLORATION
        self.rollout = rollout
        self.confidence = z if z is not None else DEFAULT_CONFIDENCE
        self._paired: dict[Action, dict[int, float]] = {}
        self.seed = seed
        self._rng = random.Random(seed)
        self._policy_of: tuple[Variant, HeuristicBot] | None = None
        self._fallback = HeuristicBot(seed, registry, variant=variant)
        self.last_iterations = 0
        """How many iterations the last searched decision ran (for cost reports)."""
        self.last_imagined = 0
        """How many deals the last searched decision asked its observation to imagine (one
        ``clone_for`` of the real deal each, those that found no deal included): a sweep of
        the root's actions shares one, so a decision with many actions imagines fewer deals
        than it runs iterations (for cost reports: ``benchmarks/clone_for_search.py``)."""
        self.unimagined = 0
        """Iterations lost because no deal fitting the seat's view could be imagined."""

    def __repr__(self) -> str:
        budget = (f"iterations={self.iterations}" if self.seconds is None else
                  f"seconds={self.seconds}" if self.iterations is None else
                  f"iterations={self.iterations}, seconds={self.seconds}")
        return (f"ISMCTSBot(seed={self.seed}, {budget}, exploration={self.exploration}, "
                f"rollout={self.rollout!r})")

    # -- the decision -----------------------------------------------------------------------
    def act(self, obs: Observation) -> Action:
        legal = legal_of(obs)
        if len(legal) == 1:
            return legal[0]
        if not obs.can_imagine:
            raise StopsError(f"the ismcts bot needs an observation that can imagine deals "
                             f"(made by deal.observe); seat {obs.seat}'s cannot (a record's "
                             "or a remote host's view)")
        self._paired = {}
        root = self._search(obs)
        known = self._fallback.act(obs)
        if not root.children:
            # no deal could be imagined: the heuristic's choice, from the observation
            return known
        if self.confidence > 0:
            return self._confident(known, legal)
        best: Action | None = None
        most = max(ch.visits for ch in root.children.values())
        best_v = -math.inf
        for a, child in root.children.items():
            if 2 * child.visits >= most and a in legal:
                v = child.total / child.visits
                if v > best_v:
                    best, best_v = a, v
        if best is None:  # pragma: no cover - the root always expands a legal action
            return self._fallback.act(obs)
        return best

    def _search(self, obs: Observation) -> _Node:
        rng = self._rng
        root = _Node(obs.seat)
        lo, hi = math.inf, -math.inf
        limit = self.iterations
        deadline = None if self.seconds is None else time.process_time() + self.seconds
        c = self.exploration
        done = imagined = 0
        while (limit is None or done < limit) and \
                (deadline is None or done == 0 or time.process_time() < deadline):
            imagined += 1
            try:
                base = obs.imagine(rng)
            except NoDeterminizer:
                raise
            except StopsError:
                # clone_for found no deal that fits everything the seat knows (its bounded
                # tries all failed): this iteration is lost, the budget still spent
                self.unimagined += 1
                done += 1
                continue
            # one sweep: every root candidate tried on this same deal (common random
            # numbers: the root's means are compared on the same imagined deals)
            cands = self._candidates(base, root, root_node=True)
            for i, a in enumerate(cands):
                deal = base.clone() if i < len(cands) - 1 else base
                child = root.children.get(a)
                if child is None:
                    child = root.children[a] = _Node(obs.seat)
                child.avail += 1
                deal.apply(a)
                path = [child]
                self._descend(deal, child, path, lo, hi, c)
                self._roll_out(deal)
                r = deal.returns()
                for n in path:
                    n.visits += 1
                    n.total += r[n.seat]
                lo = min(lo, min(r))
                hi = max(hi, max(r))
                done += 1
                self._paired.setdefault(a, {})[root.visits] = r[obs.seat]
            root.visits += 1
        self.last_iterations = done
        self.last_imagined = imagined
        return root

    def _confident(self, known: Action, legal: Any) -> Action:
        """The heuristic's choice ``known``, unless another root action beat it on the same
        imagined deals by more than ``confidence`` standard errors of the paired
        differences (the one that beat it by most on average)."""
        base = self._paired.get(known)
        if base is None:
            return known
        best, best_gain = known, 0.0
        z = self.confidence
        for a, got in self._paired.items():
            if a is known or a == known or a not in legal:
                continue
            diffs = [v - base[k] for k, v in got.items() if k in base]
            n = len(diffs)
            if n < 2:
                continue
            mean = sum(diffs) / n
            var = sum((d - mean) ** 2 for d in diffs) / (n - 1)
            if mean > best_gain and mean > z * math.sqrt(var / n):
                best, best_gain = a, mean
        return best

    def _candidates(self, deal: Deal, node: _Node, *, root_node: bool = False
                    ) -> list[Action]:
        """The actions a walk through ``node`` may take in ``deal``: its children legal here,
        and one more while the node may widen (every legal action at a root of at most
        :data:`WIDE`)."""
        legal = deal.legal_actions()
        kids = node.children
        if root_node and len(legal) <= WIDE:
            return list(legal)
        cands = [a for a in kids if a in legal]
        # widen while the node holds fewer than 1 + sqrt(visits) children, and whenever
        # none of them is legal in this deal
        if not cands or len(kids) < 1 + math.isqrt(node.visits):
            new = self._widen(deal, legal, kids)
            if new is not None:
                cands.append(new)
        return cands

    def _descend(self, deal: Deal, node: _Node, path: list[_Node], lo: float, hi: float,
                 c: float) -> None:
        """Select and expand down ``deal`` from ``node``, adding the nodes passed through
        to ``path``."""
        span = hi - lo if hi > lo else 1.0
        while deal.to_act is not None:
            if deal.legal_count() == 1:
                deal.apply_index(0)
                continue
            seat = deal.to_act
            kids = node.children
            cands = self._candidates(deal, node)
            for a in cands:
                child = kids.get(a)
                if child is not None:
                    child.avail += 1
            fresh = [a for a in cands if a not in kids]
            if fresh:
                a = fresh[0]
                child = kids[a] = _Node(seat)
                child.avail = 1
                deal.apply(a)
                path.append(child)
                return
            best: Action = cands[0]
            best_v = -math.inf
            for a in cands:
                ch = kids[a]
                v = ((ch.total / ch.visits - lo) / span
                     + c * math.sqrt(math.log(ch.avail) / ch.visits))
                if v > best_v:
                    best, best_v = a, v
            node = kids[best]
            deal.apply(best)
            path.append(node)

    def _widen(self, deal: Deal, legal: Any, kids: dict[Action, _Node]) -> Action | None:
        """A new candidate at a wide decision: the heuristic's choice if the node lacks it,
        else a legal action drawn at random (a few tries; ``None`` if all were there)."""
        seat = deal.to_act
        assert seat is not None
        pick = self._policy(deal).act(deal.observe(seat))
        if pick not in kids:
            return pick
        for _ in range(8):
            a: Action = legal[self._rng.randrange(len(legal))]
            if a not in kids:
                return a
        return None

    def _policy(self, deal: Deal) -> HeuristicBot:
        """The heuristic bot that plays rollouts of ``deal``'s variant (one per variant,
        seeded from this bot's generator)."""
        v = deal.variant
        held = self._policy_of
        if held is not None and held[0] is v:
            return held[1]
        bot = HeuristicBot(self._rng.getrandbits(31), variant=v)
        self._policy_of = (v, bot)
        return bot

    def _roll_out(self, deal: Deal) -> None:
        """Play ``deal`` to its end with the rollout policy in every seat."""
        steps = 0
        if self.rollout == "random":
            below = self._rng.randrange
            while deal.to_act is not None:
                n = deal.legal_count()
                deal.apply_index(below(n) if n > 1 else 0)
                steps += 1
                if steps > MAX_ROLLOUT:  # pragma: no cover - an engine bug
                    raise RuntimeError("a rollout did not finish")
            return
        bot = self._policy(deal)
        while deal.to_act is not None:
            seat = deal.to_act
            if deal.legal_count() == 1:
                deal.apply_index(0)
            else:
                deal.apply(bot.act(deal.observe(seat)))
            steps += 1
            if steps > MAX_ROLLOUT:  # pragma: no cover - an engine bug
                raise RuntimeError("a rollout did not finish")
