"""Building ToolRec: `prepare` once per campaign (the plain ranker, the retriever), `build`
per dialogue. Plain arguments, so the registry (spec.py) and the evaluation both use them."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from autogen_core.models import ChatCompletionClient

from macrs_sim.agents.toolrec.loop import LoopSettings, SurrogateUserLoop
from macrs_sim.agents.toolrec.options import ToolRecOptions
from macrs_sim.agents.toolrec.prepared import ToolRecPrepared
from macrs_sim.agents.toolrec.prompts import ToolRecPrompts
from macrs_sim.agents.toolrec.retrieval import AttributeRetriever, RankerAttributeRetriever
from macrs_sim.agents.toolrec.system import ToolRecSystem
from macrs_sim.data.dataset import Dataset
from macrs_sim.data.splits import Interactions, Split, campaign_split
from macrs_sim.llm.context import CallContext
from macrs_sim.prompts import PromptLibrary
from macrs_sim.protocol import Sample
from macrs_sim.rankers.base import ItemRanker
from macrs_sim.tools import ToolCallLog


def visible_interactions(data: Interactions, split: Split) -> Interactions:
    """What the split lets a model see (training + validation items) as Interactions; the
    fingerprint names the split, so a cache keyed by it never mixes two cuts."""
    targets = {c.user_id: c.target for c in split.validation}
    seqs = {u: (*s, targets[u]) if u in targets else s for u, s in split.train.items()}
    fingerprint = f"{data.fingerprint}-{split.key}"
    return Interactions(data.dataset_name, fingerprint, data.item_ids, seqs, data.database)


def attribute_retriever(
    visible: Interactions, dataset: Dataset, base: ItemRanker, cache_dir: Path, seed: int = 0
) -> AttributeRetriever:
    """The retrieval tools. The stand-in until `macrs_sim.rankers.attribute` is merged; then
    this one line becomes `load_or_train_attribute_retriever(visible, dataset, cache_dir,
    seed=seed)` (frozen SASRec + attribute encoders, trained on `visible` only)."""
    return RankerAttributeRetriever(base, dataset.catalog)


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
    params = make_params(options.base_ranker, options.ranker_params)
    base = train_ranker(options.base_ranker, data, split, params, cache_dir).ranker
    retriever = attribute_retriever(visible_interactions(data, split), dataset, base, cache_dir)
    return ToolRecPrepared(retriever, base, dataset.catalog)


def make_loop(
    options: ToolRecOptions,
    prepared: ToolRecPrepared,
    client: ChatCompletionClient,
    prompts: PromptLibrary,
    *,
    context: CallContext | None = None,
    log: ToolCallLog | None = None,
) -> SurrogateUserLoop:
    """The loop; `context` (dialogue, system, turn) is copied into every call's role."""
    settings = LoopSettings(options.max_rounds, options.max_k, options.history_items,
                            options.mismatch_retries, options.retries)  # fmt: skip
    base = context or CallContext(role="")

    def ctx(role: str) -> CallContext:
        return CallContext(role=role, dialogue_id=base.dialogue_id, system=base.system,
                           turn=base.turn)  # fmt: skip

    return SurrogateUserLoop(client, ToolRecPrompts.load(prompts), prepared.retriever,
                             prepared.catalog, settings, context=ctx, log=log)  # fmt: skip


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
