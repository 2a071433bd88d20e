"""A Great War scenario in play (ruleset ``aslgw``): :class:`~gwasl.games.aslgw.game.AslgwGame`.

Where to look:

* :mod:`.game` -- the Game: set-up from a scenario file, snapshots, status, views;
  everything else it asks the dispatcher.
* :mod:`.state` -- every state type: :class:`~.state.AslgwState` and its parts
  (a unit's play this phase, a platoon's impulse, fire and close combat's marks,
  Control and losses).
* :mod:`.records` -- every action and event, with the ``kind`` journals store.
* :mod:`.views` -- what each viewer sees: the state, log lines, actions' wording.
* :mod:`.knowledge` -- what a viewer knows (the scenario as a side knows it, "?"
  piles, LOS), a secret side's own dice, the events that reveal.
* :mod:`.effects` -- what attacks do to units (IFT results, morale checks, ELR,
  casualty reduction, pins), through an :class:`~.effects.Emitter`.
* :mod:`.victory` -- Control, losses, exit VP and the card's verdict (A26).
* :mod:`.settings` -- the scenario's turn record.
* :mod:`.actions` -- one module per family of actions, each with its legal
  actions, how they resolve, their odds and the reduce of their events:
  :mod:`~.actions.turn` (phases, windows, end phase), :mod:`~.actions.movement`,
  :mod:`~.actions.fire` (with gwasl's fire policy), :mod:`~.actions.close_combat`,
  :mod:`~.actions.rally`, :mod:`~.actions.rout`, :mod:`~.actions.bayonet_charge`,
  :mod:`~.actions.gas`, :mod:`~.actions.shifts` (O'Leary's fog layer in play and
  gwasl's policies for a side it keeps secret); and :mod:`~.actions.dispatch`,
  which maps each action and event type to its family's handler.
"""
