"""Forms of the site's pages: input checks only; the apps' services decide what is allowed."""

from __future__ import annotations

from typing import Any, ClassVar

from django import forms
from django.conf import settings
from django.contrib.auth import get_user_model, password_validation
from django.db.models import QuerySet

from matches.models import Game
from matches.placings import DEFAULT_POINTS_PER_PLACE
from tournaments.formats import FORMATS, format_choices
from tournaments.formats.options import OptionSpec
from web.forms.points import points_input, time_limit_input
from web.presenters.seats import players_title
from web.selectors.logs import games_grouped


class ServiceErrors(forms.Form):
    """A form a service's errors come back to, each shown by the field it names (`Invalid.extra["field"]`)."""

    #: A service's field name -> this form's field, where they differ.
    SERVICE_FIELDS: ClassVar[dict[str, str]] = {}

    def add_service_error(self, field: str | None, message: str) -> None:
        """By the field the service named, or above the form when it named none of this form's."""
        name = self.SERVICE_FIELDS.get(field or "", field)
        self.add_error(name if name in self.fields else None, message)


class GameChoiceField(forms.ModelChoiceField):
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


def _ruleset_choices() -> list[tuple[str, str]]:
    from speedrules import PRESETS  # noqa: PLC0415 - keep the form module light to import

    return [(name, name.replace("-", " ").capitalize()) for name in PRESETS if PRESETS[name].players == 2]


def _table_ruleset_choices(seats: int) -> list[tuple[str, str]]:
    from speedrules import PRESETS  # noqa: PLC0415

    return [
        (name, name.replace("-", " ").capitalize())
        for name, ruleset in PRESETS.items()
        if ruleset.players == seats and not ruleset.teams  # a tournament seats players, not teams
    ]


def _metric_choices() -> list[tuple[str, str]]:
    from tournaments.standings import METRICS, metric_for  # noqa: PLC0415

    return [("", "—")] + [(key, metric_for(key).label) for key in sorted(METRICS)]


#: What the new-tournament form says of each format.
FORMAT_DESCRIPTIONS = {
    "single_elimination": "A knockout bracket: lose once and you are out. Byes fill the bracket up to a power of two.",
    "double_elimination": "Two brackets: a first loss sends a player to the losers' bracket, a second one out. "
    "The winners' and losers' champions meet in the grand final.",
    "round_robin": "Everyone plays everyone (Berger tables); the table decides, by the tie-breaks below.",
    "swiss": "A set number of rounds; each round pairs players with the same score who have not met yet.",
    "winner_stays_on": "The winner keeps the table and the loser joins the back of the queue; at a table of three "
    "or four, the others join it in their finishing order.",
    "groups_playoffs": "Round-robin groups, then the best of each group play a knockout bracket.",
    "tables": "Rounds at tables of four and three (three-way and four-way Speed), seated by seed and then by "
    "standing; each game's places earn points (3-1-0-0 at four, 2-1-0 at three), and the top of the standings "
    "play a final table.",
}


class TournamentForm(ServiceErrors):
    """A new tournament; `tournaments.services.tournament_create` checks the combination."""

    SERVICE_FIELDS: ClassVar[dict[str, str]] = {
        "best_of": "series_length",
        "first_to": "series_length",
        "time_limit_ms": "time_limit_seconds",
        "tie_breaks": "tie_break_1",
    }

    name = forms.CharField(max_length=120)
    description = forms.CharField(
        required=False, max_length=4000, widget=forms.Textarea(attrs={"rows": 3}), help_text="Shown on its public page."
    )
    starts_at = forms.DateTimeField(
        required=False,
        label="Starts at",
        widget=forms.DateTimeInput(attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M"),
        input_formats=["%Y-%m-%dT%H:%M", "%Y-%m-%d %H:%M"],
    )
    format = forms.ChoiceField(choices=format_choices)
    series = forms.ChoiceField(choices=[("best_of", "Best of"), ("first_to", "First to")], initial="best_of")
    series_length = forms.IntegerField(min_value=1, max_value=99, initial=3, label="Games")
    ruleset = forms.ChoiceField(choices=_ruleset_choices, initial="speed")
    tie_break_1 = forms.ChoiceField(choices=_metric_choices, required=False, label="Tie-break 1")
    tie_break_2 = forms.ChoiceField(choices=_metric_choices, required=False, label="Tie-break 2")
    tie_break_3 = forms.ChoiceField(choices=_metric_choices, required=False, label="Tie-break 3")
    tie_break_4 = forms.ChoiceField(choices=_metric_choices, required=False, label="Tie-break 4")
    time_limit_seconds = time_limit_input(
        label="Timed rounds (seconds)",
        help_text="Empty: ordinary races. Set: each game scores the cards played by then, and the standings "
        "rank by them first.",
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # Every format's options, as its schema declares them, named "<format>-<option>"; the page
        # shows them in a fieldset per format (static/js/site.js shows only the chosen format's).
        for key, fmt in FORMATS.items():
            for name, (spec, default) in fmt.options.specs().items():
                self.fields[f"{key}-{name}"] = option_field(spec, default)
        self.fields["format"].widget.attrs["data-role"] = "format"

    def format_fieldsets(self) -> list[tuple[str, str, list[forms.BoundField]]]:
        """(format key, legend, its option fields) for every format that has options."""
        return [
            (key, f"{fmt.label} options", [self[f"{key}-{name}"] for name in fmt.options.specs()])
            for key, fmt in FORMATS.items()
            if fmt.options.specs()
        ]

    def format_descriptions(self) -> list[tuple[str, str]]:
        return [(key, FORMAT_DESCRIPTIONS.get(key, "")) for key in FORMATS]

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        # Only the chosen format's options are read: another format's fields cannot stop the form.
        chosen = f"{data.get('format', '')}-"
        for name in list(self.errors):
            if "-" in name and not name.startswith(chosen):
                del self.errors[name]
        return data

    def add_service_error(self, field: str | None, message: str) -> None:
        """An option's error (`options.<name>`) is shown by the chosen format's field of that name."""
        if field and field.startswith("options."):
            field = f"{self.cleaned_data['format']}-{field.removeprefix('options.')}"
        super().add_service_error(field, message)

    def service_kwargs(self) -> dict[str, Any]:
        data = self.cleaned_data
        tie_breaks = [data[f"tie_break_{n}"] for n in range(1, 5) if data.get(f"tie_break_{n}")]
        key = data["format"]
        options = {
            name: data[f"{key}-{name}"]
            for name in FORMATS[key].options.specs()
            # An empty box takes the option's default.
            if data.get(f"{key}-{name}") not in (None, "")
        }
        return {
            "name": data["name"],
            "description": data["description"],
            "starts_at": data["starts_at"],
            "format": key,
            data["series"]: data["series_length"],
            "ruleset": data["ruleset"],
            "tie_breaks": tie_breaks,
            "time_limit_ms": data["time_limit_seconds"] * 1000 if data["time_limit_seconds"] else None,
            "options": options,
        }


def option_field(spec: OptionSpec, default: object) -> forms.Field:
    """The form's field for one format option, from its declaration (`tournaments.formats.options`)."""
    common: dict[str, Any] = {"required": False, "label": spec.label, "help_text": spec.help_text}
    if spec.kind == "bool":
        return forms.BooleanField(initial=default, **common)
    if spec.kind == "choice":
        coerce = int if isinstance(spec.choices[0][0], int) else str
        return forms.TypedChoiceField(choices=spec.choices, coerce=coerce, initial=default, **common)
    if spec.kind == "points":
        example = "-".join(map(str, DEFAULT_POINTS_PER_PLACE[spec.seats]))
        return points_input(label=spec.label, help_text=spec.help_text, placeholder=example)
    if spec.kind == "ruleset":
        return forms.ChoiceField(choices=lambda: _table_ruleset_choices(spec.seats), initial=default, **common)
    return forms.IntegerField(min_value=spec.minimum, max_value=spec.maximum, initial=default, **common)


class EntrantForm(forms.Form):
    handle = forms.CharField(max_length=40, label="Player handle")
    display_name = forms.CharField(
        max_length=100, required=False, label="Name", help_text="For a new player: created without a login."
    )
    seed = forms.IntegerField(required=False, min_value=1, help_text="Empty: after the last seed.")


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


class SignupForm(forms.Form):
    """Self sign-up: a handle (the login), a display name and a password Django's validators accept."""

    handle = forms.CharField(max_length=40, help_text="Letters, digits, '_', '.' or '-'; you log in with it.")
    display_name = forms.CharField(max_length=100, label="Your name")
    password1 = forms.CharField(
        label="Password", strip=False, widget=forms.PasswordInput(attrs={"autocomplete": "new-password"})
    )
    password2 = forms.CharField(
        label="Password again", strip=False, widget=forms.PasswordInput(attrs={"autocomplete": "new-password"})
    )

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        one, two = cleaned.get("password1"), cleaned.get("password2")
        if one and two and one != two:
            self.add_error("password2", "The two passwords differ.")
        elif one:
            user = get_user_model()(username=cleaned.get("handle", ""))
            user.first_name = cleaned.get("display_name", "")
            try:
                password_validation.validate_password(one, user)
            except forms.ValidationError as exc:
                self.add_error("password1", exc)
        return cleaned


class MatchScoreForm(forms.Form):
    """An organiser's final score of a match; the open games are set to reach it."""

    games_one = forms.IntegerField(min_value=0, max_value=99)
    games_two = forms.IntegerField(min_value=0, max_value=99)
    reason = forms.CharField(
        max_length=2000, label="Reason", widget=forms.TextInput(attrs={"placeholder": "e.g. score sheet from table 3"})
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
