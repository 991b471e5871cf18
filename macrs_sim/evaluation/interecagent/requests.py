"""From a case to the request every system answers: the LLM writes the dialogue (retrieval:
Figure C9, a conversation; ranking: Figure C10, one question), the instruction is appended.

Retrieval: the generated conversation ends with the assistant recommending the target; that
message is dropped (it is what the system under test must produce), and every message left,
the user's and the assistant's, is checked for the target's title (redacted if there: the
paper's rule 4 says the user knows only the information, and an assistant message naming
the target would hand it to the system under test). A generation that fails leaves the
case out for every system.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

from autogen_core.models import ChatCompletionClient

from macrs_sim.data.catalog import Catalog
from macrs_sim.errors import ModelUnavailableError
from macrs_sim.evaluation.interecagent import prompts as pb
from macrs_sim.evaluation.interecagent.schemas import (
    GeneratedConversation,
    OneTurnCase,
    OneTurnRequest,
    Task,
)
from macrs_sim.llm.context import CallContext, calling
from macrs_sim.llm.structured import complete_json, complete_text, describe_error
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
    """Every message (the user's and the generated assistant's: all of it reaches the system
    under test) with the target's title replaced; whether any had it."""
    out, found = [], False
    for u in utterances:
        if guard.leaks(u.text):
            found = True
            u = Utterance(speaker=u.speaker, text=guard.redact(u.text))
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


async def _generate(
    client: ChatCompletionClient,
    prompts: pb.OneTurnPrompts,
    catalog: Catalog,
    case: OneTurnCase,
    task: Task,
    retries: int,
) -> tuple[list[Utterance], bool]:
    """The user's side of the dialogue (redacted where it names the target), and whether it had
    to be. The ranking question names the target on purpose: it is among the candidates."""
    history = pb.titles(catalog, case.history)
    target = catalog[case.target_id]
    if task == "retrieval":
        msgs = pb.retrieval_messages(prompts, history, pb.target_info(target, prompts.domain))
        conv = await complete_json(client, msgs, GeneratedConversation, retries=retries)
        return redact(conversation_utterances(conv), title_guard(target))
    candidates = pb.titles(catalog, case.candidates)
    msgs = pb.ranking_messages(prompts, history, candidates, len(case.candidates))
    question = " ".join((await complete_text(client, msgs)).split())
    return ([Utterance(speaker="user", text=question)] if question else []), False


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
    """The generated dialogue with the instruction; a bad generation is recorded, not raised."""
    ctx = CallContext(role=ROLE_PREFIX + task, dialogue_id=case.case_id, system="generator")
    try:
        with calling(ctx):
            found, redacted = await _generate(client, prompts, catalog, case, task, retries)
    except ModelUnavailableError:
        raise  # the endpoint is gone: every case would fail; stop with its one line
    except Exception as err:  # a schema the model keeps breaking, a fault: this case only
        return OneTurnRequest(case_id=case.case_id, error=describe_error(err))
    if not found:
        error = "the generated dialogue has no user message"
        return OneTurnRequest(case_id=case.case_id, error=error)
    utterances = with_instruction(found, pb.instruction(prompts, k))
    return OneTurnRequest(case_id=case.case_id, utterances=utterances, redacted=redacted)
