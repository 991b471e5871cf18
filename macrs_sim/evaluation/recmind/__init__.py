"""RecMind's offline tasks (paper §4): rating prediction, direct and sequential
recommendation over candidate lists, explanation generation; zero- and few-shot prompts;
any solver behind the `TaskSolver` contract (the plain LLM, the RecMind planners)."""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from macrs_sim.evaluation.recmind.contract import SolverContext, TaskSolver
    from macrs_sim.evaluation.recmind.settings import EvalSettings
    from macrs_sim.evaluation.recmind.solvers import SOLVERS, DirectSolver

__all__ = ["SOLVERS", "DirectSolver", "EvalSettings", "SolverContext", "TaskSolver"]
# Loaded on first use: importing a submodule (the command line's) runs this file, and the
# contract imports the tools and the model clients.
_HOME = {"SOLVERS": "solvers", "DirectSolver": "solvers", "EvalSettings": "settings",
         "SolverContext": "contract", "TaskSolver": "contract"}  # fmt: skip


def __getattr__(name: str) -> Any:
    if name not in _HOME:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(f"{__name__}.{_HOME[name]}"), name)
