#!/usr/bin/env bash
# `make prod`: Lantern as in production, on this machine, in the foreground.
#   PostgreSQL + Redis on loopback (scripts/services.sh, unless DATABASE_URL and REDIS_URL
#   are both set), migrate, collectstatic, then four processes supervised together:
#   gunicorn (config/gunicorn.py), a Celery worker (queues celery, ingest, ratings), an
#   analysis worker (queue analysis: match analyses, minutes of CPU each, so a worker of
#   their own that may as well run on other machines) and Celery beat. Ctrl-C (or SIGTERM)
#   stops them all; when one dies the others are stopped too and the script exits with
#   its status. Logs: JSON lines on stderr.
# Environment (besides the settings in config/settings.py):
#   PORT (8000), ALLOWED_HOSTS (127.0.0.1,localhost), LANTERN_HTTPS (0 here: plain http),
#   SECRET_KEY (default: generated once into var/secret_key), WEB_CONCURRENCY,
#   GUNICORN_THREADS, LIVE_PORT (PORT+1), LIVE_PROCESSES (1), CELERY_CONCURRENCY (2),
#   CELERY_QUEUES (celery,ingest,ratings),
#   ANALYSIS_CONCURRENCY (1 analysis at a time; 0: no analysis worker here, for when
#   `celery -A config worker -Q analysis` runs on other machines),
#   PROD_STOP_TIMEOUT (30 s before a process that ignores SIGTERM is killed).
set -euo pipefail

cd "$(dirname "$0")/.."
VENV=${VENV:-.venv}
BIN="$VENV/bin"

log() {  # one JSON line, like the processes' own logs
    local message=${2//\\/\\\\}
    message=${message//\"/\\\"}
    printf '{"time": "%s", "level": "%s", "logger": "prod.sh", "message": "%s"}\n' \
        "$(date -u +%Y-%m-%dT%H:%M:%S.%3N+00:00)" "$1" "$message" >&2
}

if [ -z "${DATABASE_URL:-}" ] || [ -z "${REDIS_URL:-}" ]; then
    # shellcheck source=services.sh
    source scripts/services.sh
    services_install
    services_start
    services_create_database
    eval "$(services_urls)"
fi
export DATABASE_URL REDIS_URL

mkdir -p var
if [ -z "${SECRET_KEY:-}" ]; then
    if [ ! -s var/secret_key ]; then
        (umask 077 && "$BIN/python" -c "import secrets; print(secrets.token_urlsafe(50))" \
            >var/secret_key)
        log INFO "generated a SECRET_KEY into var/secret_key for this machine (kept for the next runs; set SECRET_KEY to use your own)"
    fi
    SECRET_KEY=$(cat var/secret_key)
fi
export SECRET_KEY
export DEBUG=0
export PORT=${PORT:-8000}
export ALLOWED_HOSTS=${ALLOWED_HOSTS:-127.0.0.1,localhost}
export LOG_FORMAT=${LOG_FORMAT:-json}
export LANTERN_HTTPS=${LANTERN_HTTPS:-0}
if [ "$LANTERN_HTTPS" = 0 ]; then
    log WARNING "plain http on loopback (LANTERN_HTTPS=0): no https redirect, cookies not Secure, no HSTS; behind a TLS proxy run with LANTERN_HTTPS=1"
fi

log INFO "database ${DATABASE_URL%%://*}://${DATABASE_URL##*@}, redis ${REDIS_URL##*@}"
"$BIN/python" manage.py migrate --no-input | while IFS= read -r line; do
    [ -n "${line// /}" ] && log INFO "migrate: ${line#"${line%%[! ]*}"}"
done
"$BIN/python" manage.py collectstatic --no-input --verbosity 0

declare -A PIDS=()
stop_all() {
    local name deadline=$((SECONDS + ${PROD_STOP_TIMEOUT:-30}))
    for name in "${!PIDS[@]}"; do kill -TERM "${PIDS[$name]}" 2>/dev/null || true; done
    for name in "${!PIDS[@]}"; do
        while kill -0 "${PIDS[$name]}" 2>/dev/null && [ "$SECONDS" -lt "$deadline" ]; do
            sleep 0.2
        done
        if kill -0 "${PIDS[$name]}" 2>/dev/null; then
            log WARNING "$name (pid ${PIDS[$name]}) did not stop in time; killing it"
            kill -KILL "${PIDS[$name]}" 2>/dev/null || true
        fi
        wait "${PIDS[$name]}" 2>/dev/null || true
    done
}
stopping=0
# Ctrl-C reaches this script only: the processes run in sessions of their own (setsid), so
# each gets exactly one SIGTERM from stop_all (a second signal turns Celery's warm
# shutdown into a cold one, and gunicorn's graceful one into an immediate one).
trap 'stopping=1' INT TERM
# Should this script die some other way, take the processes with it.
trap 'stop_all' EXIT

# The live tables' websockets (live/): Daphne serves the ASGI application on LIVE_PORT,
# beside gunicorn's pages and API; a table page opens its socket there (LIVE_SOCKET_ORIGIN)
# unless a proxy routes /ws/ to it (docs/operations.md), then set LIVE_SOCKET_ORIGIN="".
# LIVE_PROCESSES (1) Daphne processes on LIVE_PORT, LIVE_PORT+1, ...: a process does its
# database work in one thread, so many tables want one per core (docs/live.md); each
# table's page then opens its socket on the port its id chooses.
export LIVE_PORT=${LIVE_PORT:-$((PORT + 1))}
LIVE_PROCESSES=${LIVE_PROCESSES:-1}
live_origins=()
for ((n = 0; n < LIVE_PROCESSES; n++)); do
    live_origins+=("ws://127.0.0.1:$((LIVE_PORT + n))")
done
export LIVE_SOCKET_ORIGIN=${LIVE_SOCKET_ORIGIN-$(IFS=,; echo "${live_origins[*]}")}
setsid "$BIN/gunicorn" -c config/gunicorn.py &
PIDS[web]=$!
for ((n = 0; n < LIVE_PROCESSES; n++)); do
    # (python -m: the venv's daphne script may name the python of the venv it was made in)
    setsid "$BIN/python" -m daphne --bind 127.0.0.1 --port "$((LIVE_PORT + n))" \
        --proxy-headers config.asgi:application &
    PIDS[live$((n + 1))]=$!
done
# --quiet: no banner (it is not a log line); the worker's settings are logged as it starts.
setsid "$BIN/celery" -A config --quiet worker --loglevel INFO --concurrency "${CELERY_CONCURRENCY:-2}" \
    --queues "${CELERY_QUEUES:-celery,ingest,ratings}" --hostname "lantern-prod-$$@%h" &
PIDS[worker]=$!
# One analysis at a time per process, taken only when the last is done (prefetch 1,
# acknowledged late): an analysis is minutes of CPU, not to queue behind another.
if [ "${ANALYSIS_CONCURRENCY:-1}" != 0 ]; then
    setsid "$BIN/celery" -A config --quiet worker --loglevel INFO --concurrency "${ANALYSIS_CONCURRENCY:-1}" \
        --queues analysis --prefetch-multiplier 1 -O fair --hostname "lantern-prod-analysis-$$@%h" &
    PIDS[analysis]=$!
else
    log WARNING "no analysis worker here (ANALYSIS_CONCURRENCY=0): analyses wait for \`celery -A config worker -Q analysis\` on another machine"
fi
setsid "$BIN/celery" -A config --quiet beat --loglevel INFO --schedule var/celerybeat-schedule &
PIDS[beat]=$!
log INFO "started web (pid ${PIDS[web]}), live sockets (pid ${PIDS[live1]}, port $LIVE_PORT; $LIVE_PROCESSES process(es)), worker (pid ${PIDS[worker]}), analysis worker (pid ${PIDS[analysis]:-none}), beat (pid ${PIDS[beat]})"

alive() {
    local name
    for name in "${!PIDS[@]}"; do kill -0 "${PIDS[$name]}" 2>/dev/null || return 1; done
}
for _ in $(seq 1 120); do
    # (A process that died, e.g. gunicorn finding the port taken, is reported below.)
    alive || break
    if curl -fsS -o /dev/null "http://127.0.0.1:$PORT/healthz" 2>/dev/null; then
        log INFO "serving http://127.0.0.1:$PORT/ (DEBUG off); Ctrl-C stops web, workers and beat"
        break
    fi
    [ "$stopping" = 1 ] && break
    sleep 0.5
done

set +e
status=0
while [ "$stopping" = 0 ]; do
    wait -n "${PIDS[@]}"
    status=$?
    [ "$stopping" = 1 ] && break
    for name in "${!PIDS[@]}"; do
        if ! kill -0 "${PIDS[$name]}" 2>/dev/null; then
            log ERROR "$name (pid ${PIDS[$name]}) exited with status $status; stopping the others"
            unset "PIDS[$name]"
            stopping=2
            [ "$status" = 0 ] && status=1  # none of them is meant to end by itself
        fi
    done
done
[ "$stopping" = 1 ] && status=0 && log INFO "stopping web, workers and beat"
stop_all
PIDS=()
log INFO "stopped"
exit "$status"
