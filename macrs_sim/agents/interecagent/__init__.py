"""InteRecAgent (Huang et al., §3): an LLM plans tool calls, recommender tools do the work."""
