from macrs_sim.simulators.leak_guard import LeakGuard, fold, fold_text


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


def test_article_form_of_a_short_title_counts_in_any_case() -> None:
    g = LeakGuard("The Game")
    assert g.leaks("I want the game with Michael Douglas")
    assert g.leaks("maybe THE GAME?")
    assert g.leaks("Something like Game")  # capitalised, as for any short title
    # The bare everyday word does not fire.
    assert not g.leaks("a game night with friends")
    assert not g.leaks("the gamer in me likes twists")
    assert g.redact("I want the game, please") == "I want that movie, please"
    # MovieLens spelling of the same title, and a year in the title.
    assert LeakGuard("Game, The (1997)").leaks("it's the  game")


def test_short_titles_count_when_quoted_never_as_everyday_words() -> None:
    heat = LeakGuard("Heat")
    assert heat.leaks('Something like "heat" would be nice')
    assert heat.leaks("Like *heat*?")
    assert not heat.leaks("I can't stand the heat of summer")
    assert not heat.leaks("It heats up slowly")
    assert heat.redact('Not "heat" again') == "Not that movie again"


def test_accents_digits_and_redaction_keep_the_rest_of_the_text() -> None:
    se7en = LeakGuard("Se7en")
    assert se7en.leaks("like se7en!") and not se7en.leaks("seven deadly sins")
    amelie = LeakGuard("Amélie")
    assert amelie.redact("J'adore AMÉLIE, vraiment") == "J'adore that movie, vraiment"
    assert amelie.redact("Amelie and Amélie") == "that movie and that movie"


def test_alternative_titles_are_guarded_too() -> None:
    g = LeakGuard("Seven", "Se7en")
    assert g.leaks("I mean se7en") and g.leaks("I mean Seven")
    assert not g.leaks("seven samurai")  # a six-letter title is loose, but "Seven" has five
    crouching = LeakGuard("Crouching Tiger, Hidden Dragon", "Wo hu cang long")
    assert crouching.leaks("like wo hu cang long")
    assert crouching.redact("Wo Hu Cang Long is great") == "that movie is great"


def test_function_word_titles_count_mid_sentence_only() -> None:
    it = LeakGuard("It")
    assert not it.leaks("It should be scary. It is fine if it is long.")
    assert not it.leaks('Sure! "Maybe." It could work')
    assert it.leaks("I want to see It tonight")
    assert it.leaks('Something like "it"')
    assert it.redact("Have you seen It? It is scary.") == "Have you seen that movie? It is scary."
    # Other short titles still count at the start of a sentence.
    assert LeakGuard("Up").leaks("Up would be perfect.")


def test_fold_text_is_folds_text_on_ascii_and_accented_input() -> None:
    assert fold_text("Tom & Jerry ") == "Tom  and  Jerry "
    assert fold_text("Amélie\r\n&") == "Amelie\r\n and "
    for text in ("", "Se7en & co.", "Amélie & Léon", "“Up”\t", "\ufeffHeat"):
        assert fold_text(text) == fold(text)[0]
    guard = LeakGuard("Tom and Jerry")
    assert guard.leaks("I loved tom & jerry!")
