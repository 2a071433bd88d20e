"""Colours and sizes of the map, in one place (terrain, levels, nationalities)."""

from __future__ import annotations

from PySide6.QtGui import QColor

from gwasl.model.scenario import Nationality, Terrain

HEX_SIZE = 30.0  # scene units: hex circumradius
MARGIN = 12.0

# Counters: width in hex sizes (about two thirds of the hex across its flats, as on
# VASL boards), and on-screen sizes that keep them readable.
COUNTER_SCALE = 1.15
READABLE_COUNTER_PX = 50.0  # the editor opens at a zoom that shows counters at least this wide (VASL's are 48)
DETAIL_COUNTER_PX = 46.0  # narrower counters show only their factors, rating or "?"
MIN_TEXT_PX = 8.0  # no text on a counter is drawn smaller than this on screen

BACKGROUND = QColor("#f4f1e6")
GRID = QColor(90, 84, 64, 150)
LABEL = QColor("#3b372c")
CONTOUR = QColor("#7a4e24")

TERRAIN_FILL: dict[Terrain, QColor] = {
    Terrain.OPEN: QColor("#e6e2bf"),
    Terrain.ROAD: QColor("#e6e2bf"),
    Terrain.BRUSH: QColor("#cfd89a"),
    Terrain.GRAIN: QColor("#ecd68a"),
    Terrain.ORCHARD: QColor("#d3e2a8"),
    Terrain.WOODS: QColor("#7fae5e"),
    Terrain.SHELLHOLES: QColor("#cdb894"),
    Terrain.MARSH: QColor("#bcd8c6"),
    Terrain.WOODEN_BUILDING: QColor("#e6e2bf"),
    Terrain.STONE_BUILDING: QColor("#e6e2bf"),
    Terrain.WOODEN_RUBBLE: QColor("#d9cbb1"),
    Terrain.STONE_RUBBLE: QColor("#d2cec6"),
    Terrain.WATER: QColor("#7fb0d8"),
}

# Level tint painted over the terrain: higher ground browner, depressions bluer.
def level_tint(level: int) -> QColor | None:
    if level == 0:
        return None
    if level < 0:
        return QColor(40, 70, 130, 55)
    alpha = min(80 + 45 * (level - 1), 200)
    return QColor(160, 100, 35, alpha)


# ASL counter colours; WW1 sides get their period tones (German field grey-blue, French horizon blue...).
NATIONALITY: dict[Nationality | None, tuple[QColor, QColor]] = {
    Nationality.GERMAN: (QColor("#8fb1cf"), QColor("#111111")),
    Nationality.FRENCH: (QColor("#35589a"), QColor("#ffffff")),
    Nationality.BRITISH: (QColor("#c9ad74"), QColor("#111111")),
    Nationality.US: (QColor("#8d9a55"), QColor("#111111")),
    Nationality.RUSSIAN: (QColor("#b98b5e"), QColor("#111111")),
    Nationality.AUSTRO_HUNGARIAN: (QColor("#a9b3a4"), QColor("#111111")),
    Nationality.ITALIAN: (QColor("#7e8e73"), QColor("#ffffff")),
    Nationality.BELGIAN: (QColor("#d9a25f"), QColor("#111111")),
    None: (QColor("#bbbbbb"), QColor("#111111")),
}


def counter_colours(nat: Nationality | None) -> tuple[QColor, QColor]:
    return NATIONALITY.get(nat, NATIONALITY[None])
