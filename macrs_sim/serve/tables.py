"""The scenario tables a launched server prints: `[model]` to reach it, `[campaign]` sized
to fill it (see llm/sizing for the rule)."""

from __future__ import annotations

import json

from macrs_sim.llm.sizing import MEAN_CALLS_IN_FLIGHT, recommended_concurrency


def scenario_tables(
    *,
    model: str,
    base_url: str,
    max_num_seqs: int,
    api_key_env: str | None = None,
    structured_outputs: str = "vllm",
    endpoints: int = 1,
) -> str:
    """TOML for a scenario: `max_concurrency` = what the server batches per endpoint, and
    enough dialogues in flight to keep every endpoint's batch full."""
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
    per_dialogue = MEAN_CALLS_IN_FLIGHT["macrs"]
    lines += [
        "",
        "[campaign]",
        f"# {slots} calls in flight / ~{per_dialogue:g} per MACRS dialogue",
        f"concurrency = {recommended_concurrency(slots)}",
    ]
    return "\n".join(lines)
