"""InteRecAgent's registration: its `[[systems]]` fields, campaign-scoped models, builder."""

from __future__ import annotations

from typing import Literal

from pydantic import ConfigDict

from macrs_sim.agents.checks import CheckContext
from macrs_sim.agents.context import PrepareContext, SystemContext
from macrs_sim.agents.interecagent.build import InteRecAgentPrepared, build, prepare
from macrs_sim.agents.interecagent.options import InteRecAgentOptions
from macrs_sim.agents.interecagent.system import InteRecAgent
from macrs_sim.agents.registry import CallsInFlight, SystemOptions, SystemSpec
from macrs_sim.data.splits import campaign_dataset, interactions_of
from macrs_sim.errors import ConfigError
from macrs_sim.rankers.cache import default_cache_dir
from macrs_sim.rankers.memory import check_fits
from macrs_sim.rankers.train import option_params


class InteRecAgentSystemOptions(InteRecAgentOptions, SystemOptions):
    # This base order keeps `kind` the literal below and unknown fields refused.
    model_config = ConfigDict(extra="forbid", frozen=True)
    kind: Literal["interecagent"] = "interecagent"


def check_system(options: InteRecAgentSystemOptions, ctx: CheckContext) -> None:
    """The ranking model fits in memory on this catalog (before anything is trained)."""
    params = options.ranker_params if options.ranker == "sasrec" else {}
    try:
        check_fits(options.ranker, option_params(options.ranker, params), len(ctx.dataset.catalog))
    except ConfigError as err:
        raise ConfigError(f"ranker_params: {err}") from None


def prepare_system(options: InteRecAgentSystemOptions, ctx: PrepareContext) -> InteRecAgentPrepared:
    """The ranking model and item-CF, trained (or loaded from the checkpoint cache) on the
    campaign split: never a sample's target."""
    data = interactions_of(ctx.dataset, ctx.data)
    # Its tools rank and filter by popularity: counted without the samples' targets.
    seen = campaign_dataset(ctx.dataset, data, ctx.samples)
    return prepare(options, seen, default_cache_dir(data), interactions=data, samples=ctx.samples)


def build_system(options: InteRecAgentSystemOptions, ctx: SystemContext) -> InteRecAgent:
    prepared = ctx.prepared
    assert isinstance(prepared, InteRecAgentPrepared)
    return build(
        options,
        prepared,
        name=ctx.name,
        dialogue_id=ctx.dialogue_id,
        client=ctx.require_client(),
        prompts=ctx.prompts,
        history=ctx.history if options.long_term_memory else (),
        retries=ctx.retries,
        log=ctx.tool_log,
        max_items=ctx.protocol.max_items_per_turn,
    )


# Measured with benchmarks/bench_calls_in_flight.py (scripted model, fixed latency).
CALLS_IN_FLIGHT = CallsInFlight(peak=1, mean=1.0)
_HERE = "macrs_sim.agents.interecagent.spec:"
SPEC = SystemSpec(
    kind="interecagent",
    options=InteRecAgentSystemOptions,
    build=_HERE + "build_system",
    prepare=_HERE + "prepare_system",
    check=_HERE + "check_system",
    scripted_rules="macrs_sim.agents.interecagent.scripted:interecagent_scripted_rules",
    extra="recsys",
    calls_in_flight=CALLS_IN_FLIGHT,
    history="pre-target",
    label="InteRecAgent",
    eval_command="macrs_sim.evaluation.interecagent.cli:add_interecagent_eval",
)
