"""Judge a run's strategy-level suggestions (paper §5.3.3): regenerate without S, judge twice.

Everything is read from the run store; each judged pair is written back as a
"judgment" event as soon as it is done, so an interrupted judge resumes where it
stopped. A pair that failed is stored with its error and judged again on the
next run; `read_judgments` keeps the latest record of each pair.
"""

from __future__ import annotations

import asyncio
from collections.abc import Mapping, Sequence
from pathlib import Path

from autogen_core.models import ChatCompletionClient

from macrs_sim.agents.macrs.messages import CandidateReply
from macrs_sim.agents.macrs.schemas import RecommendOutput
from macrs_sim.judge.pairs import (
    check_prompts,
    find_pairs,
    read_judgments,
    store_path,
    with_run_layouts,
)
from macrs_sim.judge.prompts import JUDGE_PROMPT, judge_messages, regenerate_messages
from macrs_sim.judge.schemas import (
    JUDGE_SYSTEM,
    JUDGMENT_EVENT,
    JudgePair,
    JudgeRecord,
    JudgeVerdict,
    combine_choices,
)
from macrs_sim.llm.accounting import AccountingClient, CallLog
from macrs_sim.llm.context import CallContext, calling
from macrs_sim.llm.structured import complete_json, complete_text
from macrs_sim.prompts import PromptLibrary, PromptTemplate
from macrs_sim.protocol import DialogueAct
from macrs_sim.store import RunStore


def _context(pair: JudgePair, role: str) -> CallContext:
    return CallContext(role=role, dialogue_id=pair.dialogue_id, system=JUDGE_SYSTEM, turn=pair.turn)


async def regenerate(
    client: ChatCompletionClient, prompts: PromptLibrary, pair: JudgePair, *, retries: int = 2
) -> CandidateReply:
    """The chosen act's response with the same D_h and U_p and no suggestion (as the roles do)."""
    messages = regenerate_messages(prompts, pair)
    with calling(_context(pair, "judge_regenerate")):
        if pair.act == DialogueAct.RECOMMEND:
            out = await complete_json(client, messages, RecommendOutput, retries=retries)
            return CandidateReply(act=pair.act, text=out.response, item_title=out.item_title)
        return CandidateReply(act=pair.act, text=await complete_text(client, messages))


async def _verdict(
    client: ChatCompletionClient,
    pair: JudgePair,
    template: PromptTemplate,
    a: str,
    b: str,
    retries: int,
) -> JudgeVerdict:
    with calling(_context(pair, "judge")):
        messages = judge_messages(template, pair.history, a, b)
        return await complete_json(client, messages, JudgeVerdict, retries=retries)


def _describe(err: BaseException) -> str:
    first = (str(err).strip().splitlines() or [""])[0]
    return f"{type(err).__name__}: {first}" if first else type(err).__name__


async def judge_pair(
    client: ChatCompletionClient,
    prompts: PromptLibrary,
    pair: JudgePair,
    *,
    regenerate_client: ChatCompletionClient | None = None,
    retries: int = 2,
) -> JudgeRecord:
    """Regenerate, then judge with=A/without=B and without=A/with=B; never raises.

    A failure keeps what was done before it (the counterfactual, the first verdict).
    """
    template = prompts.get(JUDGE_PROMPT)
    done: dict[str, object] = {}
    try:
        without = await regenerate(regenerate_client or client, prompts, pair, retries=retries)
        done.update(without_suggestion=without.text, without_item_title=without.item_title)
        with_text = pair.with_suggestion
        ab = await _verdict(client, pair, template, with_text, without.text, retries)
        done["verdict_ab"] = ab
        ba = await _verdict(client, pair, template, without.text, with_text, retries)
    except Exception as err:  # one bad pair is recorded, the others go on
        return JudgeRecord.from_pair(pair, **done, error=_describe(err))
    outcome = combine_choices(ab.winner, ba.winner)
    return JudgeRecord.from_pair(pair, **done, verdict_ba=ba, outcome=outcome)


def _logs(call_log: CallLog | None, clients: Sequence[ChatCompletionClient]) -> list[CallLog]:
    """Where the calls' records land: the given log, else the accounting clients' own logs."""
    if call_log is not None:
        return [call_log]
    found = {id(c.log): c.log for c in clients if isinstance(c, AccountingClient)}
    return list(found.values())


async def judge_run(
    run_dir: Path,
    client: ChatCompletionClient,
    prompts: PromptLibrary,
    *,
    concurrency: int = 4,
    max_pairs: int | None = None,
    retries: int = 2,
    regenerate_clients: Mapping[str, ChatCompletionClient] | None = None,
    call_log: CallLog | None = None,
) -> list[JudgeRecord]:
    """Judge the run's first `max_pairs` pairs (all if None), skipping those already judged
    without error; returns the records made by this call, in pair order.

    Each counterfactual is regenerated in the prompt layout the run used for its system (the
    store's "prompt_layouts"; `prompts`' own layout for a run that did not record one), and the
    record keeps that layout. `client` judges. `regenerate_clients` maps a system name to the
    client that regenerates its responses (default: `client`): pass each system's own model,
    at the run's temperature, so the counterfactual differs from the stored response only by
    the missing suggestion.
    Call records go to `call_log`, else to the log of any `AccountingClient` given.
    """
    with RunStore.open(store_path(run_dir)) as store:
        meta = store.all_meta()
        pairs = with_run_layouts(find_pairs(store.read_results())[:max_pairs], meta)
        check_prompts(meta, prompts, {p.act for p in pairs})
        prompts.get(JUDGE_PROMPT)  # a missing judge template fails before any call
        done = {r.key for r in read_judgments(store) if r.error is None}
        regenerators = dict(regenerate_clients or {})
        logs = _logs(call_log, [client, *regenerators.values()])
        limit = asyncio.Semaphore(concurrency)

        async def one(pair: JudgePair) -> JudgeRecord:
            async with limit:
                regen = regenerators.get(pair.system, client)
                record = await judge_pair(
                    client, prompts, pair, regenerate_client=regen, retries=retries
                )
            # One event loop owns the store: each record is written the moment it is done.
            store.log_event(JUDGMENT_EVENT, record.model_dump(mode="json"))
            for log in logs:
                store.write_calls(log.pop(pair.dialogue_id))
            return record

        return list(await asyncio.gather(*(one(p) for p in pairs if p.key not in done)))
