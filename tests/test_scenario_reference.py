"""The generated scenario reference (scripts/config_reference.py) and its committed page."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType
from typing import Annotated, Literal

import pytest
from pydantic import BaseModel, Field

ROOT = Path(__file__).resolve().parents[1]


def _load() -> ModuleType:
    spec = importlib.util.spec_from_file_location(
        "config_reference", ROOT / "scripts" / "config_reference.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


ref = _load()


class Fast(BaseModel):
    """A fast engine.

    Second paragraph, left out.
    """

    engine: Literal["fast"] = "fast"
    # How fast, in | pipes |.
    speed: float = Field(default=1.5, gt=0, le=10)


class Other(BaseModel):
    engine: str
    opaque: dict[str, str] = Field(default_factory=lambda: {"a": "b"})


class Price(BaseModel):
    usd: float = Field(ge=0, description="Dollars.")


class Item(BaseModel):
    label: str = Field(pattern="^x", description="A label.")
    engine: Fast | None = None


class Root(BaseModel):
    """The root."""

    name: str = Field(description="Its name.")
    engine: Annotated[Fast | Other, Field(union_mode="left_to_right")] = Field(default_factory=Fast)
    items: list[Item] = Field(min_length=1, max_length=3)
    prices: dict[str, Price] = Field(default_factory=dict)
    tags: tuple[Literal["a", "b"], ...] = ("a",)
    limit: int | None = None


class Plain(Item):
    kind: Literal["plain"] = "plain"


class Fancy(Item):
    """Fancy items."""

    kind: Literal["fancy"] = "fancy"
    shine: bool = True


HEAD = "| field | type | default | bounds | meaning |\n|---|---|---|---|---|"


def test_type_names_are_toml_minded() -> None:
    assert ref.type_name(int | None) == "integer or none"
    assert ref.type_name(tuple[Literal["a", "b"], ...]) == 'list of "a" / "b"'
    assert ref.type_name(dict[str, str | int]) == "table of string or integer"
    assert ref.type_name(Annotated[Fast | Other, "x"]) == "table"


def test_values_and_bounds() -> None:
    assert ref.toml_value({"k": (0.1, None, True)}) == "{k = [0.1, none, true]}"
    assert ref.bounds_text(Root.model_fields["items"]) == "length ≥ 1, length ≤ 3"
    assert ref.bounds_text(Fast.model_fields["speed"]) == "> 0, ≤ 10"
    assert ref.bounds_text(Item.model_fields["label"]) == "matches `^x`"
    assert ref.default_text(Other.model_fields["opaque"]) == '{a = "b"}'
    assert ref.default_text(Other.model_fields["engine"]) == "required"


def test_a_comment_stands_in_for_a_missing_description_and_pipes_are_escaped() -> None:
    assert ref.comment_above(Fast, "speed") == "How fast, in | pipes |."
    assert ref.comment_above(Fast, "engine") == ""  # the docstring above is not a comment
    assert ref.table_rows(Fast) == (
        f"{HEAD}\n"
        '| `engine` | "fast" | "fast" |  |  |\n'
        "| `speed` | float | 1.5 | > 0, ≤ 10 | How fast, in \\| pipes \\|. |"
    )


def test_render_walks_unions_lists_dicts_and_kinds_each_model_once() -> None:
    page = ref.render_reference(Root, {"plain": Plain, "fancy": Fancy}, kinds_at="items")
    fast = (
        "A fast engine.\n\n"
        f"{HEAD}\n"
        '| `engine` | "fast" | "fast" |  |  |\n'
        "| `speed` | float | 1.5 | > 0, ≤ 10 | How fast, in \\| pipes \\|. |"
    )
    expected = [
        "# Scenario reference (generated)",
        "Every table and field of a scenario file. Generated from the models by "
        "`python scripts/config_reference.py --write`; do not edit by hand. "
        "Bounds are inclusive (≥, ≤) or strict (>, <).",
        "## Top level",
        "The root.",
        f"{HEAD}\n"
        "| `name` | string | required |  | Its name. |\n"
        "| `engine` | table | its table's defaults |  |  |\n"
        "| `items` | list of table | required | length ≥ 1, length ≤ 3 |  |\n"
        "| `prices` | table of table | {} |  |  |\n"
        '| `tags` | list of "a" / "b" | ["a"] |  |  |\n'
        "| `limit` | integer or none | none |  |  |",
        '## `[engine]` with engine = "fast"',
        fast,
        "## `[engine]` with any other engine",
        f"{HEAD}\n"
        "| `engine` | string | required |  |  |\n"
        '| `opaque` | table of string | {a = "b"} |  |  |',
        "## `[[items]]`",
        f"{HEAD}\n"
        "| `label` | string | required | matches `^x` | A label. |\n"
        "| `engine` | table or none | none |  |  |",
        "`engine` takes the fields of `[engine]`.",
        "## `[prices.NAME]`",
        f"{HEAD}\n| `usd` | float | required | ≥ 0 | Dollars. |",
        '## `[[items]]` with kind = "plain"',
        f'{HEAD}\n| `kind` | "plain" | "plain" |  |  |',
        '## `[[items]]` with kind = "fancy"',
        "Fancy items.",
        f'{HEAD}\n| `kind` | "fancy" | "fancy" |  |  |\n| `shine` | boolean | true |  |  |',
    ]
    assert page == "\n\n".join(expected) + "\n"


def test_a_kind_with_nothing_of_its_own_says_so() -> None:
    assert ref.table_rows(Plain, frozenset(Plain.model_fields)) == "No fields of its own."


def test_the_committed_page_is_current() -> None:
    committed = (ROOT / "docs" / "scenario_reference.md").read_text(encoding="utf-8")
    assert committed == ref.current_page(), (
        "docs/scenario_reference.md is stale: run `python scripts/config_reference.py --write`"
    )


def test_the_page_lists_every_field_and_every_kind() -> None:
    from macrs_sim.agents.registry import known_kinds

    page = ref.current_page()
    for kind in known_kinds():
        assert f'## `[[systems]]` with kind = "{kind}"' in page
    for field in ("`max_turns` | integer | 5 | ≥ 1, ≤ 100 |", "`n_ctx` | integer | 4096 |"):
        assert field in page
    assert "## `[campaign.prices.NAME]`" in page


def test_check_names_the_command_and_write_fixes_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    page = tmp_path / "scenario_reference.md"
    monkeypatch.setattr(ref, "PAGE", page)
    page.write_text("old\n", encoding="utf-8")
    assert ref.main(["--check"]) == 1
    assert capsys.readouterr().err == (
        "docs/scenario_reference.md is stale: run `python scripts/config_reference.py --write`\n"
    )
    assert ref.main(["--write"]) == 0
    assert ref.main(["--check"]) == 0
    assert page.read_text(encoding="utf-8") == ref.current_page()
