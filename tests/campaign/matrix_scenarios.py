"""The backend x system matrix's rows: which systems, the scenario each row runs, and the checks
on what it stored (test_backend_matrix.py).

Every registered LLM system, with the options that make it a different system to drive
(InteRecAgent's `plan_first`, RecMind's planner), appears once in `SYSTEMS`; a test checks
that the registry holds no LLM kind the matrix leaves out. Options that only bound the cost
(training epochs, planner breadth, step limits) are set here and said why.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from macrs_sim.agents.recmind.options import PLANNERS
from macrs_sim.campaign.runner import run_campaign_async
from macrs_sim.config import Scenario, parse_scenario
from macrs_sim.protocol import DialogueResult, LLMCallRecord
from macrs_sim.store import RunStore

# The trained rankers of InteRecAgent and ToolRec, kept tiny: the matrix checks that the
# systems run on every backend, not what their models learn. Checkpoints are cached by
# dataset, split and these parameters, so each is trained once in a cache directory (the
# rows share the data config, hence the split): the module's, and the in-process rows' own
# (embedded_rows.py).
SASREC = {"epochs": "2", "dim": "16", "patience": "1"}


@dataclass(frozen=True)
class MatrixSystem:
    """One column of the matrix: a `[[systems]]` entry, and what it is called in test ids."""

    id: str
    entry: Mapping[str, Any]
    # Bounds for the real-model rows only (CPU llama.cpp at ~40 ms a token): fewer steps,
    # candidates and votes, the same planner and code paths.
    small: Mapping[str, Any] = field(default_factory=dict)
    # The in-process row's user and extra options: where a dedicated real-model test checks
    # more of the same run (tests/campaign/embedded_rows.py), its row runs what it needs.
    embedded_user: str = "agenda"
    embedded_extra: Mapping[str, Any] = field(default_factory=dict)
    embedded_report: bool = False  # the run's report (validity.csv) is read

    @property
    def name(self) -> str:
        return str(self.entry["name"])

    @property
    def kind(self) -> str:
        return str(self.entry["kind"])

    def options(self, *, small: bool = False, embedded: bool = False) -> dict[str, Any]:
        return {
            **self.entry,
            **(self.small if small else {}),
            **(self.embedded_extra if embedded else {}),
        }


def _interecagent(plan_first: bool) -> MatrixSystem:
    return MatrixSystem(
        id=f"interecagent-{'plan_first' if plan_first else 'react'}",
        entry={
            "name": f"InteRecAgent plan_first={plan_first}",
            "kind": "interecagent",
            "plan_first": plan_first,
            # Its default ranker (SASRec without position embedding), trained small.
            "ranker_params": {"position": "false", **SASREC},
            # The 3 closest demonstrations by token overlap: "auto" embeds them with the
            # sentence-transformers model, which the `textmodel` tests cover.
            "demo_retrieval": "tokens",
        },
        # One demonstration and no critic (the critic and its re-plan run in the fast rows):
        # each is a ~1,000-token prompt, ~30 s of CPU llama.cpp.
        small={"n_demonstrations": 1, "reflection": False, "max_react_steps": 2},
        # In-process, plan-first runs its critic, with one re-plan at most (~30 s each):
        # tests/agents/interecagent/test_embedded.py checks the planner -> reply -> critic
        # order on a real model.
        embedded_extra={"reflection": True, "reflection_limit": 1} if plan_first else {},
    )


def _recmind(planner: str) -> MatrixSystem:
    return MatrixSystem(
        id=f"recmind-{planner}",
        entry={"name": f"RecMind {planner}", "kind": "recmind", "planner": planner},
        # One tool step, two candidate states, one vote, two paths: each planner's own loop
        # (sampling, voting, backtracking, inspiring) still runs once.
        small={"max_steps": 1, "tot_breadth": 2, "tot_votes": 1, "si_max_paths": 2},
    )


SYSTEMS: tuple[MatrixSystem, ...] = (
    # In-process with the LLM user: tests/test_embedded_dialogue.py checks the simulated
    # user's calls and the behaviour checks on a real model in the same run.
    MatrixSystem(
        "macrs", {"name": "MACRS", "kind": "macrs"}, embedded_user="llm", embedded_report=True
    ),
    MatrixSystem("single_llm", {"name": "single-LLM", "kind": "single_llm"}),
    _interecagent(plan_first=True),
    _interecagent(plan_first=False),
    *(_recmind(planner) for planner in PLANNERS),
    MatrixSystem(
        "toolrec",
        {
            "name": "ToolRec",
            "kind": "toolrec",
            # The paper's trained attribute tools on the default SASRec backbone, trained small.
            "ranker_params": SASREC,
            "retriever_params": {"tune_epochs": "1", "tune_patience": "1"},
        },
        small={"max_rounds": 2, "history_items": 5},
    ),
)

# Every row draws the same samples (so the same campaign split: trained models are reused).
DATA = {"n_samples": 2, "history_len": 5, "min_history": 2, "seed": 0}


def scenario(
    name: str,
    model: Mapping[str, Any],
    systems: Sequence[Mapping[str, Any]],
    *,
    simulator: str,
    n_samples: int,
    max_turns: int,
    final_list_k: int = 5,
    concurrency: int = 4,
    data: Mapping[str, Any] | None = None,
) -> Scenario:
    return parse_scenario(
        {
            "name": name,
            "model": dict(model),
            "data": {**DATA, "n_samples": n_samples, **(data or {})},
            "simulator": {"kind": simulator},
            "protocol": {"max_turns": max_turns, "final_list_k": final_list_k},
            "campaign": {"concurrency": concurrency},
            # Every call reaches the backend (a cache would answer repeated prompts itself).
            "cache": {"enabled": False},
            "systems": [dict(s) for s in systems],
        }
    )


@dataclass(frozen=True)
class Stored:
    results: list[DialogueResult]
    calls: list[LLMCallRecord]
    wall_s: float
    run_dir: Path

    def calls_of(self, system: str) -> list[LLMCallRecord]:
        return [c for c in self.calls if c.system == system]


async def run_row(sc: Scenario, output_dir: Path, *, report: bool = False) -> Stored:
    """Run the campaign and check what every matrix row must hold: the run finished, every
    (system, sample) dialogue is stored, none is an error, and every system called the model.
    """
    result = await run_campaign_async(sc, output_dir=output_dir, progress=False, report=report)
    with RunStore.open(result.store_path) as store:
        stored = Stored(
            store.read_results(), store.read_calls(), result.wall_s, result.store_path.parent
        )
    expected = len(sc.systems) * sc.data.n_samples
    assert (result.status, result.stored, result.expected) == ("finished", expected, expected)
    per_system = Counter(r.system for r in stored.results)
    assert per_system == {s.name: sc.data.n_samples for s in sc.systems}
    errors = {f"{r.system} / {r.sample_id}": r.error for r in stored.results if r.status == "error"}
    assert not errors, errors
    for r in stored.results:
        assert r.status in ("success", "failure")
        assert 1 <= len(r.exchanges) <= sc.protocol.max_turns
        assert all(ex.system.text.strip() for ex in r.exchanges), r.system
    silent = [s.name for s in sc.systems if not stored.calls_of(s.name)]
    assert not silent, f"systems that never called the model: {silent}"
    return stored
