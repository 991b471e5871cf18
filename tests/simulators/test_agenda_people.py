"""The agenda user with people in its profile (simulator.profile_people, paper Figure 7).

Target e1 "Eraser" (1996): Action, directed by Chuck Russell, starring Arnold
Schwarzenegger, James Caan, Vanessa Williams; keyword witness protection. With people, its
profile is the keyword plus the director and the two leading actors; the agenda is
genre:Action, decade:1990s, actor:Arnold Schwarzenegger, actor:James Caan,
director:Chuck Russell, keyword:witness protection.
"""

from __future__ import annotations

import pytest

from macrs_sim.data.catalog import Catalog
from macrs_sim.protocol import Item, ItemRef, Sample, SystemTurn
from macrs_sim.simulators.agenda import AgendaUserSimulator, prepare_agenda_sample
from macrs_sim.simulators.agenda_people import asked_people
from macrs_sim.simulators.agenda_rules import ACCEPT, NO_PEOPLE

OPENING = "I'm looking for an Action movie starring Arnold Schwarzenegger."


@pytest.fixture
def action() -> Catalog:
    def film(item_id: str, title: str, year: int, director: str, *cast: str) -> Item:
        return Item(
            item_id=item_id,
            title=title,
            year=year,
            genres=("Action",),
            director=director,
            cast=cast,
            keywords=("witness protection",) if item_id == "e1" else (),
        )

    return Catalog(
        [
            film("e1", "Eraser", 1996, "Chuck Russell", *ERASER_CAST),
            film("e2", "Terminator 2", 1991, "James Cameron", "Arnold Schwarzenegger"),
            film("e3", "Russell's Other Film", 1994, "Chuck Russell", "Someone Else"),
            film("e4", "Twin Heist", 1995, "Chuck Russell", "Arnold Schwarzenegger"),
        ]
    )


ERASER_CAST = ("Arnold Schwarzenegger", "James Caan", "Vanessa Williams")


def _sample(**update: object) -> Sample:
    base = Sample(sample_id="s", user_id="u", history=("e2",), target_id="e1")
    return base.model_copy(update=update)


def ask(text: str) -> SystemTurn:
    return SystemTurn(act="ask", text=text)


def rec(item_id: str) -> SystemTurn:
    return SystemTurn(act="recommend", text="Try it.", items=(ItemRef(title="t", item_id=item_id),))


def test_prepared_profile_names_the_director_and_leading_actors(action: Catalog) -> None:
    out = prepare_agenda_sample(action, _sample())
    assert out.target_profile == (
        "witness protection",
        "director: Chuck Russell",
        "actor: Arnold Schwarzenegger",
        "actor: James Caan",
    )
    assert out.opening == OPENING
    off = prepare_agenda_sample(action, _sample(), people=False)
    assert off.target_profile == ("witness protection",)
    assert off.opening == "I'm looking for an Action movie, something with witness protection."


async def test_figure_7_dialogue(action: Catalog) -> None:
    """The case study's MACRS dialogue, turn by turn, against the agenda user."""
    sim = AgendaUserSimulator(prepare_agenda_sample(action, _sample()), action)
    assert (await sim.open()).text == OPENING
    era = await sim.reply(ask("Do you prefer more recent action movies or older ones?"))
    assert era.text == "Something from the 1990s."
    t2 = await sim.reply(rec("e2"))  # same genre, decade and star; another director
    assert t2.text == "Not that one. The director of it did not meet my expectations."
    director = await sim.reply(ask("What type of director do you prefer for action movies?"))
    assert director.text == "Something directed by Chuck Russell. I'd like an Action movie."
    accepted = await sim.reply(rec("e1"))
    assert (accepted.text, accepted.accepted) == (ACCEPT, True)
    assert sim.revealed == (
        "genre:Action",
        "actor:Arnold Schwarzenegger",
        "decade:1990s",
        "director:Chuck Russell",
    )


async def test_people_questions_refusals_and_order(action: Catalog) -> None:
    sim = AgendaUserSimulator(prepare_agenda_sample(action, _sample()), action)
    await sim.open()
    both = await sim.reply(ask("Any favourite director or actors?"))
    assert both.text == "Something directed by Chuck Russell. Something starring James Caan."
    other_star = await sim.reply(rec("e3"))  # right director, none of the leading actors
    assert other_star.text == "Not that one. I'm after something starring Arnold Schwarzenegger."
    same_people = await sim.reply(rec("e4"))  # nothing differs but the keyword
    assert same_people.text == "Not that one. I'm after something with witness protection."
    again = await sim.reply(ask("Who should star in it?"))  # actors exhausted: the first again
    assert again.text == "Something starring Arnold Schwarzenegger."
    assert asked_people("Who directed your favourite, and which actress?") == [
        "director",
        "actor",
    ]


async def test_paper_format_profile_from_an_llm(action: Catalog) -> None:
    """The Figure 7 profile as the LLM writes it: only the named people are ever said."""
    profile = (
        "genre: action",
        "actor: Arnold Schwarzenegger",
        "director: Chuck Russell",
        "feature: witness protection",
    )
    sim = AgendaUserSimulator(_sample(target_profile=profile), action)
    assert sim.attributes.keywords == ("witness protection",)
    assert sim.agenda[2:4] == sim.people  # after the genre and the decade: actor, director
    assert (await sim.open()).text == OPENING
    texts = [(await sim.reply(ask(q))).text for q in ("Actors?", "Actors?", "Director?")]
    assert texts == [
        "Something starring Arnold Schwarzenegger.",
        "Something starring Arnold Schwarzenegger.",
        "Something directed by Chuck Russell.",
    ]
    assert not any("Caan" in t for t in texts)


async def test_without_people_in_the_profile_people_stay_unsaid(action: Catalog) -> None:
    sim = AgendaUserSimulator(prepare_agenda_sample(action, _sample(), people=False), action)
    await sim.open()
    turn = await sim.reply(ask("Who is your favourite director?"))
    assert turn.text == f"{NO_PEOPLE} Something from the 1990s."
    # A given opening naming a person outside the profile is redacted like the title.
    named = AgendaUserSimulator(_sample(opening="Anything with James Caan."), action)
    opened = await named.open()
    assert (opened.text, opened.redacted) == ("Anything with that movie.", True)
