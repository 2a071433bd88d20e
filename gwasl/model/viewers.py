"""The names of viewers every layer shares: who looks at a game or a map.

``omniscient`` sees every side's hidden facts (the editor, the fog's own checks, a
finished game's replay); the engine adds ``player`` (the person at the desk) and each
side's id.  One definition, so the fog rules, the engine and the ui cannot drift apart.
"""

from __future__ import annotations

__all__ = ["OMNISCIENT"]

#: the viewer who knows every side's secrets
OMNISCIENT = "omniscient"
