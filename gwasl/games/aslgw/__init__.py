"""A Great War scenario in play (ruleset ``aslgw``): :class:`~gwasl.games.aslgw.game.AslgwGame`.

Modules: :mod:`.settings` (the scenario's turn record), :mod:`.state` (the
state value), :mod:`.records` (actions and events), :mod:`.knowledge` (what a
viewer knows), :mod:`.moves` (movement), :mod:`.shifts` (the fog layer in
play), :mod:`.views` (views per viewer), :mod:`.game` (the Game).
"""
