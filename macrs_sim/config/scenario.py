"""The whole scenario file: `Scenario`, loading and parsing it with one-line errors, and its
TOML form saved next to every run."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path
from typing import Literal

from pydantic import Field, SerializeAsAny, ValidationError, field_validator, model_validator
from pydantic_core import ErrorDetails

from macrs_sim.config.bounds import MAX_NAME_CHARS, Strict
from macrs_sim.config.execution import CacheConfig, CampaignConfig, FaultsConfig
from macrs_sim.config.models import EmbeddedModel, Layout, ModelConfig
from macrs_sim.config.numbers import check_numbers, finite_message
from macrs_sim.config.sections import (
    DataConfig,
    JudgeConfig,
    ProtocolConfig,
    SimulatorConfig,
    SystemEntry,
)
from macrs_sim.errors import ConfigError
from macrs_sim.textfile import check_regular, loads_toml, read_utf8

# A run directory is named after the scenario: a plain file name, never a path.
_SLUG = re.compile(r"[A-Za-z0-9._-]+")


class Scenario(Strict):
    """A scenario file: every table of the campaign."""

    name: str = Field(description="The scenario's name; names the run directory.")
    seed: int = Field(default=0, description="The campaign's seed.")
    model: ModelConfig = Field(
        default_factory=EmbeddedModel, description="The default model of every role."
    )
    data: DataConfig = Field(
        default_factory=DataConfig, description="Dataset and sample construction."
    )
    protocol: ProtocolConfig = Field(
        default_factory=ProtocolConfig, description="The dialogue protocol."
    )
    # The kind's typed options (a subclass) after resolve_scenario.
    simulator: SerializeAsAny[SimulatorConfig] = Field(
        default_factory=SimulatorConfig, description="The simulated user."
    )
    # Typed options (subclasses) after resolve_scenario: SerializeAsAny dumps all their fields.
    systems: list[SerializeAsAny[SystemEntry]] = Field(
        min_length=1, max_length=1000, description="The systems under test."
    )
    campaign: CampaignConfig = Field(
        default_factory=CampaignConfig, description="How the campaign runs."
    )
    judge: JudgeConfig = Field(default_factory=JudgeConfig, description="The LLM judge of Table 2.")
    cache: CacheConfig = Field(default_factory=CacheConfig, description="The model response cache.")
    faults: FaultsConfig = Field(
        default_factory=FaultsConfig, description="Injected model-call faults."
    )
    # A folder of prompt files overriding the package's (same file names).
    prompts_dir: str | None = Field(
        default=None,
        description="A folder of prompt files overriding the package's (same file names).",
    )
    # Where a role's prompt puts the dialogue (agents/prompt_layout.py): the paper's
    # transcript, or chat messages; "auto" is chat for the embedded model, where the
    # paper's layout made the simulated user echo (docs/simulators.md, "Prompt layout").
    prompt_layout: Literal["auto", "paper", "chat"] = Field(
        default="auto",
        description="Where a role's prompt puts the dialogue: paper transcript or chat messages.",
    )

    @field_validator("name")
    @classmethod
    def _name_is_a_slug(cls, name: str) -> str:
        # The run directory is output_dir/NAME-<time>: "../x" or "/x" would put it elsewhere.
        if not _SLUG.fullmatch(name) or name in (".", ".."):
            raise ValueError(
                f"{name!r} is not a plain name: use letters, digits, '-', '_' and '.' only"
                " (it names the run directory)"
            )
        if len(name) > MAX_NAME_CHARS:
            raise ValueError(f"must be at most {MAX_NAME_CHARS} characters (it names a directory)")
        return name

    @model_validator(mode="after")
    def _unique_system_names(self) -> Scenario:
        names = [s.name for s in self.systems]
        dupes = sorted({n for n in names if names.count(n) > 1})
        if dupes:
            raise ValueError(f"system names must be unique, repeated: {', '.join(dupes)}")
        return self

    def system_model(self, system: SystemEntry) -> ModelConfig:
        return system.model or self.model

    def simulator_model(self) -> ModelConfig:
        return self.simulator.model or self.model

    def judge_model(self) -> ModelConfig:
        return self.judge.model or self.model

    def layout_for(self, model: ModelConfig) -> Layout:
        """The prompt layout of a role that talks to `model`."""
        if self.prompt_layout != "auto":
            return self.prompt_layout
        return model.preferred_layout


def _bound_message(error: ErrorDetails) -> str:
    """ "must be ≤ 100 (no study needs more), found 1000000000" for an upper-bound error."""
    limit = error.get("ctx", {}).get("le")
    if isinstance(limit, float) and limit.is_integer():
        limit = int(limit)
    why = " (no study needs more)" if isinstance(limit, int | float) and limit >= 100 else ""
    shown = f"{limit:,}" if isinstance(limit, int) else str(limit)
    return f"must be ≤ {shown}{why}, found {error['input']!r}"


def describe_validation_error(source: str, err: ValidationError) -> str:
    """One line: where (dotted field path), what is wrong, and how many more errors."""
    errors = err.errors()
    first = errors[0]
    where = ".".join(str(p) for p in first["loc"]) or "(top level)"
    msg = first["msg"].removeprefix("Value error, ")
    if first["type"] == "extra_forbidden":
        msg = "unknown field (check the spelling)"
    elif first["type"] == "missing":
        msg = "required field is missing"
    elif finite_message(first) is not None:
        msg = str(finite_message(first))
    elif first["type"] == "less_than_equal":
        msg = _bound_message(first)
    more = f" (and {len(errors) - 1} more problem(s))" if len(errors) > 1 else ""
    return f"{source}: {where}: {msg}{more}"


def parse_scenario(data: dict[str, object], source: str = "<scenario>") -> Scenario:
    try:
        scenario = Scenario.model_validate(data)
    except ValidationError as err:
        raise ConfigError(describe_validation_error(source, err)) from None
    check_numbers(data, scenario, source)
    return scenario


def load_scenario(path: str | Path) -> Scenario:
    p = Path(path)
    check_regular(p, ConfigError, what="scenario file")
    if not p.is_file():
        raise ConfigError(f"{p}: scenario file not found")
    text = read_utf8(p, ConfigError, what="scenario file")
    try:
        data = loads_toml(text)
    except tomllib.TOMLDecodeError as err:
        raise ConfigError(f"{p}: not valid TOML: {err}") from None
    return parse_scenario(data, str(p))


def scenario_to_toml(scenario: Scenario) -> str:
    """The resolved scenario (defaults filled in), saved next to every run."""
    import tomli_w

    return tomli_w.dumps(scenario.model_dump(mode="json", exclude_none=True))
