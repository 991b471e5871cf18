"""`macrs-sim chat`: a person plays the user against one system of a scenario.

The system is built as in a campaign (`CampaignSetup.build_system`) and wrapped as an
AgentChat agent; the person speaks through an AgentChat `UserProxyAgent`. The session
is saved as a one-dialogue run (see save.py) unless the system never answered.
"""

from __future__ import annotations

import asyncio
import logging
import signal
import threading
import time
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from types import FrameType
from typing import Any

from macrs_sim.agents.registry import registered_specs
from macrs_sim.campaign.setup import CampaignSetup, with_cache_path
from macrs_sim.config import Scenario, SystemEntry, parse_scenario
from macrs_sim.data.domain import Domain
from macrs_sim.errors import ConfigError
from macrs_sim.interactive.agent import RecommenderChatAgent
from macrs_sim.interactive.person import PersonSimulator, ReadReply
from macrs_sim.interactive.person_spec import READ, PersonOptions
from macrs_sim.interactive.render import ChatView
from macrs_sim.interactive.save import (
    absent_cache_paths,
    person_sample,
    remove_created,
    save_session,
)
from macrs_sim.interactive.session import ChatSession, EndReason, SessionEnd, session_result
from macrs_sim.llm.factory import preflight
from macrs_sim.llm.scripted import Rule
from macrs_sim.protocol import DialogueResult, Item, Sample

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class ChatOptions:
    system: str | None = None  # a system name of the scenario; default: its first
    target: str | None = None  # a title: makes the session scored
    output_dir: Path | None = None  # default: the scenario's campaign.output_dir
    session_id: str | None = None  # the recorded sample id; default person-<time>


@dataclass(frozen=True)
class ChatOutcome:
    reason: EndReason
    result: DialogueResult | None
    run_dir: Path | None


def default_chat_scenario() -> Scenario:
    """With no scenario file: the quickstart's systems on the embedded model, demo data."""
    systems = [
        {"name": spec.display_name, "kind": spec.kind}
        for spec in registered_specs()
        if spec.in_default_chat
    ]
    return parse_scenario({"name": "chat", "systems": systems}, "<built-in chat scenario>")


def pick_system(scenario: Scenario, name: str | None) -> SystemEntry:
    if name is None:
        return scenario.systems[0]
    for cfg in scenario.systems:
        if cfg.name == name:
            return cfg
    names = ", ".join(s.name for s in scenario.systems)
    raise ConfigError(f"--system {name!r}: scenario {scenario.name!r} has no such system ({names})")


def chat_scenario(scenario: Scenario, cfg: SystemEntry) -> Scenario:
    """What the run records: the one system talked to, under a name no campaign resumes."""
    return scenario.model_copy(update={"name": f"{scenario.name}-chat", "systems": [cfg]})


def resolve_target(setup: CampaignSetup, title: str) -> Item:
    ref = setup.grounder.ground(title)
    if ref.item_id is None:
        name, extra = _naming(setup.dataset.domain)
        raise ConfigError(
            f"--target {title!r}: no item of dataset {setup.dataset.name!r} has that {name}"
            f" (give it as the catalog spells it, optionally with its {extra})"
        )
    return setup.catalog[ref.item_id]


def _naming(domain: Domain) -> tuple[str, str]:
    """What a mention of the domain's items is and what may come with it (the grounder's
    policy): a title and its year (films, games), or a name and its qualifiers (a brand)."""
    policy = domain.grounding
    if policy.matcher == "titles" or not policy.qualifiers:
        return "title", "year"
    *first, last = [q.replace("_", " ") for q in policy.qualifiers]
    return "name", f"{', '.join(first)} or {last}" if first else last


async def chat(
    scenario: Scenario,
    options: ChatOptions,
    read: ReadReply,
    view: ChatView,
    *,
    scripted_rules: Mapping[str, Rule] | None = None,
) -> ChatOutcome:
    """Run one session and save it; bad options raise ConfigError before anything starts.
    A session that saves nothing (or fails) leaves no response cache it created."""
    cfg = pick_system(scenario, options.system)
    recorded = with_cache_path(chat_scenario(scenario, cfg), options.output_dir)
    created = absent_cache_paths(Path(str(recorded.cache.path)))
    saved = False
    try:
        setup = CampaignSetup.from_scenario(recorded, scripted_rules=scripted_rules)
        outcome = await _session(setup, cfg, options, read, view)
        saved = outcome.run_dir is not None
        return outcome
    finally:
        if not saved:
            remove_created(created)


async def _session(
    setup: CampaignSetup, cfg: SystemEntry, options: ChatOptions, read: ReadReply, view: ChatView
) -> ChatOutcome:
    recorded = setup.scenario
    agent: RecommenderChatAgent | None = None
    try:
        target = resolve_target(setup, options.target) if options.target else None
        model = recorded.system_model(cfg)
        await preflight(model)
        view.welcome(cfg.name, cfg.kind, model.backend, target, recorded.protocol.max_turns)
        sample_id = options.session_id or f"person-{time.strftime('%Y%m%d-%H%M%S')}"
        view.loading(f"loading {cfg.name}…")
        agent = RecommenderChatAgent(
            lambda dialogue_id: setup.build_system(cfg, dialogue_id),
            dialogue_id=f"{cfg.name}:{sample_id}",
            max_turns=recorded.protocol.max_turns,
            grounder=setup.grounder,
            max_items_per_turn=recorded.protocol.max_items_per_turn,
        )
        sample = person_sample(sample_id, "", target.item_id if target else None)
        # The person is a registered simulator kind, built like a campaign's users.
        person = setup.build_simulator(
            sample, agent.dialogue_id, cfg.name, PersonOptions(), **{READ: read}
        )
        assert isinstance(person, PersonSimulator)  # the session reads its target and score
        end = await ChatSession(agent, person, view, recorded.protocol).run()
        return finish(setup, agent, sample, end, view, options.output_dir)
    finally:
        await _close_quietly(agent, setup, view)


def finish(
    setup: CampaignSetup,
    agent: RecommenderChatAgent,
    sample: Sample,
    end: SessionEnd,
    view: ChatView,
    output_dir: Path | None,
) -> ChatOutcome:
    """Show how the session ended and save it as a run (when the system ever spoke)."""
    scenario = setup.scenario
    if agent.state is not None:
        sample = sample.model_copy(update={"opening": agent.state.opening.text})
    scored = bool(sample.target_id)
    result = session_result(agent, sample, end, scenario.protocol.max_turns if scored else None)
    view.ended(end.reason, result)
    if result is None:
        view.nothing_saved()
        return ChatOutcome(end.reason, None, None)
    run_dir = save_session(
        output_dir or Path(scenario.campaign.output_dir),
        scenario,
        sample,
        result,
        setup.log.pop(agent.dialogue_id),
        chat={"scored": scored, "ended_by": end.reason},
        dataset=(setup.dataset.name, setup.dataset.fingerprint),
        tool_calls=setup.tool_log.pop(agent.dialogue_id),
        domain=setup.dataset.domain.name,
    )
    view.saved(run_dir)
    return ChatOutcome(end.reason, result, run_dir)


async def _close_quietly(
    agent: RecommenderChatAgent | None, setup: CampaignSetup, view: ChatView
) -> None:
    """Close the system and the clients; the session is over (and saved) whatever happens."""
    for what, close in (("the system", agent.close if agent else None), ("models", setup.close)):
        if close is None:
            continue
        try:
            await close()
        except asyncio.CancelledError:
            pass  # Ctrl-C cancelled what closing waits for: nothing is left to close
        except Exception as err:
            view.warn(f"closing {what} failed: {err}")


def run_chat(
    scenario: Scenario,
    options: ChatOptions,
    read: ReadReply,
    view: ChatView,
    **kwargs: object,
) -> ChatOutcome | None:
    """`chat` from synchronous code; Ctrl-C ends the session cleanly (None if it came
    before the session started). Ctrl-C raises KeyboardInterrupt wherever the process is,
    so a person at the prompt is interrupted at once (asyncio's own handler would only
    cancel the task, which a blocked read never notices)."""
    box: list[ChatOutcome] = []

    async def main() -> None:
        box.append(await chat(scenario, options, read, view, **kwargs))  # type: ignore[arg-type]

    main_thread = threading.current_thread() is threading.main_thread()
    previous = signal.signal(signal.SIGINT, _interrupt) if main_thread else None
    interrupted: list[bool] = []

    def quiet_after_interrupt(loop: asyncio.AbstractEventLoop, context: dict[str, Any]) -> None:
        # After Ctrl-C the runner cancels what is left; autogen-core's message tasks can fail
        # while being cancelled ("task_done() called too many times"): no traceback for that.
        if interrupted:
            log.debug("after Ctrl-C: %s", context.get("message"))
            return
        loop.default_exception_handler(context)

    runner = asyncio.Runner()
    try:
        runner.get_loop().set_exception_handler(quiet_after_interrupt)
        runner.run(main())
    except KeyboardInterrupt:
        interrupted.append(True)  # the session, cancelled, saved what was said before
    finally:
        runner.close()
        if previous is not None:
            signal.signal(signal.SIGINT, previous)
    return box[0] if box else None


def _interrupt(signum: int, frame: FrameType | None) -> None:
    raise KeyboardInterrupt
