"""Simulated users beside real people: the user side's measures computed one way on a run's
simulated users and on a human corpus's seekers, their distances with bootstrap intervals,
and realism.md with its figure (`macrs-sim realism RUN --reference CORPUS`)."""
