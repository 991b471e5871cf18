"""MACRS's autogen-core runtime: `SingleThreadedAgentRuntime` minus the work done for
listeners that are not there.

autogen-core 0.7 builds, for every `send_message`, an f-string of the message's `__dict__`
(a repr of the whole dialogue history), five JSON serialisations of the request and reply
for `MessageEvent`s, and four OpenTelemetry spans with their attributes: about 0.25 ms of
CPU per message even with logging off and no tracer. While nobody listens (the
`autogen_core` and `autogen_core.events` loggers below INFO, no tracer provider set) this
runtime delivers through the same queue, background tasks, agents and typed handlers,
without building any of that; as soon as someone listens, every path is autogen-core's own.

The overridden methods are private to autogen-core; tests/agents/macrs/test_runtime.py
fails loudly if their names or signatures change.
"""

from __future__ import annotations

import logging
import uuid
from asyncio import CancelledError, get_running_loop
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
from autogen_core._single_threaded_agent_runtime import (
    ResponseMessageEnvelope,
    SendMessageEnvelope,
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
        if self._observed():
            return await super().send_message(
                message, recipient, sender=sender,
                cancellation_token=cancellation_token, message_id=message_id,
            )  # fmt: skip
        token = CancellationToken() if cancellation_token is None else cancellation_token
        future = get_running_loop().create_future()
        if recipient.type not in self._known_agent_names:
            raise Exception("Recipient not found")  # autogen-core's own exception and text
        envelope = SendMessageEnvelope(
            message=message, recipient=recipient, future=future, cancellation_token=token,
            sender=sender, message_id=str(uuid.uuid4()) if message_id is None else message_id,
        )  # fmt: skip
        await self._message_queue.put(envelope)
        token.link_future(future)
        return await future

    async def _process_send(self, message_envelope: SendMessageEnvelope) -> None:
        if self._observed():
            return await super()._process_send(message_envelope)
        envelope, recipient = message_envelope, message_envelope.recipient
        if recipient.type not in self._known_agent_names:
            raise LookupError(f"Agent type '{recipient.type}' does not exist.")
        try:
            agent = await self._get_agent(recipient)
            context = MessageContext(
                sender=envelope.sender, topic_id=None, is_rpc=True,
                cancellation_token=envelope.cancellation_token, message_id=envelope.message_id,
            )  # fmt: skip
            with MessageHandlerContext.populate_context(agent.id):
                response = await agent.on_message(envelope.message, ctx=context)
        except CancelledError as e:
            if not envelope.future.cancelled():
                envelope.future.set_exception(e)
            self._message_queue.task_done()
            return
        except BaseException as e:
            envelope.future.set_exception(e)
            self._message_queue.task_done()
            return
        if self._intervention_handlers is None and not envelope.future.cancelled():
            # Nothing can intercept the reply: resolve it here, without a second pass
            # through the queue (autogen-core queues a ResponseMessageEnvelope).
            envelope.future.set_result(response)
        elif self._intervention_handlers is not None:
            reply = ResponseMessageEnvelope(
                message=response, future=envelope.future, sender=recipient,
                recipient=envelope.sender,
            )  # fmt: skip
            await self._message_queue.put(reply)
        self._message_queue.task_done()

    async def _process_response(self, message_envelope: ResponseMessageEnvelope) -> None:
        if self._observed():
            return await super()._process_response(message_envelope)
        if not message_envelope.future.cancelled():
            message_envelope.future.set_result(message_envelope.message)
        self._message_queue.task_done()
