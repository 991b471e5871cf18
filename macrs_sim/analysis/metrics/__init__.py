"""Measurements over the frames of runs: DataFrames and records in, DataFrames out, no I/O."""
