"""Run directories with hand-written dialogues, so report numbers can be worked out by hand.

Dialogue script mini-language: a tuple of acts per turn; "R+" = recommend the target
(accepted), "R" = recommend a wrong item, "A" = ask, "C" = chat. `final` = the target's
1-based rank in the fallback list (None: absent). `error` makes an error dialogue.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from macrs_sim.protocol import (
    DialogueResult,
    Exchange,
    ItemRef,
    LLMCallRecord,
    Sample,
    SystemTurn,
    UserTurn,
)
from macrs_sim.store import RunStore

ACTS = {"A": "ask", "C": "chat", "R": "recommend", "R+": "recommend"}


@dataclass(frozen=True)
class Script:
    system: str
    sample: str
    acts: tuple[str, ...]
    final: int | None = None
    error: bool = False


def make_sample(sample_id: str, target: str, bucket: str | None = None) -> Sample:
    return Sample(
        sample_id=sample_id,
        user_id=sample_id[2:],
        history=("m1",),
        target_id=target,
        target_profile=("kw",),
        opening="Hi, a film please.",
        bucket=bucket,
    )


def make_result(script: Script, target: str, max_turns: int = 5) -> DialogueResult:
    exchanges = []
    success_turn = None
    for n, code in enumerate(script.acts, start=1):
        hit = code == "R+"
        items = ()
        if code.startswith("R"):
            ref_id = target if hit else "m9"
            items = (ItemRef(title=f"Film {ref_id}", item_id=ref_id, score=1.0, method="exact"),)
        exchanges.append(
            Exchange(
                turn=n,
                system=SystemTurn(act=ACTS[code], text=f"{ACTS[code]} text {n}", items=items),
                user=UserTurn(text=f"user reply {n}", accepted=hit),
            )
        )
        if hit:
            success_turn = n
    final: tuple[ItemRef, ...] = ()
    if success_turn is None and not script.error:
        ids = ["m9"] * 10
        if script.final is not None:
            ids[script.final - 1] = target
        final = tuple(ItemRef(title=f"Film {i}", item_id=i, method="exact", score=1) for i in ids)
    status = "error" if script.error else ("success" if success_turn else "failure")
    return DialogueResult(
        dialogue_id=f"{script.system}:{script.sample}",
        system=script.system,
        sample_id=script.sample,
        target_id=target,
        status=status,
        max_turns=max_turns,
        success_turn=success_turn,
        opening=UserTurn(text="Hi, a film please."),
        exchanges=tuple(exchanges),
        final_list=final,
        error="RuntimeError: boom" if script.error else None,
    )


def make_run(
    root: Path,
    name: str,
    systems: list[dict[str, object]],
    samples: list[Sample],
    scripts: list[Script],
    *,
    finished: bool = True,
    calls_per_turn: int = 2,
) -> Path:
    """A run directory as the campaign runner leaves it (store + resolved scenario)."""
    run_dir = root / name
    run_dir.mkdir(parents=True)
    lines = [f'name = "{name}"'] + [
        "[[systems]]\n" + "\n".join(f"{k} = {json.dumps(v)}" for k, v in s.items()) for s in systems
    ]
    (run_dir / "scenario.resolved.toml").write_text("\n".join(lines) + "\n")
    targets = {s.sample_id: s.target_id for s in samples}
    with RunStore.create(run_dir / "store.sqlite") as store:
        store.set_meta("scenario_name", name)
        store.set_meta("systems", json.dumps([s["name"] for s in systems]))
        store.set_meta("expected_dialogues", str(len(systems) * len(samples)))
        store.set_meta("status", "finished" if finished else "running")
        store.write_samples(samples)
        for script in scripts:
            result = make_result(script, targets[script.sample])
            calls = [
                LLMCallRecord(
                    dialogue_id=result.dialogue_id,
                    system=script.system,
                    role="planner" if i % 2 else "ask",
                    turn=ex.turn,
                    model="hand",
                    prompt_tokens=100,
                    completion_tokens=10,
                    latency_s=0.5,
                )
                for ex in result.exchanges
                for i in range(calls_per_turn)
            ]
            store.write_dialogue(result, calls)
    return run_dir
