"""The tournament form (to create one, or edit it before its start): the shared settings, and a fieldset
per format drawn from its options."""

from __future__ import annotations

from typing import Any, ClassVar

from django import forms
from django.conf import settings
from django.utils import timezone

from core.numbers import WholeNumberField
from matches.models import Match
from matches.placings import DEFAULT_POINTS_PER_PLACE
from tournaments.formats import FORMATS, format_choices
from tournaments.formats.options import OptionSpec
from tournaments.models import Tournament
from tournaments.services.lifecycle import DEFAULT_CONFIRM_WITHIN
from tournaments.table_settings import BOUNDS as TABLE_BOUNDS
from web.forms.base import LocalTimes, ServiceErrors
from web.forms.entry import EntryRulesForm, SeedingForm
from web.forms.points import points_input, time_limit_input


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


#: The form's field for each table setting (`tournaments.table_settings`, in seconds as the form's).
TABLE_FIELDS = {name: f"table_{name}" for name in TABLE_BOUNDS}


def _site_seconds(key: str) -> str:
    return f"{int(settings.SPEED_TABLE_SETTINGS[key]) / 1000:g}"


class TournamentForm(LocalTimes, ServiceErrors):
    """A new tournament; `tournaments.services.tournament_create` checks the combination."""

    SERVICE_FIELDS: ClassVar[dict[str, str]] = {
        "best_of": "series_length",
        "first_to": "series_length",
        "time_limit_ms": "time_limit_seconds",
        "tie_breaks": "tie_break_1",
        **{f"table_settings.{name}": field for name, field in TABLE_FIELDS.items()},
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
    series_length = WholeNumberField(min_value=1, max_value=99, initial=3, label="Games")
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
    # A page always sends its select; a post without one takes the service's default, as the API does.
    confirmation = forms.TypedChoiceField(
        choices=Match.Confirmation.choices,
        required=False,
        empty_value=Match.Confirmation.OPPONENT.value,
        initial=Match.Confirmation.OPPONENT.value,
        label="Results",
    )
    confirm_within = WholeNumberField(
        column=(Tournament, "confirm_within"),
        min_value=1,
        required=False,
        initial=DEFAULT_CONFIRM_WITHIN,
        label="An unconfirmed result stands after (seconds)",
        help_text="900 is 15 minutes. Empty: it never stands by itself; the other side or an organiser decides.",
    )
    auto_approve = forms.BooleanField(
        required=False,
        label="Approve registrations automatically",
        help_text="Each player who registers is entered at once (past the cap, on the waiting list) and emailed; "
        "unticked, you approve each one.",
    )
    played_at_tables = forms.BooleanField(
        required=False,
        label="Played at the site's tables",
        help_text="A called match's table opens by itself and both players are emailed; the next game's opens "
        "when a game ends. A no-show loses after the no-show time below.",
    )
    advance_automatically = forms.BooleanField(
        required=False,
        label="Call every match as soon as it is paired",
        help_text="It starts by itself at its start time, if one is set, and each round once the round before "
        "is decided; unticked, you start it and call each match.",
    )
    table_claim_seconds = WholeNumberField(
        min_value=TABLE_BOUNDS["claim_seconds"].minimum,
        max_value=TABLE_BOUNDS["claim_seconds"].maximum,
        required=False,
        label="A player away can be claimed against after (seconds)",
    )
    table_abandon_seconds = WholeNumberField(
        min_value=TABLE_BOUNDS["abandon_seconds"].minimum,
        max_value=TABLE_BOUNDS["abandon_seconds"].maximum,
        required=False,
        label="The table is abandoned when everyone is away (seconds)",
    )
    table_no_show_seconds = WholeNumberField(
        min_value=TABLE_BOUNDS["no_show_seconds"].minimum,
        max_value=TABLE_BOUNDS["no_show_seconds"].maximum,
        required=False,
        label="A no-show at a called match's table forfeits after (seconds)",
        help_text="From the table's opening; it must be shorter than the abandon time. Empty: a no-show counts "
        "for nothing.",
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # Every format's options, as its schema declares them, named "<format>-<option>"; the page
        # shows them in a fieldset per format (static/js/site.js shows only the chosen format's).
        for key, fmt in FORMATS.items():
            for name, (spec, default) in fmt.options.specs().items():
                self.fields[f"{key}-{name}"] = option_field(spec, default)
        self.fields["format"].widget.attrs["data-role"] = "format"
        # The site's times, said where an empty box takes them (they are the deployment's settings).
        self.fields[
            "table_claim_seconds"
        ].help_text = (
            f"How long every other player must have been gone. Empty: the site's {_site_seconds('claim_ms')} s."
        )
        self.fields["table_abandon_seconds"].help_text = (
            "A table nobody readied is aborted after as long; nothing is decided. Empty: the site's "
            f"{_site_seconds('abandon_ms')} s."
        )
        # A random draw's number only matters when the seeding is random (static/js/site.js hides it otherwise).
        for key, fmt in FORMATS.items():
            specs = fmt.options.specs()
            if "rng_seed" in specs and "seeding" in specs:
                self.fields[f"{key}-rng_seed"].widget.attrs.update(
                    {"data-when-field": f"{key}-seeding", "data-when-value": "random"}
                )

    @classmethod
    def initial_from(cls, tournament: Tournament) -> dict[str, Any]:
        """A tournament's settings as the form's initial values, to edit them (the same form as a new one)."""
        initial: dict[str, Any] = {
            "name": tournament.name,
            "description": tournament.description,
            "starts_at": timezone.localtime(tournament.starts_at) if tournament.starts_at else None,
            "format": tournament.format,
            "series": tournament.series,
            "series_length": tournament.series_length,
            "ruleset": tournament.ruleset_name or "speed",
            "time_limit_seconds": tournament.time_limit_ms // 1000 if tournament.time_limit_ms else None,
            "confirmation": tournament.confirmation,
            "confirm_within": tournament.confirm_within,
            "auto_approve": tournament.auto_approve,
            "played_at_tables": tournament.played_at_tables,
            "advance_automatically": tournament.advance_automatically,
        }
        for name, field in TABLE_FIELDS.items():
            initial[field] = (tournament.table_settings or {}).get(name)
        for number, key in enumerate(tournament.tie_breaks[:4], start=1):
            initial[f"tie_break_{number}"] = key
        for name, value in (tournament.options or {}).items():
            if name in FORMATS[tournament.format].options.specs():
                initial[f"{tournament.format}-{name}"] = "-".join(map(str, value)) if isinstance(value, list) else value
        return initial

    def tie_break_formats(self) -> str:
        """The formats whose standings read tie-breaks (a bracket's placings do not), for the page to show them."""
        return " ".join(key for key, fmt in FORMATS.items() if not fmt.placings)

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
            "confirmation": data["confirmation"],
            "auto_approve": data["auto_approve"],
            "played_at_tables": data["played_at_tables"],
            "advance_automatically": data["advance_automatically"],
            # An empty box is "never"; a post without the box at all (not a page's) takes the default, as the API.
            "confirm_within": data["confirm_within"] if "confirm_within" in self.data else DEFAULT_CONFIRM_WITHIN,
            # Only the times typed: an empty box takes the site's (a no-show's: counts for nothing).
            "table_settings": {
                name: data[field] for name, field in TABLE_FIELDS.items() if data.get(field) is not None
            },
        }


class NewTournamentForm(TournamentForm):
    """A new tournament with its entry rules and seed order, set once on the manage page after (entry rules
    and seeding change there, not in the settings' form)."""

    max_entrants = EntryRulesForm.base_fields["max_entrants"]
    registration_closes_at = EntryRulesForm.base_fields["registration_closes_at"]
    # A page always sends its select; a post without one seeds by hand, as the API does.
    seed_by = forms.TypedChoiceField(
        choices=Tournament.SeedBy.choices,
        required=False,
        empty_value=Tournament.SeedBy.MANUAL.value,
        initial=Tournament.SeedBy.MANUAL,
        label="Seed order at the start",
        help_text=SeedingForm.base_fields["seed_by"].help_text,
    )

    def service_kwargs(self) -> dict[str, Any]:
        data = self.cleaned_data
        return {
            **super().service_kwargs(),
            "max_entrants": data["max_entrants"],
            "registration_closes_at": data["registration_closes_at"],
            "seed_by": data["seed_by"],
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
    return WholeNumberField(min_value=spec.minimum, max_value=spec.maximum, initial=default, **common)
