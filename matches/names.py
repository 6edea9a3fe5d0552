"""What a display name looks like to a reader, to refuse one that passes for another player or a role.

Pure: no Django. `name_skeleton` folds what a reader would not tell apart
into one form (a start on Unicode's confusable "skeleton", UTS #39): NFKC and
case folding (full-width letters, ligatures, upper and lower case), accents
dropped, a few Cyrillic and Greek letters that look Latin, the digits that
pass for letters, and everything that is not a letter or a digit (spaces,
dots, dashes). Two names with the same skeleton read as the same name.
"""

# ruff: noqa: RUF001, RUF002 - the look-alike letters are this module's subject

from __future__ import annotations

import re
import unicodedata

#: Letters and digits a reader takes for another one (UTS #39's confusables, the common few).
_LOOKALIKES = str.maketrans(
    {
        # Cyrillic
        "а": "a", "в": "b", "е": "e", "ё": "e", "к": "k", "м": "m", "н": "h", "о": "o", "р": "p", "с": "c",
        "т": "t", "у": "y", "х": "x", "і": "l", "ј": "j", "ѕ": "s", "ԁ": "d", "һ": "h", "ӏ": "l",
        # Greek
        "α": "a", "β": "b", "ε": "e", "η": "n", "ι": "l", "κ": "k", "ν": "v", "ο": "o", "ρ": "p", "τ": "t",
        "υ": "u", "χ": "x", "ω": "w",
        # Latin and digits that pass for other letters
        "ı": "l", "ɡ": "g", "0": "o", "1": "l", "i": "l", "|": "l", "5": "s", "$": "s",
    }
)  # fmt: skip

#: Words a display name may not contain: they would claim a role on the site.
ROLE_WORDS = frozenset(
    {
        "admin", "administrator", "organiser", "organizer", "organisers", "organizers", "moderator",
        "staff", "official", "referee", "arbiter", "superuser", "root", "support", "system", "sysop",
    }
)  # fmt: skip


def _fold(text: str) -> str:
    text = unicodedata.normalize("NFKC", text).casefold()
    text = "".join(ch for ch in unicodedata.normalize("NFKD", text) if not unicodedata.combining(ch))
    return text.translate(_LOOKALIKES)


def name_skeleton(name: str) -> str:
    """The form two names share when a reader would take one for the other ("Alice Moreau", "ALICE  MOREAU",
    "Alicé Moreau", "Аlice Moreau" with a Cyrillic А)."""
    return "".join(ch for ch in _fold(name) if ch.isalnum())


_ROLE_SKELETONS = {name_skeleton(word): word for word in ROLE_WORDS}


def claimed_role(name: str) -> str | None:
    """The role word a display name claims ("Admin (organiser)" -> "admin"), or None."""
    for word in re.split(r"[^\w$|]+", _fold(name)):
        skeleton = "".join(ch for ch in word if ch.isalnum())
        if skeleton in _ROLE_SKELETONS:
            return _ROLE_SKELETONS[skeleton]
    return None
