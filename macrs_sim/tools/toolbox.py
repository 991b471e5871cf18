"""A named set of tools: the list for function calling, and the ReAct text path.

A ReAct loop writes actions as `tool_name[argument]` (the argument plain text for the tool's
main field, or a JSON object), or as a JSON object {"tool": ..., "args": {...}}.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from typing import Any

from macrs_sim.llm.context import current_call
from macrs_sim.protocol import ToolCallRecord
from macrs_sim.tools.base import RecTool
from macrs_sim.tools.log import ToolCallLog

_ACTION = re.compile(r"^\s*([A-Za-z_][\w.-]*)\s*\[(.*)\]\s*$", re.DOTALL)


def parse_action(action: str) -> tuple[str, str | dict[str, Any]] | None:
    """(tool name, argument) from `name[arg]` or a JSON {"tool", "args"}; None if neither."""
    m = _ACTION.match(action)
    if m:
        return m.group(1), m.group(2).strip()
    try:
        obj = json.loads(action)
    except json.JSONDecodeError:
        return None
    if not isinstance(obj, dict) or not isinstance(obj.get("tool", obj.get("name")), str):
        return None
    args = obj.get("args", obj.get("arguments", obj.get("input", {})))
    if not isinstance(args, dict | str):
        return None
    return str(obj.get("tool", obj.get("name"))), args


class Toolbox:
    def __init__(self, tools: Sequence[RecTool[Any, Any]], log: ToolCallLog | None = None) -> None:
        self.tools = {tool.name: tool for tool in tools}
        if len(self.tools) != len(tools):
            raise ValueError("two tools share a name")
        self.log = log

    def as_list(self) -> list[RecTool[Any, Any]]:
        """For `tools=` of an autogen agent or `ChatCompletionClient.create`."""
        return list(self.tools.values())

    def describe(self) -> str:
        """One line per tool for a ReAct prompt: name, what it does, its arguments."""
        lines = []
        for tool in self.tools.values():
            params = tool.schema.get("parameters", {}).get("properties", {})
            main = getattr(tool.args_type(), "text_field", None)
            usage = f"{tool.name}[{main}]" if main else f"{tool.name}[{{JSON}}]"
            lines.append(f"{usage}: {tool.description} Arguments (JSON): {', '.join(params)}.")
        return "\n".join(lines)

    async def run_action(self, action: str) -> str:
        """Run one ReAct action; a malformed action or unknown tool is an error text too."""
        parsed = parse_action(action)
        if parsed is None:
            usage = 'expected tool_name[argument] or {"tool": ..., "args": {...}}'
            return self._refuse("?", action, f"cannot read the action ({usage})")
        name, args = parsed
        tool = self.tools.get(name)
        if tool is None:
            known = ", ".join(self.tools)
            return self._refuse(name, action, f"unknown tool {name!r}; tools: {known}")
        return await tool.run_text(args)

    def _refuse(self, name: str, action: str, message: str) -> str:
        text = f"Error: {message}"
        if self.log is not None:
            ctx = current_call()
            self.log.record(
                ToolCallRecord(
                    dialogue_id=ctx.dialogue_id, system=ctx.system, role=ctx.role, turn=ctx.turn,
                    tool=name, input={"text": action}, output_chars=len(text), latency_s=0.0,
                    ok=False, error=message,
                )
            )  # fmt: skip
        return text
