"""The built-in dataset kinds, in the order `data prepare --help` lists them."""

from __future__ import annotations

from macrs_sim import registry

BUILTIN_SPECS = registry.builtin_specs(
    [
        "macrs_sim.data.movielens.spec",
        "macrs_sim.data.amazon.spec",
        "macrs_sim.data.yelp.spec",
        "macrs_sim.data.steam.spec",
    ]
)
