"""One dialogue, exactly as DESIGN.md §2: up to max_turns, then the fallback top-k list."""

from __future__ import annotations

from macrs_sim.agents.base import Recommender
from macrs_sim.config import ProtocolConfig
from macrs_sim.data.grounding import Grounder
from macrs_sim.protocol import (
    DialogueResult,
    DialogueState,
    DialogueStatus,
    Exchange,
    ItemRef,
    Sample,
    SystemTurn,
)
from macrs_sim.simulators.base import UserSimulator


def ground_turn(turn: SystemTurn, grounder: Grounder) -> SystemTurn:
    """Fill in catalog ids (and the match method and score) for every recommended title."""
    if not turn.items:
        return turn
    items = tuple(grounder.ground(item.title) for item in turn.items)
    return turn.model_copy(update={"items": items})


def describe_error(err: BaseException) -> str:
    first = (str(err).strip().splitlines() or [""])[0]
    return f"{type(err).__name__}: {first}" if first else type(err).__name__


async def run_dialogue(
    system: Recommender,
    simulator: UserSimulator,
    grounder: Grounder,
    *,
    dialogue_id: str,
    sample: Sample,
    protocol: ProtocolConfig,
) -> DialogueResult:
    """Never raises for a fault inside the dialogue: it is recorded with its cause instead."""
    opening = await simulator.open()
    state = DialogueState(dialogue_id=dialogue_id, opening=opening, max_turns=protocol.max_turns)
    final: list[ItemRef] = []
    status: DialogueStatus = "failure"
    success_turn: int | None = None
    error: str | None = None
    try:
        while state.turn <= protocol.max_turns:
            turn_no = state.turn
            system_turn = ground_turn(await system.respond(state), grounder)
            user_turn = await simulator.reply(system_turn)
            exchange = Exchange(turn=turn_no, system=system_turn, user=user_turn)
            state = state.model_copy(update={"exchanges": (*state.exchanges, exchange)})
            if user_turn.accepted:
                status, success_turn = "success", turn_no
                break
        if status != "success":
            # Paper §3.1: at turn max_turns + 1 the system gives a top-k list instead.
            final = [
                grounder.ground(i.title)
                for i in await system.final_list(state, protocol.final_list_k)
            ]
    except Exception as err:  # a fault costs this dialogue, never the campaign
        status, error = "error", describe_error(err)
    finally:
        await system.close()
    leaks = sum(ex.user.leak_retries + int(ex.user.redacted) for ex in state.exchanges)
    return DialogueResult(
        dialogue_id=dialogue_id,
        system=system.name,
        sample_id=sample.sample_id,
        target_id=sample.target_id,
        status=status,
        max_turns=protocol.max_turns,
        success_turn=success_turn,
        opening=opening,
        exchanges=state.exchanges,
        final_list=tuple(final),
        error=error,
        leaks=leaks,
    )
