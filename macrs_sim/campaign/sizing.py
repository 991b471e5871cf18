"""How many dialogues a campaign needs in flight to keep its own model servers busy.

A GPU server is fast only with a full batch: vLLM runs up to `--max-num-seqs` requests
at once (256 by default), and one H100 serving an 8B model reaches ~5,000 output
tokens/s only near that. A dialogue cannot fill it alone: its calls mostly wait on each
other. What one dialogue of a system has in flight, at most and on average, is its
`SystemSpec.calls_in_flight`, measured by `benchmarks/bench_calls_in_flight.py` (MACRS:
the three responders of a turn at once, 1.4 on average; single-LLM: 1).

Rule: `max_concurrency` = the server's `--max-num-seqs` (per endpoint), and
`campaign.concurrency` = ceil(max_num_seqs * endpoints / mean): enough dialogues that the
calls they have in flight on average fill every endpoint's batch. Calls beyond a full
batch wait in the client's per-endpoint queue, which costs latency, not throughput.
"""

from __future__ import annotations

import math

from macrs_sim.agents.registry import CallsInFlight, system_spec
from macrs_sim.config import ModelConfig, OpenAIModel, Scenario
from macrs_sim.simulators.registry import simulator_spec

# The LLM user simulator answers one message at a time.
SIMULATOR = ("simulated user", CallsInFlight(peak=1, mean=1.0))


def recommended_concurrency(slots: int, load: CallsInFlight) -> int:
    """Dialogues in flight that keep `slots` calls (all endpoints together) busy."""
    # round first: 28 / 1.4 is 20.000000000000004 in floating point, and 20 is meant
    return max(1, math.ceil(round(slots / load.mean, 6)))


def sizing_warning(scenario: Scenario) -> str | None:
    """One line when the campaign can never fill the endpoints of a model it calls, or None.

    Only self-hosted endpoints (`base_url`/`base_urls`) count: a hosted API's
    `max_concurrency` is a rate limit to respect, not a batch to fill. "Can never" means
    even with every dialogue at its peak (campaign.concurrency x 3 calls for MACRS).
    """
    concurrency = scenario.campaign.concurrency
    for cfg, (who, load) in _self_hosted(scenario):
        slots = cfg.max_concurrency * len(cfg.endpoints())
        most = concurrency * load.peak
        if most >= slots:
            continue
        endpoints = len(cfg.endpoints())
        return (
            f"campaign.concurrency = {concurrency} keeps at most {most} calls in flight, but "
            f"model {cfg.model} takes {slots} ({cfg.max_concurrency} per endpoint x "
            f"{endpoints} endpoint{'s' if endpoints > 1 else ''}): its server will mostly "
            f"idle; set campaign.concurrency = {recommended_concurrency(slots, load)} "
            f"to fill it ({slots} / ~{load.mean:g} calls in flight per {who} dialogue)"
        )
    return None


Caller = tuple[str, CallsInFlight]


def _self_hosted(scenario: Scenario) -> list[tuple[OpenAIModel, Caller]]:
    """Each self-hosted model the campaign calls, with the caller that has most in flight."""
    found: list[tuple[OpenAIModel, Caller]] = []

    def add(cfg: ModelConfig, caller: Caller) -> None:
        if not isinstance(cfg, OpenAIModel) or cfg.endpoints() == (None,):
            return
        for i, (seen, seen_caller) in enumerate(found):
            if seen == cfg:
                if caller[1].peak > seen_caller[1].peak:
                    found[i] = (cfg, caller)
                return
        found.append((cfg, caller))

    for system in scenario.systems:
        spec = system_spec(system.kind)
        if spec.uses_llm:
            add(scenario.system_model(system), (spec.display_name, spec.calls_in_flight))
    if simulator_spec(scenario.simulator.kind).uses_llm:
        add(scenario.simulator_model(), SIMULATOR)
    return found
