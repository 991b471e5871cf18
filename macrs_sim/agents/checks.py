"""The second gate of a system's options (see agents/registry.py): its spec's `check`.

A `check` sees the options and a `CheckContext` and raises ConfigError or ValueError
whose message starts with the field at fault; `check_entries` prefixes the entry:
`systems[1] (kind "recmind"): web_api_key_env: ...`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from macrs_sim.agents.registry import SystemOptions, entry_label, import_ref, system_spec
from macrs_sim.errors import ConfigError, MacrsSimError

if TYPE_CHECKING:
    from macrs_sim.data.dataset import Dataset


@dataclass(frozen=True)
class CheckContext:
    """What a spec's `check` may look at: the campaign's dataset (unprepared: only what is
    cheap, such as its catalog's size) and the environment the campaign will run in."""

    dataset: Dataset
    environ: Mapping[str, str] = field(default_factory=dict)


def check_entries(systems: Sequence[SystemOptions], ctx: CheckContext) -> None:
    """Each entry's spec `check`, in order; the first failure is a ConfigError of one line."""
    for index, options in enumerate(systems):
        spec = system_spec(options.kind)
        if spec.check is None:
            continue
        try:
            import_ref(spec.check, spec)(options, ctx)
        except (MacrsSimError, ValueError) as err:
            msg = " ".join(str(err).split())
            raise ConfigError(f"{entry_label(index, options.kind)}: {msg}") from None
