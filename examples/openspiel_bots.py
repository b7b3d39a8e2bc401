"""OpenSpiel's own search bots play one deal of a stops game (the extra ``openspiel``).

    pip install "stops-cards[openspiel]"      # from a checkout: pip install ".[openspiel]"
    python examples/openspiel_bots.py [variant] [simulations]

Seat 0 is OpenSpiel's information-set MCTS (``open_spiel.python.algorithms.ismcts``): before
each search it asks the state for worlds consistent with what seat 0 has seen
(``resample_from_infostate``, i.e. :meth:`stops.Deal.clone_for`), so it never reads another
hand. Seat 1 is OpenSpiel's plain MCTS (``open_spiel.python.algorithms.mcts``): it searches
the true state, every hand face up, so it is a cheat, useful only as an upper baseline (to
play fair, give it a state from ``resample_from_infostate`` for its own seat at each turn).
The other seats play at random; the deal itself is the game's chance nodes, sampled here.
"""

from __future__ import annotations

import sys


def main(variant: str = "boodle", simulations: int = 60, seed: int = 7) -> None:
    try:
        import numpy as np
        import pyspiel
        from open_spiel.python.algorithms import ismcts, mcts

        from stops.interop.openspiel import load_game
    except ImportError:
        print('OpenSpiel is not installed; pip install "stops-cards[openspiel]" (from a '
              'checkout: pip install ".[openspiel]") to run this example.')
        return

    game = load_game(variant, players=4, chips=50)
    rng = np.random.RandomState(seed)
    # chips are the returns: a deal moves tens of them, so explore on that scale
    rollout = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng)
    bots = [
        ismcts.ISMCTSBot(game, rollout, uct_c=10.0, max_simulations=simulations,
                         random_state=np.random.RandomState(seed + 1)),
        mcts.MCTSBot(game, uct_c=10.0, max_simulations=simulations, evaluator=rollout,
                     solve=False, random_state=np.random.RandomState(seed + 2)),
        pyspiel.make_uniform_random_bot(2, seed + 3),
        pyspiel.make_uniform_random_bot(3, seed + 4),
    ]
    labels = ["ISMCTS", "MCTS (sees every hand)", "random", "random"]
    state = game.new_initial_state()
    decisions = 0
    while not state.is_terminal():
        if state.is_chance_node():
            cards, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rng.choice(cards, p=probs)))
            continue
        seat = state.current_player()
        action = bots[seat].step(state)
        decisions += 1
        state.apply_action(int(action))
    print(f"{game}: {decisions} decisions")
    print("returns (chips won or lost in the deal):")
    for seat, (label, r) in enumerate(zip(labels, state.returns(), strict=True)):
        print(f"  seat {seat} {label}: {r:+g}")


if __name__ == "__main__":
    args = sys.argv[1:]
    main(*(args[:1]), *(int(a) for a in args[1:2]))
