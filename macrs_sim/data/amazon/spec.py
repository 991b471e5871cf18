"""Amazon Reviews as a registered dataset kind: `data prepare amazon PATH`."""

from __future__ import annotations

from pathlib import Path

from pydantic import Field

from macrs_sim.data.domain import PRODUCTS
from macrs_sim.data.registry import DatasetSpec, ReviewOptions


class AmazonOptions(ReviewOptions):
    meta: Path | None = Field(
        default=None,
        description="the metadata file (default: the meta_<Category> file beside the reviews)",
    )
    keep_text: bool = Field(
        default=False, description="keep each review's text and summary (RecMind's tasks)"
    )


SPEC = DatasetSpec(
    kind="amazon",
    domain=PRODUCTS,
    options=AmazonOptions,
    prepare="macrs_sim.data.amazon.prepare:prepare",
    help="an Amazon Reviews category: the 2014, 2018 or 2023 release",
    source_help="the reviews file (reviews_<Category>_5.json.gz, <Category>_5.json.gz or "
    "<Category>.jsonl.gz) or the folder holding it and its meta_ file",
)
