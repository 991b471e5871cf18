"""Offline evaluations of the seed systems on their own papers' tasks (one folder each)."""
