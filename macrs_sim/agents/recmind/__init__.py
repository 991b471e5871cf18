"""RecMind (seeds/000): an LLM agent that plans over tools with CoT, ToT or Self-Inspiring."""
