"""The shorter forms that still name a product: a long name without its amounts and sizes.

"Serendipity 3 gift card" names "Serendipity 3 $100.00 Gift Card", and "Hydro Boost Water
Gel" names "Neutrogena Hydro Boost Water Gel, 1.7 oz" (the leak guard, `LeakGuard.for_item`).
"""

from __future__ import annotations

import re

# Amounts and sizes in a product's name: "$100.00", "1.7 oz", "16 GB", "4 Count", "Pack of 2".
_AMOUNT = re.compile(
    r"\$\s?\d[\d,]*(?:\.\d+)?"
    r"|(?<![A-Za-z0-9])\d+(?:\.\d+)?\s?(?:fl\.?\s?oz|oz|ml|g|kg|lbs?|gb|tb|count|ct|pack|pk"
    r"|pcs|pieces|inch|cm|mm)(?![A-Za-z0-9])"
    r"|(?:pack|set|box) of \d+",
    re.IGNORECASE,
)
_MIN_PRODUCT_WORDS = 4
# A shorter form must still be a name, not everyday words: "Soft Cream" is both.
_MIN_FORM_WORDS = 3


def distinctive_forms(title: str, brands: tuple[str, ...] = ()) -> list[str]:
    """The shorter forms that still name a product: its name without amounts and sizes, the
    part before its first comma, and that part without the brand in front. Only for names of
    four or more words that state an amount or size (no film title is touched)."""
    if len(title.split()) < _MIN_PRODUCT_WORDS or not _AMOUNT.search(title):
        return []
    bare = re.sub(r"\s+", " ", _AMOUNT.sub(" ", title)).strip(" ,-")
    head = bare.split(",")[0].strip()
    forms = [bare, head]
    for brand in brands:
        if head.lower().startswith(brand.lower() + " "):
            forms.append(head[len(brand) :].strip())
    return [f for f in dict.fromkeys(forms) if len(f.split()) >= _MIN_FORM_WORDS and f != title]
