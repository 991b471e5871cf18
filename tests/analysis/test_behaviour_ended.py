"""A user who leaves with InteRecAgent's "<END>" (stored without the marker) is not an empty
reply: the behaviour checks see a user leaving, not a model failing."""

from __future__ import annotations

from macrs_sim.analysis.metrics.behaviour import dialogue_flags
from macrs_sim.protocol import DialogueResult, Exchange, SystemTurn, UserTurn


def _result(last: UserTurn) -> DialogueResult:
    first = Exchange(turn=1, system=SystemTurn(act="ask", text="Which era do you like?"),
                     user=UserTurn(text="The nineties, please."))  # fmt: skip
    second = Exchange(turn=2, system=SystemTurn(act="chat", text="Great choice, I think."),
                      user=last)  # fmt: skip
    return DialogueResult(dialogue_id="d", system="IRA", sample_id="s", target_id="m2",
                          status="failure", max_turns=5, opening=UserTurn(text="Hi there"),
                          exchanges=(first, second))  # fmt: skip


def test_a_bare_end_is_not_empty_but_a_blank_reply_is() -> None:
    left = dialogue_flags(_result(UserTurn(text="", ended=True)))
    blank = dialogue_flags(_result(UserTurn(text="")))
    assert [f.checks for f in left if f.side == "user"] == [(), (), ()]
    assert [f.checks for f in blank if f.side == "user"][-1] == ("empty",)
