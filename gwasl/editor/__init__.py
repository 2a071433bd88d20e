"""The scenario editor's document: a pure model of the file being edited, its edits
and its undo stack (no Qt).  The Qt editor window is a thin adapter over it."""
