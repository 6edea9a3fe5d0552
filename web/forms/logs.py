"""The log submission form: one game's speed-log/1 document, uploaded or pasted."""

from __future__ import annotations

from typing import Any

from django import forms
from django.conf import settings
from django.db.models import QuerySet

from core.numbers import NumberError, whole_number
from matches.models import Game
from web.presenters.seats import players_title
from web.selectors.logs import games_grouped


class GameChoiceField(forms.ModelChoiceField):
    def to_python(self, value: Any) -> Game | None:
        # A game's id in the digits 0-9, as `core.numbers` reads every number (int() would take other digits).
        if value not in self.empty_values:
            try:
                whole_number(str(value), low=1, high=2**63 - 1)
            except NumberError:
                raise forms.ValidationError(self.error_messages["invalid_choice"], code="invalid_choice") from None
        return super().to_python(value)  # type: ignore[no-any-return]

    def label_from_instance(self, obj: Game) -> str:  # type: ignore[override]
        match = obj.match
        state = " (disputed)" if obj.status == Game.Status.DISPUTED else ""
        return f"Match {match.pk}: {players_title([p.handle for p in match.players])}, game {obj.number}{state}"


class LogSubmitForm(forms.Form):
    """A speed-log/1 document for one game, as an uploaded file or pasted JSON."""

    game = GameChoiceField(queryset=Game.objects.none(), empty_label=None, label="Game")
    file = forms.FileField(
        required=False,
        label="Upload the log file",
        help_text="The .json file your scorer app or table saved.",
        widget=forms.ClearableFileInput(attrs={"accept": ".json,application/json"}),
    )
    text = forms.CharField(
        required=False,
        label="Or paste the JSON",
        strip=False,  # the document is stored byte for byte, as submitted
        widget=forms.Textarea(attrs={"rows": 10, "spellcheck": "false", "placeholder": '{"format": "speed-log/1", …}'}),
    )

    def __init__(self, *args: Any, games: QuerySet[Game], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["game"].queryset = games
        # Grouped by tournament, round and ruleset, each game named in words.
        self.fields["game"].choices = [
            (group.label, [(game.pk, label) for game, label in group.games]) for group in games_grouped(games=games)
        ]

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        upload = cleaned.get("file")
        text = cleaned.get("text") or ""
        if upload and text.strip():
            raise forms.ValidationError("Upload a file or paste the JSON, not both.")
        if not upload and not text.strip():
            raise forms.ValidationError("Upload the log file or paste its JSON.")
        limit = settings.SPEED_LOG_MAX_BYTES
        if upload:
            if upload.size > limit:
                raise forms.ValidationError(f"The file is {upload.size} bytes; the limit is {limit} bytes.")
            cleaned["data"] = upload.read()
        else:
            cleaned["data"] = text.encode()
        return cleaned
