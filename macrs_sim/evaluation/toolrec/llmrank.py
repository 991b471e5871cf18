"""The LLMRank row of `eval toolrec` (paper §4.1.3, Table 2): per sampled user, the ranked
candidates and what parsing the model's answer found (for audit), and their totals."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from macrs_sim.agents.toolrec.llmrank import LLMRank
from macrs_sim.protocol import Record

LLMRANK = "LLMRank"


class LLMRankRecord(Record):
    seed: int
    user_id: str
    target: str
    # The scored list: the parsed ranking, then the candidates it left out (top k).
    final: tuple[str, ...]
    candidates: int = 0
    # Candidates the answer ranked, repeats of one, and numbered lines naming no candidate.
    parsed: int = 0
    duplicates: int = 0
    unknown: tuple[str, ...] = ()
    # How many of `final` the answer left out (filled in the retriever's order).
    filled: int = 0
    # The model endpoint failed after its retries: scored as an empty list.
    error: str | None = None


async def llmrank_user(
    ranker: LLMRank, seed: int, user_id: str, history: Sequence[str], target: str, k: int
) -> LLMRankRecord:
    try:
        result = await ranker.rank(history)
    except Exception as err:  # an outage after the client's retries costs this user only
        return LLMRankRecord(seed=seed, user_id=user_id, target=target, final=(),
                             error=f"{type(err).__name__}: {err}")  # fmt: skip
    final = result.final[:k]
    ranked = result.parsed.items
    return LLMRankRecord(
        seed=seed, user_id=user_id, target=target, final=final,
        candidates=len(result.candidates), parsed=len(ranked),
        duplicates=result.parsed.duplicates, unknown=result.parsed.unknown,
        filled=sum(1 for i in final if i not in ranked),
    )  # fmt: skip


def llmrank_stats(records: Sequence[LLMRankRecord]) -> dict[str, Any]:
    """Totals over users: parsed, duplicate and unknown lines, fill-ins, errors."""
    ok = [r for r in records if r.error is None]
    n = max(len(ok), 1)
    return {
        "users": len(records),
        "errors": len(records) - len(ok),
        "candidates_per_user": sum(r.candidates for r in ok) / n,
        "parsed_per_user": sum(r.parsed for r in ok) / n,
        "duplicates": sum(r.duplicates for r in ok),
        "unknown": sum(len(r.unknown) for r in ok),
        "filled_per_user": sum(r.filled for r in ok) / n,
    }
