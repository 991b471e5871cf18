"""How many dialogues a campaign needs in flight to keep its own model servers busy.

A GPU server is fast only with a full batch: vLLM runs up to `--max-num-seqs` requests
at once (256 by default), and one H100 serving an 8B model reaches ~5,000 output
tokens/s only near that. A dialogue cannot fill it alone: its calls mostly wait on each
other. Per MACRS turn: user simulator -> information reflection -> (strategy reflection,
after a failed recommendation) -> the three responders at once -> planner. So a MACRS
dialogue has at most 3 calls in flight, and on average 1.4 (MEAN_CALLS_IN_FLIGHT: measured
with the scripted model at max_turns 5, a dialogue makes 35 calls in 25 sequential steps;
with the 2 calls preparing its sample, the 37 of the issue); a single-LLM dialogue has 1.

Rule: `max_concurrency` = the server's `--max-num-seqs` (per endpoint), and
`campaign.concurrency` = ceil(max_num_seqs * endpoints / 1.4): enough dialogues that the
calls they have in flight on average fill every endpoint's batch. Calls beyond a full
batch wait in the client's per-endpoint queue, which costs latency, not throughput.
"""

from __future__ import annotations

import math

from macrs_sim.config import ModelConfig, OpenAIModel, Scenario

# Calls one dialogue has in flight at most (MACRS: the three responders of a turn).
PEAK_CALLS_IN_FLIGHT = {"macrs": 3, "single_llm": 1}
# ... and on average over a dialogue (calls x mean call time / dialogue wall time).
MEAN_CALLS_IN_FLIGHT = {"macrs": 1.4, "single_llm": 1.0}


def recommended_concurrency(slots: int, *, kind: str = "macrs") -> int:
    """Dialogues in flight that keep `slots` calls (all endpoints together) busy."""
    # round first: 28 / 1.4 is 20.000000000000004 in floating point, and 20 is meant
    return max(1, math.ceil(round(slots / MEAN_CALLS_IN_FLIGHT[kind], 6)))


def sizing_warning(scenario: Scenario) -> str | None:
    """One line when the campaign can never fill the endpoints of a model it calls, or None.

    Only self-hosted endpoints (`base_url`/`base_urls`) count: a hosted API's
    `max_concurrency` is a rate limit to respect, not a batch to fill. "Can never" means
    even with every dialogue at its peak (campaign.concurrency x 3 calls for MACRS).
    """
    concurrency = scenario.campaign.concurrency
    for cfg, kind in _self_hosted(scenario):
        slots = cfg.max_concurrency * len(cfg.endpoints())
        most = concurrency * PEAK_CALLS_IN_FLIGHT[kind]
        if most >= slots:
            continue
        endpoints = len(cfg.endpoints())
        return (
            f"campaign.concurrency = {concurrency} keeps at most {most} calls in flight, but "
            f"model {cfg.model} takes {slots} ({cfg.max_concurrency} per endpoint x "
            f"{endpoints} endpoint{'s' if endpoints > 1 else ''}): its server will mostly "
            f"idle; set campaign.concurrency = {recommended_concurrency(slots, kind=kind)} "
            f"to fill it ({slots} / ~{MEAN_CALLS_IN_FLIGHT[kind]:g} calls in flight per "
            f"{'MACRS' if kind == 'macrs' else 'single-LLM'} dialogue)"
        )
    return None


def _self_hosted(scenario: Scenario) -> list[tuple[OpenAIModel, str]]:
    """Each self-hosted model the campaign calls, with the kind of dialogue calling it most."""
    found: list[tuple[OpenAIModel, str]] = []

    def add(cfg: ModelConfig, kind: str) -> None:
        if not isinstance(cfg, OpenAIModel) or cfg.endpoints() == (None,):
            return
        for i, (seen, seen_kind) in enumerate(found):
            if seen == cfg:
                if PEAK_CALLS_IN_FLIGHT[kind] > PEAK_CALLS_IN_FLIGHT[seen_kind]:
                    found[i] = (cfg, kind)
                return
        found.append((cfg, kind))

    for system in scenario.systems:
        add(scenario.system_model(system), system.kind)
    if scenario.simulator.kind == "llm":
        add(scenario.simulator_model(), "single_llm")  # one call at a time
    return found
