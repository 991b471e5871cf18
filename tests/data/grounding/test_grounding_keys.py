"""Decoration stripping, number reading and match keys, value by value."""

from __future__ import annotations

import pytest

from macrs_sim.data.grounding import Part, strip_decorations, title_key
from macrs_sim.data.grounding.numbers import split_numbers
from macrs_sim.data.grounding.spelling import is_misspelling


@pytest.mark.parametrize(
    ("said", "expected"),
    [
        ("**Heat** (1995) - a crime thriller.", ("Heat", 1995)),
        ('1. "Alien"', ("Alien", None)),
        ("2) Jaws (1975)", ("Jaws", 1975)),
        ("Se7en [1995]", ("Se7en", 1995)),
        ("Good Will Hunting, 1997", ("Good Will Hunting", 1997)),
        ("Oldboy (dir. Park Chan-wook, 2003)", ("Oldboy", 2003)),
        ("'Memento'", ("Memento", None)),
        ("12 Angry Men", ("12 Angry Men", None)),  # a number, not a list marker
        ("2001: A Space Odyssey (1968)", ("2001: A Space Odyssey", 1968)),
        ("When Harry Met Sally...", ("When Harry Met Sally", None)),
        ("Heat (19955)", ("Heat (19955)", None)),
        ("(1995)", ("(1995)", None)),  # a year with no title before it is not split off
    ],
)
def test_strip_decorations(said: str, expected: tuple[str, int | None]) -> None:
    assert strip_decorations(said) == expected


@pytest.mark.parametrize(
    ("tokens", "words", "numbers"),
    [
        (["rocky", "ii"], ["rocky"], [2]),
        (["shrek", "the", "third"], ["shrek"], [3]),
        (["godfather", "part", "two"], ["godfather"], [2]),
        (["episode", "i"], [], [1]),
        (["malcolm", "x"], ["malcolm"], [10]),
        (["v", "for", "vendetta"], ["v", "for", "vendetta"], []),  # "v" only ends a part
        (["12", "angry", "men"], ["angry", "men"], [12]),
        (["oceans", "eleven"], ["oceans"], [11]),
        (["rogue", "one"], ["rogue", "one"], []),  # "one" is a number only after a marker
        (["i", "robot"], ["i", "robot"], []),
        (["se7en"], ["se7en"], []),
    ],
)
def test_split_numbers(tokens: list[str], words: list[str], numbers: list[int]) -> None:
    assert split_numbers(tokens) == (words, numbers)


def test_title_keys() -> None:
    star_wars = title_key("Star Wars: Episode IV - A New Hope")
    assert star_wars.full == Part("star wars new hope", (4,))
    assert star_wars.parts == (Part("star wars", ()), Part("", (4,)), Part("new hope", ()))
    assert title_key("E.T. the Extra-Terrestrial").full == Part("et extra terrestrial", ())
    assert title_key("3:10 to Yuma").full == Part("to yuma", (3, 10))  # no split at 3:10
    assert title_key("WALL·E").full == title_key("Wall-E").full == Part("wall e", ())
    assert title_key("L'Avventura").full == Part("avventura", ())
    assert title_key("Alien³").full == Part("alien", (3,))
    assert title_key("Schindler’s List").full == Part("schindlers list", ())
    assert title_key("Matrix, The").full == title_key("The Matrix").full
    assert title_key("Kill Bill: Vol. 1").full == title_key("Kill Bill").full
    assert title_key("Kill Bill: Vol. 1").states_one and not title_key("Kill Bill").states_one
    strangelove = title_key("Dr. Strangelove or: How I Learned to Stop Worrying")
    assert strangelove.or_title and strangelove.parts[0] == Part("dr strangelove", ())
    birdman = title_key("Birdman: Or")  # MovieLens keeps "(The Unexpected ...)" as an aka
    assert (birdman.full, birdman.or_title) == (Part("birdman", ()), True)


@pytest.mark.parametrize(
    ("said", "known", "expected"),
    [
        ("godfater", "godfather", True),
        ("pulp fictoin", "pulp fiction", True),  # a swap of neighbours is one edit
        ("spiderman", "spider man", True),
        ("before sunset", "before sunrise", False),
        ("aliens", "alien", False),
        ("others", "other", False),
        ("batman returns", "batman begins", False),
        ("fu panda", "fo panda", False),  # words of three letters must be exact
        ("blade runnr forevr", "blade runner forever", True),  # two words changed
        ("blde runnr forevr", "blade runner forever", False),  # three words changed
    ],
)
def test_is_misspelling(said: str, known: str, expected: bool) -> None:
    assert is_misspelling(said, known) is expected
