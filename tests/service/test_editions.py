"""``GET /v1/catalogue/{name}/editions/{edition}``: a game's designed data by edition (Diceland's
maps and boards), which its views name instead of carrying; cacheable for ever, with a strong
ETag and 304 Not Modified, over the Flask test client with a real Redis."""

from __future__ import annotations

import jsonschema
import pytest

from engine.diceland import GAME as DICELAND
from engine.diceland.maps import EDITION, EDITIONS, boards_of, edition_data
from tests.service.test_api_basics import create_humans

FOR_EVER = "public, max-age=31536000, immutable"


def edition_url(edition: int, game: str = "diceland") -> str:
    return f"/v1/catalogue/{game}/editions/{edition}"


@pytest.mark.parametrize("edition", EDITIONS)
def test_each_diceland_edition_answers_the_engines_maps_and_boards(client, edition):
    answer = client.get(edition_url(edition))
    assert answer.status_code == 200
    body = answer.get_json()
    assert body == {
        "game": "diceland",
        "edition": edition,
        "maps": edition_data(edition),
        "boards": [list(sides) for sides in boards_of(edition)],
    }
    assert len(body["maps"]) == 8
    assert (body["boards"] == []) == (edition < 6), "editions 1-5 dealt maps singly"
    jsonschema.validate({k: body[k] for k in ("maps", "boards")}, DICELAND.edition_schema)
    assert answer.headers["Cache-Control"] == FOR_EVER
    etag = answer.headers["ETag"]
    assert etag.startswith('"') and etag.endswith('"'), "a strong ETag"


def test_editions_of_other_data_have_other_etags(client):
    tags = {e: client.get(edition_url(e)).headers["ETag"] for e in EDITIONS}
    assert len(set(tags.values())) == len(EDITIONS), "5 and 6 share maps, not boards"
    assert client.get(edition_url(EDITION)).headers["ETag"] == tags[EDITION], "stable"


def test_a_matching_if_none_match_gets_304_without_a_body(client):
    first = client.get(edition_url(EDITION))
    etag = first.headers["ETag"]
    again = client.get(edition_url(EDITION), headers={"If-None-Match": etag})
    assert again.status_code == 304 and again.get_data() == b""
    assert again.headers["ETag"] == etag and again.headers["Cache-Control"] == FOR_EVER
    among = client.get(edition_url(EDITION), headers={"If-None-Match": f'"other", {etag}'})
    assert among.status_code == 304
    older = client.get(edition_url(1)).headers["ETag"]
    stale = client.get(edition_url(EDITION), headers={"If-None-Match": older})
    assert stale.status_code == 200 and stale.get_json() == first.get_json()


@pytest.mark.parametrize(
    ("path", "code"),
    [
        (edition_url(1, "chess"), "unknown_game"),
        (edition_url(1, "carcassonne"), "edition_not_found"),
        (edition_url(1, "toy"), "edition_not_found"),
        (edition_url(0), "edition_not_found"),
        (edition_url(EDITION + 1), "edition_not_found"),
    ],
)
def test_an_unknown_game_or_edition_is_a_404_problem(client, path, code):
    answer = client.get(path)
    assert answer.status_code == 404 and answer.mimetype == "application/problem+json"
    assert answer.get_json()["code"] == code
    assert "immutable" not in answer.headers.get("Cache-Control", "")


def test_a_diceland_view_names_its_edition_and_carries_no_layouts(client):
    game = create_humans(client, "diceland", "editions")
    view = client.get(f"/v1/games/{game['id']}/view").get_json()["view"]
    assert view["edition"] == EDITION and "maps" not in view
    layouts = client.get(edition_url(view["edition"])).get_json()["maps"]
    boards = [p["board"] for p in view["players"]]
    assert all(layouts[m] == edition_data(EDITION)[m] for board in boards for m in board)
