"""ToolRec's registration: its `[[systems]]` fields, campaign-scoped models, builder."""

from __future__ import annotations

from typing import Literal

from pydantic import ConfigDict

from macrs_sim.agents.checks import CheckContext
from macrs_sim.agents.context import PrepareContext, SystemContext
from macrs_sim.agents.registry import CallsInFlight, SystemOptions, SystemSpec
from macrs_sim.agents.toolrec.build import build, prepare
from macrs_sim.agents.toolrec.options import ToolRecOptions, base_params
from macrs_sim.agents.toolrec.prepared import ToolRecPrepared
from macrs_sim.agents.toolrec.system import ToolRecSystem
from macrs_sim.data.splits import interactions_of
from macrs_sim.errors import ConfigError
from macrs_sim.rankers.cache import default_cache_dir
from macrs_sim.rankers.memory import check_fits
from macrs_sim.rankers.params import ToolRecParams
from macrs_sim.rankers.train import option_params


class ToolRecSystemOptions(ToolRecOptions, SystemOptions):
    # This base order keeps `kind` the literal below and unknown fields refused.
    model_config = ConfigDict(extra="forbid", frozen=True)
    kind: Literal["toolrec"] = "toolrec"


def check_system(options: ToolRecSystemOptions, ctx: CheckContext) -> None:
    """The base ranker and the trained retrieval tools fit in memory on this catalog."""
    n_items = len(ctx.dataset.catalog)
    base = option_params(
        options.base_ranker, base_params(options.base_ranker, options.ranker_params)
    )
    try:
        check_fits(options.base_ranker, base, n_items)
    except ConfigError as err:
        raise ConfigError(f"ranker_params: {err}") from None
    if options.retriever != "trained":
        return
    stage1 = base.model_dump() if options.base_ranker == "sasrec" else {}
    tools = option_params(ToolRecParams, {**stage1, **options.retriever_params})
    try:
        check_fits("toolrec", tools, n_items)
    except ConfigError as err:
        raise ConfigError(f"retriever_params: {err}") from None


def prepare_system(options: ToolRecSystemOptions, ctx: PrepareContext) -> ToolRecPrepared:
    data = interactions_of(ctx.dataset, ctx.data)
    return prepare(options, ctx.dataset, data, ctx.samples, default_cache_dir(data))


def build_system(options: ToolRecSystemOptions, ctx: SystemContext) -> ToolRecSystem:
    prepared = ctx.prepared
    assert isinstance(prepared, ToolRecPrepared)
    # A turn names no more items than the protocol counts (max_items_per_turn).
    options = options.model_copy(
        update={"recommend_k": min(options.recommend_k, ctx.protocol.max_items_per_turn)}
    )
    return build(
        options, prepared, name=ctx.name, dialogue_id=ctx.dialogue_id,
        client=ctx.require_client(), prompts=ctx.prompts, history=ctx.history,
        log=ctx.tool_log, retries=ctx.retries,
    )  # fmt: skip


# Measured with benchmarks/bench_calls_in_flight.py (scripted model, fixed latency).
CALLS_IN_FLIGHT = CallsInFlight(peak=1, mean=1.0)
_HERE = "macrs_sim.agents.toolrec.spec:"
SPEC = SystemSpec(
    kind="toolrec",
    options=ToolRecSystemOptions,
    build=_HERE + "build_system",
    prepare=_HERE + "prepare_system",
    check=_HERE + "check_system",
    scripted_rules="macrs_sim.agents.toolrec.scripted:toolrec_scripted_rules",
    extra="recsys",
    calls_in_flight=CALLS_IN_FLIGHT,
    history="pre-target",
    label="ToolRec",
    eval_command="macrs_sim.evaluation.toolrec.cli:add_toolrec_eval",
    train_command="macrs_sim.evaluation.toolrec.train_cli:train_toolrec_command",
)
