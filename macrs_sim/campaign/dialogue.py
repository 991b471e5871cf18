"""One dialogue, exactly as DESIGN.md §2: up to max_turns, then the fallback top-k list."""

from __future__ import annotations

from collections.abc import Sequence

from macrs_sim.agents.base import Recommender
from macrs_sim.config import ProtocolConfig
from macrs_sim.data.grounding import ItemGrounder, normalize_title
from macrs_sim.protocol import (
    ITEMS_OVER_LIMIT_KEY,
    REPORTED_ACT_KEY,
    DialogueAct,
    DialogueResult,
    DialogueState,
    DialogueStatus,
    Exchange,
    ItemRef,
    Sample,
    SystemTurn,
    UserTurn,
)
from macrs_sim.simulators.base import UserSimulator

# The act recorded for a turn the system called "recommend" but that showed no item.
EMPTY_RECOMMEND = "empty_recommend"


def ground_turn(turn: SystemTurn, grounder: ItemGrounder) -> SystemTurn:
    """Fill in catalog ids (and the match method and score) for every recommended title."""
    if not turn.items:
        return turn
    items = tuple(grounded(item, grounder) for item in turn.items)
    return turn.model_copy(update={"items": items})


def within_item_limit(turn: SystemTurn, limit: int) -> SystemTurn:
    """The turn showing at most `limit` items (the first ones, as the system ordered them);
    how many were dropped is kept in explain (SystemTurn.items_over_limit). One rule for
    every system: MACRS's recommending act names one item, InteRecAgent shows up to 20."""
    if len(turn.items) <= limit:
        return turn
    explain = {**turn.explain, ITEMS_OVER_LIMIT_KEY: len(turn.items) - limit}
    return turn.model_copy(update={"items": turn.items[:limit], "explain": explain})


def grounded(item: ItemRef, grounder: ItemGrounder) -> ItemRef:
    """A system that grounded its own item (item_id set, e.g. from a tool) is believed."""
    return item if item.item_id is not None else grounder.ground(item.title)


def recorded_act(turn: SystemTurn) -> SystemTurn:
    """The turn with `act` = "recommend" exactly when it shows items.

    A system's own act that differs is kept in explain (SystemTurn.reported_act); a
    "recommend" that shows nothing is recorded as EMPTY_RECOMMEND, never as a recommendation.
    """
    reported = turn.act
    if turn.items:
        act = DialogueAct.RECOMMEND.value
    else:
        act = EMPTY_RECOMMEND if reported == DialogueAct.RECOMMEND else reported
    if act == reported:
        return turn
    explain = {**turn.explain, REPORTED_ACT_KEY: reported}
    return turn.model_copy(update={"act": act, "explain": explain})


def item_key(ref: ItemRef) -> str:
    """What makes two fallback entries the same item: the catalog id, else the title."""
    return f"id:{ref.item_id}" if ref.item_id is not None else f"title:{normalize_title(ref.title)}"


def add_distinct(kept: list[ItemRef], new: Sequence[ItemRef], k: int) -> list[ItemRef]:
    """`kept` plus the items of `new` not seen yet, in order, at most k in all."""
    out, seen = list(kept), {item_key(r) for r in kept}
    for ref in new:
        key = item_key(ref)
        if len(out) < k and key not in seen and ref.title.strip():
            out.append(ref)
            seen.add(key)
    return out


async def fallback_list(
    system: Recommender, state: DialogueState, grounder: ItemGrounder, k: int
) -> list[ItemRef]:
    """Up to k distinct grounded items: one request, and one follow-up for what is missing."""
    first = [grounded(i, grounder) for i in await system.final_list(state, k)]
    kept = add_distinct([], first, k)
    if len(kept) < k:
        more = await system.final_list(state, k - len(kept), given=tuple(kept))
        kept = add_distinct(kept, [grounded(i, grounder) for i in more], k)
    return kept


def describe_error(err: BaseException) -> str:
    first = (str(err).strip().splitlines() or [""])[0]
    return f"{type(err).__name__}: {first}" if first else type(err).__name__


def count_leaks(opening: UserTurn, exchanges: Sequence[Exchange]) -> int:
    turns = (opening, *(ex.user for ex in exchanges))
    return sum(t.leak_retries + int(t.redacted) for t in turns)


async def run_dialogue(
    system: Recommender,
    simulator: UserSimulator,
    grounder: ItemGrounder,
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
            shown = within_item_limit(await system.respond(state), protocol.max_items_per_turn)
            system_turn = recorded_act(ground_turn(shown, grounder))
            user_turn = await simulator.reply(system_turn)
            exchange = Exchange(turn=turn_no, system=system_turn, user=user_turn)
            state = state.model_copy(update={"exchanges": (*state.exchanges, exchange)})
            if user_turn.accepted:
                status, success_turn = "success", turn_no
                break
            if user_turn.ended:  # the user left: a failure, and no list for someone gone
                break
        user_left = bool(state.exchanges) and state.exchanges[-1].user.ended
        if status != "success" and not user_left:
            # Paper §3.1: at turn max_turns + 1 the system gives a top-k list instead.
            final = await fallback_list(system, state, grounder, protocol.final_list_k)
    except Exception as err:  # a fault costs this dialogue, never the campaign
        status, error = "error", describe_error(err)
    finally:
        await system.close()
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
        leaks=count_leaks(opening, state.exchanges),
    )
