"""Writes the example downloads in examples/ (made-up products, restaurants and games, no
real row), each in the format its publisher distributes, so the README's three commands per
domain run without a download. Deterministic: run it again and nothing changes.

    python examples/make_examples.py
"""

# ruff: noqa: E501  (the made-up items are tables, one row a line)
from __future__ import annotations

import gzip
import json
import random
from pathlib import Path

HERE = Path(__file__).parent
USERS, MIN_REVIEWS, MAX_REVIEWS = 16, 6, 9

PRODUCTS = {  # category -> (brand, name) made up
    "Skin Care": [("Lumera", "Hydra Veil Water Gel, 1.7 oz"), ("Lumera", "Hydra Veil Water Gel, 3.4 oz"),
                  ("Lumera", "Night Reset Cream"), ("Calder & Rowe", "Oat Milk Cleanser, 8 fl oz"),
                  ("Calder & Rowe", "Barrier Balm"), ("Nettlewood", "Vitamin C Brightening Serum"),
                  ("Nettlewood", "Clay Detox Mask"), ("Solvay Botanics", "Sheer Daily Sunscreen SPF 50"),
                  ("Solvay Botanics", "Sheer Daily Sunscreen SPF 30"), ("Pellucid", "Rose Toner Mist")],
    "Hair Care": [("Bramble Lane", "Argan Repair Shampoo"), ("Bramble Lane", "Argan Repair Conditioner"),
                  ("Kestrel", "No. 2 Bond Builder"), ("Kestrel", "No. 4 Bond Shampoo"),
                  ("Mireille", "Curl Cream, 6 oz"), ("Mireille", "Sea Salt Spray"),
                  ("Tallis", "Scalp Scrub"), ("Tallis", "Dry Shampoo Powder"),
                  ("Oriel", "Silk Pillow Hair Oil"), ("Oriel", "Heat Guard Mist")],
    "Makeup": [("Vantelle", "Lash Lift Mascara, Black"), ("Vantelle", "Lash Lift Mascara, Brown"),
               ("Vantelle", "Brow Pencil"), ("Cirrus", "Dewy Skin Tint"), ("Cirrus", "Cream Blush Stick"),
               ("Halden", "Matte Lip Crayon, Fig"), ("Halden", "Matte Lip Crayon, Coral"),
               ("Quillon", "Setting Powder"), ("Quillon", "Liquid Liner"), ("Ashby", "Glow Highlighter")],
}  # fmt: skip
RESTAURANTS = {  # cuisine -> (name, city)
    "Italian": [("Trattoria Vela", "Tempe"), ("Nonna Lucia", "Phoenix"), ("Forno Rosso", "Tempe"),
                ("Pasta Sorella", "Scottsdale"), ("Osteria Lume", "Phoenix"), ("Forno Rosso", "Phoenix"),
                ("Caffè Minerva", "Tempe"), ("Pizzeria Arden", "Mesa")],
    "Mexican": [("Taqueria Sol", "Tempe"), ("Cocina Brava", "Phoenix"), ("El Molcajete Azul", "Mesa"),
                ("Taqueria Sol", "Mesa"), ("Casa Pimienta", "Scottsdale"), ("Tortas Lupita", "Phoenix"),
                ("Mariscos Bahía", "Tempe"), ("La Palapa Verde", "Mesa")],
    "Thai": [("Siam Orchid", "Tempe"), ("Basil & Lime", "Phoenix"), ("Lanna House", "Mesa"),
             ("Thai Lotus Kitchen", "Scottsdale"), ("Khao Soi Corner", "Tempe"), ("Mango Tree", "Phoenix"),
             ("Bangkok Alley", "Mesa"), ("Chiang Rai Noodle", "Phoenix")],
}  # fmt: skip
GAMES = {  # genre -> (title, year, developer)
    "Action": [("Ironvale", 2014, "Kettle Forge"), ("Ironvale 2", 2017, "Kettle Forge"),
               ("Ironvale", 2021, "Kettle Forge"), ("Neon Vanguard", 2016, "Bright Static"),
               ("Skyreach Protocol", 2019, "Bright Static"), ("Hollow Crown", 2015, "Dunmore"),
               ("Hollow Crown: Ashes", 2018, "Dunmore"), ("Rust Runners", 2020, "Gantry Games")],
    "Strategy": [("Empire of Tides", 2013, "Longbow"), ("Empire of Tides II", 2016, "Longbow"),
                 ("Colony Drift", 2018, "Quarry"), ("Lanterns of Ur", 2017, "Quarry"),
                 ("Frontier Ledger", 2019, "Longbow"), ("Hex & Harvest", 2021, "Small Fern"),
                 ("Siegeworks", 2015, "Dunmore"), ("Star Charter", 2020, "Quarry")],
    "Simulation": [("Meadowbrook Farm", 2016, "Small Fern"), ("Harbor Town", 2018, "Small Fern"),
                   ("Night Shift Diner", 2019, "Gantry Games"), ("Rail Baron Deluxe", 2014, "Longbow"),
                   ("Cloud Garden", 2020, "Small Fern"), ("Ferry Tale", 2017, "Gantry Games"),
                   ("Lighthouse Keeper", 2021, "Quarry"), ("Beekeeper's Year", 2015, "Small Fern")],
}  # fmt: skip


def _histories(groups: dict[str, list[str]], rng: random.Random) -> list[list[str]]:
    """Each user keeps mostly to one group (so the category filter leaves a history)."""
    names = sorted(groups)
    out = []
    for u in range(USERS):
        own, other = groups[names[u % len(names)]], [i for n in names for i in groups[n]]
        n = rng.randint(MIN_REVIEWS, MAX_REVIEWS)
        picks = rng.sample(own, min(n - 1, len(own))) + rng.sample(other, 1)
        out.append(list(dict.fromkeys(picks)))
    return out


# What a reviewer says, by star rating: (opening, summary), in the product's own words.
SAYS = {5: ("I love this {what}.", "Love this {what}"),
        4: ("Good {what}, it does what it says.", "Good {what}"),
        3: ("The {what} is okay, nothing special.", "Just okay")}  # fmt: skip
DETAIL = {"Skin Care": "It left my skin soft and calm.", "Hair Care": "My hair feels healthier after a week.",
          "Makeup": "The colour lasts all day without smudging."}  # fmt: skip
# Amazon's automatic headlines, which RecMind's review summarisation leaves out.
STARS = {3: "Three Stars", 4: "Four Stars", 5: "Five Stars"}


def _review(stars: int, category: str, name: str, n: int) -> tuple[str, str]:
    """(text, summary) of a review, from its stars and product; every fourth has Amazon's
    automatic headline instead of the reviewer's own (no random draw: the rest stays)."""
    what = name.split(",")[0].lower()
    opening, summary = (part.format(what=what) for part in SAYS[stars])
    text = (
        f"{opening} {DETAIL[category]} I would buy it again."
        if stars > 3
        else f"{opening} {DETAIL[category]}"
    )
    return text, STARS[stars] if n % 4 == 3 else summary


def amazon(rng: random.Random) -> None:
    folder = HERE / "amazon-2018"
    folder.mkdir(exist_ok=True)
    groups, meta, about = {}, [], {}
    for c, (category, products) in enumerate(PRODUCTS.items()):
        groups[category] = []
        for n, (brand, name) in enumerate(products):
            asin = f"B0EX{c}{n:05d}"
            groups[category].append(asin)
            about[asin] = (category, name)
            meta.append({"category": ["All Beauty", category], "description": [f"{name} by {brand}."],
                         "title": f"{brand} {name}", "brand": brand, "feature": ["Made up for the example"],
                         "main_cat": "All Beauty", "price": f"${rng.randint(4, 60)}.{rng.randint(0, 99):02d}",
                         "asin": asin})  # fmt: skip
    reviews = []
    for u, items in enumerate(_histories(groups, rng)):
        for k, asin in enumerate(items):
            stars = rng.randint(3, 5)
            text, summary = _review(stars, *about[asin], u + k)
            reviews.append({"overall": float(stars), "verified": True,
                            "reviewerID": f"AEXUSER{u:04d}", "asin": asin,
                            "unixReviewTime": 1_500_000_000 + u * 10_000_000 + k * 86_400,
                            "reviewText": text, "summary": summary})  # fmt: skip
    _write_gz(folder / "meta_All_Beauty.json.gz", [json.dumps(m) for m in meta])
    _write_gz(folder / "All_Beauty_5.json.gz", [json.dumps(r) for r in reviews])


def yelp(rng: random.Random) -> None:
    folder = HERE / "yelp"
    folder.mkdir(exist_ok=True)
    groups, business = {}, []
    for c, (cuisine, places) in enumerate(RESTAURANTS.items()):
        groups[cuisine] = []
        for n, (name, city) in enumerate(places):
            bid = f"exbiz{c}{n:02d}"
            groups[cuisine].append(bid)
            business.append({"business_id": bid, "name": name, "city": city, "state": "AZ",
                             "stars": rng.choice([3.5, 4.0, 4.5]), "review_count": 10, "is_open": 1,
                             "attributes": {"RestaurantsPriceRange2": str(rng.randint(1, 3)),
                                            "Ambience": "{'casual': True, 'romantic': False}"},
                             "categories": f"Restaurants, {cuisine}"})  # fmt: skip
    reviews = []
    for u, items in enumerate(_histories(groups, rng)):
        for k, bid in enumerate(items):
            reviews.append({"review_id": f"exrev{u:02d}{k}", "user_id": f"exuser{u:02d}",
                            "business_id": bid, "stars": float(rng.randint(2, 5)),
                            "date": f"2019-{1 + u % 12:02d}-{1 + k:02d} 12:00:00",
                            "text": "Good food."})  # fmt: skip
    _write(folder / "yelp_academic_dataset_business.json", [json.dumps(b) for b in business])
    _write(folder / "yelp_academic_dataset_review.json", [json.dumps(r) for r in reviews])


def steam(rng: random.Random) -> None:
    folder = HERE / "steam"
    folder.mkdir(exist_ok=True)
    groups, games = {}, []
    for c, (genre, titles) in enumerate(GAMES.items()):
        groups[genre] = []
        for n, (title, year, developer) in enumerate(titles):
            app = str(900000 + c * 100 + n)
            groups[genre].append(app)
            games.append({"publisher": developer, "genres": [genre], "app_name": title, "title": title,
                          "release_date": f"{year}-0{1 + n % 9}-15", "tags": [genre, "Indie"],
                          "specs": ["Single-player"], "price": 9.99 if n % 3 else "Free to Play",
                          "id": app, "developer": developer})  # fmt: skip
    reviews = []
    for u, items in enumerate(_histories(groups, rng)):
        for k, app in enumerate(items):
            reviews.append({"username": f"explayer{u:02d}", "hours": float(rng.randint(1, 90)),
                            "product_id": app, "date": f"2017-{1 + u % 12:02d}-{1 + k:02d}",
                            "text": "Fun."})  # fmt: skip
    _write(folder / "steam_games.json", [repr(g) for g in games])  # Python literals, as published
    _write(folder / "steam_reviews.json", [repr(r) for r in reviews])


def _write(path: Path, lines: list[str]) -> None:
    path.write_text("".join(line + "\n" for line in lines), encoding="utf-8")


def _write_gz(path: Path, lines: list[str]) -> None:
    data = "".join(line + "\n" for line in lines).encode("utf-8")
    path.write_bytes(gzip.compress(data, mtime=0))  # mtime 0: the same bytes every time


if __name__ == "__main__":
    amazon(random.Random(1))
    yelp(random.Random(2))
    steam(random.Random(3))
