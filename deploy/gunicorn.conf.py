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


def on_starting(server):
    """Before the workers fork: gunicorn's own error answers become problem+json."""
    from service import gunicorn_errors

    gunicorn_errors.install()
