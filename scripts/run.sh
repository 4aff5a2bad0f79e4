#!/usr/bin/env bash
# Serves the web app, a Celery worker and the beat scheduler together; stops all three
# on Ctrl-C or SIGTERM, or as soon as any one of them exits.
set -euo pipefail
cd "$(dirname "$0")/.."

BIN=.venv/bin
PORT="${PORT:-8000}"
pids=()

stop() {
    trap - INT TERM EXIT
    if ((${#pids[@]})); then
        kill -TERM "${pids[@]}" 2>/dev/null || true
        wait "${pids[@]}" 2>/dev/null || true
    fi
}
trap 'stop; exit 130' INT
trap 'stop; exit 143' TERM
trap stop EXIT

"$BIN/gunicorn" config.wsgi:application \
    --bind "127.0.0.1:${PORT}" --workers 2 --threads 4 --access-logfile - \
    --logger-class config.gunicorn_logging.RedactingLogger &
pids+=("$!")
"$BIN/celery" --app config worker --loglevel INFO &
pids+=("$!")
"$BIN/celery" --app config beat --loglevel INFO &
pids+=("$!")

echo "Conquest is serving on http://127.0.0.1:${PORT}/ (Ctrl-C stops web, worker and beat)"
# Returns as soon as any one of the three exits; the EXIT trap then stops the others.
wait -n "${pids[@]}"
