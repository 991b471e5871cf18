"""A system's options are checked whole before a campaign makes its run folder (issue 27 §1):
its options model, its spec's `check` hook, then its `prepare`."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Literal

import pytest

from macrs_sim.agents import registry
from macrs_sim.agents.checks import CheckContext, check_entries
from macrs_sim.agents.interecagent.spec import InteRecAgentSystemOptions
from macrs_sim.agents.recmind.spec import RecMindSystemOptions
from macrs_sim.agents.registry import SystemOptions, SystemSpec, register_system, resolve_entries
from macrs_sim.agents.toolrec.spec import ToolRecSystemOptions
from macrs_sim.campaign.runner import run_campaign_async
from macrs_sim.config import DataConfig, SystemEntry, parse_scenario
from macrs_sim.data.dataset import demo_dataset
from macrs_sim.errors import ConfigError
from tests.agents.third_party import SPEC as FIRST

DATA = DataConfig(history_len=5, min_history=2, n_samples=2)


def entry(**fields: Any) -> SystemEntry:
    return SystemEntry.model_validate({"name": "S", **fields})


def refused(**fields: Any) -> str:
    with pytest.raises(ConfigError) as err:
        resolve_entries([entry(**fields)])
    return str(err.value)


def test_ranker_params_are_checked_when_the_scenario_is_read() -> None:
    assert refused(kind="interecagent", ranker_params={"dimm": "8"}) == (
        'systems[0] (kind "interecagent"): ranker_params: dimm: Extra inputs are not permitted'
    )
    assert refused(kind="interecagent", ranker_params={"heads": "3"}) == (
        'systems[0] (kind "interecagent"): ranker_params: heads: 3 does not divide dim = 64'
    )
    assert refused(kind="interecagent", ranker="bpr", ranker_params={"dim": "8"}) == (
        'systems[0] (kind "interecagent"): ranker_params: only ranker "sasrec" takes them'
        ' (ranker is "bpr")'
    )
    assert refused(kind="toolrec", ranker_params={"epochs": "-1"}).endswith(
        "ranker_params: epochs: Input should be greater than or equal to 1"
    )
    assert refused(kind="toolrec", retriever_params={"tune_lrr": "1"}).endswith(
        "retriever_params: tune_lrr: Extra inputs are not permitted"
    )
    assert refused(kind="toolrec", retriever="ranker", retriever_params={"tune_lr": "1"}).endswith(
        'retriever_params: only retriever "trained" takes them (retriever is "ranker")'
    )
    # A bpr base ranker takes bpr's parameters: SASRec's `position` is not one of them.
    assert refused(kind="toolrec", base_ranker="bpr", ranker_params={"position": "false"}).endswith(
        "ranker_params: position: Extra inputs are not permitted"
    )


def test_stage_two_is_checked_over_the_backbone_it_extends() -> None:
    """heads = 4 is fine on the default dim 64, not on the backbone's dim 6."""
    assert refused(
        kind="toolrec", ranker_params={"dim": "6"}, retriever_params={"heads": "4"}
    ).endswith("retriever_params: heads: 4 does not divide dim = 6")


def test_defaults_and_a_plain_ranker_without_params_still_load() -> None:
    ira, bpr, tool = resolve_entries(
        [entry(kind="interecagent"), entry(kind="interecagent", ranker="bpr"),
         entry(kind="toolrec", base_ranker="itemcf", ranker_params={"neighbours": "5"})]
    )  # fmt: skip
    assert isinstance(ira, InteRecAgentSystemOptions) and ira.ranker_params == {"position": "false"}
    assert isinstance(bpr, InteRecAgentSystemOptions) and bpr.ranker == "bpr"
    assert isinstance(tool, ToolRecSystemOptions)


@pytest.mark.parametrize(
    ("url", "why"),
    [
        ("http://", "(expected http://HOST[:PORT]/PATH)"),
        ("http://:8080/crs", "(expected http://HOST[:PORT]/PATH)"),
        ("http://host:99999/crs", "(bad port or host)"),
        ("http://user:s3cret@[::1/crs", "(bad port or host)"),
        ("http://my host/crs", "(spaces or control characters)"),
        ("http://host/\x1b[2J", "(spaces or control characters)"),
        ("http://host:0/crs", "(port 0)"),
    ],
)
def test_an_http_url_that_does_not_parse_is_refused_without_repeating_it(
    url: str, why: str
) -> None:
    line = refused(kind="http", url=url)
    assert line == f'systems[0] (kind "http"): url: not a valid http(s) URL {why}'
    assert "s3cret" not in line


def context(**environ: str) -> CheckContext:
    return CheckContext(demo_dataset(DATA), environ)


def test_recmind_web_search_needs_its_key_in_the_environment() -> None:
    web = RecMindSystemOptions(name="R", search_backend="web", web_api_key_env="MY_KEY")
    with pytest.raises(ConfigError) as err:
        check_entries([web], context(MY_KEY="  "))
    assert str(err.value) == (
        'systems[0] (kind "recmind"): web_api_key_env: search_backend "web" needs an API key'
        " in $MY_KEY, which is not set"
    )
    check_entries([web], context(MY_KEY="k"))
    # No search tool, or the offline index: no key needed.
    check_entries([web.model_copy(update={"search_tool": False})], context())
    check_entries([RecMindSystemOptions(name="R")], context())


def test_a_ranker_too_big_for_the_catalog_fails_its_check() -> None:
    (big,) = resolve_entries(
        [entry(kind="toolrec", ranker_params={"dim": "4096", "batch_size": "100000"})]
    )
    with pytest.raises(ConfigError) as err:
        check_entries([big], context())
    n = len(demo_dataset(DATA).catalog)
    assert str(err.value).startswith(
        'systems[0] (kind "toolrec"): ranker_params: sasrec parameters (dim 4096, max_len 50,'
        f" batch_size 100000) need about 2,455 GiB to train on {n:,} items"
    )


class Checked(SystemOptions):
    kind: Literal["checked"] = "checked"


seen: list[tuple[str, int, str]] = []


def check_checked(options: Checked, ctx: CheckContext) -> None:
    seen.append((options.name, len(ctx.dataset.catalog), ctx.environ.get("ZONE", "")))
    raise ValueError("colour: must be\nblue")


def scenario(*systems: dict[str, Any], **model: Any) -> Any:
    return parse_scenario({
        "name": "checks", "model": model or {"backend": "scripted"}, "data": DATA.model_dump(),
        "simulator": {"kind": "agenda"}, "protocol": {"max_turns": 2}, "systems": list(systems),
    })  # fmt: skip


async def test_a_check_hook_stops_the_campaign_before_its_run_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(registry, "_SPECS", dict(registry._SPECS))
    register_system(SystemSpec(kind="checked", options=Checked, uses_llm=False,
                               build=FIRST.build,
                               check=f"{__name__}:check_checked"))  # fmt: skip
    monkeypatch.setenv("ZONE", "z1")
    seen.clear()
    sc = scenario({"name": "R", "kind": "random"}, {"name": "C", "kind": "checked"})
    with pytest.raises(ConfigError) as err:
        await run_campaign_async(sc, output_dir=tmp_path / "runs", progress=False)
    assert str(err.value) == 'systems[1] (kind "checked"): colour: must be blue'
    assert seen == [("C", len(demo_dataset(DATA).catalog), "z1")]
    assert not (tmp_path / "runs").exists()


async def test_checks_come_before_the_model_servers_are_probed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A scenario with two faults says the one found without a network call."""
    monkeypatch.delenv("NO_SUCH_KEY_27", raising=False)
    sc = scenario(
        {"name": "R", "kind": "recmind", "search_backend": "web",
         "web_api_key_env": "NO_SUCH_KEY_27"},
        backend="openai", model="m", base_url="http://127.0.0.1:9/v1",
    )  # fmt: skip
    with pytest.raises(ConfigError) as err:
        await run_campaign_async(sc, output_dir=tmp_path / "runs", progress=False)
    assert "needs an API key in $NO_SUCH_KEY_27" in str(err.value)
    assert not (tmp_path / "runs").exists()


def test_a_failing_prepare_is_one_line_exit_2_and_no_run_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from macrs_sim.cli import main

    def broken(options: Any, ctx: Any) -> None:
        raise MemoryError("CUDA out of memory.\nTried to allocate 9 GiB")

    monkeypatch.setattr("macrs_sim.agents.baselines.build.prepare", broken)
    monkeypatch.chdir(tmp_path)
    (tmp_path / "s.toml").write_text(
        'name = "t"\n[model]\nbackend = "scripted"\n[data]\nn_samples = 2\n'
        '[[systems]]\nname = "P"\nkind = "popularity"\n'
    )
    assert main(["run", "s.toml", "--output-dir", "runs", "--no-progress"]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err == (
        'error: systems[0] (kind "popularity"): cannot prepare: MemoryError: CUDA out of memory.'
        " Tried to allocate 9 GiB\n"
    )
    assert sorted(p.name for p in tmp_path.iterdir()) == ["s.toml"]
