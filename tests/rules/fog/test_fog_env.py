"""The injected rules of the fog layer: LOS adapters, location TEM, concealment loss, placement."""

from __future__ import annotations

from gwasl.model.hexgrid import Hex
from gwasl.model.scenario import FortificationKind, Position
from gwasl.rules.fog.env import FogEnv, default_location_tem, default_placement, sees_from_index


class FakeIndex:
    """A LOS index that sees along column A only, counting its calls."""

    def __init__(self):
        self.calls = 0

    def visible_from(self, h):
        self.calls += 1
        return frozenset(Hex.from_offset(0, r) for r in range(10)) if h.column == 0 else frozenset({h})


def test_index_adapter_caches_one_to_all_maps_and_seals_deep_trench_and_dugout():
    """CONTRACTS 3 / ASLGW 2.1.5, 2.2.2 through an injected LOS index."""
    idx = FakeIndex()
    sees = sees_from_index(idx)
    a, b, c = Hex.from_label("A1"), Hex.from_label("A5"), Hex.from_label("C5")
    assert sees(a, b) and not sees(a, c) and idx.calls == 1
    assert not sees(a, b, Position.GROUND, Position.DEEP_TRENCH)
    assert not sees(a, b, Position.DUGOUT)
    assert sees(a, b, Position.DEEP_TRENCH_CREST, Position.TRENCH)
    assert sees(c, c, Position.DUGOUT, Position.DUGOUT)


def test_default_env_uses_the_rules_exact_los(kit):
    """O'Leary 2.5 "in the LOS of an enemy unit" through gwasl.rules.los (CONTRACTS 3): woods
    between same-level hexes block, brush does not, two levels up sees over woods, a hill one
    level up blocks; IN a deep trench nothing outside is seen (ASLGW 2.1.5)."""
    s = kit.build(hexes={"B2": {"terrain": "woods"}, "D2": {"terrain": "brush"}, "F2": {"level": 1},
                         "H1": {"level": 2}, "H3": {"level": 2}, "H2": {"terrain": "woods"}},
                  forts=[{"kind": "deep_trench", "hexes": ["D3"]}])
    sees = FogEnv().sees(s)
    H = Hex.from_label
    assert not sees(H("B1"), H("B3")) and not sees(H("B3"), H("B1"))
    assert sees(H("D1"), H("D3"))
    assert not sees(H("D1"), H("D3"), Position.GROUND, Position.DEEP_TRENCH)
    assert not sees(H("F1"), H("F3"))
    assert sees(H("H1"), H("H3"))


def test_location_tem_uses_trench_rules_and_counting_fortifications(kit):
    """O'Leary 2.5/4.3: deep trench crest +3 (ASLGW 2.1.6) from the trench rules; a hidden
    fortification counts only when the caller says so."""
    s = kit.build(forts=[{"kind": "deep_trench", "hexes": ["C3"]}], hexes={"F5": {"terrain": "woods"}})
    H = Hex.from_label
    assert default_location_tem(s, H("C3"), Position.DEEP_TRENCH_CREST, ()) == 3
    assert default_location_tem(s, H("F5"), Position.GROUND, ()) == 1
    assert default_location_tem(s, H("F5"), Position.PILLBOX, ((FortificationKind.PILLBOX, None),)) == 3


def test_placement_4_2(kit):
    s = kit.build(hexes={"C3": {"terrain": "water"}, "D3": {"terrain": "stone_building"}})
    H = Hex.from_label
    assert not default_placement(s, FortificationKind.WIRE, H("C3"), None)
    assert not default_placement(s, FortificationKind.TRENCH, H("D3"), None)
    assert default_placement(s, FortificationKind.PILLBOX, H("D3"), None)
    assert not default_placement(s, FortificationKind.PILLBOX, H("E3"), frozenset({H("D3")}))
