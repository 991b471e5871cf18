"""A lean OpenAI-compatible chat client: the openai SDK's requests, errors and results
without its per-call machinery (see client.py for what it costs and why)."""

from macrs_sim.llm.lean.build import build_lean_client
from macrs_sim.llm.lean.client import LeanChatClient

__all__ = ["LeanChatClient", "build_lean_client"]
