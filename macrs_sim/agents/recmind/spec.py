"""RecMind's registration: its `[[systems]]` fields, campaign-scoped memory, builder."""

from __future__ import annotations

from typing import Literal

from pydantic import ConfigDict

from macrs_sim.agents.checks import CheckContext
from macrs_sim.agents.context import PrepareContext, SystemContext
from macrs_sim.agents.recmind import build
from macrs_sim.agents.recmind.memory import (
    campaign_visible,
    default_memory_dir,
    memory_histories,
    read_ratings,
)
from macrs_sim.agents.recmind.options import RecMindOptions
from macrs_sim.agents.recmind.system import RecMind
from macrs_sim.agents.registry import CallsInFlight, SystemOptions, SystemSpec
from macrs_sim.data.splits import campaign_dataset, interactions_of
from macrs_sim.errors import ConfigError


class RecMindSystemOptions(RecMindOptions, SystemOptions):
    # This base order keeps `kind` the literal below and unknown fields refused.
    model_config = ConfigDict(extra="forbid", frozen=True)
    kind: Literal["recmind"] = "recmind"


def check_system(options: RecMindSystemOptions, ctx: CheckContext) -> None:
    """The web search's API key is in the environment (its value is never shown); the
    offline search's bm25s is installed."""
    if options.search_tool and options.search_backend == "bm25" and not build.has_bm25():
        raise ConfigError(build.BM25_MISSING)
    if not (options.search_tool and options.search_backend == "web"):
        return
    var = options.web_api_key_env
    if not ctx.environ.get(var, "").strip():
        raise ConfigError(
            f'web_api_key_env: search_backend "web" needs an API key in ${var}, which is not set'
        )


def prepare_system(options: RecMindSystemOptions, ctx: PrepareContext) -> build.RecMindResources:
    """The memory database and the BM25 index; once per process. Personal memory holds
    every user's interactions of the campaign split (with their ratings, from a prepared
    MovieLens database): no sample's target, nothing after it. A dialogue's system is given
    the sample's window (SystemContext.history), which names its user."""
    data = interactions_of(ctx.dataset, ctx.data)
    visible = campaign_visible(data, ctx.samples)
    histories = memory_histories(data, visible, read_ratings(data))
    users = {tuple(s.system_history): s.user_id for s in ctx.samples}
    # Its SQL tool reads interaction counts: counted without the samples' targets.
    seen = campaign_dataset(ctx.dataset, data, ctx.samples)
    res = build.resources(seen, histories, default_memory_dir(), users=users)
    build.search_backend(options, res, None)  # a missing web key fails here, once
    return res


def build_system(options: RecMindSystemOptions, ctx: SystemContext) -> RecMind:
    res = ctx.prepared
    assert isinstance(res, build.RecMindResources)
    # A turn names no more items than the protocol counts (max_items_per_turn).
    k = min(options.recommend_k, ctx.protocol.max_items_per_turn)
    opts = options.model_copy(update={"retries": ctx.retries, "recommend_k": k})
    r = build.reasoner(
        opts, res, client=ctx.require_client(), prompts=ctx.prompts, system=ctx.name,
        dialogue_id=ctx.dialogue_id, log=ctx.tool_log, temperature=ctx.protocol.temperature,
    )  # fmt: skip
    return RecMind(ctx.name, r, res, opts, history=ctx.history, log=ctx.tool_log)


# Measured with benchmarks/bench_calls_in_flight.py (scripted model, fixed latency).
CALLS_IN_FLIGHT = CallsInFlight(peak=1, mean=1.0)
_HERE = "macrs_sim.agents.recmind.spec:"
SPEC = SystemSpec(
    kind="recmind",
    options=RecMindSystemOptions,
    build=_HERE + "build_system",
    prepare=_HERE + "prepare_system",
    check=_HERE + "check_system",
    scripted_rules="macrs_sim.agents.recmind.scripted:recmind_scripted_rules",
    calls_in_flight=CALLS_IN_FLIGHT,
    history="pre-target",
    label="RecMind",
    eval_command="macrs_sim.evaluation.recmind.cli:add_recmind_eval",
)
