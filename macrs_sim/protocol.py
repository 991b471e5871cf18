"""Typed records shared by every part of macrs-sim.

Everything that crosses a boundary (system <-> simulator, campaign <-> store,
client wrappers <-> accounting) is one of these models, so no part ever has to
re-parse a transcript string to recover state.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_serializer, model_validator


class DialogueAct(StrEnum):
    """The paper's three dialogue acts. Other systems may use their own act names (plain str)."""

    ASK = "ask"
    CHAT = "chat"
    RECOMMEND = "recommend"


# The explain key under which the dialogue loop keeps a system's own act (SystemTurn).
REPORTED_ACT_KEY = "reported_act"
# Items a turn showed past `protocol.max_items_per_turn`, dropped by the dialogue loop.
ITEMS_OVER_LIMIT_KEY = "items_over_limit"


class Record(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class ItemRef(Record):
    """An item as the system said it, plus its grounding to the catalog."""

    title: str
    item_id: str | None = None
    score: float = 0.0
    method: Literal["exact", "normalized", "fuzzy", "ambiguous", "none"] = "none"


# Item fields of the film-only shape (before datasets of other domains), read into the
# domain-neutral one: genres are the category path, the overview the description, the
# director and cast two named attributes.
_FILM_ATTRIBUTES = ("director", "cast")


def _attribute_values(value: object) -> tuple[str, ...]:
    """An attribute's values: a text, a number (a price: its text) or a list of them."""
    if value is None:
        return ()
    if isinstance(value, str | int | float) and not isinstance(value, bool):
        text = str(value)
        return (text,) if text else ()
    if not isinstance(value, list | tuple):
        raise ValueError(f"attribute values must be text, a number or a list, not {value!r:.60}")
    return tuple(str(v) for v in value if v is not None and v != "")


class Item(Record):
    """One catalog entry, in any domain (films, products, businesses, games).

    `categories` is the item's category path or genres (the sample rule's category filter
    uses it); `attributes` maps an attribute's name to its values, as the dataset's loader
    names them ("director" and "cast" for films, "brand", "price" and "store" for products,
    "city", "price range" for businesses, "developer", "tags" for games).
    """

    item_id: str
    title: str
    year: int | None = None
    categories: tuple[str, ...] = ()
    attributes: tuple[tuple[str, tuple[str, ...]], ...] = ()
    keywords: tuple[str, ...] = ()
    description: str | None = None
    # Other titles the item is known by (MovieLens "(a.k.a. ...)" and original-language titles).
    aka: tuple[str, ...] = ()

    @model_validator(mode="before")
    @classmethod
    def _domain_neutral(cls, data: Any) -> Any:
        """The film-only shape (genres, director, cast, overview) and attributes given as a
        mapping are read into this one; attributes are kept sorted by name, values in order."""
        if not isinstance(data, dict):
            return data
        data = dict(data)
        if "genres" in data and "categories" not in data:
            data["categories"] = data.pop("genres")
        if "overview" in data and "description" not in data:
            data["description"] = data.pop("overview")
        attributes = data.get("attributes") or ()
        if not isinstance(attributes, dict | list | tuple):
            raise ValueError("attributes must map names to values")
        named = dict(attributes.items() if isinstance(attributes, dict) else attributes)
        for name in _FILM_ATTRIBUTES:  # given by name: they replace the mapping's values
            if name in data:
                named[name] = data.pop(name)
        cleaned = ((str(k), _attribute_values(v)) for k, v in named.items())
        data["attributes"] = tuple(sorted((k, v) for k, v in cleaned if v))
        return data

    @field_serializer("attributes")
    def _attributes_as_mapping(
        self, attributes: tuple[tuple[str, tuple[str, ...]], ...]
    ) -> dict[str, list[str]]:
        return {name: list(values) for name, values in attributes}

    @property
    def display_title(self) -> str:
        return f"{self.title} ({self.year})" if self.year else self.title

    def attribute(self, name: str) -> tuple[str, ...]:
        """The values of attribute `name` (empty when the item has none)."""
        for key, values in self.attributes:
            if key == name:
                return values
        return ()

    @property
    def attribute_map(self) -> dict[str, tuple[str, ...]]:
        return dict(self.attributes)

    # The film-only names, kept for code and users that read films.
    @property
    def genres(self) -> tuple[str, ...]:
        return self.categories

    @property
    def director(self) -> str | None:
        found = self.attribute("director")
        return ", ".join(found) if found else None

    @property
    def cast(self) -> tuple[str, ...]:
        return self.attribute("cast")

    @property
    def overview(self) -> str | None:
        return self.description


class Utterance(Record):
    speaker: Literal["user", "system"]
    text: str


class SystemTurn(Record):
    """One system response: the chosen act, its text, the items it recommends.

    `explain` holds whatever the system wants kept for analysis (MACRS: the three
    candidates, planner reasoning, profile, suggestions, experiences).

    As recorded by the dialogue loop, `act` is "recommend" exactly when `items` is not
    empty; where that differs from the act the system reported, the loop keeps the
    reported one in `explain["reported_act"]` (read it as `reported_act`).
    """

    act: str
    text: str
    items: tuple[ItemRef, ...] = ()
    explain: dict[str, Any] = Field(default_factory=dict)

    @property
    def reported_act(self) -> str:
        """The act the system itself reported (the same as `act` unless the loop changed it)."""
        reported = self.explain.get(REPORTED_ACT_KEY)
        return reported if isinstance(reported, str) else self.act

    @property
    def items_over_limit(self) -> int:
        """Items the system showed past the protocol's limit (dropped before grounding)."""
        dropped = self.explain.get(ITEMS_OVER_LIMIT_KEY, 0)
        return dropped if isinstance(dropped, int) else 0


class UserTurn(Record):
    text: str
    accepted: bool = False
    # How many generations the leak guard threw away before this text was kept.
    leak_retries: int = 0
    # True when the guard gave up and redacted the target's name from the text.
    redacted: bool = False
    # True when the user ended the dialogue (an instruction with an end marker, e.g.
    # InteRecAgent's "<END>"): no further turn and no fallback list; the marker is not kept.
    ended: bool = False


class Exchange(Record):
    """One turn: the system speaks, the user answers."""

    turn: int
    system: SystemTurn
    user: UserTurn


class DialogueState(Record):
    """What a system under test may see: the dialogue so far, never the target."""

    dialogue_id: str
    opening: UserTurn
    exchanges: tuple[Exchange, ...] = ()
    max_turns: int = 5

    @property
    def turn(self) -> int:
        """The 1-based number of the turn the system is about to answer."""
        return len(self.exchanges) + 1

    def utterances(self) -> list[Utterance]:
        out = [Utterance(speaker="user", text=self.opening.text)]
        for ex in self.exchanges:
            out.append(Utterance(speaker="system", text=ex.system.text))
            out.append(Utterance(speaker="user", text=ex.user.text))
        return out

    def last_user_turn(self) -> UserTurn:
        return self.exchanges[-1].user if self.exchanges else self.opening


class Sample(Record):
    """One simulated user: browsing history, held-out target, shared opening."""

    sample_id: str
    user_id: str
    # The simulator's persona history: the pre-target window filtered to items sharing a
    # genre with the target (paper §4.4). It names the target's genre: systems never see it.
    history: tuple[str, ...]
    target_id: str
    target_profile: tuple[str, ...] = ()
    opening: str = ""
    bucket: str | None = None
    # Generations of the opening thrown away because they named the target, and whether
    # the kept one still had to be redacted (the same counts UserTurn keeps for replies).
    opening_leak_retries: int = 0
    opening_redacted: bool = False
    # The user's own interactions before the target, in time order, unfiltered (the
    # `history_len` items the sample was drawn from): what a system that uses the user's
    # past is given (DESIGN.md §3). None in sample sets written before it was recorded.
    pre_target: tuple[str, ...] | None = None

    @property
    def system_history(self) -> tuple[str, ...]:
        """What a system that uses the user's past gets: the pre-target window. A sample made
        by hand without one has only its history to offer."""
        return self.history if self.pre_target is None else self.pre_target


DialogueStatus = Literal["success", "failure", "error"]


class DialogueResult(Record):
    dialogue_id: str
    system: str
    sample_id: str
    target_id: str
    status: DialogueStatus
    max_turns: int
    success_turn: int | None = None
    opening: UserTurn
    exchanges: tuple[Exchange, ...] = ()
    # The fallback list as given: distinct items (by grounded id, else normalised title),
    # in the order given, at most k; its length is what the system managed to give.
    final_list: tuple[ItemRef, ...] = ()
    error: str | None = None
    # Leaking generations and redactions of the simulated user, its opening included.
    leaks: int = 0

    @property
    def turns_taken(self) -> int:
        """Turns for the paper's Average Turns: a failure counts as max_turns + 1."""
        if self.status == "success" and self.success_turn is not None:
            return self.success_turn
        return self.max_turns + 1


class LLMCallRecord(Record):
    """One model call, attributed to the dialogue, turn and role that made it."""

    dialogue_id: str | None
    system: str | None
    role: str
    turn: int | None
    model: str
    prompt_tokens: int = 0
    completion_tokens: int = 0
    latency_s: float = 0.0
    cached: bool = False
    ok: bool = True
    error: str | None = None


class ToolCallRecord(Record):
    """One tool call by an LLM system, attributed like an `LLMCallRecord`."""

    dialogue_id: str | None
    system: str | None
    role: str
    turn: int | None
    tool: str
    # The arguments as the tool received them (JSON values), or {"text": raw} when unparsable.
    input: dict[str, Any]
    # Characters of the text the model reads back (the size the call adds to its context).
    output_chars: int = 0
    latency_s: float = 0.0
    ok: bool = True
    error: str | None = None
