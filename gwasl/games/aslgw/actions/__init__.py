"""The families of actions of a Great War scenario in play, one module each, and the
dispatcher beside them (:mod:`.dispatch`) that maps every action and event type to
its family's handler (see :mod:`gwasl.games.aslgw`)."""
