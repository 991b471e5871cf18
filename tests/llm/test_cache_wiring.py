"""How the cache is wired: model identity, sampling params, the campaign's cache file."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from macrs_sim.campaign.runner import run_campaign_async
from macrs_sim.campaign.setup import CampaignSetup, cache_path, with_cache_path
from macrs_sim.config import EmbeddedModel, OpenAIModel, Scenario, ScriptedModel, parse_scenario
from macrs_sim.llm.factory import model_identity, sampling_params
from macrs_sim.store import RunStore


def gguf(path: Path, size: int) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(b"GGUF" + b"\0" * (size - 4))
    return path


def test_an_embedded_model_is_named_by_file_name_and_size(tmp_path: Path) -> None:
    here, there = gguf(tmp_path / "a" / "m.gguf", 64), gguf(tmp_path / "b" / "m.gguf", 64)
    bigger = gguf(tmp_path / "c" / "m.gguf", 65)
    ids = [model_identity(EmbeddedModel(path=str(p))) for p in (here, there, bigger)]
    assert ids[0] == ids[1] == "gguf:m.gguf:64" and ids[2] != ids[0]


def test_an_openai_model_is_named_by_model_not_endpoint() -> None:
    one = OpenAIModel(model="qwen", base_url="http://a:8000/v1")
    pool = OpenAIModel(model="qwen", base_urls=("http://b:8000/v1", "http://c:8000/v1"))
    assert model_identity(one) == model_identity(pool) == "openai:qwen"
    assert model_identity(OpenAIModel(model="llama")) != model_identity(one)


def test_a_scripted_model_is_named_by_seed_and_rules() -> None:
    def oracle(req: Any) -> str:
        return "x"

    plain = model_identity(ScriptedModel(seed=1))
    assert plain.startswith("scripted:seed=1:")
    assert model_identity(ScriptedModel(seed=2)) != plain
    assert model_identity(ScriptedModel(seed=1), scripted_rules={"user": oracle}) != plain
    assert model_identity(ScriptedModel(seed=1, latency_s=0.5)) == plain


def test_only_sampling_fields_are_params() -> None:
    fast = OpenAIModel(model="m", timeout_s=5, max_concurrency=64, max_retries=0)
    slow = OpenAIModel(
        model="m",
        timeout_s=500,
        max_concurrency=1,
        base_url="http://x/v1",
        structured_outputs="openai",
    )
    assert sampling_params(fast, 0.0) == sampling_params(slow, 0.0)
    # How the schema is spelled changes the reply: json_object and prompt differ from openai.
    spelled = {
        sampling_params(slow.model_copy(update={"structured_outputs": m}), 0.0)[
            "structured_outputs"
        ]
        for m in ("openai", "json_object", "prompt")
    }
    assert len(spelled) == 3
    assert sampling_params(fast, 0.0) != sampling_params(fast, 0.7)
    assert sampling_params(OpenAIModel(model="m", max_tokens=9), 0.0)["max_tokens"] == 9
    assert sampling_params(EmbeddedModel(), 0.0) == {
        "temperature": 0.0,
        "max_tokens": 256,
        "seed": 0,
        "max_string_chars": 240,
    }


def scenario(tmp_path: Path, systems: list[str], **extra: Any) -> Scenario:
    return parse_scenario(
        {
            "name": "cache",
            "model": {"backend": "scripted"},
            "data": {"n_samples": 3},
            "protocol": {"max_turns": 3},
            "systems": [{"name": "MACRS", "kind": "macrs"}]
            + [{"name": name, "kind": "macrs", "strategy_reflection": False} for name in systems],
            "campaign": {"output_dir": str(tmp_path / "runs")},
            **extra,
        }
    )


def test_the_cache_file_is_the_scenarios_or_in_the_output_folder(tmp_path: Path) -> None:
    sc = scenario(tmp_path, [])
    assert cache_path(sc) == (tmp_path / "runs" / "llm_cache.sqlite").resolve()
    assert cache_path(sc, tmp_path / "elsewhere") == tmp_path / "elsewhere" / "llm_cache.sqlite"
    pinned = with_cache_path(sc, tmp_path / "elsewhere")
    assert cache_path(pinned, tmp_path / "other") == tmp_path / "elsewhere" / "llm_cache.sqlite"
    off = scenario(tmp_path, [], cache={"enabled": False})
    assert CampaignSetup.from_scenario(off).cache is None


async def test_an_ablation_reuses_the_shared_calls(tmp_path: Path) -> None:
    first = await run_campaign_async(scenario(tmp_path, []), progress=False)
    second = await run_campaign_async(scenario(tmp_path, ["noSR"]), progress=False)
    with RunStore.open(first.store_path) as a, RunStore.open(second.store_path) as b:
        before, after = a.read_calls(), b.read_calls()
    assert before and not any(c.cached for c in before)
    shared = [c for c in after if c.system != "noSR"]  # MACRS and sample preparation
    assert len(shared) == len(before) and all(c.cached for c in shared)
    assert not any(c.cached for c in after if c.system == "noSR")
    assert (tmp_path / "runs" / "llm_cache.sqlite").is_file()
