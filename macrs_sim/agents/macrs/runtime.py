"""MACRS's autogen-core runtime: `SingleThreadedAgentRuntime` minus the work done for
listeners that are not there.

For every `send_message`, autogen-core 0.7 formats the request's and the reply's
`__dict__` into log strings (a repr of the whole dialogue history), serialises both for
`MessageEvent`s, opens four OpenTelemetry spans with their attributes, and passes request
and reply through its queue, each in a task of its own: about 0.25 ms of CPU per message,
with logging off and no tracer. While nobody listens (the `autogen_core` and
`autogen_core.events` loggers below INFO, no tracer provider when the runtime is made) and
nothing else needs the queue (no intervention handlers, no cancellation token from the
sender), this runtime calls the recipient's typed handler directly, in the sender's task:
the same agents, the same message objects, the same `MessageContext` and handler context,
the handler's reply or exception. Otherwise, every path is autogen-core's own.

Differences while quiet: a cancelled sender cancels its handler (autogen-core lets it run
on), `stop_when_idle` does not wait for direct sends (MACRS stops with `stop`), and a
message without an id gets "quiet-<n>" from a per-process counter instead of a UUID4
(autogen-core asks only that ids be unique; nothing reads them while quiet, and
`uuid.uuid4` was 1.5-2 % of a campaign's client CPU).
The overrides touch private parts of autogen-core; tests/agents/macrs/test_runtime.py
fails loudly if those change.
"""

from __future__ import annotations

import itertools
import logging
from collections.abc import Mapping
from typing import Any

from autogen_core import (
    EVENT_LOGGER_NAME,
    ROOT_LOGGER_NAME,
    AgentId,
    CancellationToken,
    InterventionHandler,
    MessageContext,
    MessageHandlerContext,
    SingleThreadedAgentRuntime,
)
from opentelemetry.trace import (
    NoOpTracerProvider,
    ProxyTracerProvider,
    TracerProvider,
    get_tracer_provider,
)

_LOGGER = logging.getLogger(ROOT_LOGGER_NAME)
_EVENTS = logging.getLogger(EVENT_LOGGER_NAME)
_SILENT_PROVIDERS = (NoOpTracerProvider, ProxyTracerProvider)
# Ids of quiet sends: unique in the process (every runtime draws from it), never a UUID's
# shape, so they cannot collide with the ids autogen-core's own path makes.
_QUIET_IDS = itertools.count(1)


class QuietRuntime(SingleThreadedAgentRuntime):
    """Skips message logs, events and spans while nothing would receive them."""

    def __init__(
        self,
        *,
        intervention_handlers: list[InterventionHandler] | None = None,
        tracer_provider: TracerProvider | None = None,
        ignore_unhandled_exceptions: bool = True,
    ) -> None:
        super().__init__(
            intervention_handlers=intervention_handlers,
            tracer_provider=tracer_provider,
            ignore_unhandled_exceptions=ignore_unhandled_exceptions,
        )
        provider = self._tracer_helper.tracer_provider
        if isinstance(provider, ProxyTracerProvider):  # follows the global one: set yet?
            provider = get_tracer_provider()
        # Once per runtime (per dialogue in MACRS): a global provider set later applies
        # from the next runtime on, and the check stays off the per-message path.
        self._tracing = not isinstance(provider, _SILENT_PROVIDERS)

    def _observed(self) -> bool:
        """Would a log record, an event or a span be kept? (Loggers are checked per
        message: one can be switched on while the runtime runs.)"""
        info = logging.INFO
        return _LOGGER.isEnabledFor(info) or _EVENTS.isEnabledFor(info) or self._tracing

    def _try_serialize(self, message: Any) -> str:
        if not (self._tracing or _EVENTS.isEnabledFor(logging.INFO)):
            return ""  # only MessageEvent payloads and span attributes use it
        return super()._try_serialize(message)

    async def _create_otel_attributes(
        self,
        sender_agent_id: AgentId | None = None,
        recipient_agent_id: AgentId | None = None,
        message_context: MessageContext | None = None,
        message: Any = None,
    ) -> Mapping[str, str]:
        if not self._tracing:
            return {}
        return await super()._create_otel_attributes(
            sender_agent_id, recipient_agent_id, message_context, message
        )

    async def send_message(
        self,
        message: Any,
        recipient: AgentId,
        *,
        sender: AgentId | None = None,
        cancellation_token: CancellationToken | None = None,
        message_id: str | None = None,
    ) -> Any:
        quiet = not (self._observed() or self._intervention_handlers)
        # A caller's token can cancel the send; autogen-core's queue links it to the reply.
        if not quiet or cancellation_token is not None or self._run_context is None:
            return await super().send_message(
                message, recipient, sender=sender,
                cancellation_token=cancellation_token, message_id=message_id,
            )  # fmt: skip
        if recipient.type not in self._agent_factories:
            raise Exception("Recipient not found")  # autogen-core's own exception and text
        agent = await self._get_agent(recipient)
        context = MessageContext(
            sender=sender, topic_id=None, is_rpc=True, cancellation_token=CancellationToken(),
            message_id=f"quiet-{next(_QUIET_IDS)}" if message_id is None else message_id,
        )  # fmt: skip
        with MessageHandlerContext.populate_context(agent.id):
            return await agent.on_message(message, ctx=context)
