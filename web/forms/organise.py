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
    """Each game of a table as it really went: every player's place (`g<game>s<seat>`) or, for a recorded game,
    that it did not count (`g<game>void`); and the games the match never recorded (after its last, not played
    unless every place is given), as two players' games are corrected (`PairCorrectionForm`)."""

    def __init__(
        self,
        *args: Any,
        players: list[str],
        games: list[tuple[int, list[int] | None]],
        added: list[int] | None = None,
        **kwargs: Any,
    ) -> None:
        super().__init__(*args, **kwargs)
        self.players, self.game_numbers, self.added = players, [number for number, _ in games], list(added or ())
        choices = [("", "—"), *((place, str(place)) for place in range(1, len(players) + 1))]
        recorded = dict(games)
        for number in [*self.game_numbers, *self.added]:
            places = recorded.get(number)
            for seat, handle in enumerate(players):
                self.fields[f"g{number}s{seat}"] = forms.TypedChoiceField(
                    choices=choices,
                    coerce=int,
                    required=False,
                    empty_value=None,
                    initial=None if places is None else places[seat],
                    label=f"Game {number}: {handle}",
                )
            if number not in self.added:
                self.fields[f"g{number}void"] = forms.BooleanField(
                    required=False, initial=places is None, label=f"Game {number} did not count"
                )

    def rows(self) -> list[tuple[int, list[tuple[str, forms.BoundField]], forms.BoundField | None]]:
        """Each game with each player's place field and its void box (None: a game the match never recorded)."""
        return [
            (
                number,
                [(handle, self[f"g{number}s{seat}"]) for seat, handle in enumerate(self.players)],
                None if number in self.added else self[f"g{number}void"],
            )
            for number in [*self.game_numbers, *self.added]
        ]

    def _places(self, number: int) -> list[int | None]:
        return [self.cleaned_data.get(f"g{number}s{seat}") for seat in range(len(self.players))]

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        for number in [*self.game_numbers, *self.added]:
            places = self._places(number)
            void = cleaned.get(f"g{number}void", False)
            if void or (number in self.added and all(place is None for place in places)):
                continue  # did not count, or not played: no places
            missing = [handle for handle, place in zip(self.players, places, strict=True) if place is None]
            if missing:
                self.add_error(None, f"Game {number}: give every player's place (missing: {', '.join(missing)}).")
        return cleaned

    def games(self) -> list[dict[str, Any]]:
        """The games as the correction service takes them: every recorded game (its places, or void), and each
        game added with its places."""
        games: list[dict[str, Any]] = []
        for number in [*self.game_numbers, *self.added]:
            places = self._places(number)
            if self.cleaned_data.get(f"g{number}void"):
                games.append({"game": number, "void": True})
            elif all(place is not None for place in places):
                games.append({"game": number, "places": dict(zip(self.players, places, strict=True))})
        return games


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
