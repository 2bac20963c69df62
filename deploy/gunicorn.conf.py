"""gunicorn settings of the dicehall API (used by ``dicehall up``, the Procfile, supervisor,
docker-compose and Kubernetes alike).

Run: ``gunicorn -c deploy/gunicorn.conf.py 'service.app:create_app()'``. Every value can be
overridden from the environment (names below) or the gunicorn command line (``--bind``,
``--workers`` win over this file). gevent workers because the events long-poll (up to 30 s)
and the SSE streams hold a request open: under gevent each waiting client is a parked
greenlet, so a few processes hold hundreds of waiting clients and still take moves at once
(tests/service/test_waiting_connections.py holds 200). With gthread every waiting client
would pin a thread, and moves would queue behind the waiters.
The API is stateless (all state is in Redis), so scale out with more processes or pods.
"""

import os

bind = os.environ.get("DICEHALL_BIND", "127.0.0.1:8000")
workers = int(os.environ.get("WEB_CONCURRENCY", "2"))
worker_class = os.environ.get("DICEHALL_WORKER_CLASS", "gevent")
worker_connections = int(os.environ.get("DICEHALL_WORKER_CONNECTIONS", "1000"))
# A long-poll waits at most 30 s; SSE streams send a heartbeat every 15 s. The worker timeout
# is a heartbeat (not a per-request limit), so keep it above a blocked Redis read.
timeout = int(os.environ.get("DICEHALL_TIMEOUT", "60"))
graceful_timeout = int(os.environ.get("DICEHALL_GRACEFUL_TIMEOUT", "10"))
keepalive = 5
max_requests = int(os.environ.get("DICEHALL_MAX_REQUESTS", "0"))
max_requests_jitter = max_requests // 10
accesslog = os.environ.get("DICEHALL_ACCESS_LOG", "-") or None  # "" turns it off
errorlog = "-"
loglevel = os.environ.get("DICEHALL_LOG_LEVEL", "info")
proc_name = "dicehall-api"
forwarded_allow_ips = os.environ.get("FORWARDED_ALLOW_IPS", "127.0.0.1")
# Request line and header limits (gunicorn's defaults, named here): longer ones are answered
# 414 / 431 / 400 by gunicorn itself, as problem+json like every other error of the API.
limit_request_line = int(os.environ.get("DICEHALL_LIMIT_REQUEST_LINE", "4094"))
limit_request_fields = int(os.environ.get("DICEHALL_LIMIT_REQUEST_FIELDS", "100"))
limit_request_field_size = int(os.environ.get("DICEHALL_LIMIT_REQUEST_FIELD_SIZE", "8190"))


# The request id (X-Request-Id) ends every access-log line; DICEHALL_LOG_FORMAT=json makes the
# access log and the app's log one JSON object a line.
if os.environ.get("DICEHALL_LOG_FORMAT", "text").lower() == "json":
    access_log_format = (
        '{"time": "%(t)s", "remote": "%(h)s", "request": "%(r)s", "status": %(s)s, '
        '"bytes": "%(b)s", "duration_us": %(D)s, "request_id": "%({x-request-id}o)s"}'
    )
    logger_class = "service.access_log.JsonAccessLogger"  # the atoms escaped for JSON
else:
    access_log_format = '%(h)s %(l)s %(u)s %(t)s "%(r)s" %(s)s %(b)s %(D)sus %({x-request-id}o)s'


def on_starting(server):
    """Before the workers fork: gunicorn's own error answers become problem+json; Prometheus
    multiprocess mode: each worker counts in files of one directory (a fresh one unless
    PROMETHEUS_MULTIPROC_DIR names it), emptied at start."""
    import tempfile
    from pathlib import Path

    from service import gunicorn_errors

    gunicorn_errors.install()
    directory = os.environ.get("PROMETHEUS_MULTIPROC_DIR")
    if not directory:
        made = tempfile.mkdtemp(prefix="dicehall-metrics-")
        os.environ["PROMETHEUS_MULTIPROC_DIR"] = os.environ["DICEHALL_MADE_METRICS_DIR"] = made
        return
    Path(directory).mkdir(parents=True, exist_ok=True)
    for stale in Path(directory).glob("*.db"):
        stale.unlink()


def on_exit(server):
    """Remove the metrics directory this master made (not one it was given)."""
    import shutil

    made = os.environ.get("DICEHALL_MADE_METRICS_DIR")
    if made:
        shutil.rmtree(made, ignore_errors=True)


def child_exit(server, worker):
    """A worker that exits stops counting in-flight requests (its live gauges go)."""
    from prometheus_client import multiprocess

    multiprocess.mark_process_dead(worker.pid)


def post_worker_init(worker):
    """On SIGTERM, first tell the app it is draining: open long-polls answer at once and SSE
    streams end with a retry hint, while gunicorn finishes the requests in flight (moves)
    within graceful_timeout."""
    import signal

    from service.lifecycle import begin_drain

    stop = signal.getsignal(signal.SIGTERM)

    def drain_then_stop(signum, frame):
        begin_drain()
        stop(signum, frame)

    signal.signal(signal.SIGTERM, drain_then_stop)
