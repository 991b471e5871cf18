"""The rule-based user, turn by turn, with every expected text worked out by hand.

Target m8 "The Godfather": Crime/Drama, 1972, keywords mafia family, succession.
Its agenda: genre:Crime, genre:Drama, decade:1970s, keyword:mafia family, keyword:succession.
"""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from macrs_sim.campaign.dialogue import run_dialogue
from macrs_sim.config import ProtocolConfig
from macrs_sim.data.attributes import ItemAttributes
from macrs_sim.data.catalog import Catalog
from macrs_sim.data.grounding import Grounder
from macrs_sim.protocol import DialogueState, Item, ItemRef, Sample, SystemTurn
from macrs_sim.simulators.agenda import AgendaUserSimulator, prepare_agenda_sample
from macrs_sim.simulators.agenda_rules import ACCEPT, agenda_opening
from macrs_sim.simulators.base import UserSimulator

OPENING = "I'm looking for a Crime movie, something with mafia family."
LEAKY_WORDS = ("godfather", "coppola", "brando", "pacino")


@pytest.fixture
def crime(catalog: Catalog) -> Catalog:
    """The shared catalog, m8 with its people, plus three crime films to refuse."""
    godfather = Item.model_validate(
        catalog["m8"].model_dump()
        | {"director": "Francis Ford Coppola", "cast": ("Marlon Brando", "Al Pacino")}
    )
    extra = [
        Item(
            item_id="m9",
            title="Goodfellas",
            year=1990,
            genres=("Crime", "Drama"),
            keywords=("mafia family", "informant"),
        ),
        Item(
            item_id="m10",
            title="Mean Streets",
            year=1973,
            genres=("Crime", "Drama"),
            keywords=("new york",),
        ),
        Item(
            item_id="m11",
            title="The Godfather Part II",
            year=1974,
            genres=("Crime", "Drama"),
            keywords=("mafia family", "succession"),
        ),
    ]
    return Catalog([*(i for i in catalog if i.item_id != "m8"), godfather, *extra])


def _sample(**update: object) -> Sample:
    base = Sample(sample_id="s8", user_id="u8", history=("m1", "m4"), target_id="m8")
    return base.model_copy(update=update)


def ask(text: str) -> SystemTurn:
    return SystemTurn(act="ask", text=text)


def rec(*ids: str | None, title: str = "Some film") -> SystemTurn:
    items = tuple(ItemRef(title=title, item_id=i) for i in ids)
    return SystemTurn(act="recommend", text=f"Try {title}", items=items)


async def _opened(crime: Catalog) -> AgendaUserSimulator:
    sim = AgendaUserSimulator(_sample(), crime)
    assert (await sim.open()).text == OPENING
    return sim


def test_agenda_opening_states_one_or_two_attributes() -> None:
    full = ItemAttributes(("Crime", "Drama"), 1972, ("mafia family", "succession"))
    assert agenda_opening(full) == OPENING
    no_keyword = ItemAttributes(("Action",), 1986, ())
    assert (
        agenda_opening(no_keyword) == "I'm looking for an Action movie, something from the 1980s."
    )
    assert (
        agenda_opening(ItemAttributes(("Comedy",), None, ())) == "I'm looking for a Comedy movie."
    )


async def test_opening_reveals_what_it_states(crime: Catalog) -> None:
    sim = await _opened(crime)
    assert isinstance(sim, UserSimulator)
    assert sim.revealed == ("genre:Crime", "keyword:mafia family")


async def test_given_opening_is_kept_and_read_back(catalog: Catalog, sample: Sample) -> None:
    # Fixture target m2 The Matrix: Action/Sci-Fi 1999; the opening already says "action".
    sim = AgendaUserSimulator(sample, catalog)
    assert (await sim.open()).text == "I want a mind-bending action film."
    assert sim.revealed == ("genre:Action",)
    assert (await sim.reply(ask("Which genre do you prefer?"))).text == "I'd like a Sci-Fi movie."
    heat = await sim.reply(rec("m1"))  # Crime/Thriller: lacks Action (note "an")
    assert heat.text == "Not quite. I want an Action movie." and not heat.accepted


async def test_questions_are_answered_slot_by_slot(crime: Catalog) -> None:
    sim = await _opened(crime)
    script = [
        ("Which genre do you prefer?", "I'd like a Drama movie."),
        ("Any other genre?", "I'd like a Crime movie."),  # genres exhausted: restate the first
        ("Do you prefer older or newer films?", "Something from the 1970s."),
        ("Hi there! How is your day going?", "Something with succession."),  # chit-chat
        ("What should the story be about?", "Something with mafia family."),  # themes exhausted
        ("Nice talking to you!", "I'd like a Crime movie."),  # agenda exhausted
    ]
    for question, expected in script:
        turn = await sim.reply(ask(question))
        assert (turn.text, turn.accepted, turn.redacted) == (expected, False, False)
    assert sim.revealed == (
        "genre:Crime",
        "keyword:mafia family",
        "genre:Drama",
        "decade:1970s",
        "keyword:succession",
    )


async def test_people_and_combined_questions(crime: Catalog) -> None:
    sim = await _opened(crime)
    people = await sim.reply(ask("Do you have a favourite actor or director?"))
    assert people.text == "I don't mind who is in it. I'd like a Drama movie."
    both = await sim.reply(SystemTurn(act="chat", text="Which genre and which decade?"))
    assert both.text == "I'd like a Crime movie. Something from the 1970s."
    with_people = await sim.reply(ask("Any director you like, or a theme?"))
    assert with_people.text == "I don't mind who is in it. Something with succession."


async def test_wrong_recommendations_cite_one_difference(crime: Catalog) -> None:
    sim = await _opened(crime)
    script = [
        (rec("m1"), "Not quite. I want a Drama movie."),  # Heat: Crime/Thriller, lacks Drama
        (rec("m9"), "That one is from the 1990s; I'd prefer something from the 1970s."),
        (rec("m10"), "Not that one. I'm after something with mafia family."),  # Mean Streets
        (rec("m11"), "Not that one. Something with succession."),  # nothing differs: next fact
        (rec("m4"), "Not quite. I want a Crime movie."),  # Alien: Horror/Sci-Fi
    ]
    for turn, expected in script:
        assert (await sim.reply(turn)).text == expected
    assert sim.revealed == (
        "genre:Crime",
        "keyword:mafia family",
        "genre:Drama",
        "decade:1970s",
        "keyword:succession",
    )


async def test_ungrounded_and_first_grounded_item(crime: Catalog) -> None:
    sim = await _opened(crime)
    unknown = await sim.reply(rec(None, title="Scarface"))
    assert unknown.text == "I don't know that one. I'm looking for a Crime movie."
    mixed = await sim.reply(rec(None, "m9", "m1"))  # the first grounded one is Goodfellas
    assert mixed.text == "That one is from the 1990s; I'd prefer something from the 1970s."


async def test_target_is_accepted_without_naming_it(crime: Catalog) -> None:
    sim = await _opened(crime)
    turn = await sim.reply(rec("m1", "m8"))
    assert (turn.text, turn.accepted) == (ACCEPT, True)
    assert ACCEPT == "Yes, that's exactly what I was looking for!"
    # Any act carrying the target counts, as for the LLM user.
    chat = await sim.reply(
        SystemTurn(act="chat", text="x", items=(ItemRef(title="t", item_id="m8"),))
    )
    assert chat.accepted


def _long_script() -> list[SystemTurn]:
    questions = [
        "Who is your favourite director?",
        "Which actors do you like?",
        "What genre?",
        "How old should it be?",
        "What is the plot about?",
        "Lovely weather today!",
    ]
    recs = [rec(i) for i in ("m1", "m9", "m10", "m11", "m4", "m2", "m3")] + [rec(None)]
    return [*map(ask, questions), *recs, *map(ask, questions)]


async def _transcript(sample: Sample, catalog: Catalog) -> list[str]:
    sim = AgendaUserSimulator(sample, catalog)
    texts = [(await sim.open()).text]
    for turn in _long_script():
        texts.append((await sim.reply(turn)).text)
    return texts


async def test_same_inputs_same_transcript(crime: Catalog) -> None:
    first = await _transcript(_sample(), crime)
    assert first == await _transcript(_sample(), crime)
    assert len(first) == len(_long_script()) + 1


async def test_never_names_the_target_or_its_people(crime: Catalog) -> None:
    # Leaky profile keywords are dropped: title words and a cast member.
    sample = _sample(target_profile=("godfather saga", "Marlon Brando", "corleone"))
    sim = AgendaUserSimulator(sample, crime)
    assert sim.attributes.keywords == ("corleone", "mafia family", "succession")
    for text in await _transcript(sample, crime):
        assert not any(word in text.lower() for word in LEAKY_WORDS), text


async def test_leaking_opening_is_redacted(crime: Catalog) -> None:
    sim = AgendaUserSimulator(_sample(opening="I want The Godfather again."), crime)
    turn = await sim.open()
    assert (turn.text, turn.redacted) == ("I want that movie again.", True)


def test_prepare_agenda_sample_without_people(crime: Catalog) -> None:
    out = prepare_agenda_sample(crime, _sample(target_profile=("x",), opening="old"), people=False)
    assert out.target_profile == ("mafia family", "succession") and out.opening == OPENING
    # No keywords: the profile falls back to the genres, which are not stated twice.
    heat86 = prepare_agenda_sample(crime, _sample(target_id="m7"), people=False)
    assert heat86.target_profile == ("Action",)
    assert heat86.opening == "I'm looking for an Action movie, something from the 1980s."
    assert AgendaUserSimulator(heat86, crime).attributes.keywords == ()


async def test_demo_catalog_never_leaks() -> None:
    """Every demo target, through a long script: the guard never has to step in."""
    demo = Catalog.demo()
    others = [i.item_id for i in list(demo)[:6]]
    for item in demo:
        sample = prepare_agenda_sample(demo, _sample(target_id=item.item_id))
        sim = AgendaUserSimulator(sample, demo)
        turns = [await sim.open()]
        for turn in [*map(ask, ("Genre?", "Which era?", "Theme?", "Actors?", "Hi")), rec(*others)]:
            turns.append(await sim.reply(turn))
        assert not any(t.redacted for t in turns), item.title


class ScriptRecommender:
    """Asks about the genre, recommends a wrong film, then the target."""

    name = "script"

    async def respond(self, state: DialogueState) -> SystemTurn:
        if state.turn == 1:
            return ask("Which genre do you prefer?")
        title = "Heat (1995)" if state.turn == 2 else "The Godfather"
        return SystemTurn(act="recommend", text=f"Try {title}.", items=(ItemRef(title=title),))

    async def final_list(
        self, state: DialogueState, k: int, given: Sequence[ItemRef] = ()
    ) -> list[ItemRef]:
        return []

    async def close(self) -> None:
        pass


async def test_plugs_into_the_dialogue_loop(crime: Catalog) -> None:
    sample = prepare_agenda_sample(crime, _sample(), people=False)
    result = await run_dialogue(
        ScriptRecommender(),
        AgendaUserSimulator(sample, crime),
        Grounder(crime),
        dialogue_id="d",
        sample=sample,
        protocol=ProtocolConfig(max_turns=5, final_list_k=2),
    )
    assert (result.status, result.success_turn, result.leaks) == ("success", 3, 0)
    assert result.opening.text == OPENING
    assert [ex.user.text for ex in result.exchanges] == [
        "I'd like a Drama movie.",
        "Not quite. I want a Drama movie.",
        ACCEPT,
    ]
