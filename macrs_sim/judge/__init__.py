"""The influence of strategy-level suggestions (paper §5.3.3, Table 2).

    >>> records = await judge_run(run_dir, client, PromptLibrary())
    >>> print(render_table2_markdown(judge_table(read_judgments(run_dir))))

For every MACRS turn whose chosen act had a strategy-level suggestion, the stored
response (w/) is compared with the same responder's response regenerated from the
same dialogue history and user profile but no suggestion (w/o). An LLM judge
picks the better one on four criteria and overall, in both orders; see
`macrs_sim.judge.schemas` for the rule that combines the orders. Table 2 shows both countings:
both orders combined (one outcome per pair) and single order (each of the two ordered
judgments counted on its own, two per pair), which is what the paper's shares are.
"""

from __future__ import annotations

from macrs_sim.judge.pairs import check_prompts, find_pairs, read_judgments
from macrs_sim.judge.run import judge_pair, judge_run, regenerate
from macrs_sim.judge.schemas import (
    JudgePair,
    JudgeRecord,
    JudgeVerdict,
    combine_choices,
    combine_outcomes,
)
from macrs_sim.judge.scripted import judge_scripted_rules
from macrs_sim.judge.table2 import judge_table, render_table2_markdown

__all__ = [
    "JudgePair",
    "JudgeRecord",
    "JudgeVerdict",
    "check_prompts",
    "combine_choices",
    "combine_outcomes",
    "find_pairs",
    "judge_pair",
    "judge_run",
    "judge_scripted_rules",
    "judge_table",
    "read_judgments",
    "regenerate",
    "render_table2_markdown",
]
