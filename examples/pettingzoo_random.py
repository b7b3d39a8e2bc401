"""Play one PettingZoo episode of a stops variant with masked random actions.

    pip install "stops-cards[pettingzoo]"      # from a checkout: pip install ".[pettingzoo]"
    python examples/pettingzoo_random.py [variant] [players] [deals]
"""

from __future__ import annotations

import sys


def main(variant: str = "three-in-one", players: int = 4, deals: int = 2) -> None:
    try:
        import numpy as np

        from stops.interop.pettingzoo import env
    except ImportError:
        print('PettingZoo is not installed; pip install "stops-cards[pettingzoo]" (from a '
              'checkout: pip install ".[pettingzoo]") to run this example.')
        return

    e = env(variant=variant, players=players, chips=50, deals_per_episode=deals,
            render_mode="ansi")
    e.reset(seed=2024)
    rng = np.random.default_rng(7)  # the agents' randomness is separate from the deal's
    totals = dict.fromkeys(e.possible_agents, 0.0)
    steps = 0
    for agent in e.agent_iter():
        obs, reward, terminated, truncated, _info = e.last()
        totals[agent] += reward
        if terminated or truncated:
            action = None
        else:
            # a numpy integer is an index as it is (no int() needed)
            action = rng.choice(np.flatnonzero(obs["action_mask"]))
            steps += 1
        e.step(action)
    print(e.render())
    print(f"{steps} decisions; rewards (chips won or lost):")
    for agent, total in totals.items():
        print(f"  {agent}: {total:+g}")
    e.close()


if __name__ == "__main__":
    args = sys.argv[1:]
    main(*(args[:1]), *(int(a) for a in args[1:3]))
