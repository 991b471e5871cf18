from macrs_sim.data.catalog import Catalog
from macrs_sim.llm.scripted import ScriptedChatCompletionClient
from macrs_sim.prompts import PromptLibrary
from macrs_sim.protocol import Sample
from macrs_sim.simulators.target_profile import TargetKeywords, clean_keywords, prepare_sample


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
    description = str(client.calls[0].messages[-1].content)
    assert (
        "The Matrix (1999); Action, Sci-Fi; directed by Lana Wachowski & Lilly Wachowski"
        in description
    )
    opening_system = str(client.calls[1].messages[0].content)
    assert "[target movie information]: cyberpunk, kung fu" in opening_system
