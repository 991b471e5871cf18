"""Session-wise Hit@k and AT@k (InteRecAgent paper §4.1): hand-counted dialogues, and the CLI
over a hand-made run directory."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest

from macrs_sim.cli import main
from macrs_sim.errors import ConfigError
from macrs_sim.evaluation.interecagent.session import check_ks, session_metrics
from tests.analysis.handmade_runs import Script, make_run, make_sample

# System A: success on turn 1, success on turn 4, a failure, an error.
# System B: success on turn 2, success on turn 5.
DIALOGUES = pd.DataFrame(
    [
        ("A", "success", 1), ("A", "success", 4), ("A", "failure", None), ("A", "error", None),
        ("B", "success", 2), ("B", "success", 5),
    ],
    columns=["system", "status", "success_turn"],
)  # fmt: skip


def test_hit_and_average_turns_by_hand() -> None:
    frame = session_metrics(DIALOGUES, [1, 3, 5])
    assert list(frame.columns) == [
        "system", "dialogues", "errors", "Hit@1", "AT@1", "Hit@3", "AT@3", "Hit@5", "AT@5",
    ]  # fmt: skip
    a, b = frame.to_dict("records")
    assert (a["system"], a["dialogues"], a["errors"]) == ("A", 4, 1)
    # k=1: turn-1 success hits (1 turn); the rest count 2. k=3: same hits; the rest count 4.
    assert (a["Hit@1"], a["AT@1"]) == (0.25, (1 + 2 + 2 + 2) / 4)
    assert (a["Hit@3"], a["AT@3"]) == (0.25, (1 + 4 + 4 + 4) / 4)
    # k=5: the turn-4 success hits too; failure and error count 6.
    assert (a["Hit@5"], a["AT@5"]) == (0.5, (1 + 4 + 6 + 6) / 4)
    assert (b["dialogues"], b["errors"]) == (2, 0)
    assert (b["Hit@1"], b["AT@1"], b["Hit@3"], b["AT@3"]) == (0.0, 2.0, 0.5, (2 + 4) / 2)
    assert (b["Hit@5"], b["AT@5"]) == (1.0, 3.5)


def test_input_frame_is_left_alone_and_columns_are_checked() -> None:
    before = DIALOGUES.copy()
    session_metrics(DIALOGUES, [5])
    pd.testing.assert_frame_equal(DIALOGUES, before)
    with pytest.raises(ValueError, match="success_turn"):
        session_metrics(DIALOGUES.drop(columns=["success_turn"]), [5])
    assert session_metrics(DIALOGUES.iloc[:0], [5]).empty


def test_k_beyond_the_runs_turns_is_refused() -> None:
    assert check_ks([5, 1, 5], 5) == [1, 5]
    with pytest.raises(ConfigError, match=r"stopped after 3 turns, so Hit@k needs k <= 3"):
        check_ks([5], 3)
    with pytest.raises(ConfigError, match="positive integers"):
        check_ks([0], 5)


def _run(
    tmp_path: Path,
    instruction: str | None,
    *,
    memory: bool | None = False,
    simulator: str | None = None,
    items: int | None = None,
) -> Path:
    """A hand-made run; `memory` None leaves long_term_memory out (the option's default: on),
    `simulator` and `items` set simulator.kind and protocol.max_items_per_turn."""
    samples = [make_sample("s-1", "m1"), make_sample("s-2", "m2")]
    scripts = [
        Script("IRA", "s-1", ("R+",)),
        Script("IRA", "s-2", ("A", "R", "R", "R", "R"), final=1),  # the list never counts
        Script("LLM", "s-1", ("A", "R", "R+")),
        Script("LLM", "s-2", (), error=True),
    ]
    ira: dict[str, object] = {"name": "IRA", "kind": "interecagent"}
    if memory is not None:
        ira["long_term_memory"] = memory
    systems: list[dict[str, object]] = [ira, {"name": "LLM", "kind": "single_llm"}]
    run = make_run(tmp_path, "sess", systems, samples, scripts)
    section = [f'kind = "{simulator}"'] if simulator else []
    section += [f'instruction = "{instruction}"'] if instruction else []
    with (run / "scenario.resolved.toml").open("a") as f:
        if section:
            f.write("[simulator]\n" + "\n".join(section) + "\n")
        if items is not None:
            f.write(f"[protocol]\nmax_items_per_turn = {items}\n")
    return run


def _out(capsys: pytest.CaptureFixture[str], run: Path) -> list[str]:
    assert main(["eval", "interecagent", "session", str(run)]) == 0
    return capsys.readouterr().out.splitlines()


def test_cli_prints_the_table(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    run = _run(tmp_path, "interecagent", items=5)
    assert main(["eval", "interecagent", "session", str(run), "--k", "3,1"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "sess: session-wise Hit@k and AT@k (a failure counts k + 1)"
    assert out[1].split() == ["system", "dialogues", "errors", "Hit@1", "AT@1", "Hit@3", "AT@3"]
    assert out[2].split() == ["IRA", "2", "0", "0.500", "1.500", "0.500", "2.500"]
    assert out[3].split() == ["LLM", "2", "1", "0.000", "2.000", "0.500", "3.500"]
    # No note: the paper's simulator, long-term memory off, the paper's items a turn.
    assert out[4:] == ["max_items_per_turn = 5 (the run's; InteRecAgent's paper)"]


@pytest.mark.parametrize("memory", [True, None])
def test_long_term_memory_is_not_called_session_wise(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], memory: bool | None
) -> None:
    out = _out(capsys, _run(tmp_path, "interecagent", memory=memory, items=5))
    assert out[0] == "sess: Hit@k and AT@k (a failure counts k + 1)"
    assert out[4:] == [
        "note: not session-wise: 'IRA' (InteRecAgent, long_term_memory = true) started each"
        " dialogue with the user's interactions before the target; the paper's session-wise"
        " protocol has InteRecAgent's long-term memory off (scenarios/interecagent_session.toml)",
        "max_items_per_turn = 5 (the run's; InteRecAgent's paper)",
    ]


def test_a_kind_that_always_gets_the_past_is_named(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    run = _run(tmp_path, "interecagent", items=5)  # IRA's long-term memory off
    with (run / "scenario.resolved.toml").open("a") as f:
        f.write('[[systems]]\nname = "SASRec"\nkind = "sasrec"\n')  # ranks from the history
    out = _out(capsys, run)
    assert out[0] == "sess: Hit@k and AT@k (a failure counts k + 1)"
    assert out[4].startswith(
        "note: not session-wise: 'SASRec' (sasrec: always) started each dialogue with the"
        " user's interactions before the target;"
    )


def test_cli_notes_another_simulator(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = _out(capsys, _run(tmp_path, None))
    assert out[0] == "sess: session-wise Hit@k and AT@k (a failure counts k + 1)"
    assert out[4:] == [
        "note: this run's simulated users followed the 'macrs' instruction; the paper's"
        " protocol is simulator.instruction = 'interecagent' (scenarios/interecagent_session.toml)",
        "max_items_per_turn: not recorded (a run made before the limit existed)",
    ]


def test_an_agenda_simulator_gets_no_instruction_note(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = _out(capsys, _run(tmp_path, "interecagent", simulator="agenda", items=1))
    assert out[4:] == [
        "note: this run's simulated users were the 'agenda' simulator (simulator.kind ="
        " 'agenda'), not an LLM user: they follow no instruction; the paper's protocol is an"
        " LLM user with simulator.instruction = 'interecagent'"
        " (scenarios/interecagent_session.toml)",
        "max_items_per_turn = 1 (the run's; InteRecAgent's paper shows 5: give `eval"
        " interecagent session` the scenario file to run it so)",
    ]
    out = _out(capsys, _run(tmp_path / "llm", "interecagent", simulator="llm", items=5))
    assert out[4:] == ["max_items_per_turn = 5 (the run's; InteRecAgent's paper)"]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--k", "6"], "error: --k 6: the run's dialogues stopped after 5 turns"),
        (["--k", "x"], "error: --k 'x': expected positive integers like 1,3,5"),
    ],
)
def test_cli_bad_k_is_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], args: list[str], message: str
) -> None:
    assert main(["eval", "interecagent", "session", str(_run(tmp_path, None)), *args]) == 2
    err = capsys.readouterr().err
    assert err.startswith(message) and err.count("\n") == 1


def test_cli_not_a_run(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["eval", "interecagent", "session", str(tmp_path)]) == 2
    assert capsys.readouterr().err == f"error: {tmp_path}: not a run directory (no store.sqlite)\n"
