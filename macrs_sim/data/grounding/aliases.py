"""Names a film is widely known by that its catalog title does not contain.

Each group is one film: its release year and the names it goes by. A said title whose
key equals one name grounds to the catalog item whose key equals another name of the
group and whose year agrees (±1), so an alias never reaches a remake or another film.
Short names that are also titles of other films ("Ring", "Hate") are left out.
"""

from __future__ import annotations

ALIAS_GROUPS: tuple[tuple[int, tuple[str, ...]], ...] = (
    (
        1977,
        ("Star Wars", "Star Wars: Episode IV - A New Hope", "Star Wars: A New Hope", "A New Hope"),
    ),
    (
        1980,
        (
            "The Empire Strikes Back",
            "Star Wars: Episode V - The Empire Strikes Back",
            "Star Wars: The Empire Strikes Back",
        ),
    ),
    (
        1983,
        (
            "Return of the Jedi",
            "Star Wars: Episode VI - Return of the Jedi",
            "Star Wars: Return of the Jedi",
        ),
    ),
    (1982, ("E.T.", "E.T. the Extra-Terrestrial", "ET the Extraterrestrial")),
    (
        1964,
        ("Dr. Strangelove", "Dr. Strangelove or: How I Learned to Stop Worrying and Love the Bomb"),
    ),
    (1995, ("Se7en", "Seven")),
    (2001, ("Harry Potter and the Philosopher's Stone", "Harry Potter and the Sorcerer's Stone")),
    (1994, ("Léon: The Professional", "Léon", "Leon the Professional")),
    (1991, ("Terminator 2: Judgment Day", "T2: Judgment Day")),
    (1981, ("Raiders of the Lost Ark", "Indiana Jones and the Raiders of the Lost Ark")),
    (2016, ("Rogue One: A Star Wars Story", "Rogue One")),
    (
        2006,
        (
            "Borat",
            "Borat: Cultural Learnings of America for Make Benefit Glorious Nation of Kazakhstan",
        ),
    ),
    (2014, ("Birdman", "Birdman or (The Unexpected Virtue of Ignorance)")),
    (1948, ("Bicycle Thieves", "The Bicycle Thief", "Ladri di biciclette")),
    (1954, ("Seven Samurai", "Shichinin no samurai")),
    (1953, ("Tokyo Story", "Tokyo monogatari")),
    (1957, ("The Seventh Seal", "Det sjunde inseglet")),
    (1997, ("Life Is Beautiful", "La vita è bella")),
    (1998, ("Run Lola Run", "Lola rennt")),
    (2000, ("Crouching Tiger, Hidden Dragon", "Wo hu cang long")),
    (2001, ("Amélie", "Le fabuleux destin d'Amélie Poulain")),
    (2001, ("Spirited Away", "Sen to Chihiro no kamikakushi")),
    (1988, ("My Neighbor Totoro", "Tonari no Totoro")),
    (1997, ("Princess Mononoke", "Mononoke-hime")),
    (2004, ("Downfall", "Der Untergang")),
    (2006, ("Pan's Labyrinth", "El laberinto del fauno")),
    (2006, ("The Lives of Others", "Das Leben der Anderen")),
    (2008, ("Let the Right One In", "Låt den rätte komma in")),
    (2016, ("Your Name", "Kimi no na wa")),
    (2019, ("Parasite", "Gisaengchung")),
    (2019, ("Portrait of a Lady on Fire", "Portrait de la jeune fille en feu")),
    (2018, ("Shoplifters", "Manbiki kazoku")),
    (2003, ("Memories of Murder", "Salinui chueok")),
    (2002, ("Infernal Affairs", "Mou gaan dou")),
    (2002, ("City of God", "Cidade de Deus")),
    (2011, ("The Intouchables", "Intouchables", "Untouchable")),
    (1994, ("Chungking Express", "Chung Hing sam lam")),
    (1993, ("Farewell My Concubine", "Ba wang bie ji")),
    (1960, ("La Dolce Vita", "The Sweet Life")),
    (1966, ("The Good, the Bad and the Ugly", "Il buono, il brutto, il cattivo")),
)
