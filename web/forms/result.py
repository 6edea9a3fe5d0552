"""The forms that give one game's result: a player's report and an organiser's result.

Two players: the winner; Team Speed: the winning team. A table of three or four: every player's place (a
select each; equal places are shared), the winner being the one alone in
first; the services check the places make a finishing order. An organiser
may also void the game, and says why.
"""

from __future__ import annotations

from typing import Any

from django import forms

from web.presenters.seats import names_in_words, ordinal


class GameResultForm(forms.Form):
    """One game's result from a player (`organiser=False`: no void, no reason) or an organiser.

    An organiser's reason is asked for only where `reason_required` (settling a disputed game).
    """

    def __init__(
        self,
        *args: Any,
        players: list[str],
        table: bool,
        organiser: bool = True,
        teams: list[tuple[str, ...]] | None = None,
        reason_required: bool = False,
        **kwargs: Any,
    ) -> None:
        super().__init__(*args, **kwargs)
        self.players = players
        self.table = table
        self.organiser = organiser
        if table:
            choices = [("", "Place…")] + [(str(n), ordinal(n)) for n in range(1, len(players) + 1)]
            for seat, handle in enumerate(players):
                self.fields[f"place_{seat}"] = forms.TypedChoiceField(
                    choices=choices, coerce=int, required=False, label=f"{handle}'s place"
                )
            if organiser:
                self.fields["void"] = forms.BooleanField(required=False, label="Void (no result)")
        else:
            # Team Speed: a team wins, named by any of its players (its first here).
            outcomes = (
                [(team[0], f"{names_in_words(team)} won") for team in teams]
                if teams
                else [(handle, f"{handle} won") for handle in players]
            )
            self.fields["winner"] = forms.ChoiceField(
                widget=forms.RadioSelect, label="Result", choices=outcomes + ([("void", "Void")] if organiser else [])
            )
        if organiser:
            # An ordinary first result needs no reason; settling a dispute says why (the players read it).
            self.fields["reason"] = forms.CharField(
                max_length=2000,
                required=reason_required,
                label="Reason",
                widget=forms.TextInput(attrs={"placeholder": "e.g. reported at the table"}),
            )

    def place_fields(self) -> list[tuple[str, forms.BoundField]]:
        """Each player's handle with their place's select, in seat order."""
        return [(handle, self[f"place_{seat}"]) for seat, handle in enumerate(self.players)] if self.table else []

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        if not self.table:
            return cleaned
        if cleaned.get("void"):
            return cleaned
        missing = [handle for seat, handle in enumerate(self.players) if cleaned.get(f"place_{seat}") in (None, "")]
        if missing:
            raise forms.ValidationError(f"Give every player's place (missing: {', '.join(missing)}).")
        return cleaned

    def result(self) -> dict[str, Any]:
        """The service's keyword arguments: `winner` (a handle or None) and, at a table, `places` by handle."""
        data = self.cleaned_data
        if not self.table:
            winner = data["winner"]
            return {"winner": None if winner == "void" else winner}
        if data.get("void"):
            return {"winner": None, "places": None}
        # The winner follows from the places (the one alone in first); the service works it out.
        places = {handle: data[f"place_{seat}"] for seat, handle in enumerate(self.players)}
        return {"winner": None, "places": places}

    def describe(self) -> str:
        """The result in words, for the message after it is recorded."""
        result = self.result()
        places = result.get("places")
        if places:
            return ", ".join(
                f"{handle} {ordinal(place)}" for handle, place in sorted(places.items(), key=lambda i: i[1])
            )
        return "void" if result.get("winner") is None else f"{result['winner']} won"
