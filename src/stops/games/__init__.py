"""Each game's own mechanisms: one module per game, for the rules YAML cannot say.

A module here registers the policies (and phases) that belong to one game only — Pope Joan's
turn-up and trump-relative spaces, Nain Jaune's grand opéra, Spinado's A♦, the Comet's wild
card — with their parameters, text and checks together. Anything two games share is a
general policy in :mod:`stops.policies` or a phase option in :mod:`stops.phases`, not here.
This layer sits above the phases and policies and below :mod:`stops.builtins`.
"""
