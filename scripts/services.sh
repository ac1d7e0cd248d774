# PostgreSQL and Redis on loopback for Lantern (Debian, no systemd needed).
# Sourced by `make services` and .ci/run; each function is idempotent.
#   services_install          apt-get install what is missing
#   services_start            start both; sets STARTED_POSTGRES / STARTED_REDIS to 1
#                             for the ones this call started (so a caller can stop only those)
#   services_stop_started     stop what services_start started
#   services_create_database  role `lantern` (CREATEDB) and database `lantern`
# Settings (environment): PGPORT (5432), REDIS_PORT (6379), REDIS_DB (0).

LANTERN_DB_USER=${LANTERN_DB_USER:-lantern}
LANTERN_DB_PASSWORD=${LANTERN_DB_PASSWORD:-lantern}
LANTERN_DB_NAME=${LANTERN_DB_NAME:-lantern}
PGPORT=${PGPORT:-5432}
REDIS_PORT=${REDIS_PORT:-6379}
REDIS_DB=${REDIS_DB:-0}
STARTED_POSTGRES=0
STARTED_REDIS=0
PG_VERSION=""
PG_CLUSTER=""

_log() { echo "[services] $*" >&2; }

_as_root() {
    if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi
}

services_install() {
    # $@: extra Debian packages wanted alongside (e.g. chromium for browser tests)
    local wanted=(postgresql redis-server "$@") missing=() pkg
    for pkg in "${wanted[@]}"; do
        dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" \
            || missing+=("$pkg")
    done
    if [ "${#missing[@]}" -gt 0 ]; then
        _log "installing ${missing[*]}"
        _as_root apt-get update -qq
        DEBIAN_FRONTEND=noninteractive _as_root apt-get install -y -qq "${missing[@]}" >/dev/null
    fi
}

_pg_find_cluster() {
    # The first cluster of the newest installed PostgreSQL; create one if there is none.
    PG_VERSION=$(ls /usr/lib/postgresql | sort -V | tail -n 1)
    PG_CLUSTER=$(pg_lsclusters -h 2>/dev/null | awk -v v="$PG_VERSION" '$1 == v {print $2; exit}')
    if [ -z "$PG_CLUSTER" ]; then
        PG_CLUSTER=main
        _log "creating PostgreSQL cluster $PG_VERSION/$PG_CLUSTER"
        _as_root pg_createcluster "$PG_VERSION" "$PG_CLUSTER" -p "$PGPORT" >/dev/null
    fi
}

_pg_ready() { pg_isready -q -h 127.0.0.1 -p "$PGPORT"; }

_redis_ready() { redis-cli -h 127.0.0.1 -p "$REDIS_PORT" ping 2>/dev/null | grep -q PONG; }

_wait_for() {
    # $1: description, rest: a command that succeeds when ready
    local what=$1 i
    shift
    for i in $(seq 1 60); do
        if "$@"; then return 0; fi
        sleep 0.5
    done
    _log "$what did not become ready"
    return 1
}

services_start() {
    if _pg_ready; then
        _log "PostgreSQL already running on 127.0.0.1:$PGPORT"
    else
        _pg_find_cluster
        _log "starting PostgreSQL $PG_VERSION/$PG_CLUSTER on 127.0.0.1:$PGPORT"
        # Debian's default listen_addresses is 'localhost': loopback only.
        _as_root pg_ctlcluster "$PG_VERSION" "$PG_CLUSTER" start
        STARTED_POSTGRES=1
        _wait_for PostgreSQL _pg_ready
    fi
    if _redis_ready; then
        _log "Redis already running on 127.0.0.1:$REDIS_PORT"
    else
        _log "starting Redis on 127.0.0.1:$REDIS_PORT"
        _as_root redis-server --bind 127.0.0.1 --port "$REDIS_PORT" --daemonize yes \
            --save "" --appendonly no --pidfile "/tmp/lantern-redis-$REDIS_PORT.pid" \
            --logfile "/tmp/lantern-redis-$REDIS_PORT.log"
        STARTED_REDIS=1
        _wait_for Redis _redis_ready
    fi
}

services_stop_started() {
    if [ "$STARTED_REDIS" = 1 ]; then
        _log "stopping Redis"
        redis-cli -h 127.0.0.1 -p "$REDIS_PORT" shutdown nosave >/dev/null 2>&1 || true
        STARTED_REDIS=0
    fi
    if [ "$STARTED_POSTGRES" = 1 ]; then
        _log "stopping PostgreSQL"
        _as_root pg_ctlcluster "$PG_VERSION" "$PG_CLUSTER" stop -m fast || true
        STARTED_POSTGRES=0
    fi
}

_psql() { (cd / && _as_root runuser -u postgres -- psql -p "$PGPORT" -v ON_ERROR_STOP=1 -qtA "$@"); }

services_create_database() {
    if [ "$(_psql -c "SELECT 1 FROM pg_roles WHERE rolname = '$LANTERN_DB_USER'")" != 1 ]; then
        _log "creating role $LANTERN_DB_USER"
        _psql -c "CREATE ROLE $LANTERN_DB_USER LOGIN CREATEDB PASSWORD '$LANTERN_DB_PASSWORD'"
    fi
    if [ "$(_psql -c "SELECT 1 FROM pg_database WHERE datname = '$LANTERN_DB_NAME'")" != 1 ]; then
        _log "creating database $LANTERN_DB_NAME"
        _psql -c "CREATE DATABASE $LANTERN_DB_NAME OWNER $LANTERN_DB_USER"
    fi
}

services_urls() {
    echo "export DATABASE_URL=postgres://$LANTERN_DB_USER:$LANTERN_DB_PASSWORD@127.0.0.1:$PGPORT/$LANTERN_DB_NAME"
    echo "export REDIS_URL=redis://127.0.0.1:$REDIS_PORT/$REDIS_DB"
}
