"""Generic play machinery (docs/architecture.md "A game in play"): the Game protocol, typed
records (events and actions), the seeded dice stream, the journal and the Session.

The scenario editor's document lives in :mod:`gwasl.editor`.
"""
