# payjudge: the Payola Diplomacy judge daemon.
#   docker build -t payjudge .
#   docker run -d -p 2525:2525 -v payjudge-data:/data payjudge
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PAYJUDGE_DATA_DIR=/data \
    PAYJUDGE_SMTP_LISTEN=0.0.0.0:2525

# the board pictures set their text in DejaVu Sans (the PNG rasteriser has no font of its
# own); Ghostscript renders the DPjudge drawings (.ps) a keeper installs with a map
RUN apt-get update && apt-get install -y --no-install-recommends fonts-dejavu-core ghostscript \
 && rm -rf /var/lib/apt/lists/*

WORKDIR /app
COPY pyproject.toml README.md LICENSE ./
COPY payjudge ./payjudge
COPY templates ./templates
COPY migrations ./migrations
COPY config ./config
RUN pip install --no-cache-dir . \
 && useradd --system --uid 10001 --home-dir /data --shell /usr/sbin/nologin payjudge \
 && mkdir -p /data && chown payjudge /data

USER payjudge
VOLUME ["/data"]
EXPOSE 2525
# the read-only status page, when PAYJUDGE_HTTP_LISTEN=0.0.0.0:8080 is set (off by default)
EXPOSE 8080

HEALTHCHECK --interval=30s --timeout=10s --start-period=20s --retries=3 \
  CMD ["payjudge", "health"]

CMD ["sh", "-c", "payjudge db upgrade && exec payjudge serve"]
