"""Records of the suggestion judge (paper §5.3.3, Table 2) and the rule that combines orders.

Every judged pair is presented twice, once with the with-suggestion response as A
and once as B, because LLM judges favour a position. The two verdicts are mapped
back to "with" / "without" / "tie" and combined by `combine_outcomes`:

- "with" wins if it wins in both orders, or wins in one and ties in the other;
- "without" wins in the symmetric cases;
- anything else (one win each, i.e. the judge followed the position, or two ties) is a tie.

The same rule combines each criterion separately. `single_order_outcomes` gives the two
ordered judgments of a pair on their own, uncombined: counted that way (two per pair)
they make Table 2's single-order shares, the kind of number the paper reports (it
describes one judgment per comparison and no order swap).
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict

from macrs_sim.agents.macrs.schemas import UserProfile
from macrs_sim.prompts import PromptLayout
from macrs_sim.protocol import Utterance

Choice = Literal["A", "B", "tie"]
Outcome = Literal["with", "tie", "without"]
Criterion = Literal["recommendation_accuracy", "information_gain", "conciseness", "engagement"]
CRITERIA: tuple[Criterion, ...] = (
    "recommendation_accuracy",
    "information_gain",
    "conciseness",
    "engagement",
)
OUTCOMES: tuple[Outcome, ...] = ("with", "tie", "without")
JUDGMENT_EVENT = "judgment"
# Judge calls are evaluation cost, not the judged system's: a system label of their own keeps
# the cost tables' per-system totals about the systems (dialogue_id and turn still link them).
JUDGE_SYSTEM = "(judge)"


class JudgeVerdict(BaseModel):
    """The judge's reply for one presentation order: one choice per criterion, then overall."""

    recommendation_accuracy: Choice
    information_gain: Choice
    conciseness: Choice
    engagement: Choice
    winner: Choice


def outcome_of(choice: Choice, *, with_is_a: bool) -> Outcome:
    """What a choice says about the with-suggestion response, given where it was shown."""
    if choice == "tie":
        return "tie"
    return "with" if (choice == "A") == with_is_a else "without"


def combine_outcomes(first: Outcome, second: Outcome) -> Outcome:
    """The module's rule: a win counts +1, a loss -1, a tie 0; the sign of the sum decides."""
    score = sum({"with": 1, "tie": 0, "without": -1}[o] for o in (first, second))
    return "with" if score > 0 else "without" if score < 0 else "tie"


def combine_choices(choice_ab: Choice, choice_ba: Choice) -> Outcome:
    """Combine the verdicts of the with=A order and the with=B order."""
    return combine_outcomes(
        outcome_of(choice_ab, with_is_a=True), outcome_of(choice_ba, with_is_a=False)
    )


class JudgedTurn(BaseModel):
    """The MACRS turn a judgment is about: which dialogue, turn, act, and the suggestion."""

    model_config = ConfigDict(frozen=True)

    dialogue_id: str
    system: str
    sample_id: str
    turn: int
    act: str
    suggestion: str
    with_suggestion: str
    with_item_title: str | None = None
    # Where the run's prompts put the dialogue for this system (the run's "prompt_layouts"):
    # the counterfactual is regenerated in the same layout. None: a run that did not record it.
    layout: PromptLayout | None = None

    @property
    def key(self) -> tuple[str, int]:
        return (self.dialogue_id, self.turn)


class JudgePair(JudgedTurn):
    """A turn whose chosen act had a strategy-level suggestion, with the inputs the responder
    saw (D_h, U_p), so the no-suggestion counterfactual can be rebuilt exactly."""

    history: tuple[Utterance, ...]
    profile: UserProfile


class JudgeRecord(JudgedTurn):
    """A judged pair as stored in a "judgment" event; `error` set means it was not judged."""

    without_suggestion: str | None = None
    without_item_title: str | None = None
    verdict_ab: JudgeVerdict | None = None
    verdict_ba: JudgeVerdict | None = None
    outcome: Outcome | None = None
    error: str | None = None

    @classmethod
    def from_pair(cls, pair: JudgePair, **fields: object) -> JudgeRecord:
        base = pair.model_dump(exclude={"history", "profile"})
        return cls.model_validate({**base, **fields})

    def single_order_outcomes(
        self, criterion: Criterion | None = None
    ) -> tuple[Outcome, Outcome] | None:
        """The with=A and the with=B judgment each on its own (overall, or on `criterion`);
        None when the pair was not judged."""
        if self.verdict_ab is None or self.verdict_ba is None:
            return None
        name = criterion or "winner"
        return (
            outcome_of(getattr(self.verdict_ab, name), with_is_a=True),
            outcome_of(getattr(self.verdict_ba, name), with_is_a=False),
        )

    def criterion_outcome(self, criterion: Criterion) -> Outcome | None:
        """The combined outcome on one criterion; None when the pair was not judged."""
        if self.verdict_ab is None or self.verdict_ba is None:
            return None
        return combine_choices(
            getattr(self.verdict_ab, criterion), getattr(self.verdict_ba, criterion)
        )
