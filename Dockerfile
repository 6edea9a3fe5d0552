# The Speed service: one image for the web server (gunicorn) and the Celery worker.
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1

WORKDIR /app
COPY . /app
RUN pip install -e . \
 && DEBUG=0 SECRET_KEY=collectstatic-only python manage.py collectstatic --noinput \
 && useradd --system --home-dir /app speed \
 && chown -R speed /app
USER speed

EXPOSE 8000
# The web server; docker-compose.yml runs the migrations first, and the worker
# with `celery -A speedsite worker` from the same image.
CMD ["gunicorn", "speedsite.wsgi", "--bind", "0.0.0.0:8000", "--workers", "3", "--access-logfile", "-"]
