"""From a case to the request every system answers: the LLM writes the dialogue (retrieval:
Figure C9, a conversation; ranking: Figure C10, one question), the instruction is appended.

Retrieval: the generated conversation ends with the assistant recommending the target; that
message is dropped (it is what the system under test must produce), and the user messages
are checked for the target's title (redacted if there: the paper's rule 4 says the user
knows only the information). A generation that fails leaves the case out for every system.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

from autogen_core.models import ChatCompletionClient

from macrs_sim.data.catalog import Catalog
from macrs_sim.errors import StructuredOutputError
from macrs_sim.evaluation.interecagent import prompts as pb
from macrs_sim.evaluation.interecagent.schemas import (
    GeneratedConversation,
    OneTurnCase,
    OneTurnRequest,
    Task,
)
from macrs_sim.llm.context import CallContext, calling
from macrs_sim.llm.structured import complete_json, complete_text
from macrs_sim.protocol import DialogueState, Exchange, SystemTurn, UserTurn, Utterance
from macrs_sim.simulators.leak_guard import LeakGuard
from macrs_sim.simulators.target_profile import title_guard

USER_ROLES = frozenset({"user", "human", "seeker"})
ROLE_PREFIX = "interecagent.one_turn_"


def conversation_utterances(conv: GeneratedConversation) -> list[Utterance]:
    """The dialogue before the recommendation: leading and trailing assistant messages
    dropped, empty messages skipped, consecutive messages of one speaker joined."""
    out: list[Utterance] = []
    for msg in conv.messages:
        speaker: Literal["user", "system"] = (
            "user" if msg.role.strip().lower() in USER_ROLES else "system"
        )
        text = " ".join(msg.text.split())
        if not text or (speaker == "system" and not out):
            continue
        if out and out[-1].speaker == speaker:
            out[-1] = Utterance(speaker=speaker, text=f"{out[-1].text} {text}")
        else:
            out.append(Utterance(speaker=speaker, text=text))
    while out and out[-1].speaker == "system":
        out.pop()
    return out


def redact(utterances: Sequence[Utterance], guard: LeakGuard) -> tuple[list[Utterance], bool]:
    """User messages with the target's title replaced; whether any had it."""
    out, found = [], False
    for u in utterances:
        if u.speaker == "user" and guard.leaks(u.text):
            found = True
            u = Utterance(speaker="user", text=guard.redact(u.text))
        out.append(u)
    return out, found


def with_instruction(utterances: Sequence[Utterance], sentence: str) -> tuple[Utterance, ...]:
    *before, last = utterances
    return (*before, Utterance(speaker="user", text=f"{last.text} {sentence}"))


def dialogue_state(case_id: str, utterances: Sequence[Utterance]) -> DialogueState:
    """User first, then (system, user) pairs: the state a system's `respond` takes."""
    first, rest = utterances[0], utterances[1:]
    exchanges = tuple(
        Exchange(turn=n, system=SystemTurn(act="chat", text=s.text), user=UserTurn(text=u.text))
        for n, (s, u) in enumerate(zip(rest[0::2], rest[1::2], strict=True), start=1)
    )
    return DialogueState(
        dialogue_id=case_id, opening=UserTurn(text=first.text), exchanges=exchanges,
        max_turns=len(exchanges) + 1,
    )  # fmt: skip


async def generate_request(
    client: ChatCompletionClient,
    prompts: pb.OneTurnPrompts,
    catalog: Catalog,
    case: OneTurnCase,
    task: Task,
    *,
    k: int,
    retries: int = 2,
) -> OneTurnRequest:
    """The generated dialogue with the instruction; never raises for a bad generation."""
    history = pb.titles(catalog, case.history)
    ctx = CallContext(role=ROLE_PREFIX + task, dialogue_id=case.case_id, system="generator")
    try:
        with calling(ctx):
            if task == "retrieval":
                msgs = pb.retrieval_messages(
                    prompts, history, pb.target_info(catalog[case.target_id])
                )
                conv = await complete_json(client, msgs, GeneratedConversation, retries=retries)
                found, redacted = redact(
                    conversation_utterances(conv), title_guard(catalog[case.target_id])
                )
            else:
                candidates = pb.titles(catalog, case.candidates)
                msgs = pb.ranking_messages(prompts, history, candidates, len(case.candidates))
                question = " ".join((await complete_text(client, msgs)).split())
                found, redacted = [Utterance(speaker="user", text=question)], False
    except StructuredOutputError as err:
        return OneTurnRequest(case_id=case.case_id, error=str(err))
    if not found:
        return OneTurnRequest(
            case_id=case.case_id, error="the generated dialogue has no user message"
        )
    utterances = with_instruction(found, pb.instruction(prompts, k))
    return OneTurnRequest(case_id=case.case_id, utterances=utterances, redacted=redacted)
