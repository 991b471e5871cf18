"""A simulator and a backend registered by a test run a whole scripted campaign: no branch
of the campaign, the factory or config names them."""

from __future__ import annotations

import tomllib
from collections.abc import Iterator
from pathlib import Path
from typing import Literal

import pytest
from autogen_core.models import ChatCompletionClient

from macrs_sim import BackendSpec, SimulatorSpec, register_backend, register_simulator
from macrs_sim.campaign.runner import run_campaign_async
from macrs_sim.config import ModelOptions, parse_scenario
from macrs_sim.data.catalog import Catalog
from macrs_sim.llm.backends.registry import BackendContext, unregister_backend
from macrs_sim.llm.scripted import ScriptedChatCompletionClient
from macrs_sim.protocol import Sample, SystemTurn, UserTurn
from macrs_sim.simulators.registry import (
    SampleContext,
    SimulatorContext,
    SimulatorOptions,
    unregister_simulator,
)
from macrs_sim.store import RunStore


class EchoModel(ModelOptions):
    backend: Literal["echo"] = "echo"
    label: str


class PoliteOptions(SimulatorOptions):
    kind: Literal["polite"] = "polite"
    phrase: str


class PoliteUser:
    def __init__(self, sample: Sample, phrase: str) -> None:
        self.sample, self.phrase = sample, phrase

    async def open(self) -> UserTurn:
        return UserTurn(text=self.sample.opening)

    async def reply(self, turn: SystemTurn) -> UserTurn:
        accepted = any(i.item_id == self.sample.target_id for i in turn.items)
        return UserTurn(text=f"no, {self.phrase}", accepted=accepted)


def build_echo(cfg: EchoModel, ctx: BackendContext) -> ChatCompletionClient:
    return ScriptedChatCompletionClient(ctx.scripted_rules, record_calls=False)


def build_polite(options: PoliteOptions, ctx: SimulatorContext) -> PoliteUser:
    assert ctx.client is None  # uses_llm=False: no model is built for it
    return PoliteUser(ctx.sample, options.phrase)


async def prepare_polite(options: PoliteOptions, ctx: SampleContext, sample: Sample) -> Sample:
    return sample.model_copy(update={"opening": f"a film for {sample.user_id}, {options.phrase}"})


@pytest.fixture
def registered() -> Iterator[None]:
    register_backend(
        BackendSpec(
            name="echo",
            options=EchoModel,
            build=build_echo,
            identity=lambda cfg, ctx: f"echo:{cfg.label}",
            label=lambda cfg, ctx: cfg.label,
        )
    )
    register_simulator(
        SimulatorSpec(
            kind="polite",
            options=PoliteOptions,
            build=build_polite,
            prepare=prepare_polite,
            uses_llm=False,
        )
    )
    yield
    unregister_backend("echo")
    unregister_simulator("polite")


async def test_registered_simulator_and_backend_run_a_campaign(
    tmp_path: Path, catalog: Catalog, registered: None
) -> None:
    path = tmp_path / "catalog.jsonl"
    path.write_text("".join(i.model_dump_json() + "\n" for i in catalog))
    sc = parse_scenario(
        {
            "name": "t",
            "model": {"backend": "echo", "label": "echo-1"},
            "simulator": {"kind": "polite", "phrase": "please"},
            "data": {"catalog": str(path), "history_len": 3, "min_history": 1, "n_samples": 2},
            "protocol": {"max_turns": 2, "final_list_k": 3},
            "systems": [{"name": "single", "kind": "single_llm"}],
        }
    )
    result = await run_campaign_async(sc, output_dir=tmp_path / "runs", progress=False)
    resolved = tomllib.loads((result.run_dir / "scenario.resolved.toml").read_text())
    assert resolved["model"] == {"backend": "echo", "label": "echo-1"}
    assert resolved["simulator"]["kind"] == "polite"
    assert resolved["simulator"]["phrase"] == "please"
    with RunStore.open(result.run_dir / "store.sqlite") as store:
        results, samples, calls = store.read_results(), store.read_samples(), store.read_calls()
    assert len(results) == 2
    # The spec's prepare made every opening; the systems heard it and the users' replies.
    assert sorted(s.opening for s in samples) == sorted(
        f"a film for {s.user_id}, please" for s in samples
    )
    assert all(r.exchanges[1].user.text == "no, please" for r in results)
    # Every call went through the registered backend, under its label; the user made none.
    assert calls and {c.model for c in calls} == {"echo-1"}
    assert {c.role for c in calls} & {"user", "opening", "target_profile"} == set()
