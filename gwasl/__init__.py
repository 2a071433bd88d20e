"""gwasl: scenario editor and solitaire player for ASL: The Great War (WW1)."""

__version__ = "0.1.0"
