"""A run loaded for its report carries the validity rows its one pass worked out: the same
rows a second pass gives, the warnings' counts beside them, and a dialogue the counts
cannot place left as the error the report's section states."""

from __future__ import annotations

from pathlib import Path

from macrs_sim.analysis.metrics.validity import validity_stats
from macrs_sim.analysis.report.for_report import load_for_report
from macrs_sim.analysis.runs.load import load_run
from macrs_sim.data.catalog import Catalog
from macrs_sim.errors import DataError
from macrs_sim.protocol import DialogueResult, Exchange, Sample, SystemTurn, UserTurn
from macrs_sim.store import RunStore

SAMPLE = Sample(sample_id="s1", user_id="u1", history=(), target_id="m2",
                target_profile=("genre: action", "virtual reality"))  # fmt: skip


def _dialogue(did: str, system: str, target: str = "m2") -> DialogueResult:
    said = "I'm sorry, but I can't assist with that."
    ex = Exchange(turn=1, system=SystemTurn(act="ask", text="What genre?"),
                  user=UserTurn(text=said))  # fmt: skip
    return DialogueResult(dialogue_id=did, system=system, sample_id="s1", target_id=target,
                          status="failure", max_turns=5, opening=UserTurn(text=said),
                          exchanges=(ex,))  # fmt: skip


def _run(path: Path, dialogues: list[DialogueResult]) -> Path:
    with RunStore.create(path / "store.sqlite") as store:
        store.write_samples([SAMPLE])
        for d in dialogues:
            store.write_dialogue(d, [])
    return path


def test_validity_from_the_load_equals_a_second_pass(tmp_path: Path, catalog: Catalog) -> None:
    path = _run(tmp_path, [_dialogue("a:s1", "a"), _dialogue("b:s1", "b")])
    run = load_for_report(path, catalog)
    again = validity_stats(load_run(path).iter_results(), {"s1": SAMPLE}, catalog)
    assert run.validity == again
    assert [s.system for s in again] == ["a", "b", "all"]
    assert run.behaviour is not None
    per_system, overall = run.behaviour
    assert overall["user_refusal"] == (4, 4)  # both openings and both replies decline
    assert per_system["a"]["user_refusal"] == (2, 2)


def test_a_target_not_in_the_catalog_is_kept_as_the_error(tmp_path: Path, catalog: Catalog) -> None:
    path = _run(tmp_path, [_dialogue("a:s1", "a"), _dialogue("b:s1", "b", target="nowhere")])
    run = load_for_report(path, catalog)
    assert isinstance(run.validity, DataError)
    assert str(run.validity) == "dialogue b:s1: target 'nowhere' is not in the catalog"
    assert run.behaviour is None and run.finished == 2  # the load itself went on


def test_without_a_catalog_nothing_is_counted(tmp_path: Path) -> None:
    run = load_for_report(_run(tmp_path, [_dialogue("a:s1", "a")]), None)
    assert run.validity is None and run.behaviour is None
