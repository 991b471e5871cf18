"""Hand-written miniature Amazon Reviews releases (2014, 2018, 2023) and helpers to write them.

No row comes from a real Amazon file: every product, user and review below is made up in
the shape of its release, hostile on purpose (u'' strings, HTML in titles, an HTML-only
title, a repeated product, a review of an unlisted product, a line cut short at the end,
a malformed line in the middle, CRLF line ends, trailing spaces), small enough that each
expected value is worked out by hand in the tests.
"""

from __future__ import annotations

import gzip
import sqlite3
import subprocess
from pathlib import Path

from macrs_sim.config import DataConfig
from macrs_sim.data.amazon.prepare import prepare
from macrs_sim.data.amazon.spec import AmazonOptions
from macrs_sim.data.dataset import Dataset, open_dataset
from macrs_sim.data.prepared import PrepareResult
from tests.cli_runner import run_cli as run_in_process

# 2014 metadata: one Python dict literal per line (a raw string: "\n" and "\xe9" are the
# escapes as the file holds them). Line 3's title is only HTML; line 4 repeats B001;
# line 5 is never reviewed; line 6 ends in trailing spaces; line 7 is cut short.
META_2014 = r"""{'asin': 'B001', 'title': u'Rose Water Toner &amp; Mist', 'price': 12.5, 'imUrl': 'http://example.com/b001.jpg', 'salesRank': {'Beauty': 1200}, 'categories': [['Beauty', 'Skin Care', 'Face'], ['Beauty', 'Gifts']], 'brand': u'Rosa', 'related': {'also_bought': ['B002', 'B005']}, 'description': u'A gentle toner.\nFor every skin.'}
{'asin': 'B002', 'title': "Men's Shaving Gel", 'price': 4.0, 'brand': u'Barbière', 'categories': [['Beauty', 'Shave']], 'salesRank': {}}
{'asin': 'B003', 'title': '<b> </b><br/>', 'categories': [['Beauty']]}
{'asin': 'B001', 'title': 'Rose Water Toner (again)', 'categories': [['Beauty']]}
{'asin': 'B004', 'title': 'Nobody Reviewed This', 'categories': [['Beauty']]}
{'asin': 'B005', 'title': u'Caf\xe9 Soap Bar', 'price': 100.0, 'brand': '', 'categories': [['Beauty', 'Bath &amp; Body']], 'description': u''}   
{'asin': 'B006', 'title': u'Cut Of"""  # noqa: E501

# 2014 reviews, JSON lines with CRLF ends (written by `crlf`). A1: B002 first (earlier),
# then B001 and B005 at one time (file order). A2: B999 unlisted, line 4 malformed, B003
# untitled, then B002. A3: a rating that is no number, then a line cut short.
REVIEWS_2014 = """{"reviewerID": "A1", "asin": "B001", "reviewerName": "Ann O.", "helpful": [1, 2], "reviewText": "Smells nice.", "overall": 5.0, "summary": "Nice", "unixReviewTime": 1388534400, "reviewTime": "01 1, 2014"}
{"reviewerID": "A1", "asin": "B002", "reviewerName": "Ann O.", "helpful": [0, 0], "reviewText": "Too sticky.", "overall": 3.0, "summary": "Meh", "unixReviewTime": 1385856000, "reviewTime": "12 1, 2013"}  
{"reviewerID": "A2", "asin": "B999", "helpful": [0, 0], "reviewText": "Gone.", "overall": 4.0, "summary": "Ok", "unixReviewTime": 1388534400, "reviewTime": "01 1, 2014"}
{"reviewerID": "A2", "asin": oops}
{"reviewerID": "A1", "asin": "B005", "helpful": [0, 0], "reviewText": "Lovely.", "overall": 4.0, "summary": "Good", "unixReviewTime": 1388534400, "reviewTime": "01 1, 2014"}
{"reviewerID": "A2", "asin": "B003", "helpful": [0, 0], "reviewText": "Hm.", "overall": 2.0, "summary": "Hm", "unixReviewTime": 1388534401, "reviewTime": "01 1, 2014"}
{"reviewerID": "A2", "asin": "B002", "helpful": [2, 3], "reviewText": "Fine.", "overall": 1.0, "summary": "Bad", "unixReviewTime": 1356998400, "reviewTime": "01 1, 2013"}
{"reviewerID": "A3", "asin": "B002", "helpful": [0, 0], "reviewText": "?", "overall": "five", "summary": "?", "unixReviewTime": 1356998400, "reviewTime": "01 1, 2013"}
{"reviewerID": "A3", "asin": "B00"""  # noqa: E501

# 2018 metadata, JSON lines. L01: HTML title and brand, six features (one empty, one long),
# a price with a thousands comma. L02: no category (main_cat instead), a price range.
# L03: empty title. Then L01 again. L04: a CSS fragment for a price, a description that
# is one string. L05: an escaped tag in the title.
_LONG_FEATURE = " ".join(["soft"] * 20)  # 99 characters
META_2018 = "\n".join(
    [
        '{"category": ["Luxury Beauty", "Skin Care", "Face", "</span></span></span>"], '
        '"tech1": "", "description": ["<p>Rich cream &amp; more.</p>", "Second part."], '
        '"fit": "", "title": "<span class=\\"a-size-large\\">Velvet Night Cream</span> '
        '&amp;  Serum", "also_buy": ["L02"], "tech2": "", "brand": "Lumi &amp; Co", '
        '"feature": ["Hydrates for 24 hours", "", "<b>Paraben</b> free", "Vegan", '
        f'"Made in France", "{_LONG_FEATURE}", "Sixth one"], "rank": "1,234 in Beauty (", '
        '"also_view": [], "details": {"\\n    Product Dimensions: \\n    ": "2 x 2 inches"}, '
        '"main_cat": "Luxury Beauty", "similar_item": "", "date": "", "price": "$1,299.00", '
        '"asin": "L01", "imageURL": [], "imageURLHighRes": []}',
        '{"category": [], "title": "Silk Shampoo", "brand": "", "main_cat": "Luxury Beauty", '
        '"price": "$3.99 - $7.99", "asin": "L02", "description": [], "feature": []}',
        '{"category": ["Luxury Beauty"], "title": "", "asin": "L03", "price": ""}',
        '{"category": ["Luxury Beauty", "Hair Care"], "title": "Velvet Night Cream", '
        '"asin": "L01", "price": "$5.00"}',
        '{"category": ["Luxury Beauty", "Fragrance"], "title": "Amber Eau de Parfum 50 ml", '
        '"brand": "Maison A", "price": ".a-box-inner{background-color:#fff}", "asin": "L04", '
        '"description": "One line only."}',
        '{"category": ["Luxury Beauty", "Fragrance"], "title": '
        '"&lt;b&gt;Musk Oil&lt;/b&gt; 10 ml", "price": "$25.00", "asin": "L05"}',
    ]
)
# U1: L04 then L01. U2: L03 (untitled), then L02 and L05 at one time. U3: L01.
REVIEWS_2018 = (
    "\n".join(
        [
            '{"overall": 5.0, "verified": true, "reviewTime": "01 2, 2015", "reviewerID": "U1", '
            '"asin": "L01", "style": {"Size:": " 1.7 oz"}, "reviewerName": "Bo", '
            '"reviewText": "Great cream.", "summary": "Five Stars", "unixReviewTime": 1420156800}',
            '{"overall": 4.0, "vote": "3", "verified": false, "reviewTime": "01 1, 2015", '
            '"reviewerID": "U1", "asin": "L04", "reviewerName": "Bo", "summary": "Nice", '
            '"unixReviewTime": 1420070400}',
            '{"overall": 2.0, "verified": true, "reviewerID": "U2", "asin": "L03", '
            '"reviewText": "Nameless.", "summary": "Hm", "unixReviewTime": 1420156800}',
            '{"overall": 3.0, "verified": true, "reviewerID": "U2", "asin": "L02", '
            '"reviewText": "Okay.", "summary": "Meh", "unixReviewTime": 1420243200}',
            '{"overall": 4.0, "verified": true, "reviewerID": "U2", "asin": "L05", '
            '"reviewText": "Warm scent.", "summary": "Good", "unixReviewTime": 1420243200}',
            '{"overall": 5.0, "verified": true, "reviewerID": "U3", "asin": "L01", '
            '"unixReviewTime": 1420000000}',
        ]
    )
    + "\n"
)

# 2023 metadata, keyed by parent_asin. C01: no categories (main_category instead), the
# brand in details. C02: a price of null, a long description after an empty one. C03: no
# store. C04: never reviewed.
_LONG_DESCRIPTION = " ".join(["Lush"] * 120)  # 599 characters
META_2023 = (
    "\n".join(
        [
            '{"main_category": "All Beauty", "title": "Howdy Hair Clips, 12 Pack", '
            '"average_rating": 4.2, "rating_number": 12, "features": ["Strong hold", '
            '"Rust-free metal"], "description": [], "price": 9.99, "images": [], "videos": [], '
            '"store": "Howdy", "categories": [], "details": {"Brand": "Howdy Co", '
            '"Material": "Metal"}, "parent_asin": "C01", "bought_together": null}',
            '{"main_category": "All Beauty", "title": "Plain Wide-Tooth Comb", '
            '"average_rating": 3.0, "rating_number": 2, "features": [], "description": ["", '
            f'"<p>{_LONG_DESCRIPTION}</p>"], "price": null, "images": [], "videos": [], '
            '"store": "CombCo", "categories": ["Beauty & Personal Care", "Hair Care", "Combs"], '
            '"details": {}, "parent_asin": "C02", "bought_together": null}',
            '{"main_category": "All Beauty", "title": "Big Ionic Dryer", "features": [], '
            '"description": [], "price": 25, "store": null, "categories": '
            '["Beauty & Personal Care", "Hair Care"], "details": {"Item Weight": "1 pound"}, '
            '"parent_asin": "C03"}',
            '{"main_category": "All Beauty", "title": "Unlisted Gloss", "features": [], '
            '"description": [], "price": 3.5, "store": "Gloss", "categories": [], '
            '"details": {}, "parent_asin": "C04"}',
        ]
    )
    + "\n"
)
# Times in milliseconds. AU1: C01 then C02 in one second (file order, though C02's
# milliseconds are earlier). AU2: C01 before C03; C77 is unlisted.
REVIEWS_2023 = (
    "\n".join(
        [
            '{"rating": 5.0, "title": "Love it", "text": "Works well.<br />Buy it.", '
            '"images": [], "asin": "C01X", "parent_asin": "C01", "user_id": "AU1", '
            '"timestamp": 1588687728923, "helpful_vote": 0, "verified_purchase": true}',
            '{"rating": 3.0, "title": "Fine", "text": "Just a comb.", "images": [], '
            '"asin": "C02", "parent_asin": "C02", "user_id": "AU1", '
            '"timestamp": 1588687728000, "helpful_vote": 1, "verified_purchase": false}',
            '{"rating": 1.0, "title": "Loud", "text": "Too loud.", "images": [], '
            '"asin": "C03", "parent_asin": "C03", "user_id": "AU2", '
            '"timestamp": 1600000000999, "helpful_vote": 0, "verified_purchase": true}',
            '{"rating": 4.0, "title": "Good", "text": "Holds.", "images": [], '
            '"asin": "C01Y", "parent_asin": "C01", "user_id": "AU2", '
            '"timestamp": 1599999999000, "helpful_vote": 0, "verified_purchase": true}',
            '{"rating": 2.0, "title": "Where", "text": "Gone.", "images": [], '
            '"asin": "C77", "parent_asin": "C77", "user_id": "AU2", '
            '"timestamp": 1600000001000, "helpful_vote": 0, "verified_purchase": true}',
        ]
    )
    + "\n"
)


def crlf(text: str) -> str:
    return text.replace("\n", "\r\n")


def write(folder: Path, name: str, text: str | bytes, *, gz: bool = False) -> Path:
    """Write `text` (UTF-8) as `folder/name`, gzip-compressed (name + ".gz") when `gz`."""
    folder.mkdir(parents=True, exist_ok=True)
    data = text.encode("utf-8") if isinstance(text, str) else text
    path = folder / (name + ".gz" if gz else name)
    path.write_bytes(gzip.compress(data) if gz else data)
    return path


def release_2014(folder: Path, *, gz: bool = False) -> Path:
    write(folder, "meta_Beauty.json", META_2014, gz=gz)
    return write(folder, "reviews_Beauty_5.json", crlf(REVIEWS_2014), gz=gz)


def release_2018(folder: Path, *, gz: bool = False) -> Path:
    write(folder, "meta_Luxury_Beauty.json", META_2018, gz=gz)
    return write(folder, "Luxury_Beauty_5.json", REVIEWS_2018, gz=gz)


def release_2023(folder: Path, *, gz: bool = False) -> Path:
    write(folder, "meta_All_Beauty.jsonl", META_2023, gz=gz)
    return write(folder, "All_Beauty.jsonl", REVIEWS_2023, gz=gz)


def run(source: Path, out: Path, **options: object) -> PrepareResult:
    return prepare(source, out, AmazonOptions.model_validate(options), overwrite=False)


def dataset(db: Path) -> Dataset:
    return open_dataset(DataConfig(dataset=str(db)))


def query(db: Path, sql: str) -> list[tuple[object, ...]]:
    conn = sqlite3.connect(db)
    try:
        return conn.execute(sql).fetchall()
    finally:
        conn.close()


def meta(db: Path) -> dict[str, str]:
    return {str(k): str(v) for k, v in query(db, "SELECT key, value FROM meta")}


def dropped(db: Path) -> dict[str, int]:
    """The database's `dropped: <reason>` rows as counts."""
    prefix = "dropped: "
    return {k[len(prefix) :]: int(v) for k, v in meta(db).items() if k.startswith(prefix)}


def leftovers(folder: Path) -> list[str]:
    """Every file in `folder` (a failed run leaves none, not even a temporary one)."""
    return sorted(p.name for p in folder.iterdir()) if folder.exists() else []


def cli(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    """`macrs-sim ARGS` in `cwd`, in this process (tests/cli_runner.py)."""
    return run_in_process(*args, cwd=cwd)
