"""Title -> catalog id grounding (see grounder.Grounder for the rules)."""

from macrs_sim.data.grounding.grounder import Grounder
from macrs_sim.data.grounding.keys import Part, TitleKey, title_key
from macrs_sim.data.grounding.normalise import normalize_title, split_year, strip_decorations

__all__ = [
    "Grounder",
    "Part",
    "TitleKey",
    "normalize_title",
    "split_year",
    "strip_decorations",
    "title_key",
]
