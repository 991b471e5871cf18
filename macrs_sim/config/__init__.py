"""Scenario schema: validated pydantic models loaded from TOML.

Every protocol number of the paper (§4.2-4.4) is a field here with the paper's
value as default. Unknown fields are errors, so a typo never silently falls
back to a default.

One concern a module, imports pointing one way: bounds.py (upper bounds, `Strict`) <
models.py (the `[model]` tables) < sections.py (data, protocol, simulator, systems, judge)
and execution.py (campaign, cache, faults) < scenario.py (the whole file, load and parse).
Import every name from `macrs_sim.config`.
"""

from __future__ import annotations

from macrs_sim.config.bounds import (
    DAY_S,
    MAX_CONCURRENCY,
    MAX_HISTORY,
    MAX_NAME_CHARS,
    MAX_RETRIES,
    MAX_SAMPLES,
    MAX_THREADS,
    MAX_TOKENS,
    Strict,
)
from macrs_sim.config.execution import (
    CacheConfig,
    CampaignConfig,
    FaultsConfig,
    Price,
    output_dir_option,
)
from macrs_sim.config.models import (
    OTHER_BACKEND,
    EmbeddedModel,
    Layout,
    ModelConfig,
    ModelEntry,
    ModelOptions,
    OpenAIModel,
    ScriptedModel,
)
from macrs_sim.config.scenario import (
    Scenario,
    describe_validation_error,
    load_scenario,
    parse_scenario,
    scenario_to_toml,
)
from macrs_sim.config.sections import (
    DataConfig,
    JudgeConfig,
    ProtocolConfig,
    SimulatorConfig,
    SystemEntry,
)

__all__ = [
    "DAY_S",
    "MAX_CONCURRENCY",
    "MAX_HISTORY",
    "MAX_NAME_CHARS",
    "MAX_RETRIES",
    "MAX_SAMPLES",
    "MAX_THREADS",
    "MAX_TOKENS",
    "OTHER_BACKEND",
    "CacheConfig",
    "CampaignConfig",
    "DataConfig",
    "EmbeddedModel",
    "FaultsConfig",
    "JudgeConfig",
    "Layout",
    "ModelConfig",
    "ModelEntry",
    "ModelOptions",
    "OpenAIModel",
    "Price",
    "ProtocolConfig",
    "Scenario",
    "ScriptedModel",
    "SimulatorConfig",
    "Strict",
    "SystemEntry",
    "describe_validation_error",
    "load_scenario",
    "output_dir_option",
    "parse_scenario",
    "scenario_to_toml",
]
