"""What an operator sees: /metrics in Prometheus format, request ids in answers and log lines,
liveness apart from readiness."""

from __future__ import annotations

import http.client
import json
import logging
import uuid
from collections.abc import Iterator

import pytest
import requests
from prometheus_client.parser import text_string_to_metric_families

from service.logs import configure_logging
from tests.conftest import gunicorn_server, wait_until
from tests.players import Player, create


def scrape(base: str) -> dict[str, list]:
    reply = requests.get(f"{base}/metrics", timeout=10)
    assert reply.status_code == 200
    assert reply.headers["Content-Type"].startswith("text/plain")
    return {f.name: f.samples for f in text_string_to_metric_families(reply.text)}


def sample(families: dict[str, list], name: str, **labels: str) -> float:
    family = name.removesuffix("_total").removesuffix("_count").removesuffix("_bucket")
    for s in families.get(family, []):
        if s.name == name and all(s.labels.get(k) == v for k, v in labels.items()):
            return s.value
    raise AssertionError(f"no sample {name} {labels} in {sorted(families)}")


def test_metrics_count_requests_by_route_and_status_and_moves(live_server, redis_client) -> None:
    missing = uuid.uuid4().hex[:16]
    before = scrape(live_server)
    requests.get(f"{live_server}/v1/games/{missing}", timeout=10)
    game = create(live_server, "toy", [{"kind": "human"}, {"kind": "human"}])
    players = [Player(live_server, game["id"], seat) for seat in (0, 1)]
    assert players[0].act({"type": "bid", "card": 1}).status_code == 200
    assert players[0].act({"type": "bid", "card": 9}).status_code == 422

    after = scrape(live_server)
    route = "/v1/games/<string:game_id>"
    counted = sample(after, "dicehall_http_requests_total", route=route, status="404")
    try:
        earlier = sample(before, "dicehall_http_requests_total", route=route, status="404")
    except AssertionError:
        earlier = 0.0
    assert counted == earlier + 1
    moves = "dicehall_move_duration_seconds_count"
    assert sample(after, moves, status="200") >= 1
    assert sample(after, moves, status="422") >= 1
    assert sample(after, "dicehall_cas_retries_total") >= 0
    assert sample(after, "dicehall_queue_jobs", state="queued") >= 0
    assert sample(after, "dicehall_queue_jobs", state="failed") >= 0
    assert sample(after, "dicehall_games_stalled") >= 0
    assert sample(after, "dicehall_redis_up") == 1
    assert sample(after, "dicehall_redis_used_memory_bytes") > 0
    assert sample(after, "dicehall_redis_maxmemory_bytes") >= 0
    # the scrape itself is the one request in flight
    assert sample(after, "dicehall_http_requests_in_flight", route="/metrics") == 1


def test_every_answer_carries_a_request_id(live_server) -> None:
    given = requests.get(
        f"{live_server}/v1/catalogue", headers={"X-Request-Id": "trace-42.a_b"}, timeout=10
    )
    assert given.headers["X-Request-Id"] == "trace-42.a_b"
    made = requests.get(f"{live_server}/v1/games/{'0' * 16}", timeout=10)
    assert made.status_code == 404
    assert len(made.headers["X-Request-Id"]) == 32
    unusable = requests.get(
        f"{live_server}/v1/catalogue", headers={"X-Request-Id": "two words"}, timeout=10
    )
    assert unusable.headers["X-Request-Id"] not in ("two words", "")


@pytest.fixture()
def our_handler() -> Iterator[None]:
    yield
    root = logging.getLogger()
    for handler in list(root.handlers):
        if getattr(handler, "dicehall", False):
            root.removeHandler(handler)


@pytest.mark.parametrize("form", ["text", "json"])
def test_log_lines_carry_the_request_id(app, our_handler, capsys, monkeypatch, form: str) -> None:
    monkeypatch.setenv("DICEHALL_LOG_FORMAT", form)
    configure_logging()
    with app.test_request_context("/v1/catalogue", headers={"X-Request-Id": "abc-123"}):
        app.preprocess_request()
        logging.getLogger("service.test").warning("inside a request")
    logging.getLogger("service.test").warning("outside")
    inside, outside = capsys.readouterr().err.splitlines()
    if form == "json":
        assert json.loads(inside)["request_id"] == "abc-123"
        assert json.loads(inside)["message"] == "inside a request"
        assert json.loads(outside)["request_id"] == "-"
    else:
        assert "[abc-123] inside a request" in inside
        assert "[-] outside" in outside


def test_the_json_access_log_stays_json_whatever_the_request_line_holds(
    redis_url, tmp_path
) -> None:
    """gunicorn escapes only the quotes of what it logs: a backslash in the request target
    (printable ASCII, which gunicorn lets through) made a line that is not JSON, or one with
    fields the client wrote."""
    access = tmp_path / "access.log"
    extra = ["--access-logfile", str(access)]
    target = '/v1/games/x\\",\\"status\\":200,\\"z\\":\\"'
    with gunicorn_server(
        redis_url, workers=1, extra=extra, env={"DICEHALL_LOG_FORMAT": "json"}
    ) as base:
        connection = http.client.HTTPConnection(base.removeprefix("http://"), timeout=10)
        connection.request("GET", target)
        assert connection.getresponse().status == 404
        connection.close()
        wait_until(lambda: "/v1/games/x" in access.read_text(), 10, "the access log line")
    lines = [json.loads(text) for text in access.read_text().splitlines()]
    (line,) = [line for line in lines if line["request"] == f"GET {target} HTTP/1.1"]
    assert line["status"] == 404
