"""Production settings: `check --deploy` is clean, and the security headers are sent."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.test import Client

ROOT = Path(__file__).resolve().parents[2]

PRODUCTION = {
    "DEBUG": "0",
    "SECRET_KEY": "x7!" * 20 + "production-like-secret-for-the-deploy-check",
    "ALLOWED_HOSTS": "speed.example",
    "DATABASE_URL": "postgres://postgres@127.0.0.1:5432/unused",
    "SECURE_PROXY_SSL_HEADER": "X-Forwarded-Proto",
}


def _check_deploy(**env: str) -> subprocess.CompletedProcess[str]:
    clean = {key: value for key, value in os.environ.items() if key not in PRODUCTION and not key.startswith("SECURE")}
    clean.pop("DJANGO_SETTINGS_MODULE", None)
    return subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=ROOT,
        env={**clean, "DJANGO_SETTINGS_MODULE": "speedsite.settings", **PRODUCTION, **env},
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def test_check_deploy_is_clean_with_production_settings() -> None:
    result = _check_deploy()
    assert result.returncode == 0, result.stdout + result.stderr
    assert "System check identified no issues" in result.stdout


def test_plain_http_on_a_private_network_is_a_choice_that_check_deploy_reports() -> None:
    result = _check_deploy(SPEED_HTTPS="0")
    assert result.returncode != 0
    for warning in ("security.W004", "security.W008", "security.W012", "security.W016"):
        assert warning in result.stdout + result.stderr


@pytest.mark.django_db
def test_every_response_carries_the_content_security_policy() -> None:
    for url in ("/", "/api/players/", "/api/docs/", "/accounts/login/", "/api/nothing/"):
        policy = Client().get(url)["Content-Security-Policy"]
        assert "script-src 'self'" in policy
        assert "unsafe-eval" not in policy
        assert "frame-ancestors 'none'" in policy


@pytest.mark.django_db
def test_the_api_docs_load_their_script_from_a_url_and_swagger_from_our_static_files() -> None:
    page = Client().get("/api/docs/").content.decode()
    assert "<script>" not in page
    assert "cdn" not in page.lower()
    assert "/static/drf_spectacular_sidecar/swagger-ui-dist/swagger-ui-bundle.js" in page
    script = Client().get("/api/docs/?script=")
    assert script.status_code == 200
    assert script["Content-Type"].startswith("application/javascript")
