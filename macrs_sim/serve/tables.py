"""The scenario tables a launched server prints: `[model]` to reach it, `[campaign]` sized
to fill it (see campaign/sizing for the rule)."""

from __future__ import annotations

import json

from macrs_sim.agents.registry import SystemSpec, registered_specs
from macrs_sim.campaign.sizing import recommended_concurrency


def scenario_tables(
    *,
    model: str,
    base_url: str,
    max_num_seqs: int,
    api_key_env: str | None = None,
    structured_outputs: str = "vllm",
    endpoints: int = 1,
    system: SystemSpec | None = None,
) -> str:
    """TOML for a scenario: `max_concurrency` = what the server batches per endpoint, and
    enough dialogues of `system` in flight to keep every endpoint's batch full (default:
    the first registered system, the tool's core, MACRS)."""
    spec = system or registered_specs()[0]
    lines = [
        "[model]",
        'backend = "openai"',
        f"model = {json.dumps(model)}",
        f"base_url = {json.dumps(base_url)}",
        f"structured_outputs = {json.dumps(structured_outputs)}",
        f"max_concurrency = {max_num_seqs}",
    ]
    if api_key_env:
        lines.append(f"api_key_env = {json.dumps(api_key_env)}")
    slots = max_num_seqs * endpoints
    load = spec.calls_in_flight
    lines += [
        "",
        "[campaign]",
        f"# {slots} calls in flight / ~{load.mean:g} per {spec.display_name} dialogue",
        f"concurrency = {recommended_concurrency(slots, load)}",
    ]
    return "\n".join(lines)
