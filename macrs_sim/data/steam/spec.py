"""Steam as a registered dataset kind: `data prepare steam PATH`."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from macrs_sim.data.domain import GAMES
from macrs_sim.data.registry import DatasetSpec, ReviewOptions


class SteamOptions(ReviewOptions):
    strict: bool = Field(
        default=False,
        description="refuse any line or review that would be dropped (a review of a game "
        "steam_games lacks, a game with no id or title, a repeated id, a cut-off line) "
        "instead of dropping and counting it",
    )
    keep_text: bool = Field(default=False, description="keep each review's text")
    interactions: Literal["reviews", "australian"] | None = Field(
        default=None,
        description="which reviews to read: 'reviews' (steam_reviews.json, the default when "
        "present) or 'australian' (australian_user_reviews.json)",
    )


SPEC = DatasetSpec(
    kind="steam",
    domain=GAMES,
    options=SteamOptions,
    prepare="macrs_sim.data.steam.prepare:prepare",
    help="Steam (Kang & McAuley): steam_games and steam_reviews, or australian_user_reviews",
    source_help="the folder holding steam_games.json(.gz) and steam_reviews.json(.gz) or "
    "australian_user_reviews.json(.gz)",
)
