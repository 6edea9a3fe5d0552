"""The Celery application: `celery -A speedsite worker`."""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "speedsite.settings")

app = Celery("speedsite")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
