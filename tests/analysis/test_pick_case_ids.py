"""pick_case_ids picks the dialogues pick_case_studies would (Figure 7's rule: the first
sample, sorted, where the systems' last dialogues ended differently; else each system's
first success, else its first dialogue), on random frames with repeats and odd ids."""

from __future__ import annotations

import random

import pandas as pd

from macrs_sim.analysis.report.transcript import pick_case_ids


def _by_the_rule(frame: pd.DataFrame, systems: list[str]) -> list[str]:
    by_sample: dict[str, dict[str, tuple[str, str]]] = {}
    for did, system, sid, status in frame.itertuples(index=False):
        by_sample.setdefault(sid, {})[system] = (did, status)
    for sample_id in sorted(by_sample):
        group = by_sample[sample_id]
        if len(group) > 1 and len({status for _, status in group.values()}) > 1:
            return [group[s][0] for s in systems if s in group]
    picked = []
    for system in systems:
        own = [row for row in frame.itertuples(index=False) if row.system == system]
        success = [row for row in own if row.status == "success"]
        if own:
            picked.append((success or own)[0].dialogue_id)
    return picked


def _frame(rng: random.Random) -> pd.DataFrame:
    rows = []
    for i in range(rng.randrange(1, 30)):
        system = rng.choice(["A", "B", "C (run)"])
        sample = rng.choice(["s-10", "s-9", "s-1", "S-2", "é", "s 3"])
        status = rng.choice(["success", "failure", "error"])
        rows.append((f"{system}:{sample}#{i}", system, sample, status))
    return pd.DataFrame(rows, columns=["dialogue_id", "system", "sample_id", "status"])


def test_random_frames_pick_what_the_rule_picks() -> None:
    rng = random.Random(5)
    for _ in range(400):
        frame, systems = _frame(rng), ["C (run)", "A", "B", "D"]
        assert pick_case_ids(frame, systems) == _by_the_rule(frame, systems)


def test_worked_example() -> None:
    frame = pd.DataFrame(
        [
            ("A:s2", "A", "s2", "success"),
            ("B:s2", "B", "s2", "failure"),
            ("A:s1", "A", "s1", "failure"),
            ("B:s1", "B", "s1", "failure"),
            ("B:s1b", "B", "s1", "success"),
        ],  # fmt: skip
        columns=["dialogue_id", "system", "sample_id", "status"],
    )
    # s1 sorts first; B's last dialogue of s1 succeeded where A's failed.
    assert pick_case_ids(frame, ["B", "A"]) == ["B:s1b", "A:s1"]
