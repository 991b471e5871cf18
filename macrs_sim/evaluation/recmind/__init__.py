"""RecMind's offline tasks (paper §4): rating prediction, direct and sequential
recommendation over candidate lists, explanation generation; zero- and few-shot prompts;
any solver behind the `TaskSolver` contract (the plain LLM, the RecMind planners)."""

from macrs_sim.evaluation.recmind.contract import SolverContext, TaskSolver
from macrs_sim.evaluation.recmind.settings import EvalSettings
from macrs_sim.evaluation.recmind.solvers import SOLVERS, DirectSolver

__all__ = ["SOLVERS", "DirectSolver", "EvalSettings", "SolverContext", "TaskSolver"]
