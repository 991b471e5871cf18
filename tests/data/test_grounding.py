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
