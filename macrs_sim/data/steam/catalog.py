"""The games pass: steam_games.json into the database's items, before any review is read,
keeping only the set of ids (a few tens of thousands) for the reviews pass to check."""

from __future__ import annotations

from pathlib import Path

from macrs_sim.data.prepared import DatabaseWriter
from macrs_sim.data.steam.games import game_item, game_title
from macrs_sim.data.steam.records import Rejects, records, text_id
from macrs_sim.errors import DataError

NO_ID = "games with no id"
NO_TITLE = "games with no title"
REPEATED = "repeated game ids"


def load_games(path: Path, writer: DatabaseWriter, rejects: Rejects) -> set[str]:
    """Write every usable game; the ids written. A game with no id, or with no title left
    once HTML is stripped, is dropped; of a repeated id the first line is kept."""
    known: set[str] = set()
    for line, record in records(path, rejects, "one game"):
        item_id = text_id(record.get("id"))
        if item_id is None:
            rejects.drop(NO_ID, line.where(), "a game with no id; expected its app id in 'id'")
            continue
        if item_id in known:
            rejects.drop(
                REPEATED,
                line.where(),
                f"game {item_id} is listed again; expected each id once",
            )
            continue
        title = game_title(record)
        if not title:
            rejects.drop(
                NO_TITLE,
                line.where(),
                f"game {item_id} has no title; expected text in 'app_name' or 'title'",
            )
            continue
        writer.add_items([game_item(item_id, title, record)])
        known.add(item_id)
    if not known:
        raise DataError(f"{path.name}: no game with an id and a title; expected at least one")
    return known
