"""Hand-written miniature Yelp Open Dataset files, hostile on purpose.

No row comes from the real dataset: ids, names and texts are made up in the published shape
(JSON lines; attribute values as Python-literal STRINGS; categories as one comma-separated
string), small enough that every expected value below is worked out by hand.

Business lines (what the loader must make of each):
  1 bA   "Mario&#39;s <b>Pizza</b>  " -> "Mario's Pizza"; categories with an empty part and a
         trailing space; price "2" -> "$$"; Ambience literal -> casual, trendy
  2 bB   "Blue Door Café"; price and Ambience "None" -> absent; stars 3 -> "3.0"
  3 bC   "<p></p>": a name that is only HTML -> dropped (no usable name)
  4 bA   again -> dropped (repeated id; the first is kept)
  5 bD   "Taquería &amp; Grill"; categories null; u'' strings inside the Ambience literal;
         price "u'4'"; an older release's neighborhood "Downtown"
  6 bE   nobody reviews it -> left out of the database
  7 bF   a broken line in the middle (no comma) -> dropped (malformed)
  8      a JSON list, not a record -> dropped (malformed)
Review lines:
  1 u1 bA 5    2018-01-02 10:00:00 = 1514887200   (ties with line 5: file order)
  2 u1 bB 3    2017-12-31 23:59:59 = 1514764799   (u1's first)
  3 u2 bA 4.0  2019-06-01 12:00:00 = 1559390400
  4 u2 bZ 5    no such business -> dropped (no metadata)
  5 u1 bD 2    2018-01-02 10:00:00 = 1514887200
  6 u3 bC 4    bC was dropped -> dropped (no metadata)
  7 u3 bB 9    stars 9 -> dropped (malformed)
  8 u3 bB 1    2021-02-03 04:05:06 = 1612325106   (the newest: release "yelp:2021")
  9 u4 bA 4    date "2019/01/01" -> dropped (malformed)
 10 u4 bA      cut mid-record, the last line -> dropped (truncated)
(a blank line sits between lines 3 and 4 and is skipped.)
"""

from __future__ import annotations

import gzip
from pathlib import Path

BUSINESS_NAME = "yelp_academic_dataset_business.json"
REVIEW_NAME = "yelp_academic_dataset_review.json"

BUSINESS_LINES = [
    '{"business_id": "bA", "name": "Mario&#39;s <b>Pizza</b>  ", "address": "1 Main St", '
    '"city": "Tucson ", "state": "AZ", "postal_code": "85701", "latitude": 32.2, '
    '"longitude": -110.9, "stars": 4.5, "review_count": 2, "is_open": 1, "attributes": '
    '{"RestaurantsPriceRange2": "2", "WiFi": "u\'free\'", "Alcohol": "u\'none\'", '
    "\"Ambience\": \"{'romantic': False, 'casual': True, 'touristy': None, "
    "'trendy': True}\"}, "
    '"categories": "Restaurants, Italian, , Pizza ", "hours": {"Monday": "11:0-22:0"}}',
    '{"business_id": "bB", "name": "Blue Door Café", "city": "Reno", "state": "NV", '
    '"stars": 3, "is_open": 0, "attributes": {"RestaurantsPriceRange2": "None", '
    '"Ambience": "None"}, "categories": "Cafes, Coffee & Tea", "hours": null}',
    '{"business_id": "bC", "name": "<p></p>", "city": "Reno", "stars": 2.5, '
    '"attributes": null, "categories": "Bars"}',
    '{"business_id": "bA", "name": "Other Pizza", "city": "Mesa", "stars": 1.0, '
    '"attributes": null, "categories": "Pizza"}',
    '{"business_id": "bD", "name": "Taquería &amp; Grill", "neighborhood": "Downtown", '
    '"city": "Tucson", "state": "AZ", "stars": 5.0, "attributes": '
    '{"RestaurantsPriceRange2": "u\'4\'", '
    "\"Ambience\": \"{u'divey': True, u'classy': False, 'hipster': None}\"}, "
    '"categories": null}',
    '{"business_id": "bE", "name": "Quiet Spot", "city": "Reno", "stars": 4.0, '
    '"attributes": {}, "categories": "Parks"}',
    '{"business_id": "bF" "name": "Broken"}',
    '["bG", "Not A Record"]',
]


def review(n: int, user: str, business: str, stars: object, date: str, text: str) -> str:
    return (
        f'{{"review_id": "r{n}", "user_id": "{user}", "business_id": "{business}", '
        f'"stars": {stars}, "useful": 0, "funny": 0, "cool": 0, "text": "{text}", '
        f'"date": "{date}"}}'
    )


REVIEW_LINES = [
    review(1, "u1", "bA", 5, "2018-01-02 10:00:00", "Great crust."),
    review(2, "u1", "bB", 3, "2017-12-31 23:59:59", "Fine coffee.\\nSlow."),
    review(3, "u2", "bA", 4.0, "2019-06-01 12:00:00", "Good."),
    "",
    review(4, "u2", "bZ", 5, "2019-06-02 12:00:00", "Where is it?"),
    review(5, "u1", "bD", 2, "2018-01-02 10:00:00", "Too salty."),
    review(6, "u3", "bC", 4, "2020-03-04 05:06:07", "Nice bar."),
    review(7, "u3", "bB", 9, "2020-01-01 00:00:00", "Off the scale."),
    review(8, "u3", "bB", 1, "2021-02-03 04:05:06", "Cold."),
    review(9, "u4", "bA", 4, "2019/01/01", "Wrong date."),
    '{"review_id": "r10", "user_id": "u4", "business_id": "bA", "sta',
]

# The items the loader must write, in file order, as open_dataset reads them back.
ITEMS = {
    "bA": {
        "title": "Mario's Pizza",
        "categories": ("Restaurants", "Italian", "Pizza"),
        "attributes": (
            ("ambience", ("casual", "trendy")),
            ("city", ("Tucson",)),
            ("price_range", ("$$",)),
            ("stars", ("4.5",)),
            ("state", ("AZ",)),
        ),
    },
    "bB": {
        "title": "Blue Door Café",
        "categories": ("Cafes", "Coffee & Tea"),
        "attributes": (("city", ("Reno",)), ("stars", ("3.0",)), ("state", ("NV",))),
    },
    "bD": {
        "title": "Taquería & Grill",
        "categories": (),
        "attributes": (
            ("ambience", ("divey",)),
            ("city", ("Tucson",)),
            ("neighborhood", ("Downtown",)),
            ("price_range", ("$$$$",)),
            ("stars", ("5.0",)),
            ("state", ("AZ",)),
        ),
    },
}
SEQUENCES = {"u1": ["bB", "bA", "bD"], "u2": ["bA"], "u3": ["bB"]}
POPULARITY = {"bA": 2, "bB": 2, "bD": 1}
# (user, item, rating, timestamp) in file order.
INTERACTIONS = [
    ("u1", "bA", 5.0, 1514887200),
    ("u1", "bB", 3.0, 1514764799),
    ("u2", "bA", 4.0, 1559390400),
    ("u1", "bD", 2.0, 1514887200),
    ("u3", "bB", 1.0, 1612325106),
]
DROPPED = {
    "dropped: businesses with no usable name": "1",
    "dropped: repeated business ids": "1",
    "dropped: malformed lines of the business file": "2",
    "dropped: reviews of businesses with no metadata": "2",
    "dropped: malformed lines of the review file": "2",
    "dropped: truncated last lines of the review file": "1",
}


def text_of(lines: list[str], *, crlf: bool = False, trailing: str = "", end: bool = True) -> str:
    """The lines as a file's text; `end`: whether the last line ends in a newline too."""
    ending = trailing + ("\r\n" if crlf else "\n")
    return ending.join(lines) + (ending if end else "")


def write(path: Path, content: str | bytes, *, gz: bool = False) -> Path:
    data = content.encode("utf-8") if isinstance(content, str) else content
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(gzip.compress(data) if gz else data)
    return path


def write_dataset(
    folder: Path,
    business: list[str] | None = None,
    reviews: list[str] | None = None,
    *,
    gz: bool = False,
    crlf: bool = False,
    trailing: str = "",
) -> Path:
    """The two files in `folder` (`.json`, or `.json.gz` with gz); the folder. The review
    file's last line has no newline (the default one is cut short)."""
    suffix = ".gz" if gz else ""
    business_text = text_of(business or BUSINESS_LINES, crlf=crlf, trailing=trailing)
    review_text = text_of(reviews or REVIEW_LINES, crlf=crlf, trailing=trailing, end=False)
    write(folder / (BUSINESS_NAME + suffix), business_text, gz=gz)
    write(folder / (REVIEW_NAME + suffix), review_text, gz=gz)
    return folder
