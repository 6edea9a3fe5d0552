"""Forms of the site's pages: input checks only; the apps' services decide what is allowed."""

from __future__ import annotations

from typing import Any

from django import forms
from django.conf import settings
from django.db.models import QuerySet

from matches.models import Game
from tournaments.formats import format_choices


class GameChoiceField(forms.ModelChoiceField):
    def label_from_instance(self, obj: Game) -> str:  # type: ignore[override]
        match = obj.match
        state = " (disputed)" if obj.status == Game.Status.DISPUTED else ""
        return f"Match {match.pk}: {match.player_one.handle} v {match.player_two.handle}, game {obj.number}{state}"


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


def _ruleset_choices() -> list[tuple[str, str]]:
    from replays.engine import PRESETS  # noqa: PLC0415 - keep the form module light to import

    return [(name, name.replace("-", " ").capitalize()) for name in PRESETS if PRESETS[name].players == 2]


def _metric_choices() -> list[tuple[str, str]]:
    from tournaments.standings import METRICS, metric_for  # noqa: PLC0415

    return [("", "—")] + [(key, metric_for(key).label) for key in sorted(METRICS)]


class TournamentForm(forms.Form):
    """A new tournament; `tournaments.services.tournament_create` checks the combination."""

    name = forms.CharField(max_length=120)
    format = forms.ChoiceField(choices=format_choices)
    series = forms.ChoiceField(choices=[("best_of", "Best of"), ("first_to", "First to")], initial="best_of")
    series_length = forms.IntegerField(min_value=1, max_value=99, initial=3, label="Games")
    ruleset = forms.ChoiceField(choices=_ruleset_choices, initial="speed")
    tie_break_1 = forms.ChoiceField(choices=_metric_choices, required=False, label="Tie-break 1")
    tie_break_2 = forms.ChoiceField(choices=_metric_choices, required=False, label="Tie-break 2")
    tie_break_3 = forms.ChoiceField(choices=_metric_choices, required=False, label="Tie-break 3")
    tie_break_4 = forms.ChoiceField(choices=_metric_choices, required=False, label="Tie-break 4")
    seeding = forms.ChoiceField(
        choices=[("standard", "By seed"), ("random", "Random draw"), ("as_given", "As listed")], initial="standard"
    )
    rng_seed = forms.IntegerField(required=False, label="Draw number", help_text="For a random draw: any number.")
    third_place = forms.BooleanField(required=False, label="Play a third-place match")
    grand_final_reset = forms.BooleanField(required=False, initial=True, label="Grand final reset")
    double_round_robin = forms.BooleanField(required=False, label="Everyone meets twice")
    swiss_rounds = forms.IntegerField(required=False, min_value=1, label="Swiss rounds")
    max_matches = forms.IntegerField(required=False, min_value=1, label="Matches (winner stays on)")
    group_count = forms.IntegerField(
        required=False, min_value=1, label="Groups", help_text="Empty: groups of about four."
    )
    advance_per_group = forms.IntegerField(
        required=False, min_value=1, initial=2, label="Advance per group", help_text="To the playoff."
    )

    def service_kwargs(self) -> dict[str, Any]:
        data = self.cleaned_data
        tie_breaks = [data[f"tie_break_{n}"] for n in range(1, 5) if data.get(f"tie_break_{n}")]
        return {
            "name": data["name"],
            "format": data["format"],
            data["series"]: data["series_length"],
            "ruleset": data["ruleset"],
            "tie_breaks": tie_breaks,
            "seeding": data["seeding"],
            "rng_seed": data["rng_seed"],
            "third_place": data["third_place"],
            "grand_final_reset": data["grand_final_reset"],
            "double_round_robin": data["double_round_robin"],
            "swiss_rounds": data["swiss_rounds"],
            "max_matches": data["max_matches"],
            "group_count": data["group_count"],
            "advance_per_group": data["advance_per_group"] or 2,
        }


class EntrantForm(forms.Form):
    handle = forms.CharField(max_length=40, label="Player handle")
    seed = forms.IntegerField(required=False, min_value=1, help_text="Empty: after the last seed.")


class CorrectionForm(forms.Form):
    """Who really won a decided pairing; the choices are its two players."""

    winner = forms.ChoiceField(widget=forms.RadioSelect, label="The winner is")

    def __init__(self, *args: Any, players: list[str], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["winner"].choices = [(handle, handle) for handle in players]
