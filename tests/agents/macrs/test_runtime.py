"""QuietRuntime: autogen-core's runtime without the per-message logs, events and spans that
nobody receives; typed messages as before, and every log and event back once someone listens.

It overrides private methods of autogen-core's SingleThreadedAgentRuntime: the first tests
fail loudly when an autogen-core upgrade renames or reshapes them."""

from __future__ import annotations

import asyncio
import inspect
import json
import logging
from collections.abc import Iterator
from typing import Any

import pytest
from autogen_core import (
    EVENT_LOGGER_NAME,
    ROOT_LOGGER_NAME,
    AgentId,
    CancellationToken,
    MessageContext,
    RoutedAgent,
    SingleThreadedAgentRuntime,
    message_handler,
    try_get_known_serializers_for_type,
)
from autogen_core.logging import DeliveryStage, MessageEvent, MessageKind
from opentelemetry.trace import NoOpTracerProvider, TracerProvider

from macrs_sim.agents.macrs.messages import CandidateReply, RespondRequest
from macrs_sim.agents.macrs.runtime import QuietRuntime
from macrs_sim.agents.macrs.schemas import UserProfile
from macrs_sim.agents.macrs.system import MACRSRecommender
from macrs_sim.llm.scripted import ScriptedChatCompletionClient
from macrs_sim.prompts import PromptLibrary
from macrs_sim.protocol import DialogueState, UserTurn, Utterance

OVERRIDDEN = ("_try_serialize", "_create_otel_attributes", "send_message")
REQUEST = RespondRequest(
    turn=2,
    dialogue_history=[Utterance(speaker="user", text='a "heist" film ✓ ')],
    profile=UserProfile(),
    suggestion="ask about the decade",
)


class Echo(RoutedAgent):
    def __init__(self) -> None:
        super().__init__("echo")
        self.seen: list[RespondRequest] = []
        self.contexts: list[MessageContext] = []
        self.tasks: list[asyncio.Task[Any] | None] = []

    @message_handler
    async def on_respond(self, message: RespondRequest, ctx: MessageContext) -> CandidateReply:
        self.seen.append(message)
        self.contexts.append(ctx)
        self.tasks.append(asyncio.current_task())
        if message.suggestion == "wait":
            await asyncio.sleep(60)
        if message.suggestion == "fail":
            raise KeyError("no such act")
        return CandidateReply(act="ask", text=f"turn {message.turn}")


async def started(runtime: SingleThreadedAgentRuntime) -> SingleThreadedAgentRuntime:
    await runtime.register_factory("echo", Echo)
    for kind in (RespondRequest, CandidateReply):  # else events say "could not be serialized"
        runtime.add_message_serializer(try_get_known_serializers_for_type(kind))
    runtime.start()
    return runtime


class Spy:
    """Counts calls to SingleThreadedAgentRuntime's own `name` (the work skipped)."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch, name: str) -> None:
        self.calls = 0
        original = getattr(SingleThreadedAgentRuntime, name)

        def counted(*args: Any, **kwargs: Any) -> Any:
            self.calls += 1
            return original(*args, **kwargs)

        monkeypatch.setattr(SingleThreadedAgentRuntime, name, counted)


@pytest.fixture
def records(request: pytest.FixtureRequest) -> Iterator[list[logging.LogRecord]]:
    """INFO records of the autogen-core logger named by the test's parameter, switched on
    for the test (the `autogen_core` root, or only its events)."""
    kept: list[logging.LogRecord] = []

    class Keep(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            kept.append(record)

    logger, handler = logging.getLogger(request.param), Keep()
    old_level = logger.level
    logger.setLevel(logging.INFO)
    logger.addHandler(handler)
    try:
        yield kept
    finally:
        logger.removeHandler(handler)
        logger.setLevel(old_level)


def test_the_overridden_autogen_core_methods_still_exist_with_the_same_parameters() -> None:
    for name in OVERRIDDEN:
        base = getattr(SingleThreadedAgentRuntime, name, None)
        assert base is not None, f"autogen-core has no SingleThreadedAgentRuntime.{name}"
        ours = inspect.signature(getattr(QuietRuntime, name))
        assert list(ours.parameters) == list(inspect.signature(base).parameters), name
        assert getattr(QuietRuntime, name) is not base  # the override is in place
    runtime = SingleThreadedAgentRuntime()
    for attr in ("_agent_factories", "_intervention_handlers", "_tracer_helper", "_run_context"):
        assert attr in runtime.__dict__, f"autogen-core's runtime has no {attr}"
    assert isinstance(runtime._agent_factories, dict)
    assert list(inspect.signature(runtime._get_agent).parameters) == ["agent_id"]
    assert hasattr(runtime._tracer_helper, "tracer_provider")


async def test_typed_messages_go_through_without_serialising_or_logging(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    serialised, attributes = (Spy(monkeypatch, "_try_serialize"),
                              Spy(monkeypatch, "_create_otel_attributes"))  # fmt: skip
    runtime = await started(QuietRuntime())
    reply = await runtime.send_message(REQUEST, AgentId("echo", "d1"))
    agent = await runtime.try_get_underlying_agent_instance(AgentId("echo", "d1"), Echo)
    await runtime.stop()
    assert reply == CandidateReply(act="ask", text="turn 2")
    assert agent.seen == [REQUEST] and agent.seen[0] is REQUEST  # the object itself
    assert agent.tasks == [asyncio.current_task()]  # called directly, not via the queue
    (ctx,) = agent.contexts
    assert (ctx.sender, ctx.topic_id, ctx.is_rpc) == (None, None, True)
    assert ctx.message_id.startswith("quiet-") and not ctx.cancellation_token.is_cancelled()
    assert (serialised.calls, attributes.calls) == (0, 0)


async def test_quiet_message_ids_are_unique_across_runtimes_and_a_given_id_is_kept() -> None:
    first, second = await started(QuietRuntime()), await started(QuietRuntime())
    for runtime in (first, second, first, second):
        for key in ("d1", "d2"):  # two agents of each runtime
            await runtime.send_message(REQUEST, AgentId("echo", key))
    await first.send_message(REQUEST, AgentId("echo", "d1"), message_id="mine")
    ids = []
    for runtime in (first, second):
        for key in ("d1", "d2"):
            agent = await runtime.try_get_underlying_agent_instance(AgentId("echo", key), Echo)
            ids += [ctx.message_id for ctx in agent.contexts]
        await runtime.stop()
    assert len(ids) == 9 and ids.count("mine") == 1
    drawn = [i for i in ids if i != "mine"]
    assert len(set(drawn)) == 8 and all(i.startswith("quiet-") for i in drawn)
    # consecutive draws from one process-wide counter (a counter per runtime would repeat)
    numbers = [int(i.removeprefix("quiet-")) for i in drawn]
    assert sorted(numbers) == list(range(min(numbers), min(numbers) + 8))


async def test_a_handler_error_reaches_the_sender_as_with_autogen_core() -> None:
    failing = REQUEST.model_copy(update={"suggestion": "fail"})
    for runtime in (await started(QuietRuntime()), await started(SingleThreadedAgentRuntime())):
        with pytest.raises(KeyError, match="no such act"):
            await runtime.send_message(failing, AgentId("echo", "d1"))
        with pytest.raises(Exception, match="^Recipient not found$"):
            await runtime.send_message(REQUEST, AgentId("nobody", "d1"))
        await runtime.stop()


async def test_a_sender_s_cancellation_token_cancels_the_send_as_with_autogen_core() -> None:
    waiting = REQUEST.model_copy(update={"suggestion": "wait"})
    for runtime in (await started(QuietRuntime()), await started(SingleThreadedAgentRuntime())):
        token = CancellationToken()
        send = asyncio.ensure_future(
            runtime.send_message(waiting, AgentId("echo", "d1"), cancellation_token=token)
        )
        await asyncio.sleep(0.05)
        token.cancel()
        with pytest.raises(asyncio.CancelledError):
            await send
        agent = await runtime.try_get_underlying_agent_instance(AgentId("echo", "d1"), Echo)
        assert agent.contexts[0].cancellation_token is token
        assert agent.tasks[0] is not asyncio.current_task()  # autogen-core's queue
        await runtime.stop()


def logged(records: list[logging.LogRecord]) -> list[tuple[str, str]]:
    return [(r.name, str(r.msg)) for r in records]


@pytest.mark.parametrize("records", [ROOT_LOGGER_NAME, EVENT_LOGGER_NAME], indirect=True)
async def test_with_a_logger_on_every_record_is_autogen_core_s(
    records: list[logging.LogRecord],
) -> None:
    logs: dict[str, list[tuple[str, str]]] = {}
    for name, runtime in (("quiet", QuietRuntime()), ("autogen", SingleThreadedAgentRuntime())):
        await started(runtime)
        await runtime.send_message(REQUEST, AgentId("echo", "d1"))
        await runtime.stop()
        logs[name] = logged(records)
        events = [r.msg for r in records if isinstance(r.msg, MessageEvent)]
        records.clear()
    assert logs["quiet"] == logs["autogen"]
    assert [(e.kwargs["kind"], e.kwargs["delivery_stage"]) for e in events] == [
        (str(MessageKind.DIRECT), str(DeliveryStage.SEND)),
        (str(MessageKind.DIRECT), str(DeliveryStage.DELIVER)),
        (str(MessageKind.RESPOND), str(DeliveryStage.SEND)),
        (str(MessageKind.RESPOND), str(DeliveryStage.DELIVER)),
    ]
    assert json.loads(events[0].kwargs["payload"])["suggestion"] == "ask about the decade"
    assert json.loads(events[2].kwargs["payload"]) == {
        "act": "ask", "text": "turn 2", "item_title": None,
    }  # fmt: skip
    said = [m for n, m in logs["quiet"] if n == ROOT_LOGGER_NAME]
    if said:  # the root logger on: its f-strings too
        assert said[0].startswith("Sending message of type RespondRequest to echo: {'turn': 2,")


async def test_a_tracer_provider_takes_autogen_core_s_own_path(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    assert not QuietRuntime()._tracing  # no global provider set: the proxy, silent
    assert not QuietRuntime(tracer_provider=NoOpTracerProvider())._tracing
    live = QuietRuntime(tracer_provider=_LiveProvider())
    assert live._tracing
    attributes = Spy(monkeypatch, "_create_otel_attributes")
    await started(live)
    reply = await live.send_message(REQUEST, AgentId("echo", "d1"))
    await live.stop()
    assert reply == CandidateReply(act="ask", text="turn 2")
    assert attributes.calls == 2  # autogen-core's: "process" and "ack" spans


class _LiveProvider(TracerProvider):
    """A provider someone installed: its tracer hands out no-op spans, but it is not silent."""

    def get_tracer(self, *args: Any, **kwargs: Any) -> Any:
        return NoOpTracerProvider().get_tracer("test")


async def test_intervention_handlers_still_see_the_reply() -> None:
    class Swap:
        async def on_send(self, message: Any, *, message_context: Any, recipient: Any) -> Any:
            return message

        async def on_publish(self, message: Any, *, message_context: Any) -> Any:
            return message

        async def on_response(self, message: Any, *, sender: Any, recipient: Any) -> Any:
            return message.model_copy(update={"text": "swapped"})

    runtime = await started(QuietRuntime(intervention_handlers=[Swap()]))
    reply = await runtime.send_message(REQUEST, AgentId("echo", "d1"))
    await runtime.stop()
    assert reply == CandidateReply(act="ask", text="swapped")


async def test_macrs_runs_its_roles_on_a_quiet_runtime() -> None:
    profile = UserProfile(browsing_history=["Heat (1995)"])
    client = ScriptedChatCompletionClient({"macrs.info_reflector": lambda r: profile})
    system = MACRSRecommender("MACRS", client, PromptLibrary(), dialogue_id="d-1")
    state = DialogueState(dialogue_id="d-1", opening=UserTurn(text="Hi "))
    await system._reflect(state)
    assert isinstance(system._runtime, QuietRuntime)
    assert system.memory.profile == profile
    recipient = system._agent_ids["info_reflector"]
    await system._reflect(state)  # the recipient's id is made once per role and dialogue
    assert system._agent_ids == {"info_reflector": AgentId("info_reflector", "d-1")}
    assert system._agent_ids["info_reflector"] is recipient
    await system.close()
