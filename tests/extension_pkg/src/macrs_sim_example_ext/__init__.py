"""An outside package registering one spec at each of macrs-sim's four extension points.

Nothing here is imported by macrs-sim by name: its registries find these specs through the
entry points in pyproject.toml (`macrs_sim.systems`, `macrs_sim.simulators`,
`macrs_sim.backends`, `macrs_sim.rankers`) once the package is installed.
"""
