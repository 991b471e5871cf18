"""Prompt files speak the dataset's domain: the library fills its words when a template is
loaded. Films must read exactly as before the words existed; other domains never read
"movie" or "film"; overrides may use the words too."""

from __future__ import annotations

import hashlib
from pathlib import Path
from string import Template

import pytest

import macrs_sim.prompts
from macrs_sim.data.domain import BUILTIN_DOMAINS, BUSINESSES, GAMES, MOVIES, PRODUCTS, Domain
from macrs_sim.errors import ConfigError
from macrs_sim.prompts import PromptLibrary
from macrs_sim.prompts.words import fill_words

PROMPTS = Path(macrs_sim.prompts.__file__).parent
NAMES = sorted(p.relative_to(PROMPTS).with_suffix("").as_posix() for p in PROMPTS.rglob("*.txt"))

# sha256 of each file's text at commit ace02ed, the last before the domain words: what the
# film prompts must still be once MOVIES' words are filled in. A prompt edit meant to change
# what films are shown updates its line here, deliberately (sha256 of the filled text).
FILM_SHA256 = dict(
    line.split()
    for line in """
final_list b0449e50f848349a6dc7b4b98a0a927387b83f1de511f84f89206c8371621c6c
info_reflector 022f3935bdfcdbb6721565c5e553ed15742f0d64247ba8f92f9bb3108de072c7
interecagent/chat 3bf35e9d7888ced3bf307f14ad62e497e5681919fb5220c2687db0e69f376325
interecagent/critic b217e5a29fa2e30947d0f754a142c5a5ffa2bace31ab9dbf048352c619ee4d79
interecagent/demo_plan_requests 7ee18e008c1a64f584222a0a362e042a59d67f0ee5d16daa8af2d826a37f703d
interecagent/demo_planner 5b9476b710efb48e14565fa76d879e91976d9a64cd6a7843e952616966c6b2e7
interecagent/demo_requests d874e3f8e9cfc6da803b57dc26526700cf761a21f3aaf35e41fb35b7fb1aa5f5
interecagent/one_turn_llm 412156ae2559b6239030db8c809d7065f5d7c53a0268f26d683938fb9c40f596
interecagent/one_turn_ranking a4527d40f9a1ea87291b175b9ac4342a42eb164a32558ce48a7a59104eb4a7fc
interecagent/one_turn_retrieval d14449048178dcac77cf161164bcc919254c79c64ade67342a1cc3684b6556c1
interecagent/planner 6b2440e4a1feaa1988272dbf9e177667dd3427f877c7b7b96e0ea77c8d61ce06
interecagent/profile 558dff12ee299efd7d707f733661b2a7f6b1c2a8603d35fabdb288efe862d5e9
interecagent/react e4586d322e8c9ea9947f17fad7940777df853fe40313b96930e6737089498ac3
interecagent/reply 983237f264493ade7db58a2146f4d4ebb4c271a57928a8c3f6abe00c90c5e491
interecagent/tools 57c5f161fa093389ab50de17b49e2944e4a2da4d10413aef3fe4a0c596b97f85
judge 53266780fb32b0c4e9935b8ccfca6539a8ea5f9919bc422a0c49df2ddd128cf7
planner 7ae5927447b943b81ed6fa643b146a3b4e0ad7f88f7ac5755842196b181f7800
recmind/agent 985355161b947b3013f81fc8482c0bcbcc0c2cc34d4ca4f771e932e4f9b22c93
recmind/inspire 95291d77ad37c434e2ccade7924075a2039990f3e5c3d26c773878e1db51a71a
recmind/search 2d36ca78134d3dc8f19e43cbda9645e11f992b8aa8078edeea16d4a1535bdacc
recmind/sql 780c662dc6875a053e7b3afcafac4a2d4861ab52f770a90c2db007e5964fe0f2
recmind/summarize 3e504f9ee7816f6df258368101cc5a32311e27beef2235cdf6d50677676c5906
recmind/task cfed3a86be3ca9f75cb48797054e554c0efb73928c9cd4fdeecd9ab0061f24d0
recmind/tools cf13c3e91f547627614a0ef1c5f4803a38cebc77f7071fe6185e37861a208449
recmind/tot 1c129b37720ecfaa0292b5534bed1bf9ba55e21a20fc3f4f327db353dd8e3f31
recmind_tasks/direct 11bf9ece0f1545fca2a1621558881edacc40812b6275301fd524f16dc483de06
recmind_tasks/explanation 193d4fdd25480cbcf3d50cf7e8fa123bff29c8db66faa664bb2452d4900766dd
recmind_tasks/judge 317f05a4784222333cee0759296b9fe57ee5b6de007f4dc84b32bf802ec3310f
recmind_tasks/rating ad04f0436a010bd0cd8f27600623d6ce898544f495cc1f8a319a2daa38bfa60a
recmind_tasks/sequential ce2f6ea3c5e90407c07b41f14ac97a7fae3e7fdfe1e11509b9fd80c8a0dddd75
recmind_tasks/solver 5505c098dd3e7bdc60a7a347ddbd6952c5ae01eb64f0b473479d5d6362ac82b8
recmind_tasks/summary b75fae0ea1ba20c63165d8abe4deb727367455caeb0f45269aaccafc6aed6133
responder_ask 94ad6bd1a2c570cce0ca5431eb8a15ec8b2b6cc574dce339a3bff50c170d3aef
responder_chat 10ea428cc6cdce3abb85dbb538ff24d0409df2202bea8d64e4e7b6d17b05b3f9
responder_recommend 1cb42af344d2dff08760c42621e2fd0dbbfc05921a5595d58120f71bc556dcb2
single_llm c41e24f5105cf41d83a7b3ddf7ef2a44db62c4d012679a36335eec98b4b98f85
single_llm_free 776334cc8c965b95242eb3bf936c6ac3284e8c1a14e8603e0899bd2a2fb3d5fa
strategy_reflector 7031ec5b33bd413e32f5b923e296faa6f9840b57e8ca3ed65668b943f84e9186
target_profile 56ad4421bc4302b679f103bc00f0440ad7e9e4c65aefd18d51510e825c129383
toolrec/llmrank 608b260025ace4bd0886e3266399fab0e2d505af15512262432eed246174c168
toolrec/plan 7f1f700a60517e6077c85349aff3e84465c6ce23508f1c1e4fd9ae703d35ee64
toolrec/rank f80c208db1a908863776757b62c9a7fd63e554c0500c1cffd5f465ddbd4f13d9
toolrec/rank_candidates bf7848f4158b33bbeff0da1b1543792eecf495c85e8c6b1fb9b4bcb1c45bac5b
toolrec/simulation 117fd713bac09a7d1c5971ee7660f1308ec3bff8b38b084b5c40fbf896435973
user_simulator a95ddea01fed593340c07e7f655aad1fd583849c2ee8c54a4926d8112e8b832c
user_simulator_interecagent 5129dc97185562259a9bf720c5da43155dce3fa915f54821ab24af0bb661a049
""".strip().splitlines()
)


def placeholders(library: PromptLibrary, name: str) -> dict[str, set[str]]:
    return {s: set(Template(b).get_identifiers()) for s, b in library.get(name).sections.items()}


def test_film_prompts_are_the_text_they_were_and_hash_as_before() -> None:
    assert sorted(FILM_SHA256) == NAMES  # a new prompt file gets its line too
    films = PromptLibrary()
    for name in NAMES:
        filled = fill_words((PROMPTS / f"{name}.txt").read_text(encoding="utf-8"), MOVIES.words())
        assert hashlib.sha256(filled.encode()).hexdigest() == FILM_SHA256[name], name
        assert films.get(name).sha256 == FILM_SHA256[name], name  # what runs record


@pytest.mark.parametrize("domain", [PRODUCTS, BUSINESSES, GAMES], ids=lambda d: d.name)
def test_other_domains_never_read_movie_or_film(domain: Domain) -> None:
    library = PromptLibrary(domain=domain)
    for name in NAMES:
        for section, body in library.get(name).sections.items():
            low = body.lower()
            assert "movie" not in low and "film" not in low, (domain.name, name, section)


@pytest.mark.parametrize("domain", BUILTIN_DOMAINS, ids=lambda d: d.name)
def test_render_sees_only_its_callers_placeholders(domain: Domain) -> None:
    """No domain word is left for render, and every domain asks its callers the same."""
    library, films = PromptLibrary(domain=domain), PromptLibrary()
    for name in NAMES:
        found = placeholders(library, name)
        assert found == placeholders(films, name), name
        assert not set().union(*found.values()) & set(domain.words()), name
        # The hash names the text shown: the same as films' exactly when the text is.
        same_text = library.get(name).sections == films.get(name).sections
        assert (library.get(name).sha256 == FILM_SHA256[name]) == same_text, name


def test_words_of_the_product_domain_reach_the_text() -> None:
    profile = PromptLibrary(domain=PRODUCTS).get("target_profile")
    assert profile.render("user", description="X").startswith(
        "Product information: X\n\nSummarise this product into 4 to 8 short keywords of the "
        'form "attribute: value", as in {category: moisturizer, brand: CeraVe, price range: '
    )
    rank = PromptLibrary(domain=BUSINESSES).get("toolrec/llmrank").sections["user"]
    assert rank.startswith("I've visited the following restaurants in the past in order:")
    assert "according to my visiting history" in rank


TARGET = """[system]
You summarise $item_nouns.
[user]
$Item_noun: $description ($$5)
[user_no_people]
Film: $description
"""


def test_an_override_may_use_the_domain_words(tmp_path: Path) -> None:
    (tmp_path / "target_profile.txt").write_text(TARGET, encoding="utf-8")
    products = PromptLibrary(tmp_path, domain=PRODUCTS)
    template = products.get("target_profile")
    assert template.sections["system"] == "You summarise products."
    assert template.render("user", description="Gel") == "Product: Gel ($5)"
    filled = TARGET.replace("$item_nouns", "products").replace("$Item_noun", "Product")
    assert products.hashes() == {"target_profile": hashlib.sha256(filled.encode()).hexdigest()}
    films = PromptLibrary(tmp_path).get("target_profile")
    assert films.render("user", description="Heat") == "Movie: Heat ($5)"


def test_an_override_with_an_unknown_placeholder_is_still_refused(tmp_path: Path) -> None:
    (tmp_path / "target_profile.txt").write_text(TARGET + "$item_nounz\n", encoding="utf-8")
    with pytest.raises(ConfigError, match=r"unknown placeholder \$item_nounz"):
        PromptLibrary(tmp_path, domain=GAMES)


def test_fill_words_keeps_every_other_dollar() -> None:
    words = {"item_noun": "deal at $5"}
    assert fill_words("$item_noun ${item_noun} $$ $x $ 1", words) == (
        "deal at $$5 deal at $$5 $$ $x $ 1"
    )


def test_a_domain_names_only_known_words() -> None:
    with pytest.raises(ValueError, match=r"no prompt word \$watch_verb"):
        Domain("shows", "show", "shows", "genre", phrases=(("watch_verb", "watch"),))
