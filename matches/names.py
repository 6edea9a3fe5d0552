"""What a name looks like to a reader, to refuse one that passes for another player or a role.

Pure: no Django. `name_skeleton` folds what a reader would not tell apart
into one form, after Unicode's confusable "skeleton" (UTS #39):

1. NFKC (full-width letters, ligatures, mathematical letters);
2. every character to one representative of its class in Unicode's own
   confusables table (`confusable_homoglyphs`, which carries
   `confusables.txt`): Cyrillic `г` to `r`, Cherokee `Ꭺ` and Lisu `ꓮ` to `A`;
3. a few the table leaves out: the Latin small capitals (`ʟ`) and the
   Armenian letters that read as Latin ones (`լ`);
4. case folding, accents dropped, and the digits and signs that pass for
   letters (`1`, `I` and `l`; `0` and `o`; `5` and `s`);
5. everything that is not a letter or a digit dropped (spaces, dots, dashes).

Two names with the same skeleton read as the same name. Players store the
skeletons of their handle and display name (`Player.handle_key`,
`Player.name_key`), so a new name is compared by one indexed query.
"""

# ruff: noqa: RUF001, RUF002 - the look-alike letters are this module's subject

from __future__ import annotations

import re
import unicodedata
from functools import cache

from confusable_homoglyphs.confusables import confusables_data

#: Look-alikes Unicode's table does not list: Armenian letters that read as Latin ones.
_MISSING_FROM_THE_TABLE = {"լ": "l", "ո": "n", "ս": "u", "հ": "h", "օ": "o", "ց": "g", "զ": "q", "ք": "p"}

#: After case folding: the digits and signs that pass for letters, and `i` for `l` (as `I` is in most fonts).
_LETTERS_FOR_DIGITS = str.maketrans({"0": "o", "1": "l", "i": "l", "|": "l", "5": "s", "$": "s"})

#: Words a display name may not contain anywhere ("xXadminXx", "admin_team", "Organiser2025"): they claim a role.
ROLE_WORDS_ANYWHERE = frozenset(
    {"admin", "administrator", "organiser", "organizer", "moderator", "superuser", "sysop", "referee"}
)
#: Words a name may not hold as one of its words ("staff", "Root1"), but may inside another ("Stafford", "Rootes").
ROLE_WORDS_ALONE = frozenset(
    {"organisers", "organizers", "staff", "official", "arbiter", "root", "support", "system", "mod"}
)
ROLE_WORDS = ROLE_WORDS_ANYWHERE | ROLE_WORDS_ALONE


def _single(text: str) -> str | None:
    """A table entry's character, without the direction marks the table puts around right-to-left ones."""
    text = text.strip("\u200e\u200f")
    return text if len(text) == 1 else None


@cache
def _representatives() -> dict[str, str]:
    """Each character of Unicode's confusables table to its class's representative (built once, on first use).

    The table lists, per character, those it can be taken for; the classes are
    those lists joined (union-find), with each letter's other case. A class's representative is its ASCII
    lower-case letter if it has one, else its first ASCII character, else its
    smallest character: so `I`, `1`, `|` and `ℓ` all become `l`.
    """
    parent: dict[str, str] = {}

    def root(char: str) -> str:
        while parent.setdefault(char, char) != char:
            parent[char] = parent[parent[char]]
            char = parent[char]
        return char

    for key, lookalikes in confusables_data.items():
        first = _single(key)
        if first is None:
            continue
        for entry in lookalikes:
            other = _single(entry["c"])
            if other is not None:
                parent[root(other)] = root(first)
    # A letter and its other case are one letter to a reader: a Greek capital beta reads as B, and so as b.
    for char in list(parent):
        for other in (char.casefold(), char.upper(), char.lower()):
            if len(other) == 1 and other != char:
                parent[root(other)] = root(char)
    classes: dict[str, list[str]] = {}
    for char in parent:
        classes.setdefault(root(char), []).append(char)

    def rank(char: str) -> tuple[int, str]:
        if char.isascii() and char.isalpha() and char.islower():
            return (0, char)
        return (1, char) if char.isascii() else (2, char)

    return {char: min(members, key=rank) for members in classes.values() for char in members}


def _small_capital(char: str) -> str | None:
    """`ʟ` (LATIN LETTER SMALL CAPITAL L) to `l`: the table pairs small capitals only with each other."""
    name = unicodedata.name(char, "")
    prefix = "LATIN LETTER SMALL CAPITAL "
    if name.startswith(prefix) and len(name) == len(prefix) + 1:
        return name[-1].lower()
    return None


def _char_skeleton(char: str) -> str:
    if char.isascii():
        return char
    return _MISSING_FROM_THE_TABLE.get(char) or _small_capital(char) or _representatives().get(char, char)


def _mapped(text: str) -> str:
    # Classes hold both cases (`И` and `и`); a representative may still be upper case, so fold after.
    return "".join(_char_skeleton(char) for char in text).casefold()


def _fold(text: str) -> str:
    text = _mapped(unicodedata.normalize("NFKC", text))
    # Accents dropped, then mapped again: a letter with an accent has no class of its own in the table.
    text = "".join(char for char in unicodedata.normalize("NFKD", text) if not unicodedata.combining(char))
    return _mapped(text).translate(_LETTERS_FOR_DIGITS)


def name_skeleton(name: str) -> str:
    """The form two names share when a reader would take one for the other ("Alice Moreau", "ALICE  MOREAU",
    "Alicé Moreau", "Аlice Moreau" with a Cyrillic А, "aIice", "a1ice", "alice_")."""
    return "".join(char for char in _fold(name) if char.isalnum())


_ANYWHERE = {name_skeleton(word): word for word in ROLE_WORDS_ANYWHERE}
_ALONE = {name_skeleton(word): word for word in ROLE_WORDS}


def _words(name: str) -> list[str]:
    """A name's words as a reader may split them: at spaces, signs and underscores ("r00t" stays one word,
    digits read as letters), and each of those again where letters meet digits ("Root1": "Root" and "1")."""
    words = []
    for chunk in re.split(r"[\W_]+", unicodedata.normalize("NFKC", name)):
        if chunk:
            words += [chunk, *re.findall(r"[^\W\d_]+|\d+", chunk)]
    return words


def claimed_role(name: str) -> str | None:
    """The role word a name claims, the first in it ("Admin (organiser)" -> "admin", "admin_team",
    "Organiser2025", "Root1"), or None ("Stafford", "Rootes")."""
    whole = name_skeleton(name)
    found = [(whole.find(skeleton), word) for skeleton, word in _ANYWHERE.items() if skeleton in whole]
    if found:
        return min(found)[1]
    for part in _words(name):
        word = _ALONE.get(name_skeleton(part))
        if word is not None:
            return word
    return None
