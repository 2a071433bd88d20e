"""Ids of pieces made in play (CONTRACTS 5): a side's "?" stack numbers depend only on
what that side made, never on a hidden piece another side (or the same side) made."""

from __future__ import annotations

from gwasl.rules.fog.state import FogState
from gwasl.rules.fog.status import gain_concealment

from .conftest import build_scenario


def _state() -> FogState:
    return FogState.from_scenario(build_scenario(units=[
        {"id": "g", "side": "german", "kind": "squad", "class": "first_line", "hex": "C3"},
        {"id": "f", "side": "french", "kind": "squad", "class": "first_line", "hex": "H6", "hidden": "hip"},
    ]))


def test_a_hidden_dummy_hip_does_not_renumber_the_enemys_next_concealed_stack_o_leary_3_3_3():
    """O'Leary 3.3.3 marks a location a HIP shift left empty with a new dummy HIP counter:
    hidden from the German, so the German "?" stack A12.122 makes next gets the same id
    whether or not the French made one (it used to take the next number of one shared counter)."""
    plain = gain_concealment(_state(), ["g"]).state
    st, _ = _state().fresh_id("h", "french")
    after_hidden = gain_concealment(st, ["g"]).state
    assert [s.id for s in plain.stacks] == [s.id for s in after_hidden.stacks]


def test_a_sides_hidden_pieces_do_not_renumber_its_own_concealed_stacks():
    st, _ = _state().fresh_id("h", "german")
    assert gain_concealment(st, ["g"]).state.stacks[-1].id == gain_concealment(_state(), ["g"]).state.stacks[-1].id


def test_ids_made_in_play_never_collide():
    st = _state()
    seen = {s.id for s in st.stacks} | {d.id for d in st.dummy_hip}
    for side in ("german", "french", "german", "french", "french", "neutral"):
        for prefix in ("s", "h"):
            st, new = st.fresh_id(prefix, side)
            assert new not in seen
            seen.add(new)
