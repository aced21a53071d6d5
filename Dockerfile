# The production image: one image for web, worker and beat.
FROM python:3.11-slim
ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1
WORKDIR /app
RUN apt-get update -qq && apt-get install -y -qq --no-install-recommends gettext && rm -rf /var/lib/apt/lists/*
COPY requirements.txt .
RUN pip install --no-cache-dir -r requirements.txt
COPY . .
RUN python manage.py compilemessages -v 0
# Static files go outside var/ (a volume may be mounted there) and are served
# by WhiteNoise from the image.
ENV STATIC_ROOT=/app/static
RUN python manage.py collectstatic --noinput -v 0
RUN useradd --create-home versailles && mkdir -p var && chown versailles var
USER versailles
EXPOSE 8000
CMD ["gunicorn", "-c", "versailles_site/gunicorn_conf.py", "versailles_site.wsgi:application", "--bind", "0.0.0.0:8000", "--workers", "3"]
