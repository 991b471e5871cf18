from autogen_core import RoutedAgent

from macrs_sim.agents.macrs.roles import Planner, Responder, StrategyReflector


def test_role_handlers_are_found_once_per_class_and_match_autogens_walk() -> None:
    for role in (Responder, Planner, StrategyReflector):
        walked = RoutedAgent._discover_handlers.__func__(role)  # type: ignore[attr-defined]
        assert list(role._discover_handlers()) == list(walked)
        assert len(walked) >= 1
        assert role._discover_handlers() is role._discover_handlers()
    assert Responder._discover_handlers() != Planner._discover_handlers()
