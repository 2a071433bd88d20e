"""gwasl/resources/fog.json: every number checked against O'Leary's text, and load-time validation."""

from __future__ import annotations

import copy
import json

import pytest

from gwasl.model.terrain import RESOURCES, TableError
from gwasl.rules.fog.table import fog_table, parse_fog_table


def test_2_5_shift_table_bands_match_the_text():
    """O'Leary 2.5: <=0 and 1-7 allowed, 8-10 disallowed, 11-12 status lost (the row whose label
    was lost, docs/rules-notes.md), >=13 revealed; <= 0 adds no +1 later."""
    t = fog_table()
    assert [(b.band, b.min, b.max) for b in t.bands] == [
        ("allowed", None, 7), ("disallowed", 8, 10), ("status_lost", 11, 12), ("revealed", 13, None)]
    assert [(b.shift, b.closes_phase, b.status_lost, b.revealed) for b in t.bands] == [
        (True, False, False, False), (False, True, False, False), (False, True, True, False), (False, True, True, True)]
    assert t.free_shift_max == 0 and not t.counts_as_shift(0) and t.counts_as_shift(1)


def test_2_5_drm_and_size_classes_match_the_text():
    """O'Leary 2.5 DRM table: +1 per earlier shift, +1 enemy LOS, -1 both HIP, -1 LV, -2 night,
    -1 emplaced gun; starred: 0 infantry/fortifications/small guns/very small vehicles, +1 normal
    guns/small vehicles, +2 large guns/normal vehicles, +3 large, +4 very large vehicles;
    remark: an extra -1 or -2."""
    t = fog_table()
    d = t.drm
    assert (d["per_previous_shift"], d["enemy_los"], d["both_hip"], d["lv_hindrance"], d["night"], d["emplaced_gun"]) == (1, 1, -1, -1, -2, -1)
    assert (d["balance_drm_min"], d["balance_drm_max"]) == (-2, 0)
    assert dict(t.size_drm) == {"infantry": 0, "fortification": 0, "small_gun": 0, "very_small_vehicle": 0,
                                "normal_gun": 1, "small_vehicle": 1, "large_gun": 2, "normal_vehicle": 2,
                                "large_vehicle": 3, "very_large_vehicle": 4}


def test_allotments_and_third_die_match_the_text():
    """O'Leary 3.1.1 (capacity + 1), 4.1 (one per hidden fortification, one per 3 panji hexsides),
    4.6.1 (one per 3 AP factors, one per AT factor), 6.1/7.1 (1-2, 3-5, 6)."""
    t = fog_table()
    a = t.allotment
    assert (a["dummy_hip_per_hip_squad_capacity"], a["dummy_hip_extra"], a["dummy_hip_per_hidden_fortification"],
            a["panji_hexsides_per_dummy_hip"], a["ap_factors_per_dummy_minefield"], a["at_factors_per_dummy_minefield"]) == (1, 1, 1, 3, 3, 1)
    assert (t.third_die_fixes, t.third_die_not_yet, t.third_die_scatters) == ({1, 2}, {3, 4, 5}, {6})


def _doc():
    return json.loads((RESOURCES / "fog.json").read_text())


@pytest.mark.parametrize("mutate,needle", [
    (lambda d: d["shift_table"]["bands"][1].update(min=9), "disallowed.min"),
    (lambda d: d["shift_table"]["bands"][0].pop("shift"), "bands[0]: missing 'shift'"),
    (lambda d: d["drm"].update(night="two"), "drm.night"),
    (lambda d: d["size_classes"].update(large_vehicle=-3), "size_classes.large_vehicle"),
    (lambda d: d["third_die"].update(fixes=[1, 2, 3]), "third_die"),
    (lambda d: d["vehicle_size_classes"].append("tank"), "'tank'"),
    (lambda d: d["allotment"].update(ap_factors_per_dummy_minefield=0), "ap_factors_per_dummy_minefield"),
])
def test_malformed_table_names_entry_and_field(mutate, needle):
    """O'Leary 2.5 table data: a malformed gwasl/resources/fog.json names the entry and field."""
    d = copy.deepcopy(_doc())
    mutate(d)
    with pytest.raises(TableError) as e:
        parse_fog_table(d)
    assert needle in str(e.value)
