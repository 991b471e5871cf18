"""Broken and clashing outside packages (entry points), for all five registries (issue 40 §3).

Most cases fake `entry_points` in a registry's module (its table reset, so it loads again);
one installs a real package: a `.dist-info` folder on sys.path, which importlib.metadata
finds as it finds a pip-installed one. A fake entry point has no distribution, so it is
named by its module's top-level package: "tests" here.
"""

from __future__ import annotations

import dataclasses
import importlib
from collections.abc import Callable
from importlib.metadata import EntryPoint
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from macrs_sim import registry
from macrs_sim.agents import registry as systems
from macrs_sim.cli import main
from macrs_sim.config import SystemEntry
from macrs_sim.data import registry as datasets
from macrs_sim.errors import ConfigError
from macrs_sim.llm.backends import registry as backends
from macrs_sim.rankers import registry as rankers
from macrs_sim.simulators import registry as simulators
from tests.viewer.hostile_run import make_hostile_run

ME = __name__
NOT_A_SPEC = {"kind": "dict_kind", "options": None}


def raises() -> Any:
    raise RuntimeError("the plugin's own bug")


def _builtin(module: str, kind: str) -> Any:
    found = importlib.import_module(module)
    specs = getattr(found, "BUILTIN_SPECS", None) or [found.SPEC]
    return next(s for s in specs if getattr(s, "kind", getattr(s, "name", None)) == kind)


# Each registry: its module, its lookup, a built-in kind and where its spec is defined.
REGISTRIES: dict[str, tuple[ModuleType, Callable[[str], Any], str, str]] = {
    "systems": (systems, systems.system_spec, "macrs", "macrs_sim.agents.builtin"),
    "simulators": (simulators, simulators.simulator_spec, "agenda",
                   "macrs_sim.simulators.agenda_spec"),
    "backends": (backends, backends.backend_spec, "scripted", "macrs_sim.llm.backends.scripted"),
    "rankers": (rankers, rankers.ranker_spec, "popularity", "macrs_sim.rankers.popularity"),
    "datasets": (datasets, datasets.dataset_spec, "movielens", "macrs_sim.data.builtin"),
}  # fmt: skip


def copy_of(name: str) -> Any:
    """A plugin's spec registering registry `name`'s built-in kind (labelled as a copy)."""
    _module, _lookup, kind, where = REGISTRIES[name]
    spec = _builtin(where, kind)
    extra = {"label": "Not MACRS"} if name == "systems" else {}
    return dataclasses.replace(spec, **extra)


def _copy_systems() -> Any:
    return copy_of("systems")


def _copy_simulators() -> Any:
    return copy_of("simulators")


def _copy_backends() -> Any:
    return copy_of("backends")


def _copy_rankers() -> Any:
    return copy_of("rankers")


def _copy_datasets() -> Any:
    return copy_of("datasets")


def _install(monkeypatch: pytest.MonkeyPatch, module: ModuleType, *found: tuple[str, str]) -> None:
    """Registry `module` reloads, finding the entry points `found` (name, value)."""
    group = module.ENTRY_POINT_GROUP
    eps = [EntryPoint(name, value, group) for name, value in found]
    monkeypatch.setattr(module, "_SPECS", {})
    monkeypatch.setattr(module, "_loaded", False)
    monkeypatch.setattr(
        module, "entry_points", lambda *, group: eps if group == module.ENTRY_POINT_GROUP else []
    )


BROKEN = [
    ("gone", "no_such_plugin_module_x:SPEC",
     "system plugin no_such_plugin_module_x (entry point 'gone') failed: ModuleNotFoundError: "
     "No module named 'no_such_plugin_module_x'"),
    ("raising", f"{ME}:raises",
     "system plugin tests (entry point 'raising') failed: RuntimeError: the plugin's own bug"),
    ("dict_kind", f"{ME}:NOT_A_SPEC",
     "system plugin tests (entry point 'dict_kind') failed: TypeError: it gave a dict, not a "
     "SystemSpec"),
]  # fmt: skip


def test_broken_system_plugins_cost_only_the_scenarios_that_name_them(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    _install(monkeypatch, systems, *[(n, v) for n, v, _ in BROKEN])
    assert {"macrs", "single_llm"} <= set(systems.known_kinds())  # built-ins untouched
    (macrs,) = systems.resolve_entries([SystemEntry(name="M", kind="macrs")])
    assert macrs.kind == "macrs"
    assert systems.variant_label({"kind": "macrs", "name": "M"}) == "full"
    for name, _value, line in BROKEN:
        with pytest.raises(ConfigError) as err:
            systems.resolve_entries([SystemEntry(name="B", kind=name)])
        assert str(err.value) == f'systems[0] (kind "{name}"): {line}'
        with pytest.raises(ConfigError) as err:
            systems.system_spec(name)
        assert str(err.value) == line
    with pytest.raises(ConfigError) as err:  # a typo still names what did not load
        systems.system_spec("macrz")
    assert str(err.value).endswith("(not loaded from outside packages: dict_kind, gone, raising)")


def test_a_broken_plugin_named_as_a_built_in_kind_leaves_the_built_in(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Its entry point is called "macrs" but its import fails: nothing registered the kind
    # again, so MACRS is still MACRS (was: every "macrs" scenario refused with its error).
    _install(monkeypatch, systems, ("macrs", "no_such_plugin_module_x:SPEC"))
    assert systems.system_spec("macrs") is _builtin("macrs_sim.agents.builtin", "macrs")
    with pytest.raises(ConfigError) as err:
        systems.system_spec("macrz")
    assert str(err.value).endswith(
        "(not loaded from outside packages: macrs (no_such_plugin_module_x))"
    )


def test_eval_help_and_report_work_beside_a_broken_plugin(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    run = make_hostile_run(tmp_path)
    _install(monkeypatch, systems, *[(n, v) for n, v, _ in BROKEN])
    with pytest.raises(SystemExit) as done:
        main(["eval", "--help"])
    assert done.value.code == 0 and "sequential" in capsys.readouterr().out
    assert main(["report", str(run)]) == 0
    assert (run / "report.md").is_file()


@pytest.mark.parametrize("name", sorted(REGISTRIES))
def test_a_plugin_registering_a_built_in_kind_is_refused_naming_both(
    monkeypatch: pytest.MonkeyPatch, name: str
) -> None:
    module, lookup, kind, _where = REGISTRIES[name]
    monkeypatch.delenv(registry.REPLACE_ENV, raising=False)
    _install(monkeypatch, module, (kind, f"{ME}:_copy_{name}"))
    builtin = _builtin(REGISTRIES[name][3], kind)
    with pytest.raises(ConfigError) as err:
        lookup(kind)
    assert str(err.value) == (
        f"{name[:-1]} kind {kind!r} is registered by both macrs-sim and tests; set "
        f"MACRS_SIM_REPLACE={name}.{kind}=tests to use tests's (or =macrs-sim to keep "
        "macrs-sim's), or uninstall one"
    )
    assert module._SPECS[kind] is builtin  # the built-in is never replaced silently
    # The setting: the plugin's, deliberately.
    monkeypatch.setenv(registry.REPLACE_ENV, f"rankers.x=y, {name}.{kind}=tests")
    monkeypatch.setattr(module, "_loaded", False)
    monkeypatch.setattr(module, "_SPECS", {})
    assert lookup(kind) is not builtin and lookup(kind) == copy_of(name)
    # Or the built-in, deliberately.
    monkeypatch.setenv(registry.REPLACE_ENV, f"{name}.{kind}=macrs_sim")
    monkeypatch.setattr(module, "_loaded", False)
    monkeypatch.setattr(module, "_SPECS", {})
    assert lookup(kind) is builtin


def test_a_scenario_naming_a_clashing_system_kind_gets_the_line(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delenv(registry.REPLACE_ENV, raising=False)
    _install(monkeypatch, systems, ("macrs", f"{ME}:_copy_systems"))
    with pytest.raises(ConfigError) as err:
        systems.resolve_entries([SystemEntry(name="M", kind="macrs")])
    assert str(err.value).startswith(
        "systems[0] (kind \"macrs\"): system kind 'macrs' is registered by both macrs-sim and "
        "tests;"
    )
    assert systems.variant_label({"kind": "macrs"}) == "full"  # stored runs still report


def test_a_broken_backend_simulator_ranker_or_dataset_plugin_is_one_line(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    for name in ("simulators", "backends", "rankers", "datasets"):
        module, lookup, kind, _where = REGISTRIES[name]
        _install(monkeypatch, module, ("odd", f"{ME}:NOT_A_SPEC"), ("bad", f"{ME}:raises"))
        assert lookup(kind) is not None  # the built-ins load
        spec_type = {"simulators": "SimulatorSpec", "backends": "BackendSpec",
                     "rankers": "RankerSpec", "datasets": "DatasetSpec"}[name]  # fmt: skip
        with pytest.raises(ConfigError) as err:
            lookup("odd")
        assert str(err.value) == (
            f"{name[:-1]} plugin tests (entry point 'odd') failed: TypeError: it gave a dict, "
            f"not a {spec_type}"
        )
        with pytest.raises(ConfigError, match="RuntimeError: the plugin's own bug$"):
            lookup("bad")


def _dist_info(site: Path) -> None:
    """A package `evil-plugin` installed in `site` the way pip lays it out."""
    (site / "evil_plugin").mkdir(parents=True)
    (site / "evil_plugin" / "__init__.py").write_text(
        f"from {ME} import copy_of\nSPEC = copy_of('systems')\n"
    )
    info = site / "evil_plugin-0.1.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: evil-plugin\nVersion: 0.1\n")
    (info / "entry_points.txt").write_text(
        "[macrs_sim.systems]\nmacrs = evil_plugin:SPEC\nbroken = evil_plugin.missing:SPEC\n"
    )


def test_an_installed_plugin_that_takes_macrs_is_refused_by_its_package_name(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    _dist_info(tmp_path / "site")
    monkeypatch.syspath_prepend(str(tmp_path / "site"))
    monkeypatch.delenv(registry.REPLACE_ENV, raising=False)
    monkeypatch.setattr(systems, "_SPECS", {})
    monkeypatch.setattr(systems, "_loaded", False)
    scenario = tmp_path / "s.toml"
    scenario.write_text(
        'name = "s"\n[model]\nbackend = "scripted"\n[simulator]\nkind = "agenda"\n'
        '[[systems]]\nname = "M"\nkind = "macrs"\n'
    )
    assert main(["run", str(scenario), "--output-dir", str(tmp_path / "runs")]) == 2
    err = capsys.readouterr().err
    assert err == (
        "error: systems[0] (kind \"macrs\"): system kind 'macrs' is registered by both "
        "macrs-sim and evil-plugin; set MACRS_SIM_REPLACE=systems.macrs=evil-plugin to use "
        "evil-plugin's (or =macrs-sim to keep macrs-sim's), or uninstall one\n"
    )
    assert not (tmp_path / "runs").exists()
    with pytest.raises(ConfigError) as err:
        systems.system_spec("broken")
    assert str(err.value) == (
        "system plugin evil-plugin (entry point 'broken') failed: ModuleNotFoundError: "
        "No module named 'evil_plugin.missing'"
    )


def test_a_campaign_of_built_in_kinds_runs_beside_a_broken_installed_plugin(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Before: `run` of a scenario naming only built-in kinds exited 1 with a traceback."""
    _dist_info(tmp_path / "site")
    monkeypatch.syspath_prepend(str(tmp_path / "site"))
    monkeypatch.setattr(systems, "_SPECS", {})
    monkeypatch.setattr(systems, "_loaded", False)
    scenario = tmp_path / "s.toml"
    scenario.write_text(
        'name = "s"\n[model]\nbackend = "scripted"\n[data]\nn_samples = 1\n'
        '[simulator]\nkind = "agenda"\n[protocol]\nmax_turns = 1\n'
        '[[systems]]\nname = "Random"\nkind = "random"\n'
    )
    argv = ["run", str(scenario), "--output-dir", str(tmp_path / "runs"), "--no-progress"]
    assert main(argv) == 0
    assert "Traceback" not in capsys.readouterr().err
    assert len([p for p in (tmp_path / "runs").iterdir() if p.is_dir()]) == 1


def _copy_openai() -> Any:
    return dataclasses.replace(_builtin("macrs_sim.llm.backends.openai_compat", "openai"))


def test_stored_runs_of_a_clashing_kind_are_still_compared(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Reading a run runs none of its kinds' code: `compare` describes a stored model table
    through the kind's first spec even while two packages clash on it (before: the clash's
    ConfigError, so no report of any run that used the kind)."""
    from macrs_sim.analysis.report import alike

    monkeypatch.delenv(registry.REPLACE_ENV, raising=False)
    _install(monkeypatch, backends, ("openai", f"{ME}:_copy_openai"))
    with pytest.raises(ConfigError, match="registered by both macrs-sim and tests"):
        backends.backend_spec("openai")  # a run would be refused
    model = {"backend": "openai", "model": "m", "base_url": "http://h:1/v1"}
    assert alike._model_identity(model) == "openai m at http://h:1/v1"
