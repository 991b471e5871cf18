"""The domain of a run's items, which its reports name them by ("several products share
the name"), as the campaign recorded it in its store when it started.

A run written before that records none and is read as films, as every run then was, so
its reports read word for word as they did.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from macrs_sim.data.domain import Domain
from macrs_sim.data.registry import UNKNOWN_DOMAIN, domain_named

# Store meta key the campaign (campaign/resume.py) and a saved chat write: the domain's name.
DOMAIN_META = "domain"


def run_domain(meta: Mapping[str, str]) -> Domain:
    return domain_named(meta.get(DOMAIN_META))


def shared_domain(domains: Sequence[Domain]) -> Domain:
    """The domain of runs shown together: theirs when they share one, else plain words."""
    names = {d.name for d in domains}
    return domains[0] if len(names) == 1 else UNKNOWN_DOMAIN
