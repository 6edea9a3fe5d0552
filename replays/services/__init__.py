"""Every change to logs, by sub-domain (HackSoft services: `<entity>_<action>`, keyword-only).

- `submission`: store a submitted log verbatim and enqueue its verification;
- `verification`: judge a stored log and apply the verdict to its game;
- `steps`: the replay's steps, computed on first view and kept;
- `reverification`: send stored logs (back) to the workers, and those left pending;
- `solitaire`: Speed Solitaire runs, outside any match.
"""

from .reverification import logs_enqueue_verification, pending_resend, runs_enqueue_verification
from .solitaire import solitaire_submit, solitaire_submit_from_table, solitaire_verify
from .steps import document_compact_steps, log_steps_build, replay_compact
from .submission import log_submit, log_submit_from_table, log_submit_practice
from .verification import log_verify

__all__ = [
    "document_compact_steps",
    "log_steps_build",
    "log_submit",
    "log_submit_from_table",
    "log_submit_practice",
    "log_verify",
    "logs_enqueue_verification",
    "pending_resend",
    "replay_compact",
    "runs_enqueue_verification",
    "solitaire_submit",
    "solitaire_submit_from_table",
    "solitaire_verify",
]
