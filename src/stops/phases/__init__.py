"""The phases a deal runs through. Each is registered by name; a variant's ``flow`` lists them.

A phase is a small object created once per variant (it reads its rules then) that works on a
:class:`~stops.engine.deal.Deal`:

* ``enter(deal) -> bool`` runs every step that needs no decision and returns ``True`` if a
  seat now has a decision to make (``deal.to_act`` set), ``False`` if the phase is complete.
* ``legal(deal) -> LegalActions`` lists the decisions open to ``deal.to_act``.
* ``apply(deal, action) -> bool`` carries out a *legal* decision (the deal has checked it) and
  returns whether another decision is due in this phase.
* ``explain(deal, action) -> IllegalAction | None`` says why an action is not legal.
* optionally ``normalize(deal, action) -> Action`` fills in a field the player may omit.
* optionally the class method ``aids()`` returns what the phase brings to the programs around
  the engine: the narration and prompts of ``stops play``, the heuristic bot's play, the
  tallies of ``stops simulate``, the learning environment's features
  (:mod:`stops.phases.aids`).
"""

from stops.phases.base import Phase

__all__ = ["Phase"]
