"""The non-LLM baselines' `[[systems]]` entries: the reference rows of every comparison.

`random`, `popularity`, `itemcf`, `sasrec` name their ranker; `ranker` takes any registered
ranker (`ranker = "bpr"`, or an outside package's). `params` are the ranker's
hyperparameters (as `models train` takes them); the model is trained once per process on
the campaign split, through the rankers' checkpoint cache.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Literal, cast

from pydantic import Field, model_validator

from macrs_sim.agents.registry import SystemOptions, SystemSpec
from macrs_sim.errors import ConfigError
from macrs_sim.rankers.memory import check_fits
from macrs_sim.rankers.train import make_params

if TYPE_CHECKING:
    from macrs_sim.agents.checks import CheckContext

ParamValue = str | int | float | bool


class RandomSystemOptions(SystemOptions):
    kind: Literal["random"] = "random"
    # Seeds the random order of the catalog each dialogue recommends from.
    seed: int = 0


class _RankerOptions(SystemOptions):
    # The ranker's hyperparameters, as `models train --set` takes them.
    params: dict[str, ParamValue] = Field(default_factory=dict)

    def ranker_kind(self) -> str:
        return self.kind

    @model_validator(mode="after")
    def _params_fit_the_ranker(self) -> _RankerOptions:
        # At scenario load, not in the campaign: a typo or a missing torch is one line.
        try:
            make_params(self.ranker_kind(), cast(Any, self.params))
        except ConfigError as err:
            raise ValueError(str(err)) from None
        return self


class PopularitySystemOptions(_RankerOptions):
    kind: Literal["popularity"] = "popularity"


class ItemCFSystemOptions(_RankerOptions):
    kind: Literal["itemcf"] = "itemcf"


class SASRecSystemOptions(_RankerOptions):
    kind: Literal["sasrec"] = "sasrec"


class AnyRankerSystemOptions(_RankerOptions):
    kind: Literal["ranker"] = "ranker"
    # Any registered ranker, an outside package's too: the params check names the known ones.
    ranker: str

    def ranker_kind(self) -> str:
        return self.ranker


RankerSystemOptions = _RankerOptions
_BUILD = "macrs_sim.agents.baselines.build:"


def check_ranker(options: _RankerOptions, ctx: CheckContext) -> None:
    """The ranker fits in memory on this catalog (before anything is trained)."""
    kind = options.ranker_kind()
    try:
        check_fits(kind, make_params(kind, cast(Any, options.params)), len(ctx.dataset.catalog))
    except ConfigError as err:
        raise ConfigError(f"params: {err}") from None


def _ranker_spec(options: type[_RankerOptions], kind: str, extra: str | None) -> SystemSpec:
    return SystemSpec(
        kind=kind, options=options, build=_BUILD + "build_ranked", prepare=_BUILD + "prepare",
        check="macrs_sim.agents.baselines.options:check_ranker", extra=extra, uses_llm=False,
        history="pre-target",
    )  # fmt: skip


BASELINE_SPECS = (
    SystemSpec(
        kind="random", options=RandomSystemOptions, build=_BUILD + "build_random", uses_llm=False
    ),
    _ranker_spec(PopularitySystemOptions, "popularity", None),
    _ranker_spec(ItemCFSystemOptions, "itemcf", None),
    _ranker_spec(SASRecSystemOptions, "sasrec", "recsys"),
    _ranker_spec(AnyRankerSystemOptions, "ranker", "recsys"),
)
