from macrs_sim.data.catalog import Catalog
from macrs_sim.data.grounding import Grounder, normalize_title, split_year


def test_split_and_normalize() -> None:
    assert split_year("Heat (1995)") == ("Heat", 1995)
    assert split_year("Heat") == ("Heat", None)
    assert normalize_title("The Matrix (1999)") == "matrix"
    assert normalize_title("Matrix, The") == "matrix"
    assert normalize_title('"Amélie"') == "amelie"
    assert normalize_title("Fast & Furious") == "fast and furious"


def test_exact_normalized_fuzzy_and_none(catalog: Catalog) -> None:
    g = Grounder(catalog)
    exact = g.ground("Heat (1995)")
    assert (exact.item_id, exact.method, exact.score) == ("m1", "exact", 1.0)
    norm = g.ground("the matrix")
    assert (norm.item_id, norm.method, norm.score) == ("m2", "normalized", 1.0)
    assert g.ground("Amelie (2001)").item_id == "m6"
    fuzzy = g.ground("The Godfater")  # 'godfater' vs 'godfather': ratio 2*8/17 = 0.9412
    assert (fuzzy.item_id, fuzzy.method, fuzzy.score) == ("m8", "fuzzy", 0.9412)
    miss = g.ground("Completely Unknown Film")
    assert miss.item_id is None and miss.method == "none" and miss.score < 0.88
    assert miss.title == "Completely Unknown Film"


def test_stated_year_picks_the_remake(catalog: Catalog) -> None:
    g = Grounder(catalog)
    assert g.ground("Heat (1986)").item_id == "m7"
    assert g.ground("heat").item_id == "m1"  # no year: the first listed


def test_alternative_titles_ground_but_never_shadow_a_main_title() -> None:
    from macrs_sim.protocol import Item

    cat = Catalog(
        [
            Item(item_id="4", title="Seven", year=1995, aka=("Se7en",)),
            Item(item_id="7", title="L'Avventura", year=1960, aka=("The Adventure",)),
            Item(item_id="9", title="The Adventure", year=2011),
        ]
    )
    g = Grounder(cat)
    assert (g.ground("Se7en").item_id, g.ground("Se7en").method) == ("4", "exact")
    assert g.ground("se7en (1995)").item_id == "4"
    assert g.ground("The Adventure").item_id == "9"  # the main title wins over an aka
    assert g.ground("Avventura").item_id == "7"


def test_describe_includes_enrichment() -> None:
    from macrs_sim.protocol import Item

    item = Item(
        item_id="1",
        title="Heat",
        year=1995,
        genres=("Crime",),
        director="Michael Mann",
        overview="A thief and a detective.",
    )
    assert Catalog([item]).describe("1") == (
        "Heat (1995); Crime; directed by Michael Mann; plot: A thief and a detective."
    )
