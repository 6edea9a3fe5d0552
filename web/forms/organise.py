"""The organiser's small forms: entrants, seeds, a score, a call to a station, corrections."""

from __future__ import annotations

from typing import Any

from django import forms

from core.numbers import WholeNumberField
from tournaments.models import Entrant


class EntrantForm(forms.Form):
    handle = forms.CharField(max_length=40, label="Player handle")
    display_name = forms.CharField(
        max_length=100, required=False, label="Name", help_text="For a new player: created without a login."
    )
    seed = WholeNumberField(
        column=(Entrant, "seed"), min_value=1, required=False, help_text="Empty: after the last seed."
    )


class BulkEntrantsForm(forms.Form):
    players = forms.CharField(
        label="List of players",
        widget=forms.Textarea(attrs={"rows": 6, "spellcheck": "false", "placeholder": "alice, Alice Archer\nben"}),
        help_text="Best first, one a line: a handle, or a handle, a comma and a name. "
        "New handles become players without a login.",
    )


class ReseedForm(forms.Form):
    order = forms.CharField(
        label="Entrants, best first",
        widget=forms.Textarea(attrs={"rows": 6, "spellcheck": "false"}),
        help_text="Every entrant's handle, one a line, the first is seed 1.",
    )


class MatchScoreForm(forms.Form):
    """An organiser's final score of a match; the open games are set to reach it."""

    games_one = WholeNumberField(min_value=0, max_value=99)
    games_two = WholeNumberField(min_value=0, max_value=99)
    reason = forms.CharField(
        max_length=2000,
        required=False,
        label="Reason",
        widget=forms.TextInput(attrs={"placeholder": "e.g. score sheet from table 3"}),
    )


class CallForm(forms.Form):
    station = forms.CharField(
        max_length=40,
        required=False,
        label="Station or table",
        widget=forms.TextInput(attrs={"placeholder": "e.g. Table 2"}),
    )


class CorrectionForm(forms.Form):
    """Who really won a decided pairing; the choices are its two players."""

    winner = forms.ChoiceField(widget=forms.RadioSelect, label="The winner is")

    def __init__(self, *args: Any, players: list[str], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["winner"].choices = [(handle, handle) for handle in players]


class TableCorrectionForm(forms.Form):
    """Every player's place in each decided game of a table (`g<game>s<seat>`), as it really was."""

    def __init__(self, *args: Any, players: list[str], games: list[tuple[int, list[int]]], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.players, self.game_numbers = players, [number for number, _ in games]
        choices = [(place, str(place)) for place in range(1, len(players) + 1)]
        for number, places in games:
            for seat, handle in enumerate(players):
                self.fields[f"g{number}s{seat}"] = forms.TypedChoiceField(
                    choices=choices, coerce=int, initial=places[seat], label=f"Game {number}: {handle}"
                )

    def rows(self) -> list[tuple[int, list[tuple[str, forms.BoundField]]]]:
        """Each game with each player's place field, for the template."""
        return [
            (number, [(handle, self[f"g{number}s{seat}"]) for seat, handle in enumerate(self.players)])
            for number in self.game_numbers
        ]

    def games(self) -> list[dict[str, Any]]:
        """The places as the correction service takes them: every game, places by handle."""
        return [
            {
                "game": number,
                "places": {handle: self.cleaned_data[f"g{number}s{seat}"] for seat, handle in enumerate(self.players)},
            }
            for number in self.game_numbers
        ]


class PairCorrectionForm(forms.Form):
    """Each game of a two-player match (`g<game>`) as it really went: who won it, or that it did not count; and
    the games the match never recorded (after its last, not played unless given a winner): the real score."""

    #: A void game's choice: no handle starts with ":" (`matches.services.HANDLE_PATTERN`).
    VOID = ":void"

    def __init__(
        self,
        *args: Any,
        players: list[str],
        games: list[tuple[int, str | None]],
        added: list[int] | None = None,
        **kwargs: Any,
    ) -> None:
        super().__init__(*args, **kwargs)
        self.players, self.game_numbers, self.added = players, [number for number, _ in games], list(added or ())
        handles = [(handle, handle) for handle in players]
        for number, winner in games:
            self.fields[f"g{number}"] = forms.ChoiceField(
                choices=[*handles, (self.VOID, "Did not count")],
                initial=winner,
                widget=forms.RadioSelect,
                label=f"Game {number}",
            )
        for number in self.added:
            self.fields[f"g{number}"] = forms.ChoiceField(
                choices=[("", "Not played"), *handles],
                initial="",
                required=False,
                widget=forms.RadioSelect,
                label=f"Game {number}",
            )

    def rows(self) -> list[tuple[int, forms.BoundField, bool]]:
        """Each game's field, and whether the match never recorded it."""
        return [(number, self[f"g{number}"], number in self.added) for number in [*self.game_numbers, *self.added]]

    def games(self) -> list[dict[str, Any]]:
        """The games as the correction service takes them: every recorded game (a winner, or void), and each
        game added with a winner."""
        games: list[dict[str, Any]] = []
        for number in [*self.game_numbers, *self.added]:
            value = self.cleaned_data.get(f"g{number}")
            if value == self.VOID:
                games.append({"game": number, "void": True})
            elif value:
                games.append({"game": number, "winner": value})
        return games
