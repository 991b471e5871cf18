"""LLM user simulator (paper §4.1): browsing history + target profile, never the title.

Acceptance is decided here from grounded item ids, not by the LLM: the model
only words a reply that accepts or declines. Replies that name the target are
regenerated, then redacted, and every leak is counted.
"""

from __future__ import annotations

from autogen_core.models import ChatCompletionClient, LLMMessage

from macrs_sim.agents.prompt_layout import dialogue_messages
from macrs_sim.data.catalog import Catalog
from macrs_sim.llm.context import CallContext, calling
from macrs_sim.prompts import PromptLibrary
from macrs_sim.protocol import Sample, SystemTurn, UserTurn, Utterance
from macrs_sim.simulators.guarded import generate_guarded
from macrs_sim.simulators.instructions import DEFAULT_TEMPLATE, SIMULATOR_PROMPTS
from macrs_sim.simulators.target_profile import simulator_system_prompt, title_guard

__all__ = ["SIMULATOR_PROMPTS", "LLMUserSimulator"]  # the instructions' names, as before


class LLMUserSimulator:
    def __init__(
        self,
        sample: Sample,
        catalog: Catalog,
        client: ChatCompletionClient,
        prompts: PromptLibrary,
        *,
        dialogue_id: str,
        system_name: str,
        max_leak_retries: int = 2,
        instruction: str = DEFAULT_TEMPLATE,
    ) -> None:
        """`instruction` is a prompt name, e.g. a value of SIMULATOR_PROMPTS."""
        self.sample = sample
        self._client = client
        self._template = prompts.get(instruction)
        self._system_prompt = simulator_system_prompt(prompts, catalog, sample, instruction)
        self._guard = title_guard(catalog[sample.target_id], prompts.domain)
        self._ctx = {"dialogue_id": dialogue_id, "system": system_name}
        self._max_leak_retries = max_leak_retries
        self._history: list[Utterance] = []
        self._turn = 0

    async def open(self) -> UserTurn:
        """The sample's shared opening, with the leaks its preparation counted."""
        s = self.sample
        self._history = [Utterance(speaker="user", text=s.opening)]
        return UserTurn(
            text=s.opening, leak_retries=s.opening_leak_retries, redacted=s.opening_redacted
        )

    def accepts(self, turn: SystemTurn) -> bool:
        return any(item.item_id == self.sample.target_id for item in turn.items)

    async def reply(self, turn: SystemTurn) -> UserTurn:
        self._turn += 1
        self._history.append(Utterance(speaker="system", text=turn.text))
        accepted = self.accepts(turn)
        messages = self._messages(self._situation(turn, accepted))
        text, retries, redacted = await self._generate(messages, guard=not accepted)
        text, ended = self._ended(text)
        self._history.append(Utterance(speaker="user", text=text))
        return UserTurn(
            text=text, accepted=accepted, leak_retries=retries, redacted=redacted, ended=ended
        )

    def _ended(self, text: str) -> tuple[str, bool]:
        """The text without the instruction's end marker, and whether it held one (RecAI's
        simulator ends a session on "<END>"; an instruction without [end_marker] never ends)."""
        marker = self._template.sections.get("end_marker", "").strip()
        if not marker or marker not in text:
            return text, False
        return " ".join(text.replace(marker, " ").split()), True

    def _situation(self, turn: SystemTurn, accepted: bool) -> str:
        if not turn.items:
            return self._template.render("situation_answer")
        titles = ", ".join(item.title for item in turn.items)
        section = "situation_accept" if accepted else "situation_reject"
        return self._template.render(section, titles=titles)

    def _messages(self, situation: str) -> list[LLMMessage]:
        template = self._template
        return dialogue_messages(
            template.layout,
            self._system_prompt,
            lambda transcript: template.render(
                "reply", dialogue_history=transcript, situation=situation
            ),
            self._history,
            me="user",
        )

    async def _generate(self, messages: list[LLMMessage], *, guard: bool) -> tuple[str, int, bool]:
        """(text, discarded leaking generations, whether the kept text had to be redacted)."""
        ctx = CallContext(role="user", turn=self._turn, **self._ctx)
        with calling(ctx):
            out = await generate_guarded(
                self._client,
                messages,
                self._guard if guard else None,
                retry_note=self._template.render("leak_retry"),
                max_retries=self._max_leak_retries,
            )
        return out.text, out.leak_retries, out.redacted
