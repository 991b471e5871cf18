"""Prompt templates are data: one file per role, `[section]` headers, `$placeholders`.

A scenario may point `prompts_dir` at a folder of files with the same names to
override any of them; the hash of every template used is recorded in the run. The files
speak of items through the domain's words (`$item_noun`, `$consume_verb`: words.py),
filled from the dataset's domain when a template is loaded; the hash is that of the
filled text, what the model is shown (for films, the same as before the words existed).
"""

from __future__ import annotations

import copy
import hashlib
import re
from collections.abc import Mapping
from dataclasses import dataclass, replace
from importlib import resources
from pathlib import Path
from string import Template
from typing import Literal

from macrs_sim.data.domain import MOVIES, Domain
from macrs_sim.errors import ConfigError
from macrs_sim.prompts.split import fill, split_template
from macrs_sim.prompts.words import fill_words
from macrs_sim.textfile import read_utf8

# Where a dialogue goes in a prompt (agents/prompt_layout.py): the paper's transcript in
# one user message, or the turns as chat messages.
PromptLayout = Literal["paper", "chat"]

_SECTION = re.compile(r"^\[([a-z_]+)\]\s*$", re.MULTILINE)


@dataclass(frozen=True)
class PromptTemplate:
    name: str
    sections: dict[str, str]
    sha256: str
    layout: PromptLayout = "paper"

    def render(self, section: str, **values: object) -> str:
        try:
            template = self.sections[section]
        except KeyError:
            raise ConfigError(f"prompt '{self.name}': missing section [{section}]") from None
        split = split_template(template)
        try:
            mapping = {k: str(v) for k, v in values.items()}
            if split is None:  # a stray '$': string.Template raises its own error for it
                return Template(template).substitute(mapping)
            return fill(split, mapping)
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


def _package_text(name: str) -> str | None:
    ref = resources.files("macrs_sim") / "prompts" / f"{name}.txt"
    return ref.read_text(encoding="utf-8") if ref.is_file() else None


def package_prompt_names() -> list[str]:
    folder = resources.files("macrs_sim") / "prompts"
    return sorted(p.name[:-4] for p in folder.iterdir() if p.name.endswith(".txt"))


def _placeholders(text: str) -> set[str]:
    return set(Template(text).get_identifiers())


def check_override(
    path: Path, text: str, domain: Domain = MOVIES, catalog: Mapping[str, str] | None = None
) -> PromptTemplate:
    """An override must have the package template's sections, each with exactly its
    placeholders: one it does not know would fail mid-campaign, one it lacks would
    silently drop what the role is meant to see. Both are compared with the domain's
    words (and `catalog`'s, which come first) filled in: an override may use them, or
    write its own words instead."""
    name = path.name.removesuffix(".txt")
    package_text = _package_text(name)
    if package_text is None:
        names = ", ".join(f"{n}.txt" for n in package_prompt_names())
        raise ConfigError(f"prompts_dir: {path}: no such prompt (expected one of: {names})")
    words = {**domain.words(), **(catalog or {})}
    known = fill_words(package_text, words)
    override = parse_prompt(str(path), fill_words(text, words))
    for section, body in parse_prompt(name, known).sections.items():
        if section not in override.sections:
            raise ConfigError(f"prompts_dir: {path}: missing section [{section}]")
        mine = override.sections[section]
        if not Template(mine).is_valid():
            raise ConfigError(
                f"prompts_dir: {path} [{section}]: a '$' not followed by a placeholder name"
                " (write $$ for a dollar sign)"
            )
        expected, found = _placeholders(body), _placeholders(mine)
        allowed = ", ".join(f"${p}" for p in sorted(expected)) or "none"
        if unknown := sorted(found - expected):
            raise ConfigError(
                f"prompts_dir: {path} [{section}]: unknown placeholder ${unknown[0]}"
                f" (this section has: {allowed})"
            )
        if missing := sorted(expected - found):
            raise ConfigError(
                f"prompts_dir: {path} [{section}]: placeholder ${missing[0]} is missing"
                f" (this section needs: {allowed})"
            )
    if extra := sorted(set(override.sections) - set(parse_prompt(name, known).sections)):
        raise ConfigError(f"prompts_dir: {path}: unknown section [{extra[0]}]")
    return PromptTemplate(name, override.sections, override.sha256)


class PromptLibrary:
    """Loads templates from an override folder first, then from the package.

    Every override is checked when the library is made (before any run directory):
    see `check_override`. `with_layout` gives a view whose templates carry a layout; views
    share the loaded templates, so `hashes` names every template any of them used.
    `domain` is the dataset's: its words are filled into every template as it is loaded.
    `catalog` holds words of the dataset's catalog (the SQL columns its tool database has:
    tools/schema.py `prompt_words`), filled in place of the domain's same-named ones.
    """

    layout: PromptLayout = "paper"

    def __init__(
        self,
        override_dir: Path | None = None,
        domain: Domain = MOVIES,
        catalog: Mapping[str, str] | None = None,
    ) -> None:
        if override_dir is not None and not override_dir.is_dir():
            raise ConfigError(f"prompts_dir {override_dir}: folder not found")
        self._override = override_dir
        self.domain = domain
        self.catalog = dict(catalog or {})
        self._cache: dict[str, PromptTemplate] = {}
        self._overrides: dict[str, PromptTemplate] = {}
        self._catalogs: dict[tuple[tuple[str, str], ...], PromptLibrary] = {}
        for path in sorted(override_dir.glob("*.txt")) if override_dir else []:
            text = read_utf8(path, ConfigError, what="prompt file")
            template = check_override(path, text, domain, self.catalog)
            self._overrides[template.name] = template

    def get(self, name: str) -> PromptTemplate:
        if name not in self._cache:
            found = self._overrides.get(name)
            self._cache[name] = found or parse_prompt(name, self._read(name))
        template = self._cache[name]
        return template if template.layout == self.layout else replace(template, layout=self.layout)

    def for_domain(self, domain: Domain) -> PromptLibrary:
        """This library's overrides in `domain`'s words: itself when it speaks it already, so
        a library made before its dataset was opened can follow the dataset."""
        if domain == self.domain:
            return self
        return PromptLibrary(self._override, domain).with_layout(self.layout)

    def for_catalog(self, words: Mapping[str, str]) -> PromptLibrary:
        """This library with a catalog's words (`catalog` above): itself when it has them
        already, as a campaign's library does from the start, so the hashes it records name
        the text its systems were shown; else one library per catalog, kept."""
        if dict(words) == self.catalog:
            return self
        key = tuple(sorted(words.items()))
        if key not in self._catalogs:
            made = PromptLibrary(self._override, self.domain, words)
            self._catalogs[key] = made.with_layout(self.layout)
        kept = self._catalogs[key]
        return kept if kept.layout == self.layout else kept.with_layout(self.layout)

    def with_layout(self, layout: PromptLayout) -> PromptLibrary:
        """This library, its templates laid out as `layout` (agents/prompt_layout.py)."""
        view = copy.copy(self)  # shallow: the template caches stay shared
        view.layout = layout
        return view

    def hashes(self) -> dict[str, str]:
        """sha256 of every template loaded so far, its domain's words filled in (recorded in
        the run store): two domains' runs of one file record different hashes."""
        return {name: t.sha256 for name, t in sorted(self._cache.items())}

    def _read(self, name: str) -> str:
        text = _package_text(name)  # overrides were all loaded in __init__
        if text is None:
            raise ConfigError(f"prompt '{name}': no template file {name}.txt")
        return fill_words(text, {**self.domain.words(), **self.catalog})
