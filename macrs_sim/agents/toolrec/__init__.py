"""ToolRec (Zhao et al., SIGIR '24, §3): an LLM surrogate user explores the item pool with tools."""
