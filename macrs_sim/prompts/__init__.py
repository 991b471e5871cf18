"""Prompt templates are data: one file per role, `[section]` headers, `$placeholders`.

A scenario may point `prompts_dir` at a folder of files with the same names to
override any of them; the hash of every template used is recorded in the run.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from string import Template

from macrs_sim.errors import ConfigError

_SECTION = re.compile(r"^\[([a-z_]+)\]\s*$", re.MULTILINE)


@dataclass(frozen=True)
class PromptTemplate:
    name: str
    sections: dict[str, str]
    sha256: str

    def render(self, section: str, **values: object) -> str:
        try:
            template = self.sections[section]
        except KeyError:
            raise ConfigError(f"prompt '{self.name}': missing section [{section}]") from None
        try:
            return Template(template).substitute({k: str(v) for k, v in values.items()})
        except KeyError as err:
            raise ConfigError(
                f"prompt '{self.name}' [{section}]: no value for ${err.args[0]}"
            ) from None


def parse_prompt(name: str, text: str) -> PromptTemplate:
    parts = _SECTION.split(text)
    # parts = [preamble, name1, body1, name2, body2, ...]
    sections = {parts[i]: parts[i + 1].strip("\n") for i in range(1, len(parts) - 1, 2)}
    if not sections:
        raise ConfigError(f"prompt '{name}': no [section] headers found")
    return PromptTemplate(name, sections, hashlib.sha256(text.encode()).hexdigest())


class PromptLibrary:
    """Loads templates from an override folder first, then from the package."""

    def __init__(self, override_dir: Path | None = None) -> None:
        if override_dir is not None and not override_dir.is_dir():
            raise ConfigError(f"prompts_dir {override_dir}: folder not found")
        self._override = override_dir
        self._cache: dict[str, PromptTemplate] = {}

    def get(self, name: str) -> PromptTemplate:
        if name not in self._cache:
            self._cache[name] = parse_prompt(name, self._read(name))
        return self._cache[name]

    def hashes(self) -> dict[str, str]:
        """sha256 of every template loaded so far (recorded in the run store)."""
        return {name: t.sha256 for name, t in sorted(self._cache.items())}

    def _read(self, name: str) -> str:
        if self._override is not None and (self._override / f"{name}.txt").is_file():
            return (self._override / f"{name}.txt").read_text(encoding="utf-8")
        ref = resources.files("macrs_sim") / "prompts" / f"{name}.txt"
        if not ref.is_file():
            raise ConfigError(f"prompt '{name}': no template file {name}.txt")
        return ref.read_text(encoding="utf-8")
