"""ASLGW 1.8 trench armour: +1 CC DRM against armoured infantry, -1 MF and
-1 PP for squads wearing it."""

from __future__ import annotations

import re

import pytest

from gwasl.model.hexgrid import Hex
from gwasl.model.scenario import Unit, UnitKind
from gwasl.model.terrain import TableError, load_resource
from gwasl.rules import armour as a
from testsupport import source_text


def unit(kind="squad", armour=True):
    return Unit("u", "de", UnitKind(kind), Hex(0, 0), trench_armour=armour)


def test_numbers_from_the_text_aslgw_1_8():
    r = a.armour_rule()
    assert (r.cc_drm, r.mf_change, r.pp_change) == (1, -1, -1)


SEED = source_text("seeds/004_4371414167e1669c.txt")


@pytest.mark.skipif(not SEED.exists(), reason="ASLGW source text not on this machine")
def test_numbers_against_the_source_text_aslgw_1_8():
    """ASLGW 1.8 re-read from the text: '+1 CC DRM', 'loose 1 MF and 1PP'."""
    text = SEED.read_text(encoding="utf-8")
    sec = text[text.index("### 1.8 Trench armor"): text.index("### 1.9 Chemical warfare")]
    drm = int(re.search(r"suffer a \+(\d) CC DRM", sec).group(1))
    mf, pp = (int(x) for x in re.search(r"loose (\d) MF and (\d) ?PP", sec).groups())
    r = a.armour_rule()
    assert (r.cc_drm, r.mf_change, r.pp_change) == (drm, -mf, -pp)


def test_cc_drm_against_armoured_infantry_aslgw_1_8():
    m = a.armour_cc_modifier([unit(armour=False), unit()])
    assert m.value == 1 and "ASLGW 1.8" in m.cause
    assert a.armour_cc_modifier([unit(armour=False)]) is None


def test_mf_and_pp_of_squads_in_armour_aslgw_1_8():
    assert (a.armoured_mf(4, unit()), a.armoured_pp(3, unit())) == (3, 2)
    assert (a.armoured_mf(4, unit(armour=False)), a.armoured_pp(3, unit(armour=False))) == (4, 3)
    assert a.armoured_pp(1, unit("half_squad")) == 0 and a.armoured_pp(0, unit("half_squad")) == 0
    assert a.armoured_mf(6, unit("leader")) == 6  # the text names squads


def test_malformed_armour_table():
    doc = load_resource("combat.json")
    doc["trench_armour"]["pp_change"] = "one"
    with pytest.raises(TableError, match=r"trench_armour\.pp_change"):
        a.parse_armour(doc)
