"""The LLM user's instructions: a scenario's `[simulator] instruction` and its prompt file.

Kept apart from the simulator (which needs the model client stack) so that what only needs
the prompts' names, such as the behaviour checks of a report, loads none of it.
"""

from __future__ import annotations

# The MACRS paper's simulator instruction (§4.1), the default.
DEFAULT_TEMPLATE = "user_simulator"

# Config's simulator `instruction` -> prompt file: the MACRS paper's (§4.1) or
# InteRecAgent's rules (its Figure 4). Both files have the same sections and placeholders.
# The keys name the paper an instruction comes from, not the system under test: a campaign
# puts every system before the same simulated users (DESIGN: "exactly the same simulator"),
# so the instruction is the simulator's option and no SystemSpec chooses it.
SIMULATOR_PROMPTS: dict[str, str] = {
    "macrs": DEFAULT_TEMPLATE,
    "interecagent": "user_simulator_interecagent",
}
