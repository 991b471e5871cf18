"""What the model writes at each planning call (JSON schemas), one model per call kind."""

from __future__ import annotations

from pydantic import BaseModel, Field, field_validator, model_validator

from macrs_sim.tools import parse_action

# The action that ends the planning (Algorithm 1's "End of Planning").
FINISH = "Finish"


def number_as_text(value: object) -> object:
    """A JSON number where text is asked ({"argument": 4}: a rating) read as its text."""
    if isinstance(value, bool):
        return value
    if isinstance(value, int | float):
        return f"{value:g}" if isinstance(value, float) else str(value)
    return value


class StepOutput(BaseModel):
    """One planning step: a thought and the action it leads to."""

    thought: str
    action: str = Field(description="SQL, Search, Summarize or Finish")
    argument: str = Field(default="", description="the question, text, or final answer")
    items: list[str] = Field(
        default_factory=list, description="with Finish: the titles recommended, best first"
    )

    @field_validator("argument", mode="before")
    @classmethod
    def _argument_number(cls, value: object) -> object:
        return number_as_text(value)

    @model_validator(mode="after")
    def _split_react_action(self) -> StepOutput:
        # Small models write the paper's ReAct form into `action`: "Search[Heat]".
        parsed = parse_action(self.action)
        if parsed is not None and isinstance(parsed[1], str):
            self.action = parsed[0]
            self.argument = self.argument.strip() or parsed[1]
        return self

    @property
    def finishes(self) -> bool:
        return self.action.strip().casefold() == FINISH.casefold()


class CandidatesOutput(BaseModel):
    """ToT's thought sampling: several possible next steps."""

    candidates: list[StepOutput] = Field(min_length=1)


class VoteOutput(BaseModel):
    """ToT's decision prompt: an analysis and the 1-based id of the best choice."""

    analysis: str = ""
    best: int


class InspireOutput(BaseModel):
    """Self-Inspiring: an alternative step, or an empty thought when none is needed."""

    thought: str = ""
    action: str = ""
    argument: str = ""

    @field_validator("argument", mode="before")
    @classmethod
    def _argument_number(cls, value: object) -> object:
        return number_as_text(value)

    @property
    def alternative(self) -> StepOutput | None:
        if not self.thought.strip() or not self.action.strip():
            return None
        return StepOutput(thought=self.thought, action=self.action, argument=self.argument)


class AnswerOutput(BaseModel):
    """The final answer when the step limit ends the planning before a Finish."""

    answer: str
    items: list[str] = Field(default_factory=list)

    @field_validator("answer", mode="before")
    @classmethod
    def _answer_number(cls, value: object) -> object:
        return number_as_text(value)
