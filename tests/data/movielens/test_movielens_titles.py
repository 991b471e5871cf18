import pytest

from macrs_sim.data.movielens.titles import (
    ParsedTitle,
    move_article,
    parse_genres,
    parse_title,
    split_alternatives,
    split_year,
)


@pytest.mark.parametrize(
    ("raw", "title", "year", "aka"),
    [
        ("Toy Story (1995)", "Toy Story", 1995, ()),
        ("Shawshank Redemption, The (1994)", "The Shawshank Redemption", 1994, ()),
        ("Few Good Men, A (1992)", "A Few Good Men", 1992, ()),
        ("Officer and a Gentleman, An (1982)", "An Officer and a Gentleman", 1982, ()),
        (
            "City of Lost Children, The (Cité des enfants perdus, La) (1995)",
            "The City of Lost Children",
            1995,
            ("La Cité des enfants perdus",),
        ),
        ("Seven (a.k.a. Se7en) (1995)", "Seven", 1995, ("Se7en",)),
        (
            "Avventura, L' (a.k.a. Adventure, The) (1960)",
            "L'Avventura",
            1960,
            ("The Adventure",),
        ),
        ("Homme, L' (2005)", "L'Homme", 2005, ()),
        ("Babylon 5", "Babylon 5", None, ()),
        ("Fawlty Towers (1975-1979)", "Fawlty Towers", 1975, ()),
        ("Some Series (2007-)", "Some Series", 2007, ()),
        ("Spaced Out (2015 )", "Spaced Out", 2015, ()),
        (
            "Good, the Bad and the Ugly, The (Buono, il brutto, il cattivo, Il) (1966)",
            "The Good, the Bad and the Ugly",
            1966,
            ("Il Buono, il brutto, il cattivo",),
        ),
        (
            "Lord of the Rings: The Two Towers, The (2002)",
            "The Lord of the Rings: The Two Towers",
            2002,
            (),
        ),
        ("(500) Days of Summer (2009)", "(500) Days of Summer", 2009, ()),
        (
            "Amélie (Fabuleux destin d'Amélie Poulain, Le) (2001)",
            "Amélie",
            2001,
            ("Le Fabuleux destin d'Amélie Poulain",),
        ),
        (
            "Wings of Desire (Himmel über Berlin, Der) (1987)",
            "Wings of Desire",
            1987,
            ("Der Himmel über Berlin",),
        ),
        (
            "Shall We Dance? (Shall We Dansu?) (Shall We Dance) (1996)",
            "Shall We Dance?",
            1996,
            ("Shall We Dansu?", "Shall We Dance"),
        ),
        ("Crow: City of Angels, The (1996)", "The Crow: City of Angels", 1996, ()),
        ("Misérables, Les (1995)", "Les Misérables", 1995, ()),
        ("Paris, Texas (1984)", "Paris, Texas", 1984, ()),
        ("  Heat   (1995) ", "Heat", 1995, ()),
        ("(1995)", "(1995)", None, ()),
        ("Double (Double) (2000)", "Double", 2000, ()),  # an aka equal to the title is dropped
        ("Seven (aka Se7en)", "Seven", None, ("Se7en",)),
        (
            "Swedish Love Story, A (Kärlekshistoria, En) (1970)",
            "A Swedish Love Story",
            1970,
            ("En Kärlekshistoria",),
        ),
        (
            "Assault, The (Aanslag, De) (1986)",
            "The Assault",
            1986,
            ("De Aanslag",),
        ),
        (
            "Tin Drum, The (Blechtrommel, Die) (1979)",
            "The Tin Drum",
            1979,
            ("Die Blechtrommel",),
        ),
        (
            "Cabinet of Dr. Caligari, The (Cabinet des Dr. Caligari., Das) (1920)",
            "The Cabinet of Dr. Caligari",
            1920,
            ("Das Cabinet des Dr. Caligari.",),
        ),
    ],
)
def test_parse_title(raw: str, title: str, year: int | None, aka: tuple[str, ...]) -> None:
    assert parse_title(raw) == ParsedTitle(title=title, year=year, aka=aka)


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("Shawshank Redemption, The", "The Shawshank Redemption"),
        ("Homme, L'", "L'Homme"),
        ("Misérables, Les", "Les Misérables"),
        ("Haine, La", "La Haine"),
        ("Samouraï, Le", "Le Samouraï"),
        ("Postino, Il", "Il Postino"),
        ("Boot, Das", "Das Boot"),
        ("Untergang, Der", "Der Untergang"),
        ("Blechtrommel, Die", "Die Blechtrommel"),
        ("Laberinto del fauno, El", "El Laberinto del fauno"),
        ("Olvidados, Los", "Los Olvidados"),
        ("Chicas, Las", "Las Chicas"),
        ("Chiamavano Jeeg Robot, Lo", "Lo Chiamavano Jeeg Robot"),
        ("Sjunde inseglet, Det", "Det Sjunde inseglet"),
        ("Skaldede frisør, Den", "Den Skaldede frisør"),
        ("Pagador de Promessas, O", "O Pagador de Promessas"),
        ("Normais, Os", "Os Normais"),
        ("Filhas do Vento, As", "As Filhas do Vento"),
        ("Noche de los lápices, Una", "Una Noche de los lápices"),
        ("Chien andalou, Un", "Un Chien andalou"),
        ("Femme est une femme, Une", "Une Femme est une femme"),
        ("Soliti ignoti, I", "I Soliti ignoti"),
        ("Kärlekshistoria, En", "En Kärlekshistoria"),
        ("Handful of Dust, A", "A Handful of Dust"),
        ("Satans bröder, Ett", "Ett Satans bröder"),
        ("Herz aus Glas, Ein", "Ein Herz aus Glas"),
        ("Liebe in Deutschland, Eine", "Eine Liebe in Deutschland"),
        ("Meisje met het rode haar, Het", "Het Meisje met het rode haar"),
        ("Aanslag, De", "De Aanslag"),
        ("Ultimi giorni, Gli", "Gli Ultimi giorni"),
        ("Eclisse, L'", "L'Eclisse"),
        ("Men, Women & Children", "Men, Women & Children"),
        ("Paris, Texas", "Paris, Texas"),
        ("Crouching Tiger, Hidden Dragon", "Crouching Tiger, Hidden Dragon"),
        ("Live and Let Die", "Live and Let Die"),
        ("Something, the", "Something, the"),  # articles are matched as capitalised words
        ("The", "The"),
    ],
)
def test_move_article(name: str, expected: str) -> None:
    assert move_article(name) == expected


def test_split_year_and_alternatives() -> None:
    assert split_year("Heat (1995)") == ("Heat", 1995)
    assert split_year("Heat 1995") == ("Heat 1995", None)
    assert split_year("Heat (19955)") == ("Heat (19955)", None)
    assert split_alternatives("A (B) (C)") == ("A", ["B", "C"])
    assert split_alternatives("(B)") == ("(B)", [])


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ("Adventure|Animation|Children|Comedy", ["Adventure", "Animation", "Children", "Comedy"]),
        ("Animation|Children's|Comedy", ["Animation", "Children", "Comedy"]),
        ("(no genres listed)", []),
        ("", []),
        ("Drama|Drama| Crime ", ["Drama", "Crime"]),
    ],
)
def test_parse_genres(raw: str, expected: list[str]) -> None:
    assert parse_genres(raw) == expected
