"""`macrs-sim eval interecagent session|requests|one-turn|demos`: InteRecAgent's own protocols
(paper §4.1), the request sets that give every brain the same one-turn requests, and the
generated demonstrations (paper §3.3)."""

from __future__ import annotations

import argparse
from typing import Any

from macrs_sim.evaluation.interecagent.cli_common import MAX_DEMO_COUNT, RANKERS
from macrs_sim.evaluation.interecagent.cli_demos import demos_command
from macrs_sim.evaluation.interecagent.cli_one_turn import one_turn_command
from macrs_sim.evaluation.interecagent.cli_requests import requests_command
from macrs_sim.evaluation.interecagent.cli_session import session_command


def _case_flags(parser: argparse.ArgumentParser) -> None:
    """The flags that choose the cases: the same for `requests` and `one-turn`."""
    parser.add_argument("dataset", help="'demo' or a prepared database")
    parser.add_argument("--task", choices=["retrieval", "ranking"],
                        help="retrieval (Recall@k) or ranking (NDCG@k)")  # fmt: skip
    parser.add_argument("--n", type=int, help="test users drawn (default 100)")
    parser.add_argument("--k", type=int, help="items retrieved (default 5) or candidates (20)")
    parser.add_argument("--seed", type=int, help="draws of users and negatives (default 0)")
    parser.add_argument("--history-len", type=int, help="history items the user has (default 20)")
    parser.add_argument("--concurrency", type=int, default=4, help="cases in flight (default 4)")
    parser.add_argument("--no-progress", action="store_true", help="no progress lines")


def add_interecagent_eval(ev: argparse._SubParsersAction[Any]) -> None:
    """`eval interecagent session`, `requests`, `one-turn` and `demos`."""
    group = ev.add_parser("interecagent", help="InteRecAgent's protocols (its paper, §4.1)")
    sub = group.add_subparsers(dest="interecagent_cmd", required=True)
    session = sub.add_parser("session", help="Hit@k and AT@k of a run's dialogues")
    what = (
        "a run directory, or a scenario file (.toml) to run first with InteRecAgent's items a turn"
    )
    session.add_argument("run", help=what)
    session.add_argument("--k", default="5", help="turn cut-offs, e.g. 5 or 1,3,5 (default 5)")
    session.add_argument("--output-dir", help="where a scenario's run goes (default: its own)")
    session.add_argument("--no-progress", action="store_true", help="no progress bars")
    session.set_defaults(func=session_command)
    requests = sub.add_parser("requests", help="write one-turn requests once, for every brain")
    _case_flags(requests)
    requests.add_argument("--out", required=True, help="the request set's file (JSON lines)")
    requests.add_argument("--generator-model", default="embedded",
                          help="the model that writes them: scripted, embedded (default), or a"
                               " scenario file (its user model)")  # fmt: skip
    requests.set_defaults(func=requests_command)
    one = sub.add_parser("one-turn", help="one-turn retrieval (Recall@k) or ranking (NDCG@k)")
    _case_flags(one)
    what = "a request set (`eval interecagent requests`) whose requests every brain answers"
    one.add_argument("--requests", help=what + " (default: the model under test writes them)")
    one.add_argument("--baselines", default="popularity,sasrec",
                     help="reference rankers on the same cases: random, popularity, itemcf, "
                          "bpr, sasrec, or none")  # fmt: skip
    one.add_argument("--llm-rows", default="llm-only,chat-rec",
                     help="Table 5's LLM rows on the model under test: llm-only (no tools),"
                          " chat-rec (retrieval only), or none")  # fmt: skip
    one.add_argument("--chatrec-ranker", default="conversation",
                     choices=["conversation", *RANKERS],
                     help="what Chat-Rec takes its 20 candidates from: the conversation's text "
                          "(the paper's; default), or a recommender over the user's history "
                          "(a different setting: the row is 'Chat-Rec (history)')")  # fmt: skip
    one.add_argument("--backend", choices=["embedded", "scripted"],
                     help="the model without a scenario (default embedded)")  # fmt: skip
    one.add_argument("--scenario", help="take the model and InteRecAgent's options from it")
    one.add_argument("--out", help="folder for the results (default reports/interecagent-...)")
    one.add_argument("--cache-dir", help="model checkpoints (default: beside the dataset)")
    one.set_defaults(func=one_turn_command)
    _add_demos(sub)


def _add_demos(sub: argparse._SubParsersAction[Any]) -> None:
    demos = sub.add_parser("demos", help="generate demonstrations from the seeds (paper §3.3)")
    demos.add_argument("--out", required=True, help="the demonstration file to write (JSON)")
    demos.add_argument("--count", type=int, default=5,
                       help="requests written at a time: input-first in all, output-first per"
                            f" plan shape (default 5, at most {MAX_DEMO_COUNT})")  # fmt: skip
    demos.add_argument("--mode", choices=["both", "input-first", "output-first"], default="both",
                       help="the paper's strategies (default both)")  # fmt: skip
    demos.add_argument("--backend", choices=["embedded", "scripted"],
                       help="the model without a scenario (default embedded)")  # fmt: skip
    demos.add_argument("--scenario", help="take the model from it (its interecagent system)")
    demos.add_argument("--no-progress", action="store_true", help="no progress lines")
    demos.set_defaults(func=demos_command)
