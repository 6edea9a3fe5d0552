"""Settings for the Speed service, read from the environment (12-factor).

With no environment at all the service runs on an embedded SQLite database and
verifies logs in-process, so `python manage.py runserver` works on a fresh
machine. Set DATABASE_URL and CELERY_BROKER_URL to run on PostgreSQL with
Celery workers.
"""

import os
from datetime import timedelta
from pathlib import Path

import dj_database_url
from django.core.exceptions import ImproperlyConfigured
from redis.asyncio.retry import Retry as AsyncRetry
from redis.backoff import ExponentialBackoff, ExponentialWithJitterBackoff
from redis.retry import Retry

BASE_DIR = Path(__file__).resolve().parent.parent


def env_bool(name: str, default: bool) -> bool:
    value = os.environ.get(name)
    if value is None:
        return default
    return value.strip().lower() in {"1", "true", "yes", "on"}


def env_list(name: str, default: list[str]) -> list[str]:
    value = os.environ.get(name)
    if value is None:
        return default
    return [item.strip() for item in value.split(",") if item.strip()]


DEBUG = env_bool("DEBUG", True)
# The fallback key only ever serves development (DEBUG on): a production start without a
# key of its own is refused here, so it fails `check --deploy` and the server's start alike.
SECRET_KEY = os.environ.get("SECRET_KEY", "").strip()
if not SECRET_KEY:
    if not DEBUG:
        raise ImproperlyConfigured(
            "SECRET_KEY is not set: with DEBUG=0 the site needs a secret key of its own in the environment "
            "(e.g. python -c 'import secrets; print(secrets.token_urlsafe(50))')."
        )
    SECRET_KEY = "dev-only-insecure-key-set-SECRET_KEY-in-production"  # noqa: S105 - development only
ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", ["localhost", "127.0.0.1", "[::1]", "testserver"])
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", [])

INSTALLED_APPS = [
    # First: its runserver serves the tables' sockets as well as the pages (the demo's one command).
    "daphne",
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "rest_framework",
    "rest_framework.authtoken",
    "django_filters",
    "drf_spectacular",
    # Swagger UI and Redoc served from our own static files: the API docs work offline and under the CSP.
    "drf_spectacular_sidecar",
    # Failed logins counted per account and per address; lockouts answered 429.
    "axes",
    "matches",
    "replays",
    "tournaments",
    "play",
    "web",
]
# The benchmarks' commands and their no-op task (`benchmarks`): in development, in the
# tests (test_settings), and where asked for (SPEED_BENCHMARKS=1); never by default in production.
SPEED_BENCHMARKS = env_bool("SPEED_BENCHMARKS", DEBUG)
if SPEED_BENCHMARKS:
    INSTALLED_APPS.append("benchmarks")

MIDDLEWARE = [
    # First, so it compresses the response every other middleware has finished (API JSON only).
    "core.compression.ApiGZipMiddleware",
    # Next, so every error under /api/ is JSON whatever rendered it (DRF's HTML pages, the schema's YAML).
    "core.api_error_json.ApiErrorJsonMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "csp.middleware.CSPMiddleware",
    # Before anything reads the body (the CSRF check reads a whole form): oversized
    # bodies and NUL bytes in the address are refused here.
    "core.middleware.RequestGuardMiddleware",
    # A page, not a blank screen, for an address that takes only POST (require_POST answers empty).
    "core.middleware.MethodNotAllowedPageMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    # The reader's time zone for pages and forms (not the API): after the line above, which says who reads.
    "web.middleware.TimeZoneMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "web.errors.DomainErrorMiddleware",
    "web.middleware.LapseOnReadMiddleware",
    # Last, as django-axes asks: turns a locked-out login into its 429 answer.
    "axes.middleware.AxesMiddleware",
]

ROOT_URLCONF = "speedsite.urls"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "web.context_processors.navigation",
            ],
        },
    },
]

WSGI_APPLICATION = "speedsite.wsgi.application"

DATABASES = {
    "default": dj_database_url.config(
        default=f"sqlite:///{BASE_DIR / 'db.sqlite3'}",
        conn_max_age=int(os.environ.get("DB_CONN_MAX_AGE", "60")),
        # A kept connection is checked before a request's first query: after a database
        # restart a worker reconnects instead of answering one 500 on its dead connection.
        conn_health_checks=True,
    )
}
# How long a statement may wait for a lock, and run at all (PostgreSQL's units: "5s", "500ms";
# "0" waits for ever). A match row held by a stuck process makes a request answer 503 "busy,
# try again" (core.api_errors.busy_answer) after SPEED_DB_LOCK_TIMEOUT, not hang until
# gunicorn kills its worker. Celery workers may set longer waits in their own environment: a
# verification refused a lock is retried like any transient database error.
SPEED_DB_LOCK_TIMEOUT = os.environ.get("SPEED_DB_LOCK_TIMEOUT", "5s")
SPEED_DB_STATEMENT_TIMEOUT = os.environ.get("SPEED_DB_STATEMENT_TIMEOUT", "0")
if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":
    # Parameters travel apart from the statement, so psycopg prepares a statement a
    # connection runs often (five times) and PostgreSQL plans it once, not per run:
    # the verification's and the pages' joins are planned once per connection.
    # (Django turns preparing off for poolers in transaction mode; there are none here.)
    DATABASES["default"].setdefault("OPTIONS", {}).update(
        server_side_binding=True,
        prepare_threshold=5,
        # Sent with the connection's start-up, so the bounds cost no statement per request.
        options=f"-c lock_timeout={SPEED_DB_LOCK_TIMEOUT} -c statement_timeout={SPEED_DB_STATEMENT_TIMEOUT}",
    )

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
    # Not a rule: told of every password change, it deletes the user's API tokens.
    {"NAME": "core.passwords.RotateApiTokens"},
]

AUTHENTICATION_BACKENDS = [
    "core.auth_backends.LoginLockoutBackend",
    "django.contrib.auth.backends.ModelBackend",
]

LANGUAGE_CODE = "en-us"
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
STATICFILES_DIRS = [BASE_DIR / "static"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": (
            "django.contrib.staticfiles.storage.StaticFilesStorage"
            if DEBUG
            else "whitenoise.storage.CompressedManifestStaticFilesStorage"
        )
    },
}

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"
# Email: see "Email" below (one setting of each, for notifications and password resets alike).
# A password reset link works this long (Django's setting; its default is three days).
PASSWORD_RESET_TIMEOUT = int(os.environ.get("PASSWORD_RESET_TIMEOUT", str(24 * 3600)))
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "home"

REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        # DRF's tokens, refused past SPEED_API_TOKEN_LIFETIME_DAYS (core.api_tokens).
        "core.api_tokens.ExpiringTokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticatedOrReadOnly"],
    "DEFAULT_FILTER_BACKENDS": ["django_filters.rest_framework.DjangoFilterBackend"],
    # JSON only (else 415): a form body cannot carry null, a number or a one-item list, so the
    # schema (which documents what the parsers take) could not tell a form client the truth.
    "DEFAULT_PARSER_CLASSES": ["core.parsers.StrictJSONParser"],
    # The tests' APIClient posts JSON, as the API's clients do.
    "TEST_REQUEST_DEFAULT_FORMAT": "json",
    "DEFAULT_PAGINATION_CLASS": "core.pagination.Pagination",
    "PAGE_SIZE": 50,
    "DEFAULT_SCHEMA_CLASS": "core.api_schema.AutoSchema",
    "EXCEPTION_HANDLER": "core.api_errors.exception_handler",
}

SPECTACULAR_SETTINGS = {
    "TITLE": "Speed API",
    "DESCRIPTION": "Tournaments, matches and verified speed-log/1 game logs for the card game Speed.",
    "VERSION": "1.0.0",
    "SERVE_INCLUDE_SCHEMA": False,
    # Several models have a `status`: name each choice set after its model.
    "ENUM_NAME_OVERRIDES": {
        "MatchStatusEnum": "matches.models.Match.Status",
        "GameStatusEnum": "matches.models.Game.Status",
        "LogStatusEnum": "replays.models.MatchLog.Status",
        "LogProvenanceEnum": "replays.models.MatchLog.Provenance",
        "TournamentStatusEnum": "tournaments.models.Tournament.Status",
        "TournamentFormatEnum": "tournaments.models.Tournament.Format",
        "ConfirmationEnum": "matches.models.Match.Confirmation",
        "SeedByEnum": "tournaments.models.Tournament.SeedBy",
        "TableStatusEnum": "play.models.Table.Status",
    },
    "POSTPROCESSING_HOOKS": [
        "drf_spectacular.hooks.postprocess_schema_enums",
        "core.api_schema.document_errors",
    ],
    # Request bodies are documented as JSON only, matching DEFAULT_PARSER_CLASSES.
    "PARSER_WHITELIST": ["core.parsers.StrictJSONParser"],
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
}

# Largest log document accepted, in bytes. A long standard game is ~5 KB;
# 2 MB leaves room for four-way two-deck marathons and rejects abuse.
SPEED_LOG_MAX_BYTES = int(os.environ.get("SPEED_LOG_MAX_BYTES", str(2 * 1024 * 1024)))
DATA_UPLOAD_MAX_MEMORY_SIZE = SPEED_LOG_MAX_BYTES + 64 * 1024
# Most events in one log (a long game has ~50); more is refused with 413 (replays.services.submission).
SPEED_LOG_MAX_EVENTS = int(os.environ.get("SPEED_LOG_MAX_EVENTS", "5000"))
# Any request declaring a longer body is refused (413) before it is read
# (core.middleware.RequestGuardMiddleware): a log plus a form's overhead.
SPEED_REQUEST_MAX_BYTES = int(os.environ.get("SPEED_REQUEST_MAX_BYTES", str(SPEED_LOG_MAX_BYTES + 64 * 1024)))
# Quotas on stored logs (429 beyond them): per game and submitter, and bytes per user
# in the last 24 hours. A real game's log is ~5 KB, so neither limits honest play.
SPEED_LOGS_PER_GAME_PER_SUBMITTER = int(os.environ.get("SPEED_LOGS_PER_GAME_PER_SUBMITTER", "20"))
SPEED_LOG_BYTES_PER_USER_PER_DAY = int(os.environ.get("SPEED_LOG_BYTES_PER_USER_PER_DAY", str(20 * 1024 * 1024)))

# An API token works this many days from its creation (or its last rotation); then the
# client asks POST /api/token/ for a new one.
SPEED_API_TOKEN_LIFETIME = timedelta(days=int(os.environ.get("SPEED_API_TOKEN_LIFETIME_DAYS", "30")))

# Login throttling. How many reverse proxies in front of the site append to
# X-Forwarded-For (0: none, the header is ignored and a forged one buys nothing).
SPEED_TRUSTED_PROXIES = int(os.environ.get("SPEED_TRUSTED_PROXIES", "0"))
# POST /api/token/: requests per address and per account (DRF rate strings).
SPEED_LOGIN_RATE_PER_ADDRESS = os.environ.get("SPEED_LOGIN_RATE_PER_ADDRESS", "30/min")
SPEED_LOGIN_RATE_PER_ACCOUNT = os.environ.get("SPEED_LOGIN_RATE_PER_ACCOUNT", "10/min")
# The site's forms that anyone may send: sign-ups and password resets (each sends an email)
# per address, in DRF's rate strings.
SPEED_SIGNUP_RATE_PER_ADDRESS = os.environ.get("SPEED_SIGNUP_RATE_PER_ADDRESS", "10/hour")
SPEED_PASSWORD_RESET_RATE_PER_ADDRESS = os.environ.get("SPEED_PASSWORD_RESET_RATE_PER_ADDRESS", "5/hour")
# django-axes: this many failed logins (site, admin or token) for one account, or from
# one address, lock that account or address out for the cool-off; answered 429.
AXES_FAILURE_LIMIT = int(os.environ.get("SPEED_LOGIN_FAILURE_LIMIT", "10"))
AXES_COOLOFF_TIME = timedelta(minutes=int(os.environ.get("SPEED_LOGIN_COOLOFF_MINUTES", "15")))
# Two separate counts: failures for an account (from anywhere) and failures from an address
# (for any account); either at the limit locks out.
AXES_LOCKOUT_PARAMETERS = ["ip_address", "username"]
AXES_CLIENT_IP_CALLABLE = "core.clientip.client_ip"
AXES_LOCKOUT_CALLABLE = "core.views.login_locked_out"
# Axes' own reset on success deletes every failure matching the address *or* the username, so
# logging into one's own account would wipe the count of the account one was guessing. The
# handler resets only the failures made against the account that logged in.
AXES_RESET_ON_SUCCESS = False
AXES_HANDLER = "core.login_lockout.AccountResetHandler"
AXES_VERBOSE = False

# Throttle counters and the tournament pages' cache (tournaments.cache) live here, and
# every gunicorn and Celery worker must share them (a limit of 10 a minute is not 20 with
# two workers; a result a worker records must invalidate the pages every web process
# serves). CACHE_URL (redis://...) is the fast choice; without it production uses the
# database (the `speed_cache` table, made by `migrate`: core.cache_table), and the demo
# (DEBUG, one process) keeps its cache in memory.
# Redis connections are pooled. redis-py notices at checkout a pooled connection Redis closed
# (a restart), not one whose peer vanished without a word (a network cut, a host gone), and a
# pool made from a URL retries nothing: such a connection's next command fails, and so does any
# command a blip of Redis interrupts. Each pool here retries a broken connection on a new one
# (`retry`: connection errors and timeouts, with a short backoff) and pings one idle longer than
# `health_check_interval` before using it, so after an outage the first commands heal the pool
# instead of failing. Seconds; 0 turns the pings off.
SPEED_REDIS_HEALTH_CHECK_SECONDS = int(os.environ.get("SPEED_REDIS_HEALTH_CHECK_SECONDS", "10"))
if os.environ.get("CACHE_URL"):
    _CACHE = {
        "BACKEND": "django.core.cache.backends.redis.RedisCache",
        "LOCATION": os.environ["CACHE_URL"],
        # A request waits at most about this long on a Redis that is gone (then 503, see
        # core.handlers), not redis-py's 5 s per attempt.
        "OPTIONS": {
            "socket_connect_timeout": 2,
            "socket_timeout": 2,
            "health_check_interval": SPEED_REDIS_HEALTH_CHECK_SECONDS,
            "retry": Retry(ExponentialWithJitterBackoff(base=0.05, cap=0.5), retries=2),
        },
    }
elif DEBUG:
    # A big bracket is cached a section at a time: room for a few thousand entries.
    _CACHE = {"BACKEND": "django.core.cache.backends.locmem.LocMemCache", "OPTIONS": {"MAX_ENTRIES": 5000}}
else:
    _CACHE = {
        "BACKEND": "django.core.cache.backends.db.DatabaseCache",
        "LOCATION": "speed_cache",
        "OPTIONS": {"MAX_ENTRIES": 20000},
    }
CACHES = {"default": _CACHE}

# HTTPS. On by default when DEBUG is off; SPEED_HTTPS=0 serves plain HTTP (a private
# network, the Compose file), and each setting below can be set on its own.
SPEED_HTTPS = env_bool("SPEED_HTTPS", not DEBUG)
SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", SPEED_HTTPS)
SESSION_COOKIE_SECURE = env_bool("SESSION_COOKIE_SECURE", SPEED_HTTPS)
CSRF_COOKIE_SECURE = env_bool("CSRF_COOKIE_SECURE", SPEED_HTTPS)
SECURE_HSTS_SECONDS = int(os.environ.get("SECURE_HSTS_SECONDS", str(365 * 24 * 3600 if SPEED_HTTPS else 0)))
SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("SECURE_HSTS_INCLUDE_SUBDOMAINS", SPEED_HTTPS)
SECURE_HSTS_PRELOAD = env_bool("SECURE_HSTS_PRELOAD", SPEED_HTTPS)
# Behind a TLS-terminating proxy: the header it sets to "https" (e.g. X-Forwarded-Proto).
# Only set it when the proxy always sets or strips that header.
if os.environ.get("SECURE_PROXY_SSL_HEADER"):
    SECURE_PROXY_SSL_HEADER = ("HTTP_" + os.environ["SECURE_PROXY_SSL_HEADER"].upper().replace("-", "_"), "https")
SESSION_COOKIE_HTTPONLY = True
X_FRAME_OPTIONS = "DENY"
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
# Every page loads scripts only from our own static files (no inline script, no eval).
# Styles allow inline `style` attributes, which the templates use for layout; they cannot run code
# (Redoc needs them too: it writes its styles into <style> elements). django-csp sends it on every
# response; /api/redoc/ alone replaces `worker-src` with `blob:` for Redoc's search worker
# (core.api_docs), and a tournament's embed `frame-ancestors` with `*`.
# SPEED_CONTENT_SECURITY_POLICY (a policy as the header writes it) replaces it; empty sends none.
_POLICY = os.environ.get(
    "SPEED_CONTENT_SECURITY_POLICY",
    "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; "
    "font-src 'self' data:; connect-src 'self'; object-src 'none'; base-uri 'self'; form-action 'self'; "
    "frame-ancestors 'none'",
)
CONTENT_SECURITY_POLICY = (
    {"DIRECTIVES": {name: values for name, *values in (part.split() for part in _POLICY.split(";") if part.strip())}}
    if _POLICY.strip()
    else None
)

# Celery: without a broker configured, tasks run in-process (the embedded
# default); with CELERY_BROKER_URL they go to the workers.
CELERY_BROKER_URL = os.environ.get("CELERY_BROKER_URL", "")
CELERY_TASK_ALWAYS_EAGER = not CELERY_BROKER_URL
CELERY_TASK_EAGER_PROPAGATES = True
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
# A verification spends much of its time waiting for PostgreSQL (its statements
# and the commit's WAL flush), so a worker runs two processes per core, not
# Celery's one: while one waits, another verifies (`manage.py bench_pipeline`
# with CELERY_WORKER_CONCURRENCY set shows the difference on a given machine).
CELERY_WORKER_CONCURRENCY = int(os.environ.get("CELERY_WORKER_CONCURRENCY", str(2 * (os.cpu_count() or 1))))
CELERY_TASK_SERIALIZER = "json"
CELERY_ACCEPT_CONTENT = ["json"]
CELERY_TASK_IGNORE_RESULT = True
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
# Keep each worker process's database connection across tasks (Celery's Django
# fixup otherwise closes it after every task, and reconnecting costs more than
# a verification). Tasks call close_old_connections() first, so a broken or
# CONN_MAX_AGE-old connection is still replaced, as in Django's request cycle.
CELERY_DB_REUSE_MAX = int(os.environ.get("CELERY_DB_REUSE_MAX", "1000"))
# Redis: a message a worker took but never acknowledged (the worker was killed)
# goes back to the queue once it is this many seconds old. Verification is
# idempotent, so redelivering a task that is still running does no harm.
CELERY_BROKER_TRANSPORT_OPTIONS = {
    "visibility_timeout": int(os.environ.get("CELERY_VISIBILITY_TIMEOUT", "600")),
    "unacked_restore_interval": int(os.environ.get("CELERY_UNACKED_RESTORE_INTERVAL", "10")),
    "unacked_restore_throttle": int(os.environ.get("CELERY_UNACKED_RESTORE_THROTTLE", "6")),
}

# Celery beat (`celery -A speedsite beat`, one per deployment): unconfirmed results
# whose confirmation window ran out stand ("lapse"). A lapse is idempotent under the
# match lock, so a late or doubled run does no harm.
CELERY_BEAT_SCHEDULE = {
    "lapse-unconfirmed-results": {
        "task": "matches.games_lapse",
        "schedule": float(os.environ.get("SPEED_LAPSE_EVERY_SECONDS", "30")),
    },
    # Logs still pending a while after their submission are sent again: the broker was down
    # when they came, or a killed worker lost their task (Redis would hand it back only after
    # the visibility timeout). Verification is idempotent, so a duplicate costs a lookup.
    "resend-pending-logs": {
        "task": "replays.logs_resend_pending",
        "schedule": float(os.environ.get("SPEED_RESEND_PENDING_EVERY_SECONDS", "60")),
    },
    # Tables' timers are also sent as tasks for their due time; this sweep fires whatever is overdue
    # (a task lost with the broker, a seat whose server process died), so a table ends with every
    # socket process gone (speed-table/1 amendment L1). A tick is idempotent under the table's lock.
    "sweep-table-timers": {
        "task": "play.tables_sweep",
        "schedule": float(os.environ.get("SPEED_TABLE_SWEEP_EVERY_SECONDS", "2")),
    },
    # Emails are outbox rows written with the change they tell of; their task leaves at the commit.
    # Rows still pending a while later (the broker was down then, or their worker died) are sent
    # by this sweep. SKIP LOCKED keeps a row from being sent by two workers at once.
    "send-pending-emails": {
        "task": "matches.outbox_sweep",
        "schedule": float(os.environ.get("SPEED_OUTBOX_SWEEP_EVERY_SECONDS", "30")),
    },
    "prune-sent-emails": {"task": "matches.outbox_prune", "schedule": 24 * 3600.0},
    # A challenge past its time already reads as expired everywhere; this writes it down, so that
    # the one-open-challenge-per-pair constraint and the lists see the same thing.
    "expire-challenges": {
        "task": "matches.challenges_expire",
        "schedule": float(os.environ.get("SPEED_CHALLENGE_SWEEP_EVERY_SECONDS", "300")),
    },
    # A match's player waited for at its table, not there after the grace and with no page open, is
    # emailed by this sweep (play.services.waiting): the decision never waits on a socket process.
    "email-waited-for-players": {
        "task": "play.table_wait_notices_send",
        "schedule": float(os.environ.get("SPEED_TABLE_WAIT_SWEEP_EVERY_SECONDS", "10")),
    },
    # A tournament that runs itself (advance_automatically) starts at its starts_at, and calls a round held
    # by its "not before" time when that comes, with nobody at the desk.
    "tournaments-due": {
        "task": "tournaments.due_sweep",
        "schedule": float(os.environ.get("SPEED_TOURNAMENT_START_SWEEP_EVERY_SECONDS", "30")),
    },
    # A lobby seek whose player's page stopped polling (they left) is expired here, not by any page.
    "expire-stale-seeks": {
        "task": "play.seeks_expire",
        "schedule": float(os.environ.get("SPEED_SEEK_SWEEP_EVERY_SECONDS", "5")),
    },
    # A table's "play again" offer nobody answered in time is expired here (and one every player accepted
    # while the game's log was still being verified is started), not by any page.
    "expire-again-offers": {
        "task": "play.again_expire",
        "schedule": float(os.environ.get("SPEED_AGAIN_SWEEP_EVERY_SECONDS", "5")),
    },
    # A spectator's row of a process that died (no close to delete it) is deleted here; it stopped
    # being counted three heartbeats after its last.
    "prune-table-watchers": {
        "task": "play.watchers_prune",
        "schedule": float(os.environ.get("SPEED_WATCHERS_PRUNE_EVERY_SECONDS", "60")),
    },
}
# How old a pending log must be before the beat sends it again: longer than a verification
# normally waits in the queue, much shorter than CELERY_VISIBILITY_TIMEOUT.
SPEED_RESEND_PENDING_AFTER_SECONDS = int(os.environ.get("SPEED_RESEND_PENDING_AFTER_SECONDS", "120"))
# Without a broker (the demo) there is no beat: the site applies due lapses itself
# when a page or the API is read (web.middleware.LapseOnReadMiddleware).
SPEED_LAPSE_ON_READ = os.environ.get("SPEED_LAPSE_ON_READ", "1" if not CELERY_BROKER_URL else "0") == "1"

# Email (notifications: a claim to confirm, a match called, a registration approved, a
# dispute, a waiting list; and password resets). The console backend prints them (the demo);
# set EMAIL_HOST to send through SMTP.
EMAIL_HOST = os.environ.get("EMAIL_HOST", "")
EMAIL_BACKEND = os.environ.get(
    "EMAIL_BACKEND",
    "django.core.mail.backends.smtp.EmailBackend" if EMAIL_HOST else "django.core.mail.backends.console.EmailBackend",
)
EMAIL_PORT = int(os.environ.get("EMAIL_PORT", "587"))
EMAIL_HOST_USER = os.environ.get("EMAIL_HOST_USER", "")
EMAIL_HOST_PASSWORD = os.environ.get("EMAIL_HOST_PASSWORD", "")
EMAIL_USE_TLS = env_bool("EMAIL_USE_TLS", True)
EMAIL_TIMEOUT = int(os.environ.get("EMAIL_TIMEOUT", "10"))
DEFAULT_FROM_EMAIL = os.environ.get("DEFAULT_FROM_EMAIL", "Speed <speed@localhost>")
# The file backend (EMAIL_BACKEND=django.core.mail.backends.filebased.EmailBackend) writes here.
if os.environ.get("EMAIL_FILE_PATH"):
    EMAIL_FILE_PATH = os.environ["EMAIL_FILE_PATH"]
# Where people reach the site: every link in every email starts with it (password resets too,
# never the request's Host). The demo sets it from the address it serves on.
SPEED_SITE_URL = os.environ.get("SPEED_SITE_URL", "http://localhost:8000")
# The outbox (matches.services.outbox): how old a pending email must be before the beat's sweep
# sends it (longer than its own task normally waits in the queue), how many failed sends make
# it given up, and how long sent and skipped rows are kept.
SPEED_OUTBOX_SWEEP_AFTER_SECONDS = int(os.environ.get("SPEED_OUTBOX_SWEEP_AFTER_SECONDS", "60"))
SPEED_OUTBOX_MAX_ATTEMPTS = int(os.environ.get("SPEED_OUTBOX_MAX_ATTEMPTS", "10"))
SPEED_OUTBOX_KEEP_DAYS = int(os.environ.get("SPEED_OUTBOX_KEEP_DAYS", "30"))

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "INFO")},
    "loggers": {
        # Django's own console handler (under DEBUG) and the root's printed each line twice (every request
        # of the demo's server, logged by django.channels.server): the root's handler alone prints them.
        "django": {"handlers": [], "level": "INFO", "propagate": True},
        # Verification runs in the request in the demo: a "Task … succeeded" line per log is noise there.
        # Workers keep them (their one record of each task run).
        "celery.app.trace": {"level": "WARNING" if CELERY_TASK_ALWAYS_EAGER else "INFO"},
    },
}

# Live play at a table (speed-table/1): the sockets are served by Channels (ASGI).
ASGI_APPLICATION = "speedsite.asgi.application"
# The channel layer carries only "changed" nudges between server processes: Redis when
# CHANNEL_LAYER_URL is set (several processes), else in memory (one process, the demo).
CHANNEL_LAYER_URL = os.environ.get("CHANNEL_LAYER_URL", "")
# No socket timeout: the layer blocks on Redis for a message (BZPOPMIN) longer than redis-py 8's
# default of 5 s, which would end every quiet connection (django/channels_redis#422). The connect
# timeout is set on its own, as it would otherwise be the socket timeout: none, for ever.
# channels_redis hands every other key of a host to redis-py's pool (`ConnectionPool.from_url`),
# so the pool heals as the cache's does (above). Without a retry, the blocking receive that every
# socket of a process shares fails at the first broken read, and each socket in turn with it (a
# Redis restart of a second closed them all: tests/play/test_edge_servers.py). The retries span
# about 3 s: a Redis restart
# that quick costs the open sockets nothing (the blocking receive and the nudges wait for it and
# go on), a longer outage ends them with 4013 (play.edge), and a handshake waiting on Redis is
# still answered within daphne's handshake timeout (--websocket_connect_timeout, 5 s), past
# which daphne drops it unanswered.
if CHANNEL_LAYER_URL:
    CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "channels_redis.core.RedisChannelLayer",
            "CONFIG": {
                "hosts": [
                    {
                        "address": CHANNEL_LAYER_URL,
                        "socket_timeout": None,
                        "socket_connect_timeout": 2,
                        "health_check_interval": SPEED_REDIS_HEALTH_CHECK_SECONDS,
                        "retry": AsyncRetry(ExponentialBackoff(cap=0.5, base=0.05), retries=8),
                    }
                ]
            },
        }
    }
else:
    CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
# A new table's settings (speed-table/1 section 3) and its countdown.
SPEED_TABLE_SETTINGS = {
    "collision_ms": int(os.environ.get("SPEED_TABLE_COLLISION_MS", "250")),
    "stall_ms": int(os.environ.get("SPEED_TABLE_STALL_MS", "1500")),
    "abandon_ms": int(os.environ.get("SPEED_TABLE_ABANDON_MS", "60000")),
    "claim_ms": int(os.environ.get("SPEED_TABLE_CLAIM_MS", "30000")),
    "countdown_ms": int(os.environ.get("SPEED_TABLE_COUNTDOWN_MS", "3000")),
}
# Practice bots' reaction delays are multiplied by this (tests make bots quick).
# How often a table's connection says it is alive; three missed (its process died) and its seat is away.
SPEED_TABLE_HEARTBEAT_MS = int(os.environ.get("SPEED_TABLE_HEARTBEAT_MS", "10000"))
# Threads a socket process runs the tables' database work on (each table always on the same one; one
# PostgreSQL connection each): while one waits on the database another table's work goes on. SQLite
# (the demo) takes one writer at a time, so there it is one thread.
_ONE_WRITER = DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3"
SPEED_TABLE_DB_THREADS = int(os.environ.get("SPEED_TABLE_DB_THREADS", "1" if _ONE_WRITER else "4"))
SPEED_TABLE_BOT_DELAY_SCALE = float(os.environ.get("SPEED_TABLE_BOT_DELAY_SCALE", "1"))
# One socket message's limit, and each connection's throttle (messages a second, and a burst).
# A longer message closes its socket with 4009 (play.edge). Daphne's own limits
# (--websocket-max-frame-size in docker-compose.yml) refuse a larger frame before it is read.
SPEED_TABLE_MESSAGE_MAX_BYTES = 4096
SPEED_TABLE_MESSAGES_PER_SECOND = float(os.environ.get("SPEED_TABLE_MESSAGES_PER_SECOND", "20"))
SPEED_TABLE_MESSAGE_BURST = int(os.environ.get("SPEED_TABLE_MESSAGE_BURST", "40"))
# What play.edge allows each server process (the counts are per process, not per deployment):
# sockets open at once per signed-in user and per client address (SPEED_TRUSTED_PROXIES decides
# the address, as for the login throttles), refused beyond with close code 4029; and messages a
# connection may have waiting for its consumer, closed with 4008 beyond. The queue holds more
# than the throttle's burst, so a burst the throttle allows is never cut.
SPEED_TABLE_SOCKETS_PER_USER = int(os.environ.get("SPEED_TABLE_SOCKETS_PER_USER", "8"))
SPEED_TABLE_SOCKETS_PER_ADDRESS = int(os.environ.get("SPEED_TABLE_SOCKETS_PER_ADDRESS", "32"))
SPEED_TABLE_RECEIVE_QUEUE = int(
    os.environ.get("SPEED_TABLE_RECEIVE_QUEUE", str(max(32, 2 * SPEED_TABLE_MESSAGE_BURST)))
)
# Spectators counted per table ("3 watching" on its page), and per signed-in user per table: a connection
# past either still watches, uncounted (play.services.watchers), so a hostile client cannot grow the rows.
SPEED_TABLE_WATCHERS_PER_TABLE = int(os.environ.get("SPEED_TABLE_WATCHERS_PER_TABLE", "500"))
SPEED_TABLE_WATCHERS_PER_USER = int(os.environ.get("SPEED_TABLE_WATCHERS_PER_USER", "2"))
# A lobby seek not refreshed by its player's lobby page for this long is no longer listed or taken, and
# the beat expires it. Longer than a background tab's throttled poll, so a seek in a hidden tab stays.
SPEED_SEEK_TTL_SECONDS = int(os.environ.get("SPEED_SEEK_TTL_SECONDS", "90"))
# "Someone is waiting at your table": emailed this long after the seat was taken, if the player
# has not come and no page of theirs polled within SPEED_SITE_ONLINE_SECONDS (a page's poll
# writes its user's last-seen at most every SPEED_SITE_SEEN_WRITE_SECONDS).
SPEED_TABLE_WAIT_EMAIL_AFTER_SECONDS = int(os.environ.get("SPEED_TABLE_WAIT_EMAIL_AFTER_SECONDS", "30"))
SPEED_SITE_ONLINE_SECONDS = int(os.environ.get("SPEED_SITE_ONLINE_SECONDS", "60"))
SPEED_SITE_SEEN_WRITE_SECONDS = int(os.environ.get("SPEED_SITE_SEEN_WRITE_SECONDS", "20"))
# How long a match table's players have, once its game is over, to all accept "play again".
SPEED_AGAIN_TTL_SECONDS = int(os.environ.get("SPEED_AGAIN_TTL_SECONDS", "120"))
# Practice tables one user may create (POST /api/tables/ and the /play/ page together), a DRF rate.
SPEED_PRACTICE_TABLES_RATE_PER_USER = os.environ.get("SPEED_PRACTICE_TABLES_RATE_PER_USER", "10/min")
# What an answer during an outage of PostgreSQL or Redis tells the client to wait (Retry-After on
# a 503, retry_after_ms in a socket's "unavailable" message).
SPEED_OUTAGE_RETRY_AFTER_SECONDS = int(os.environ.get("SPEED_OUTAGE_RETRY_AFTER_SECONDS", "5"))
