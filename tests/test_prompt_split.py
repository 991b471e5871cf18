"""PromptTemplate.render joins a body split once (prompts/split.py) instead of running
string.Template.substitute per call: the same text and the same errors, checked against
substitute itself on hand-made edge cases, on fuzzed bodies and on every shipped prompt."""

from __future__ import annotations

import random
from pathlib import Path
from string import Template

import pytest

import macrs_sim.prompts
from macrs_sim.data.domain import MOVIES
from macrs_sim.errors import ConfigError
from macrs_sim.prompts import PromptLibrary, PromptTemplate, parse_prompt
from macrs_sim.prompts.split import SplitTemplate, split_template
from macrs_sim.prompts.words import fill_words

PROMPTS = Path(macrs_sim.prompts.__file__).parent


def by_substitute(name: str, section: str, body: str, /, **values: object) -> str:
    """What render did before the split: the reference for every comparison here."""
    try:
        return Template(body).substitute({k: str(v) for k, v in values.items()})
    except KeyError as err:
        raise ConfigError(f"prompt '{name}' [{section}]: no value for ${err.args[0]}") from None


def outcome(render: object, /, *args: object, **values: object) -> tuple[str, str]:
    """("ok", text) or (error type, message), so results and errors compare alike."""
    assert callable(render)
    try:
        return "ok", render(*args, **values)
    except Exception as err:
        return type(err).__name__, str(err)


def rendered(body: str, **values: object) -> tuple[str, str]:
    return outcome(PromptTemplate("p", {"user": body}, "h").render, "user", **values)


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        ("", ""),
        ("no placeholders {at} all }{", "no placeholders {at} all }{"),
        ("Hi $name.", "Hi Ann."),
        ("Hi ${name}s and $name_2!", "Hi Anns and 7!"),
        ("$name$name ${name}", "AnnAnn Ann"),
        ("costs $$5, $$name is literal, $$$name is not", "costs $5, $name is literal, $Ann is not"),
        ("$NAME and $Name differ", "upper and mixed differ"),  # names are case-sensitive
        ("line 1\r\n$name ✓ \ufeff{json: $name}\n", "line 1\r\nAnn ✓ \ufeff{json: Ann}\n"),
        ("$_", "underscore"),
    ],
)
def test_render_gives_exact_text(body: str, expected: str) -> None:
    values = {"name": "Ann", "name_2": 7, "NAME": "upper", "Name": "mixed", "_": "underscore"}
    assert rendered(body, **values) == ("ok", expected)
    assert rendered(body, **values) == outcome(by_substitute, "p", "user", body, **values)


def test_a_value_is_inserted_as_it_is_never_substituted_again() -> None:
    assert rendered("[$a]", a="$b ${b} $$", b="no") == ("ok", "[$b ${b} $$]")


def test_values_are_str_of_what_was_given() -> None:
    assert rendered("$n $none $f $unused", n=3, none=None, f=0.5, unused=[1]) == (
        "ok",
        "3 None 0.5 [1]",
    )


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        ("$a $b $c", ("ConfigError", "prompt 'p' [user]: no value for $b")),  # the first
        ("${c} $b", ("ConfigError", "prompt 'p' [user]: no value for $c")),
        ("tail $", ("ValueError", "Invalid placeholder in string: line 1, col 6")),
        ("x\n ${a", ("ValueError", "Invalid placeholder in string: line 2, col 2")),
        ("$a ${ a }", ("ValueError", "Invalid placeholder in string: line 1, col 4")),
        ("$1 dollar", ("ValueError", "Invalid placeholder in string: line 1, col 1")),
        ("$é", ("ValueError", "Invalid placeholder in string: line 1, col 1")),
        ("$b then $", ("ConfigError", "prompt 'p' [user]: no value for $b")),  # b comes first
    ],
)
def test_errors_are_substitute_s(body: str, expected: tuple[str, str]) -> None:
    assert rendered(body, a="A") == expected
    assert outcome(by_substitute, "p", "user", body, a="A") == expected


def test_a_missing_section_is_one_line() -> None:
    assert outcome(PromptTemplate("p", {}, "h").render, "user") == (
        "ConfigError",
        "prompt 'p': missing section [user]",
    )


def test_the_split_itself() -> None:
    assert split_template("a $x b ${y}$$ c $x") == SplitTemplate(
        "a ", (("x", " b "), ("y", "$ c "), ("x", ""))
    )
    assert split_template("$$") == SplitTemplate("$", ())
    assert split_template("50 $ off") is None


def test_fuzzed_bodies_render_as_substitute_does() -> None:
    rng = random.Random(18)
    pieces = ["$", "$$", "${", "}", "{", "a", "b", "c", "_", "1", "é", " ", "\n", "$a", "${b}"]
    for _ in range(5000):
        body = "".join(rng.choice(pieces) for _ in range(rng.randint(0, 12)))
        values = {k: f"<{k}>" for k in rng.sample(["a", "b", "c", "_", "a_", "ab"], 4)}
        expected = outcome(by_substitute, "p", "user", body, **values)
        assert rendered(body, **values) == expected, body


def shipped() -> list[tuple[str, str, str]]:
    """(prompt name, section, body) of every prompt file in the package, subfolders too,
    with the film domain's words filled in as the library fills them."""
    found = []
    for path in sorted(PROMPTS.rglob("*.txt")):
        name = path.relative_to(PROMPTS).with_suffix("").as_posix()
        text = fill_words(path.read_text(encoding="utf-8"), MOVIES.words())
        for section, body in parse_prompt(name, text).sections.items():
            found.append((name, section, body))
    return found


def test_every_shipped_prompt_renders_as_with_substitute() -> None:
    library, sections = PromptLibrary(), shipped()
    files = {path for path in PROMPTS.rglob("*.txt")}
    assert len({name for name, _, _ in sections}) == len(files) > 30  # every file was read
    for name, section, body in sections:
        assert split_template(body) is not None, (name, section)
        names = Template(body).get_identifiers()
        values = {n: f"«{n} ${n} {{}}»\r\n" for n in names}
        text = library.get(name).render(section, **values)
        assert text == by_substitute(name, section, body, **values), (name, section)
        assert all(value in text for value in values.values()), (name, section)
        if names:  # leaving out the last placeholder: the same one-line error
            del values[names[-1]]
            got = outcome(library.get(name).render, section, **values)
            assert got == outcome(by_substitute, name, section, body, **values)
            assert got[0] == "ConfigError", (name, section)
