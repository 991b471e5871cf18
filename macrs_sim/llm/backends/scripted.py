"""`backend = "scripted"`: the deterministic fake for tests and benchmarks (llm/scripted.py)."""

from __future__ import annotations

import hashlib
from typing import TYPE_CHECKING, Any

from macrs_sim.config import ScriptedModel
from macrs_sim.llm.backends.registry import BackendContext, BackendSpec

if TYPE_CHECKING:
    from autogen_core.models import ChatCompletionClient


def build(cfg: ScriptedModel, ctx: BackendContext) -> ChatCompletionClient:
    from macrs_sim.llm.scripted import ScriptedChatCompletionClient  # on first use

    # A campaign never reads `.calls`; keeping every request would grow with the campaign.
    return ScriptedChatCompletionClient(
        ctx.scripted_rules, latency_s=cfg.latency_s, seed=cfg.seed, record_calls=False
    )


def identity(cfg: ScriptedModel, ctx: BackendContext) -> str:
    """Which rule answers each role (by name: a rule's code or captured state is not seen)."""
    rules = sorted(
        f"{role}={getattr(rule, '__module__', '')}.{getattr(rule, '__qualname__', type(rule))}"
        for role, rule in (ctx.scripted_rules or {}).items()
    )
    digest = hashlib.sha256("\n".join(rules).encode()).hexdigest()[:12]
    return f"scripted:seed={cfg.seed}:rules={digest}"


def retry_policy(cfg: ScriptedModel, faulty: bool) -> dict[str, Any]:
    # A fake endpoint needs no real backoff: pause about one simulated call.
    return {"attempts": cfg.max_retries + 1, "base_delay_s": cfg.latency_s, "seed": cfg.seed}


SPEC = BackendSpec(
    name="scripted",
    options=ScriptedModel,
    build=build,
    identity=identity,
    sampling_fields=frozenset({"seed"}),
    retry_policy=retry_policy,
    keyed_on_caller=True,
)
