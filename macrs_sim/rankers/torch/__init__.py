"""Rankers written in torch (the `recsys` extra)."""
