"""The base of every tool: typed arguments, a typed result, text for the model, a record.

A tool is an autogen `BaseTool` (function calling: `schema`, `run_json`) and also takes
text from a ReAct loop (`run_text`). Whatever goes wrong comes back as text to the model
and a failed `ToolCallRecord`; nothing is raised to the caller.
"""

from __future__ import annotations

import asyncio
import time
from abc import abstractmethod
from collections.abc import Mapping
from typing import Any, Generic, TypeVar

from autogen_core import CancellationToken
from autogen_core.tools import BaseTool
from pydantic import BaseModel, ValidationError

from macrs_sim.llm.context import current_call
from macrs_sim.protocol import Record, ToolCallRecord
from macrs_sim.tools.args import ToolInputError, first_line, text_to_args, validation_message
from macrs_sim.tools.log import ToolCallLog

ArgsT = TypeVar("ArgsT", bound=BaseModel)
ResultT = TypeVar("ResultT", bound=BaseModel)


class ToolReply(Record, Generic[ResultT]):
    """What a call returns: the typed result for code, `text` for the model."""

    tool: str
    ok: bool = True
    text: str
    data: ResultT | None = None
    error: str | None = None


class RecTool(BaseTool[ArgsT, ToolReply[Any]], Generic[ArgsT, ResultT]):
    def __init__(
        self, args_type: type[ArgsT], name: str, description: str, log: ToolCallLog | None
    ) -> None:
        super().__init__(args_type, ToolReply, name, description)
        self.log = log

    @abstractmethod
    def compute(self, args: ArgsT) -> ResultT:
        """The work; raise `ToolInputError` for a request the model should change."""

    @abstractmethod
    def render(self, result: ResultT) -> str:
        """The result as the text the model reads."""

    async def call(self, args: ArgsT) -> ToolReply[ResultT]:
        """Run with validated arguments; runs in a worker thread so the event loop stays free."""
        start = time.perf_counter()
        try:
            result = await asyncio.to_thread(self.compute, args)
            reply = ToolReply[ResultT](tool=self.name, text=self.render(result), data=result)
        except ToolInputError as err:
            reply = self._error(str(err))
        except Exception as err:  # a tool fault costs this call, never the dialogue
            reply = self._error(f"{type(err).__name__}: {first_line(err)}")
        self._record(args.model_dump(mode="json"), reply, time.perf_counter() - start)
        return reply

    async def call_raw(self, raw: Mapping[str, Any] | str) -> ToolReply[ResultT]:
        """Run with unvalidated input (a JSON mapping or ReAct text); bad input is a reply too."""
        start = time.perf_counter()
        try:
            args = self._args_type.model_validate(text_to_args(raw, self._args_type))
        except ToolInputError as err:
            return self._failed_input(raw, str(err), start)
        except ValidationError as err:
            return self._failed_input(raw, validation_message(err), start)
        return await self.call(args)

    async def run(self, args: ArgsT, cancellation_token: CancellationToken) -> ToolReply[Any]:
        return await self.call(args)

    async def run_json(
        self,
        args: Mapping[str, Any],
        cancellation_token: CancellationToken,
        call_id: str | None = None,
    ) -> ToolReply[Any]:
        return await self.call_raw(args)

    async def run_text(self, raw: Mapping[str, Any] | str) -> str:
        """The ReAct path: "tool[arg]"'s arg (plain text or JSON) in, text out."""
        return (await self.call_raw(raw)).text

    def return_value_as_string(self, value: Any) -> str:
        if isinstance(value, ToolReply):
            return value.text
        return super().return_value_as_string(value)

    def _error(self, message: str) -> ToolReply[ResultT]:
        return ToolReply[ResultT](tool=self.name, ok=False, text=f"Error: {message}", error=message)

    def _failed_input(
        self, raw: Mapping[str, Any] | str, message: str, start: float
    ) -> ToolReply[ResultT]:
        reply = self._error(message)
        given = dict(raw) if isinstance(raw, Mapping) else {"text": raw}
        self._record(given, reply, time.perf_counter() - start)
        return reply

    def _record(self, given: dict[str, Any], reply: ToolReply[ResultT], latency: float) -> None:
        if self.log is None:
            return
        ctx = current_call()
        self.log.record(
            ToolCallRecord(
                dialogue_id=ctx.dialogue_id,
                system=ctx.system,
                role=ctx.role,
                turn=ctx.turn,
                tool=self.name,
                input=given,
                output_chars=len(reply.text),
                latency_s=latency,
                ok=reply.ok,
                error=reply.error,
            )
        )
