"""Scripted answers for roles recmind_tasks.<task> and recmind_tasks.judge.

They read the question back from the prompt (its layout is the templates' own) and
answer from its content only, so every task runs end to end on the scripted backend with
the same numbers every time: a ranking is the candidates in a seeded hash order; a rating
is the mean of the ratings the question shows (the middle of the scale when it shows
none); an explanation names the item and says it suits the history; the judge rewards
length (quality) and the history titles an explanation names (rationality). The prompts
are read, and the explanation written, in the dataset's domain's words. A summary is the
review's first sentence, cut to 8 words.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Sequence

from pydantic import BaseModel

from macrs_sim.data.domain import MOVIES, Domain
from macrs_sim.evaluation.recmind.judge import JUDGE_ROLE, ExplanationVerdict
from macrs_sim.llm.base import message_text
from macrs_sim.llm.scripted import Rule, ScriptedRequest

_CANDIDATES = re.compile(r"\nCandidates:\n(.*?)\n\n", re.DOTALL)
_TOP_N = re.compile(r"the top (\d+) ")
_SCALE = re.compile(r"one number from (\S+) to (\S+?)\.")
_RATED = re.compile(r"^.+: (\d+(?:\.\d+)?)$", re.MULTILINE)
_HISTORY_LINE = re.compile(r"^- (.+)$", re.MULTILINE)
_EXPLANATION = re.compile(r"\nThe explanation:\n(.*?)\n\nScore ", re.DOTALL)
_ABOUT = re.compile(r"\n\nThe [\w ]+ the explanation")
_REVIEW = re.compile(r"review from user [^\n]*:\n(.*?)\n\nAnswer with the summary only", re.DOTALL)
_SENTENCE_END = re.compile(r"(?<=[.!?])\s")


def _question(req: ScriptedRequest) -> str:
    return message_text(req.messages[-1]) if req.messages else ""


def _hash(*parts: object) -> int:
    return int.from_bytes(hashlib.sha256("|".join(map(str, parts)).encode()).digest()[:8], "big")


def ranking_rule(seed: int) -> Rule:
    def answer(req: ScriptedRequest) -> str:
        text = _question(req)
        found = _CANDIDATES.search(text)
        lines = found.group(1).splitlines() if found else []
        top = _TOP_N.search(text)
        ordered = sorted(lines, key=lambda line: _hash(seed, text, line.split(" ", 1)[0]))
        return "\n".join(ordered[: int(top.group(1)) if top else 10])

    return answer


def rating_rule(req: ScriptedRequest) -> str:
    text = _question(req)
    shown = [float(v) for v in _RATED.findall(text)]
    scale = _SCALE.search(text)
    low, high = (float(scale.group(1)), float(scale.group(2))) if scale else (1.0, 5.0)
    value = sum(shown) / len(shown) if shown else (low + high) / 2
    return f"{round(value * 2) / 2:g}"


def explanation_rule(domain: Domain = MOVIES) -> Rule:
    words = domain.words()
    # "watched the movie X. Explain": the explanation prompt in the domain's words.
    named = re.compile(rf"{words['consumed']} the {re.escape(domain.noun)} (.+?)\. Explain")

    def explain(req: ScriptedRequest) -> str:
        found = named.search(_question(req))
        item = found.group(1) if found else f"this {domain.noun}"
        liked = f"{domain.synonym_plural} you {words['consume_verb']}"
        return f"{item} has the tone and pace of the {liked}; give it a try."

    return explain


def summary_rule(req: ScriptedRequest) -> str:
    """The review's first sentence, at most 8 words, without its full stop."""
    found = _REVIEW.search(_question(req))
    review = found.group(1).strip() if found else ""
    first = _SENTENCE_END.split(review, maxsplit=1)[0].rstrip(".!?")
    return " ".join(first.split()[:8]) or "Fine"


def judge_rule(req: ScriptedRequest) -> BaseModel:
    # The prompt, even when repair turns came after it.
    texts = [message_text(m) for m in req.messages]
    text = next((t for t in texts if _EXPLANATION.search(t)), "")
    found = _EXPLANATION.search(text)
    explanation = found.group(1) if found else ""
    history = _HISTORY_LINE.findall(_ABOUT.split(text, maxsplit=1)[0])
    named = sum(1 for title in history if title in explanation)
    return ExplanationVerdict(
        quality=min(5, 1 + len(explanation.split()) // 8), rationality=min(5, 1 + named)
    )


def task_scripted_rules(
    catalog_titles: Sequence[str] = (), *, seed: int = 0, domain: Domain = MOVIES
) -> dict[str, Rule]:
    """Rules for the task roles (titles unused: the questions carry their candidates)."""
    return {
        "recmind_tasks.rating": rating_rule,
        "recmind_tasks.direct": ranking_rule(seed),
        "recmind_tasks.sequential": ranking_rule(seed),
        "recmind_tasks.explanation": explanation_rule(domain),
        "recmind_tasks.summary": summary_rule,
        JUDGE_ROLE: judge_rule,
    }
