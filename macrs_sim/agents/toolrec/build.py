"""Building ToolRec: `prepare` once per campaign (the plain ranker, the retriever), `build`
per dialogue. Plain arguments, so the registry (spec.py) and the evaluation both use them."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from autogen_core.models import ChatCompletionClient
from pydantic import BaseModel, ValidationError

from macrs_sim.agents.toolrec.loop import LoopSettings, SurrogateUserLoop
from macrs_sim.agents.toolrec.options import TOP_N, ToolRecOptions
from macrs_sim.agents.toolrec.plan import PlanFirstLoop
from macrs_sim.agents.toolrec.prepared import ToolRecPrepared
from macrs_sim.agents.toolrec.prompts import ToolRecPrompts
from macrs_sim.agents.toolrec.retrieval import AttributeRetriever, RankerAttributeRetriever
from macrs_sim.agents.toolrec.system import ToolRecSystem
from macrs_sim.agents.toolrec.variants import CandidateRankLoop, ToolRecLoop
from macrs_sim.data.dataset import Dataset
from macrs_sim.data.splits import Interactions, Split, campaign_split
from macrs_sim.errors import ConfigError
from macrs_sim.llm.context import CallContext
from macrs_sim.prompts import PromptLibrary
from macrs_sim.protocol import Sample
from macrs_sim.rankers.base import ItemRanker
from macrs_sim.tools import ToolCallLog


def attribute_retriever(
    options: ToolRecOptions,
    data: Interactions,
    split: Split,
    dataset: Dataset,
    base: ItemRanker,
    cache_dir: Path,
    backbone: BaseModel | None = None,
) -> AttributeRetriever:
    """The retrieval tools, trained on what `split` lets a model see (never a held-out item).

    `backbone`: the plain SASRec's settings when ToolRec's base ranker is that SASRec, so
    stage 1 is the very checkpoint the base ranker uses (trained once).
    """
    if options.retriever == "ranker":
        return RankerAttributeRetriever(base, dataset.catalog, domain=dataset.domain)
    from macrs_sim.rankers.attribute import load_or_train_attribute_retriever
    from macrs_sim.rankers.torch.toolrec import ToolRecParams

    stage1 = backbone.model_dump() if backbone is not None else {}
    try:
        settings = ToolRecParams.model_validate({**stage1, **options.retriever_params})
    except ValidationError as err:
        first = err.errors()[0]
        where = ".".join(str(p) for p in first["loc"])
        raise ConfigError(f"toolrec retriever_params.{where}: {first['msg']}") from None
    return load_or_train_attribute_retriever(
        data, dataset, cache_dir, seed=settings.seed, settings=settings, split=split
    )


def backbone_params(kind: str, params: BaseModel) -> BaseModel:
    """The paper's stage 1 trains the SASRec backbone with BPR (Eq. 4), unless a loss was
    set; campaigns and `eval toolrec` both train it so."""
    if kind == "sasrec" and "loss" not in params.model_fields_set:
        return params.model_copy(update={"loss": "bpr"})
    return params


def prepare(
    options: ToolRecOptions,
    dataset: Dataset,
    data: Interactions,
    samples: Sequence[Sample],
    cache_dir: Path,
) -> ToolRecPrepared:
    """Models trained (or loaded) on the campaign split: never a sample's target."""
    from macrs_sim.rankers.train import make_params, train_ranker

    split = campaign_split(data, samples)
    params = backbone_params(options.base_ranker,
                             make_params(options.base_ranker, options.ranker_params))  # fmt: skip
    base = train_ranker(options.base_ranker, data, split, params, cache_dir).ranker
    backbone = params if options.base_ranker == "sasrec" else None
    retriever = attribute_retriever(options, data, split, dataset, base, cache_dir, backbone)
    return ToolRecPrepared(retriever, base, dataset.catalog)


def make_loop(
    options: ToolRecOptions,
    prepared: ToolRecPrepared,
    client: ChatCompletionClient,
    prompts: PromptLibrary,
    *,
    context: CallContext | None = None,
    log: ToolCallLog | None = None,
) -> ToolRecLoop:
    """The loop of `options.variant`; `context` (dialogue, system, turn) goes into every
    call's role."""
    settings = LoopSettings(options.max_rounds, options.max_k, options.history_items,
                            options.mismatch_retries, options.retries, final_k=TOP_N)  # fmt: skip
    base = context or CallContext(role="")

    def ctx(role: str) -> CallContext:
        return CallContext(role=role, dialogue_id=base.dialogue_id, system=base.system,
                           turn=base.turn)  # fmt: skip

    loaded = ToolRecPrompts.load(prompts)
    if options.variant in ("single", "multi"):
        pool = ToolRecPrompts(loaded.simulation, prompts.get("toolrec/rank_candidates"))
        return CandidateRankLoop(
            client, pool, prepared, multi=options.variant == "multi",
            candidates=options.candidates, top=TOP_N, history_items=options.history_items,
            mismatch_retries=options.mismatch_retries, json_retries=options.retries,
            context=ctx, log=log,
        )  # fmt: skip
    if options.variant == "plan":
        return PlanFirstLoop(client, loaded, prepared.retriever, prepared.catalog, settings,
                             plan_template=prompts.get("toolrec/plan"), top=TOP_N,
                             context=ctx, log=log, plain=prepared.plain)  # fmt: skip
    return SurrogateUserLoop(client, loaded, prepared.retriever, prepared.catalog, settings,
                             context=ctx, log=log, plain=prepared.plain)  # fmt: skip


def build(
    options: ToolRecOptions,
    prepared: ToolRecPrepared,
    *,
    name: str,
    dialogue_id: str,
    client: ChatCompletionClient,
    prompts: PromptLibrary,
    history: Sequence[str] = (),
    log: ToolCallLog | None = None,
    retries: int | None = None,
) -> ToolRecSystem:
    """One system for one dialogue; `history` is the sample's history (the user's record)."""
    if retries is not None:
        options = options.model_copy(update={"retries": retries})
    loop = make_loop(options, prepared, client, prompts, log=log)
    return ToolRecSystem(name, loop, prepared, options, history=history, dialogue_id=dialogue_id)
