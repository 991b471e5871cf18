"""Answers read back against the candidates: ids, titles, list markers, remakes, junk."""

from __future__ import annotations

import pytest

from macrs_sim.data.catalog import Catalog
from macrs_sim.evaluation.recmind.answers import (
    parse_explanation,
    parse_ranking,
    parse_rating,
)
from macrs_sim.protocol import Item

CANDIDATES = ("m4", "m1", "m7", "m3")  # Alien, Heat (1995), Heat (1986), Up


@pytest.mark.parametrize(
    ("answer", "ranked", "unmatched"),
    [
        ("m1 Heat (1995)\nm4 Alien (1979)\n", ("m1", "m4"), ()),
        ("1. m3 Up (2009)\n2) m7 Heat (1986)\n- m4", ("m3", "m7", "m4"), ()),
        ("Finish [m7, m1, m3]", ("m7", "m1", "m3"), ()),
        # a miscopied id before a candidate's title: the title counts
        ("m712 Heat (1986)\nm2 Alien (1979)", ("m7", "m4"), ()),
        # a miscopied id and a title that is no candidate's: dropped, shown as written
        ("m215 Amy (2015)", (), ("m215 Amy (2015)",)),
        ("Answer: m4, m4, m1", ("m4", "m1"), ()),
        # one line, ids and titles, as the embedded model wrote it
        (
            "m1 Heat (1995), m3 Up (2009), m8 The Godfather (1972)",
            ("m1", "m3"),
            ("m8 The Godfather (1972)",),
        ),
        ("Finish [m3]", ("m3",), ()),
        # titles: with the year; "Heat" alone names two candidates, so it names none
        ("Heat (1986)\nalien\n  HEAT  ", ("m7", "m4"), ("HEAT",)),
        # an item that is not a candidate (m2) and prose are dropped and counted
        (
            "Here you go:\nm2 The Matrix (1999)\nm3 Up (2009)",
            ("m3",),
            ("Here you go:", "m2 The Matrix (1999)"),
        ),
    ],
)
def test_ranked_answers(
    catalog: Catalog, answer: str, ranked: tuple[str, ...], unmatched: tuple[str, ...]
) -> None:
    items = {i.item_id: i for i in catalog}
    read = parse_ranking(answer, CANDIDATES, items)
    assert (read.ranked, read.unmatched, read.parsed) == (ranked, unmatched, bool(ranked))


@pytest.mark.parametrize("answer", ["", "   \n", "I cannot choose.", "m2, m5, m6"])
def test_an_answer_naming_no_candidate_is_unparsable(catalog: Catalog, answer: str) -> None:
    items = {i.item_id: i for i in catalog}
    assert not parse_ranking(answer, CANDIDATES, items).parsed


def test_numeric_ids_after_list_numbers(catalog: Catalog) -> None:
    """MovieLens ids are numbers: "1. 4 Alien" is item 4 in first place, not item 1."""
    from macrs_sim.protocol import Item

    items = {"1": Item(item_id="1", title="Heat", year=1995),
             "4": Item(item_id="4", title="Alien", year=1979)}  # fmt: skip
    read = parse_ranking("1. 4 Alien (1979)\n2. 1 Heat (1995)", ("1", "4"), items)
    assert read.ranked == ("4", "1")


@pytest.mark.parametrize(
    ("answer", "value"),
    [("4", 4.0), ("4.5 stars", 4.5), ("Rating: 3", 3.0), ("0.5", 0.5), ("6", None),
     ("0", None), ("no idea", None), ("-1", None)],
)  # fmt: skip
def test_ratings_on_the_scale(answer: str, value: float | None) -> None:
    assert parse_rating(answer, 0.5, 5.0) == value


@pytest.mark.parametrize(
    ("answer", "value"),
    [("Based on an average of 3.2 from similar movies, I predict 4.", 4.0),
     ("User 42 would rate it 4.", 4.0), ("4 out of 5", 4.0), ("I'd give it 3.5/5", 3.5),
     ("The average rating is 3.2, so my answer: 4", 4.0),
     ("I predict 4 because the average rating is 3.2.", 4.0),
     ("The average rating of user 7 is 3.8.", 3.8), ("I predict 7.", None),
     ("User 42 likes crime films.", None)],
)  # fmt: skip
def test_ratings_read_as_the_answer_gives_them(answer: str, value: float | None) -> None:
    """The prediction the answer states, not its first number (nor a user's id)."""
    assert parse_rating(answer, 1.0, 5.0) == value


def test_explanation_empty_is_none() -> None:
    assert parse_explanation("  \n ") is None
    assert parse_explanation(" Because. \n") == "Because."


def test_a_title_with_a_comma_on_one_line(catalog: Catalog) -> None:
    from macrs_sim.protocol import Item

    items = {"5": Item(item_id="5", title="Shawshank Redemption, The", year=1994),
             "6": Item(item_id="6", title="Up", year=2009)}  # fmt: skip
    assert parse_ranking("Shawshank Redemption, The (1994)", ("5", "6"), items).ranked == ("5",)


def _films(*rows: tuple[str, str, int]) -> dict[str, Item]:
    return {i: Item(item_id=i, title=t, year=y) for i, t, y in rows}


FILMS = _films(
    ("10", "Crouching Tiger, Hidden Dragon", 2000), ("11", "Up", 2009),
    ("12", "Heat", 1995), ("13", "Pride and Prejudice", 2005), ("14", "Alien", 1979),
    ("15", "Shawshank Redemption, The", 1994), ("16", "2001: A Space Odyssey", 1968),
)  # fmt: skip
IDS = tuple(FILMS)


@pytest.mark.parametrize(
    ("answer", "ranked", "unmatched"),
    [
        # semicolons between titles with years, as models often write a list
        ("Up (2009); Heat (1995); Alien (1979)", ("11", "12", "14"), ()),
        # a numbered list on one line
        ("1. Alien (1979) 2. Up (2009) 3. Heat (1995)", ("14", "11", "12"), ()),
        # "A, B and C", one title with a comma in it and one with "and" in it
        (
            "Crouching Tiger, Hidden Dragon (2000), Pride and Prejudice (2005) and Up",
            ("10", "13", "11"),
            (),
        ),
        # bullets; the natural form of a MovieLens "Title, The"; a title with a colon
        (
            "- The Shawshank Redemption (1994)\n• 2001: A Space Odyssey (1968)\n* Heat",
            ("15", "16", "12"),
            (),
        ),
        # prose before the list and a title that is no candidate: counted, not ranked
        ("My picks: Up (2009); Fargo (1996); Alien", ("11", "14"), ("My picks", "Fargo (1996)")),
        # inline bullets and a description after a dash
        ("Up (2009) - a warm film • Heat (1995)", ("11", "12"), ("a warm film",)),
    ],
)
def test_lists_in_the_forms_models_write_them(
    answer: str, ranked: tuple[str, ...], unmatched: tuple[str, ...]
) -> None:
    read = parse_ranking(answer, IDS, FILMS)
    assert (read.ranked, read.unmatched) == (ranked, unmatched)
