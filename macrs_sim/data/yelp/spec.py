"""The Yelp Open Dataset as a registered dataset kind: `data prepare yelp PATH`."""

from __future__ import annotations

from pydantic import Field

from macrs_sim.data.domain import BUSINESSES
from macrs_sim.data.registry import DatasetSpec, ReviewOptions


class YelpOptions(ReviewOptions):
    # No seed paper states a star threshold for Yelp (data/yelp/prepare.py): all by default.
    min_stars: float | None = Field(
        default=None,
        ge=1,
        le=5,
        description="keep only reviews of at least this many stars (default: every review)",
    )
    keep_text: bool = Field(default=False, description="keep each review's text")


SPEC = DatasetSpec(
    kind="yelp",
    domain=BUSINESSES,
    options=YelpOptions,
    prepare="macrs_sim.data.yelp.prepare:prepare",
    help="the Yelp Open Dataset: business and review JSON lines",
    source_help="the folder holding yelp_academic_dataset_business.json and "
    "yelp_academic_dataset_review.json (plain or .gz), or the business file with the "
    "review file beside it",
)
