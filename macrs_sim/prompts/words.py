"""A domain's words filled into a template's text when it is loaded (data/domain.py).

Prompt files say `$item_noun`, `$consume_verb`... where the film text said "movie",
"watch"; the library fills them from the dataset's domain before anything else reads the
text, so rendering and its checks see only the placeholders a caller gives values for,
and a template's hash is that of the text the model is shown (films: the files' old text).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from string import Template


def fill_words(text: str, words: Mapping[str, str]) -> str:
    """`text` with each placeholder named in `words` replaced by its word; every other
    placeholder, a `$$` and a stray `$` are kept as written, so the result is a template
    again (a `$` in a word is written `$$`)."""

    def one(found: re.Match[str]) -> str:
        name = found.group("named") or found.group("braced")
        if name is not None and name in words:
            return words[name].replace("$", "$$")
        return found.group(0)

    return Template.pattern.sub(one, text)
