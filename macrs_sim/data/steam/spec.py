"""Steam as a registered dataset kind: `data prepare steam PATH`."""

from __future__ import annotations

from pydantic import Field

from macrs_sim.data.domain import GAMES
from macrs_sim.data.registry import DatasetSpec, PrepareOptions


class SteamOptions(PrepareOptions):
    keep_text: bool = Field(default=False, description="keep each review's text")


SPEC = DatasetSpec(
    kind="steam",
    domain=GAMES,
    options=SteamOptions,
    prepare="macrs_sim.data.steam.prepare:prepare",
    help="Steam (Kang & McAuley): steam_games and steam_reviews, or australian_user_reviews",
    source_help="the folder holding steam_games.json(.gz) and steam_reviews.json(.gz) or "
    "australian_user_reviews.json(.gz)",
    history_len=10,
    min_history=3,
)
