"""The systems' own checks, run before the campaign makes its run folder (agents/registry.py).

`check_systems` runs each spec's cheap `check` (an environment variable, a model's memory
on this catalog) before any model server is probed. `prepare_systems` then runs each
spec's `prepare` (trained rankers, indexes, memory databases), which the dialogues of
this process reuse. Training costs time, but only here can its failure (a catalog
too small to train on, a broken checkpoint folder, torch running out of memory) be one
line and exit 2 with no run folder, instead of a run whose every dialogue of that
system is stored as the same error; a later session or Ray actor loads the same
models from the checkpoint cache.
"""

from __future__ import annotations

import os

from macrs_sim.agents.checks import CheckContext, check_entries
from macrs_sim.agents.registry import entry_label, resolve_entries, system_spec
from macrs_sim.campaign.setup import CampaignSetup
from macrs_sim.errors import ConfigError, MacrsSimError


def check_systems(setup: CampaignSetup) -> None:
    """Each system's spec `check`; the first failure is a ConfigError of one line."""
    check_entries(
        resolve_entries(setup.scenario.systems), CheckContext(setup.dataset, dict(os.environ))
    )


def _one_line(text: str, limit: int = 300) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= limit else flat[: limit - 3] + "..."


def prepare_systems(setup: CampaignSetup) -> None:
    """Each system's `prepare`, made now and kept for its dialogues; a failure of any kind
    is a ConfigError of one line naming the entry."""
    for index, options in enumerate(resolve_entries(setup.scenario.systems)):
        if system_spec(options.kind).prepare is None:
            continue
        where = entry_label(index, options.kind)
        try:
            setup.prepared_for(options)
        except MacrsSimError as err:
            raise ConfigError(f"{where}: {_one_line(str(err))}") from None
        except Exception as err:  # a trainer's own failure: its type and message, one line
            what = _one_line(f"{type(err).__name__}: {err}")
            raise ConfigError(f"{where}: cannot prepare: {what}") from None
