from macrs_sim.simulators.leak_guard import LeakGuard


def test_multi_word_titles_match_loosely() -> None:
    g = LeakGuard("The Matrix Reloaded")
    assert g.leaks("I loved matrix reloaded!")
    assert g.leaks("Something like THE MATRIX - RELOADED")
    assert not g.leaks("I want something with a matrix of plots")
    assert g.redact("I want The Matrix Reloaded again") == "I want that movie again"


def test_short_titles_match_exact_case_only() -> None:
    g = LeakGuard("Up")
    assert g.leaks("Is it Up?")
    assert not g.leaks("Cheer me up with a comedy")
    assert g.redact("Maybe Up would work") == "Maybe that movie would work"


def test_six_letter_single_word_titles_match_loosely() -> None:
    g = LeakGuard("Amélie")
    assert g.leaks("something like amelie")
    assert not g.leaks("something French")
