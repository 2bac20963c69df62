"""The spectator pages in a real headless chromium, against real gunicorn and rq workers:
watching a live game, stepping through finished ones, forking, a tournament, the index."""

from __future__ import annotations

import random
from typing import Any

import pytest
import requests

from engine.games import get_game
from tests.players import Player, create, play_until_over, wait_for
from tests.web.conftest import fits_a_phone, screenshot

pytestmark = [pytest.mark.browser, pytest.mark.usefixtures("worker")]

RECORD_DRAWN_VERSIONS = """
window.__drawn = [];
document.addEventListener("DOMContentLoaded", () => {
  const box = document.getElementById("picture");
  new MutationObserver(() => window.__drawn.push(Number(box.dataset.version)))
    .observe(box, { attributes: true, attributeFilter: ["data-version"] });
});
"""

SAME_PICTURE = """
(svg) => {
  const parsed = new DOMParser().parseFromString(svg, "image/svg+xml").documentElement;
  parsed.setAttribute("aria-hidden", "true");
  parsed.setAttribute("focusable", "false");
  const shown = document.querySelector("#picture svg");
  return shown !== null && shown.isEqualNode(document.importNode(parsed, true));
}
"""

BOTS = {
    "carcassonne": "heuristic",
    "burgundy": "random",
    "diceland": "heuristic",
    "kingdice": "random",
}


def finished(base: str, game: str, seed: str) -> dict[str, Any]:
    bots = [{"kind": "bot", "bot": BOTS[game]}, {"kind": "bot", "bot": BOTS[game]}]
    created = create(base, game, bots, seed=seed)
    return wait_for(base, created["id"], lambda s: s["status"] == "over", timeout=90)


def picture(base: str, game_id: str, **params: Any) -> str:
    reply = requests.get(f"{base}/v1/games/{game_id}/picture.svg", timeout=20, **params)
    assert reply.status_code == 200, reply.text
    return reply.text


def heuristic(game: str):
    """A ``choose`` for play_until_over: the game's heuristic bot on the player's view."""
    bot, rng = get_game(game).bots["heuristic"](), random.Random(7)
    return lambda player, legal: bot.choose(player.view()["view"], legal, rng)


def test_watch_page_redraws_on_every_event_until_game_over(live_server, redis_client, page):
    game = create(live_server, "diceland", [{"kind": "human"}, {"kind": "bot", "bot": "heuristic"}])
    game_id = game["id"]
    cursor = requests.get(
        f"{live_server}/v1/games/{game_id}/events", params={"after": "0", "wait": 0}, timeout=10
    ).json()["cursor"]
    streams: list[str] = []

    def cut_first_stream(route, request) -> None:
        streams.append(request.url)
        if len(streams) == 1:  # ends at once after one event: the page must resume after it
            route.fulfill(
                status=200,
                headers={"Content-Type": "text/event-stream"},
                body=f"id: {cursor}\nevent: game_created\ndata: {{}}\n\n",
            )
        else:
            route.continue_()

    urls: list[str] = []
    page.on("request", lambda request: urls.append(request.url))
    page.route("**/events/stream*", cut_first_stream)
    page.add_init_script(RECORD_DRAWN_VERSIONS)
    with page.expect_request(
        lambda r: "/events/stream" in r.url and r.headers.get("last-event-id") == cursor
    ):
        page.goto(f"{live_server}/watch/{game_id}")
    page.wait_for_selector("#status:has-text('Waiting for players')")

    ann = Player(live_server, game_id, 0, "ann")
    with page.expect_request(
        lambda r: (
            "/events/stream" in r.url and r.headers.get("authorization") == f"Bearer {ann.token}"
        )
    ):
        page.focus("#token")
        page.keyboard.type(ann.token)
        page.keyboard.press("Enter")
    page.wait_for_selector('#who:has-text("seat 0\'s own view")')

    final = play_until_over(live_server, [ann], choose=heuristic("diceland"), timeout=120)
    page.wait_for_selector("body[data-status=over]")
    page.wait_for_function(f"document.body.dataset.version === '{final['version']}'")
    drawn = page.evaluate("window.__drawn")
    assert drawn == sorted(drawn) and drawn[-1] == final["version"]
    assert len(set(drawn)) >= 5, drawn
    assert page.evaluate(SAME_PICTURE, picture(live_server, game_id, headers=ann.headers))
    assert page.locator("#log li").count() == final["version"] + 1
    assert page.locator("#result tbody tr").count() == 2
    assert page.locator("#result a[href='/replay/" + game_id + "']").count() == 1
    assert not [url for url in urls if ann.token in url]
    screenshot(page, "watch-diceland")
    assert fits_a_phone(page)
    screenshot(page, "watch-diceland-phone")


@pytest.mark.parametrize("game", list(BOTS))
def test_replay_page_steps_through_a_finished_game_with_the_services_pictures(
    live_server, redis_client, page, game
):
    summary = finished(live_server, game, seed=f"replay-{game}")
    game_id, last = summary["id"], summary["version"]
    entries = requests.get(f"{live_server}/v1/games/{game_id}/log", timeout=20).json()["entries"]
    page.goto(f"{live_server}/replay/{game_id}")
    page.wait_for_selector("body[data-ready=true]")

    def shows(k: int) -> None:
        page.wait_for_selector(f"#picture[data-version='{k}']")
        svg = picture(live_server, game_id, params={"version": k})
        assert page.evaluate(SAME_PICTURE, svg), f"the picture at step {k}"
        assert page.text_content("#sentence") == entries[k]["text"]
        assert page.input_value("#slider") == str(k)

    shows(0)
    page.keyboard.press("ArrowRight")
    shows(1)
    page.keyboard.press("ArrowRight")
    shows(2)
    page.keyboard.press("ArrowLeft")
    shows(1)
    page.focus("#next")
    page.keyboard.press("Enter")
    shows(2)
    page.keyboard.press("End")
    shows(last)
    page.locator("#slider").fill(str(last // 2))
    shows(last // 2)
    page.click("#previous")
    shows(last // 2 - 1)
    page.select_option("#sheet", "1")
    page.wait_for_selector("#picture[data-player='1']")
    seat_one = picture(live_server, game_id, params={"version": last // 2 - 1, "player": 1})
    assert page.evaluate(SAME_PICTURE, seat_one), "seat 1's sheet"
    page.wait_for_selector("#verified.verified")
    assert summary["seed"] in page.text_content("#verification")
    screenshot(page, f"replay-{game}")
    if game == "carcassonne":
        assert fits_a_phone(page)
        screenshot(page, "replay-carcassonne-phone")


def test_fork_button_on_the_replay_page_starts_a_game_that_plays_to_the_end(
    live_server, redis_client, page
):
    summary = finished(live_server, "kingdice", seed="fork-page")
    page.goto(f"{live_server}/replay/{summary['id']}")
    page.wait_for_selector("body[data-ready=true]")
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    page.wait_for_selector("#picture[data-version='3']")
    page.wait_for_selector("#fork-seat-1 option", state="attached")
    page.select_option("#fork-seat-0", "bot:heuristic")
    page.focus("#fork-button")
    page.keyboard.press("Enter")
    link = page.wait_for_selector("#fork-link")
    fork_id = link.text_content()
    assert fork_id
    forked = requests.get(f"{live_server}/v1/games/{fork_id}", timeout=10).json()
    assert forked["forked_from"] == {"game": summary["id"], "version": 3, "dice": "fresh"}
    assert [seat["bot"] for seat in forked["seats"]] == ["heuristic", "random"]
    screenshot(page, "replay-fork-form")
    link.click()
    page.wait_for_url(f"**/watch/{fork_id}")
    page.wait_for_selector("body[data-status=over]")
    assert f"Forked from game {summary['id']} after move 3" in page.text_content("#status")
    screenshot(page, "watch-fork")


def test_tournament_page_shows_the_standings_and_the_index_links_everything(
    live_server, redis_client, page
):
    spec = {
        "game": "kingdice",
        "participants": [
            {"name": "heuristic", "bot": "heuristic"},
            {"name": "random", "bot": "random"},
        ],
        "games": 2,
        "seats_per_game": 2,
    }
    reply = requests.post(f"{live_server}/v1/tournaments", json=spec, timeout=10)
    assert reply.status_code == 201, reply.text
    tid = reply.json()["id"]
    page.goto(f"{live_server}/tournaments/{tid}")
    page.wait_for_selector("body[data-status=finished]", timeout=120_000)
    rows = page.locator("#standings-table tbody tr")
    assert rows.count() == 2
    assert sorted(rows.locator("th").all_text_contents()) == ["heuristic", "random"]
    assert "2 of 2 games finished" in page.text_content("#progress-text")
    assert page.locator("#chart svg").count() == 1
    games = requests.get(f"{live_server}/v1/tournaments/{tid}/games", timeout=10).json()["games"]
    hrefs = page.locator("#games a").evaluate_all("links => links.map(a => a.pathname)")
    assert hrefs == [f"/replay/{g['game_id']}" for g in games]
    screenshot(page, "tournament")
    assert fits_a_phone(page)
    page.set_viewport_size({"width": 1100, "height": 900})

    page.goto(f"{live_server}/")
    page.wait_for_selector(f"#tournaments a[href='/tournaments/{tid}']")
    for g in games:
        assert page.locator(f"#recent a[href='/replay/{g['game_id']}']").count() == 1
    screenshot(page, "index")


def test_pages_say_what_is_wrong_instead_of_failing(live_server, redis_client, page):
    page.goto(f"{live_server}/watch/0000000000000000")
    page.wait_for_selector("#problem:has-text('game_not_found')")
    waiting = create(live_server, "kingdice", [{"kind": "human"}, {"kind": "human"}])
    page.goto(f"{live_server}/replay/{waiting['id']}")
    page.wait_for_selector(f"#problem a[href='/watch/{waiting['id']}']")
    assert "not over yet" in page.text_content("#problem")
    page.goto(f"{live_server}/tournaments/t00000000000")
    page.wait_for_selector("#problem:has-text('tournament_not_found')")
