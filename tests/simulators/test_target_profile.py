from macrs_sim.data.catalog import Catalog
from macrs_sim.llm.scripted import ScriptedChatCompletionClient
from macrs_sim.prompts import PromptLibrary
from macrs_sim.protocol import Item, Sample
from macrs_sim.simulators.llm_user import LLMUserSimulator
from macrs_sim.simulators.target_profile import (
    TargetKeywords,
    clean_keywords,
    prepare_sample,
    split_entry,
    with_people,
)


def test_keywords_naming_the_target_or_its_people_are_dropped(catalog: Catalog) -> None:
    kws = ["heist", "Heat wave", "Al Pacino", "los angeles", "HEIST", "  "]
    # 'Heat' is one short word: only the exact spelling "Heat" leaks.
    assert clean_keywords(kws, catalog, "m1") == ("heist", "los angeles")
    # Co-directors are guarded one by one.
    assert clean_keywords(["Lilly Wachowski", "bullet time"], catalog, "m2") == ("bullet time",)


async def test_prepare_sample_builds_profile_then_opening(catalog: Catalog, sample: Sample) -> None:
    client = ScriptedChatCompletionClient(
        {
            "target_profile": lambda r: TargetKeywords(
                keywords=["The Matrix", "cyberpunk", "kung fu"]
            ),
            "opening": lambda r: "I want something like The Matrix, cyberpunk style.",
        }
    )
    raw = sample.model_copy(update={"target_profile": (), "opening": ""})
    out = await prepare_sample(client, PromptLibrary(), catalog, raw, retries=1, people=False)
    assert out.target_profile == ("cyberpunk", "kung fu")
    assert out.opening == "I want something like that movie, cyberpunk style."
    assert (out.opening_leak_retries, out.opening_redacted) == (2, True)
    description = str(client.calls[0].messages[-1].content)
    assert (
        "The Matrix (1999); Action, Sci-Fi; directed by Lana Wachowski & Lilly Wachowski"
        in description
    )
    opening_system = str(client.calls[1].messages[0].content)
    assert "[target movie information]: cyberpunk, kung fu" in opening_system


PAPER_USER = (
    "Movie information: Seven (1995); Crime, Thriller; directed by David Fincher; starring "
    "Brad Pitt, Morgan Freeman, Kevin Spacey\n\n"
    'Summarise this movie into 4 to 8 short keywords of the form "attribute: value", as in '
    "{genre: action, actor: Arnold Schwarzenegger, director: Chuck Russell, feature: witness "
    "protection}: its genre, its director, its leading actors and its distinctive features "
    "(era, mood, themes, setting). Do not include the movie's title. "
    'Reply in JSON with "keywords": a list of strings.'
)


def seven_catalog(catalog: Catalog) -> Catalog:
    seven = Item(
        item_id="m9",
        title="Seven",
        year=1995,
        genres=("Crime", "Thriller"),
        director="David Fincher",
        cast=("Brad Pitt", "Morgan Freeman", "Kevin Spacey"),
        aka=("Se7en",),
    )
    return Catalog([*catalog, seven])


async def test_paper_profile_keeps_people_and_drops_only_titles(catalog: Catalog) -> None:
    """Paper §4.1 / Figure 7: attribute: value keywords, director and leading actors kept."""
    cat = seven_catalog(catalog)
    keywords = [
        "genre: crime",
        "title: Se7en",  # the alternative title: dropped
        "actor: Brad Pitt",
        "feature: seven deadly sins",  # lower-case "seven": an everyday word, kept
        "Genre: Crime",  # a repeat
        "setting: rainy city",
    ]
    client = ScriptedChatCompletionClient(
        {
            "target_profile": lambda r: TargetKeywords(keywords=keywords),
            "opening": lambda r: "I want a dark crime thriller with Brad Pitt.",
        }
    )
    raw = Sample(sample_id="s9", user_id="u9", history=("m1",), target_id="m9")
    out = await prepare_sample(client, PromptLibrary(), cat, raw, retries=1)
    assert str(client.calls[0].messages[-1].content) == PAPER_USER
    # The catalog's director and second lead are added; Brad Pitt is there already.
    assert out.target_profile == (
        "genre: crime",
        "actor: Brad Pitt",
        "feature: seven deadly sins",
        "setting: rainy city",
        "director: David Fincher",
        "actor: Morgan Freeman",
    )
    system = str(client.calls[1].messages[0].content)
    assert (
        "[target movie information]: genre: crime, actor: Brad Pitt, feature: seven deadly "
        "sins, setting: rainy city, director: David Fincher, actor: Morgan Freeman" in system
    )
    assert (out.opening, out.opening_leak_retries, out.opening_redacted) == (
        "I want a dark crime thriller with Brad Pitt.",
        0,
        False,
    )


def test_people_whose_names_give_the_title_away_are_not_added() -> None:
    senna = Item(item_id="x", title="Senna", genres=("Documentary",), cast=("Ayrton Senna",))
    assert with_people(("genre: documentary",), senna) == ("genre: documentary",)
    assert split_entry("director: Chuck Russell") == ("director", "Chuck Russell")
    assert split_entry("witness protection") == (None, "witness protection")
    assert split_entry("Star Wars: Episode IV: A New Hope")[0] == "star wars"


async def test_leaking_opening_is_regenerated_counted_then_redacted(
    catalog: Catalog, sample: Sample
) -> None:
    cat = seven_catalog(catalog)
    openings = iter(["Do you know Se7en?", "A grim thriller about a serial killer, please."])
    client = ScriptedChatCompletionClient(
        {
            "target_profile": lambda r: TargetKeywords(keywords=["genre: crime"]),
            "opening": lambda r: next(openings),
        }
    )
    raw = Sample(sample_id="s9", user_id="u9", history=("m1",), target_id="m9")
    out = await prepare_sample(client, PromptLibrary(), cat, raw, retries=1)
    assert (out.opening, out.opening_leak_retries, out.opening_redacted) == (
        "A grim thriller about a serial killer, please.",
        1,
        False,
    )
    retry = client.calls[-1].messages
    assert str(retry[-2].content) == "Do you know Se7en?"
    assert str(retry[-1].content) == (
        "Your message named the movie you are looking for. Write it again without its title."
    )
    # Always leaking: max_leak_retries regenerations, then the redaction; the simulated
    # user's opening turn carries both counts into the dialogue.
    always = ScriptedChatCompletionClient(
        {
            "target_profile": lambda r: TargetKeywords(keywords=["genre: crime"]),
            "opening": lambda r: "Something like Seven, please.",
        }
    )
    out2 = await prepare_sample(always, PromptLibrary(), cat, raw, retries=1, max_leak_retries=3)
    assert (out2.opening, out2.opening_leak_retries, out2.opening_redacted) == (
        "Something like that movie, please.",
        3,
        True,
    )
    sim = LLMUserSimulator(out2, cat, always, PromptLibrary(), dialogue_id="d", system_name="S")
    opening = await sim.open()
    assert (opening.text, opening.leak_retries, opening.redacted) == (out2.opening, 3, True)
