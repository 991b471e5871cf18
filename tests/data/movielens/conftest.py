"""Hand-written miniature MovieLens releases, written into tmp_path for each test.

No real MovieLens file is shipped (MovieLens may not be redistributed); the rows below are
made up in the shape of each release, small enough that expected values are worked out by
hand in the tests.
"""

from __future__ import annotations

import subprocess
import zipfile
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.cli_runner import run_cli as run_in_process

LATEST_MOVIES = """movieId,title,genres
1,Toy Story (1995),Adventure|Animation|Children|Comedy|Fantasy
2,"Shawshank Redemption, The (1994)",Crime|Drama
3,"City of Lost Children, The (Cité des enfants perdus, La) (1995)",Adventure|Drama|Fantasy
4,Seven (a.k.a. Se7en) (1995),Mystery|Thriller
5,Babylon 5,Sci-Fi
6,Fawlty Towers (1975-1979),Comedy
7,"Avventura, L' (a.k.a. Adventure, The) (1960)",Drama|Mystery|Romance
8,Unrated Movie (2001),(no genres listed)
"""
# Per movie: 1 -> 3 ratings, 2 -> 2, 3 -> 1, 4 -> 1, 5 -> 0, 6 -> 1, 7 -> 1, 8 -> 0.
LATEST_RATINGS = """userId,movieId,rating,timestamp
1,1,4.0,964982703
1,2,5.0,964981247
1,4,3.5,964982224
2,1,3.0,1445714835
2,2,4.5,1445714952
3,3,2.0,1306463578
3,1,5.0,1306463500
3,6,4.0,1306463600
4,7,1.5,1100000000
"""
# Movie 1: pixar x3, animation x2, fun x1. Movie 2: three tags once each (alphabetical).
# Movie 4: ten tags, juliet twice -> juliet, then the first seven others alphabetically.
LATEST_TAGS = """userId,movieId,tag,timestamp
1,1,pixar,1
2,1,Pixar,2
3,1,fun,3
1,1,animation,4
2,1,Animation,5
3,1," Pixar ",6
1,2,prison,7
2,2,Morgan Freeman,8
3,2,"hope, friendship",9
1,999,orphan tag,10
1,4,india,11
1,4,hotel,12
1,4,golf,13
1,4,foxtrot,14
1,4,echo,15
1,4,delta,16
1,4,charlie,17
1,4,bravo,18
1,4,alpha,19
1,4,juliet,20
2,4,Juliet,21
"""
LATEST_LINKS = """movieId,imdbId,tmdbId
1,0114709,862
2,0111161,278
3,0112682,
4,0114369,807
"""

GENOME_MOVIES = """movieId,title,genres
1,Toy Story (1995),Adventure|Animation|Children|Comedy|Fantasy
2,Heat (1995),Action|Crime|Thriller
3,"Usual Suspects, The (1995)",Crime|Mystery|Thriller
"""
GENOME_RATINGS = """userId,movieId,rating,timestamp
10,2,4.0,1000
10,1,3.0,1001
11,1,5.0,1002
"""
GENOME_TAGS_CSV = """tagId,tag
1,atmospheric
2,dark
3,funny
4,twist ending
5,violence
6,quirky
7,space
8,robots
9,romance
10,pixar animation
"""
# Movie 1: nine tags reach 0.5; quirky/space tie at 0.7 (alphabetical); twist ending (0.5)
# is ninth and cut; violence (0.49) is below the bar. Movie 2: nothing reaches 0.5, so
# its user tags are used. Movie 3 has no genome scores: user tags too.
_MOVIE1_RELEVANCE = [0.9, 0.51, 0.95, 0.5, 0.49, 0.7, 0.7, 0.6, 0.55, 0.99]
GENOME_SCORES = "movieId,tagId,relevance\n" + "".join(
    [f"1,{i + 1},{r}\n" for i, r in enumerate(_MOVIE1_RELEVANCE)]
    + [f"2,{i + 1},0.2\n" for i in range(10)]
)
GENOME_USER_TAGS = """userId,movieId,tag,timestamp
10,1,toys,1
10,2,heist,2
11,2,Heist,3
11,2,los angeles,4
10,3,twist,5
"""

# ml-1m: latin-1 bytes, "Children's", a title with ":" and one with an accent.
ML1M_MOVIES = (
    "1::Toy Story (1995)::Animation|Children's|Comedy\n"
    "2::Jumanji (1995)::Adventure|Children's|Fantasy\n"
    "3::Misérables, Les (1995)::Drama|Musical\n"
    "4::Crow: City of Angels, The (1996)::Action|Thriller\n"
)
ML1M_RATINGS = "1::1::5::978300760\n1::3::3::978302109\n2::1::4::978298413\n2::4::2::978299000\n"
ML1M_USERS = "1::F::1::10::48067\n2::M::56::16::70072\n"

ML10M_MOVIES = (
    "1::Toy Story (1995)::Adventure|Animation|Children|Comedy|Fantasy\n"
    "2::Amélie (Fabuleux destin d'Amélie Poulain, Le) (2001)::Comedy|Romance\n"
    "3::Homme, L' (2005)::Drama\n"
    "4::Short Film (2000)::(no genres listed)\n"
)
ML10M_RATINGS = "15::1::4.5::1215184630\n20::2::3.5::1188263867\n20::1::5::1188263900\n"
ML10M_TAGS = (
    "15::1::pixar::1215184630\n20::1::Pixar::1188263867\n"
    "15::2::paris::1215184600\n20::2::whimsical::1188263868\n20::2::Paris::1188263869\n"
)


def write_release(folder: Path, files: dict[str, str | bytes]) -> Path:
    """Write ``files`` (name -> text as UTF-8, or raw bytes) into ``folder``."""
    folder.mkdir(parents=True, exist_ok=True)
    for name, content in files.items():
        data = content.encode("utf-8") if isinstance(content, str) else content
        (folder / name).write_bytes(data)
    return folder


def zip_release(folder: Path, zip_path: Path, top: str | None = None) -> Path:
    """Zip ``folder``'s files under the top folder ``top`` (default: the folder's name)."""
    prefix = folder.name if top is None else top
    with zipfile.ZipFile(zip_path, "w", zipfile.ZIP_DEFLATED) as zf:
        zf.writestr(f"{prefix}/", "")
        for path in sorted(folder.iterdir()):
            zf.write(path, f"{prefix}/{path.name}")
    return zip_path


LATEST_FILES: dict[str, str | bytes] = {
    "movies.csv": LATEST_MOVIES,
    "ratings.csv": LATEST_RATINGS,
    "tags.csv": LATEST_TAGS,
    "links.csv": LATEST_LINKS,
}


@pytest.fixture
def latest_small(tmp_path: Path) -> Path:
    """ml-latest-small style CSV release with tags.csv and links.csv."""
    return write_release(tmp_path / "src" / "ml-latest-small", LATEST_FILES)


@pytest.fixture
def genome_release(tmp_path: Path) -> Path:
    """ml-25m style CSV release with the tag genome."""
    files: dict[str, str | bytes] = {
        "movies.csv": GENOME_MOVIES,
        "ratings.csv": GENOME_RATINGS,
        "tags.csv": GENOME_USER_TAGS,
        "genome-tags.csv": GENOME_TAGS_CSV,
        "genome-scores.csv": GENOME_SCORES,
    }
    return write_release(tmp_path / "src" / "ml-25m", files)


@pytest.fixture
def ml1m(tmp_path: Path) -> Path:
    """ml-1m style .dat release, latin-1 encoded."""
    files: dict[str, str | bytes] = {
        "movies.dat": ML1M_MOVIES.encode("latin-1"),
        "ratings.dat": ML1M_RATINGS,
        "users.dat": ML1M_USERS,
    }
    return write_release(tmp_path / "src" / "ml-1m", files)


@pytest.fixture
def ml10m_zip(tmp_path: Path) -> Path:
    """ml-10m style .zip: UTF-8 .dat files under the folder ml-10M100K."""
    files: dict[str, str | bytes] = {
        "movies.dat": ML10M_MOVIES,
        "ratings.dat": ML10M_RATINGS,
        "tags.dat": ML10M_TAGS,
    }
    folder = write_release(tmp_path / "build" / "ml-10M100K", files)
    return zip_release(folder, tmp_path / "ml-10m.zip")


@pytest.fixture
def out_dir(tmp_path: Path) -> Path:
    path = tmp_path / "out"
    path.mkdir()
    return path


MakeRelease = Callable[[str, dict[str, str | bytes]], Path]


@pytest.fixture
def make_release(tmp_path: Path) -> MakeRelease:
    """Write a release folder ``tmp_path/src/NAME`` with the given files."""

    def make(name: str, files: dict[str, str | bytes]) -> Path:
        return write_release(tmp_path / "src" / name, files)

    return make


@pytest.fixture
def make_zip() -> Callable[[Path, Path], Path]:
    return zip_release


@pytest.fixture
def latest_files() -> dict[str, str | bytes]:
    """The ml-latest-small fixture files, to alter in a test."""
    return dict(LATEST_FILES)


RunCli = Callable[..., subprocess.CompletedProcess[str]]


@pytest.fixture
def run_cli(tmp_path: Path) -> RunCli:
    """``macrs-sim ARGS`` in tmp_path, in this process (tests/cli_runner.py)."""

    def run(*args: str, umask: int = 0o022) -> subprocess.CompletedProcess[str]:
        return run_in_process(*args, cwd=tmp_path, umask=umask)

    return run
