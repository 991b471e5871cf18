"""Building InteRecAgent: `prepare` once per campaign (models, indexes), `build` per dialogue.

Plain arguments, so the system registry wraps each in a few lines.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from autogen_core.models import ChatCompletionClient

from macrs_sim.agents.interecagent.demo_catalog import in_catalog
from macrs_sim.agents.interecagent.demos import DemoIndex, load_demonstrations
from macrs_sim.agents.interecagent.executor import BusExecutor, BusSettings
from macrs_sim.agents.interecagent.memory import ProfileMemory
from macrs_sim.agents.interecagent.options import InteRecAgentOptions
from macrs_sim.agents.interecagent.prompts import InteRecPrompts
from macrs_sim.agents.interecagent.system import InteRecAgent
from macrs_sim.data.dataset import Dataset
from macrs_sim.data.splits import Interactions, campaign_split
from macrs_sim.prompts import PromptLibrary
from macrs_sim.protocol import Sample
from macrs_sim.tools import RankerNeighbours, RankerScorer, ToolCallLog, ToolResources
from macrs_sim.tools.schema import prompt_words, read_schema
from macrs_sim.tools.scorer import Neighbours, Scorer


@dataclass(frozen=True)
class InteRecAgentPrepared:
    resources: ToolResources
    demos: DemoIndex


def train_models(
    options: InteRecAgentOptions,
    interactions: Interactions,
    samples: Sequence[Sample],
    cache_dir: Path,
) -> tuple[Scorer | None, Neighbours]:
    """The ranking tool's model and the item-CF neighbours, on a split without the targets."""
    from macrs_sim.rankers.train import make_params, train_ranker

    split = campaign_split(interactions, samples)
    scorer: Scorer | None = None
    if options.ranker != "popularity":
        params = options.ranker_params if options.ranker == "sasrec" else {}
        trained = train_ranker(
            options.ranker, interactions, split, make_params(options.ranker, params), cache_dir
        )
        scorer = RankerScorer(trained.ranker)
    cf = train_ranker("itemcf", interactions, split, make_params("itemcf", {}), cache_dir)
    return scorer, RankerNeighbours(cf.ranker)  # type: ignore[arg-type]


def prepare(
    options: InteRecAgentOptions,
    dataset: Dataset,
    cache_dir: Path,
    *,
    interactions: Interactions | None = None,
    samples: Sequence[Sample] = (),
    scorer: Scorer | None = None,
    neighbours: Neighbours | None = None,
    use_text_model: bool = True,
) -> InteRecAgentPrepared:
    """Train (or load) the models when `interactions` is given; else use the ones passed in."""
    if interactions is not None:
        scorer, neighbours = train_models(options, interactions, samples, cache_dir)
    res = ToolResources.for_dataset(
        dataset, cache_dir, use_text_model=use_text_model, scorer=scorer, neighbours=neighbours
    )
    res.warm()
    encoder = res.text.encoder if options.demo_retrieval == "auto" and res.text else None
    schema = res.schema or read_schema(res.database)
    demos = in_catalog(load_demonstrations(options.demonstrations_file), schema)
    return InteRecAgentPrepared(res, DemoIndex(demos, encoder))


def build(
    options: InteRecAgentOptions,
    prepared: InteRecAgentPrepared,
    *,
    name: str,
    dialogue_id: str,
    client: ChatCompletionClient,
    prompts: PromptLibrary,
    history: Sequence[str] = (),
    log: ToolCallLog | None = None,
    retries: int | None = None,
    max_items: int | None = None,
) -> InteRecAgent:
    """One system for one dialogue; `history` is the sample's history (long-term memory).

    `retries` (the protocol's max_structured_retries) overrides `options.retries`;
    `max_items` (the protocol's max_items_per_turn) caps what a fetch shows and the reply
    names.
    """
    if retries is not None:
        options = options.model_copy(update={"retries": retries})
    settings = BusSettings(
        options.fetch_k, options.hard_limit, options.soft_fraction, max_items=max_items
    )
    memory = ProfileMemory(history)
    executor = BusExecutor(prepared.resources, memory, log=log, settings=settings)
    # The tool text names the columns of the database the tools read (films: as ever).
    library = prompts.for_catalog(prompt_words(executor.hard.catalog_schema))
    texts = InteRecPrompts.load(library, max_items or options.fetch_k)
    return InteRecAgent(
        name, client, texts, executor, prepared.demos, options, dialogue_id=dialogue_id
    )
