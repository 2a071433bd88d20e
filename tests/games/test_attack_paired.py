"""benchmarks/attack_paired.py (issue 27 item 12): the paired figures depend on the seeds only,
so ``--jobs 1`` and ``--jobs 2`` give the same (CONTRACTS 6: batch figures independent of jobs)."""

from __future__ import annotations

from benchmarks import attack_paired as AP


def test_combined_arms_paired_figures_are_the_same_on_one_process_and_two():
    """Seeds 2-3: a light board (seed 2, 9 counters: both policies played) and a heavy one."""
    one = AP.combined_arms(2, 2, jobs=1)
    two = AP.combined_arms(2, 2, jobs=2)
    assert one == two and one["light_boards"] == 1


def test_the_commander_paired_figures_are_the_same_on_one_process_and_two():
    """``--policy commander`` is played on every board (seeds 2-3, a light and a heavy one)."""
    one = AP.combined_arms(2, 2, jobs=1, policy="commander")
    two = AP.combined_arms(2, 2, jobs=2, policy="commander")
    assert one == two and one["games"] == 2


def test_a_third_policy_is_paired_too_and_the_same_on_one_process_and_two():
    """``--against commander``: the new policy paired against the raid and against the commander
    on the same boards (seeds 2-3), the same figures on one process and two."""
    one = AP.combined_arms(2, 2, jobs=1, policy="breakthrough", also="commander")
    two = AP.combined_arms(2, 2, jobs=2, policy="breakthrough", also="commander")
    assert one == two and "also_difference" in one and one["also_wins"] <= 2


def test_on_patrol_paired_figures_are_the_same_on_one_process_and_two():
    one = AP.on_patrol(2, jobs=1, names=["hunter-group"])
    two = AP.on_patrol(2, jobs=2, names=["hunter-group"])
    assert one == two and one[0]["games"] == 2


def test_the_paired_difference_is_the_mean_of_the_differences_board_by_board():
    """A win on 1 board of 4 by the new policy alone: +25 points, its interval about it."""
    m, lo, hi = AP.paired([0, 0, 1, 0], [1, 0, 1, 0])
    assert m == 0.25 and lo < m < hi
