"""The new-match form (two to four handles in seat order, a ruleset preset, the series, points and a time limit)
and the challenge form (the player challenged, a two-player ruleset, the series and a time limit).

Input checks only: `matches.services.match_create` and `challenge_create` decide
what combination is allowed (seats against the ruleset, points at a table, no
timed Spit or Team Speed, who may create it), and their errors come back next to
the field they name.
"""

from __future__ import annotations

from typing import Any, ClassVar

from django import forms

from core.numbers import WholeNumberField
from speedrules import PRESETS, Ruleset
from web.forms.base import ServiceErrors
from web.forms.points import points_input, time_limit_input
from web.presenters.seats import ordinal

SEATS = 4

#: What the ruleset list says of each preset's seats beyond the count.
_SEAT_NOTES = {"team": "two teams: seats 1 and 3 against 2 and 4"}


def _seats_words(name: str, ruleset: Ruleset) -> str:
    note = _SEAT_NOTES.get(name) or ("teams" if ruleset.teams else "")
    return f"{ruleset.players} players" + (f", {note}" if note else "")


def ruleset_choices() -> list[tuple[str, str]]:
    """Every preset a match can be played under (at least two seats), its seat count in the label."""
    return [
        (name, f"{name.replace('-', ' ').capitalize()} ({_seats_words(name, ruleset)})")
        for name, ruleset in PRESETS.items()
        if ruleset.players >= 2
    ]


def two_player_ruleset_choices() -> list[tuple[str, str]]:
    """The presets a challenge can name: those two players play."""
    return [(name, label) for name, label in ruleset_choices() if PRESETS[name].players == 2]


def _presets_where(test: Any) -> str:
    """The presets (space-separated) a field applies to, for the page's script to show it only there."""
    return " ".join(name for name, ruleset in PRESETS.items() if ruleset.players >= 2 and test(ruleset))


class SeatsWidget(forms.MultiWidget):
    """One handle input per seat, all suggesting from the page's list of players (`<datalist id=…>`)."""

    def __init__(self, *, datalist: str) -> None:
        inputs = [
            forms.TextInput(
                attrs={
                    "list": datalist,
                    "autocomplete": "off",
                    "spellcheck": "false",
                    "placeholder": f"{ordinal(seat)} seat" + ("" if seat <= 2 else " (if any)"),
                    "aria-label": f"{ordinal(seat)} seat",
                    "maxlength": 40,
                }
            )
            for seat in range(1, SEATS + 1)
        ]
        super().__init__(inputs)

    def decompress(self, value: Any) -> list[str]:
        handles = list(value or [])
        return handles + [""] * (SEATS - len(handles))


class SeatsField(forms.MultiValueField):
    """Two to four handles in seat order; empty seats are left out (so seats 1, 2 and 4 filled is three players)."""

    def __init__(self, **kwargs: Any) -> None:
        fields = [forms.CharField(max_length=40, required=False) for _ in range(SEATS)]
        kwargs.setdefault("error_messages", {"required": "A match needs at least two players: fill the first seats."})
        super().__init__(fields, require_all_fields=False, widget=SeatsWidget(datalist="player-handles"), **kwargs)

    def compress(self, data_list: list[str]) -> list[str]:
        handles = [handle.strip() for handle in data_list or [] if handle and handle.strip()]
        if len(handles) < 2:
            raise forms.ValidationError("A match needs at least two players: fill the first seats.")
        return handles


class SeriesForm(ServiceErrors):
    """What a match and a challenge both take: a ruleset, the series and a time limit."""

    ruleset = forms.ChoiceField(choices=ruleset_choices, initial="speed")
    series = forms.ChoiceField(choices=[("best_of", "Best of"), ("first_to", "First to")], initial="best_of")
    series_length = WholeNumberField(
        min_value=1,
        max_value=99,
        initial=3,
        label="Games",
        help_text="Two players: best of an odd number. At a table, first to counts points.",
    )
    time_limit_seconds = time_limit_input(
        label="Time limit (seconds)",
        help_text="Empty: an ordinary race. Set: each game scores the cards played by then (not Spit or Team Speed).",
    )

    SERVICE_FIELDS: ClassVar[dict[str, str]] = {
        "best_of": "series_length",
        "first_to": "series_length",
        "time_limit_ms": "time_limit_seconds",
    }

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # The page's script shows these only for the rulesets that read them (static/js/site.js).
        self.fields["ruleset"].widget.attrs["data-role"] = "ruleset"
        self.fields["time_limit_seconds"].widget.attrs["data-rulesets"] = _presets_where(
            lambda ruleset: not ruleset.teams and not ruleset.tableau
        )

    def service_kwargs(self) -> dict[str, Any]:
        data = self.cleaned_data
        seconds = data["time_limit_seconds"]
        return {
            "ruleset": data["ruleset"],
            data["series"]: data["series_length"],
            "time_limit_ms": seconds * 1000 if seconds else None,
        }


class MatchForm(SeriesForm):
    """A match outside tournaments; `service_kwargs()` is what `match_create` takes."""

    players = SeatsField(
        label="Players, in seat order",
        help_text="Two to four handles. Three-way needs 3 players; four-way and team need 4.",
    )
    points_per_place = points_input(
        label="Points per place",
        help_text="Tables of three or four only, best place first. Empty: 2-1-0 at three, 3-1-0-0 at four.",
        placeholder="e.g. 3-1-0-0",
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["points_per_place"].widget.attrs["data-rulesets"] = _presets_where(
            lambda ruleset: ruleset.players > 2 and not ruleset.teams
        )

    def service_kwargs(self) -> dict[str, Any]:
        data = self.cleaned_data
        return {**super().service_kwargs(), "players": data["players"], "points_per_place": data["points_per_place"]}


class ChallengeForm(SeriesForm):
    """A challenge to one player; `service_kwargs()` is what `challenge_create` takes (but the user)."""

    challenged = forms.CharField(
        max_length=40,
        label="Player to challenge",
        help_text="Their handle. They accept or decline; the match is made when they accept.",
        widget=forms.TextInput(attrs={"list": "player-handles", "autocomplete": "off", "spellcheck": "false"}),
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        ruleset = self.fields["ruleset"]
        assert isinstance(ruleset, forms.ChoiceField)
        ruleset.choices = two_player_ruleset_choices()
        self.fields["series_length"].help_text = "Best of an odd number of games, or first to any number of wins."

    def service_kwargs(self) -> dict[str, Any]:
        return {**super().service_kwargs(), "challenged": self.cleaned_data["challenged"].strip()}
