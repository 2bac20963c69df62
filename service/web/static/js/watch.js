// /watch/{game_id}: the live game. The picture, whose turn, the log and the result are
// re-read after every event of the game's SSE stream.
import { ApiError, authHeaders, get, picture, url, useToken } from "./api.js";
import { $, chosenSheet, h, owing, resultTable, seatName, sheetMenu, showError, showSvg } from "./dom.js";
import { follow } from "./sse.js";
const gameId = document.body.dataset.game ?? "";
const tokenKey = `dicehall.token.${gameId}`;
let seat = null;
let busy = false;
/** Events that come faster than this are drawn together (a bot game moves in milliseconds). */
const MIN_REDRAW_MS = 200;
let again = false;
function describeLog(log) {
    return log.entries.map((entry) => h("li", { value: entry.version }, entry.text ?? (entry.seat === null ? "set-up" : `seat ${entry.seat} made a sealed choice`)));
}
function pause(ms) {
    return new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));
}
async function refresh() {
    if (busy) {
        again = true;
        return;
    }
    busy = true;
    try {
        do {
            again = false;
            const started = Date.now();
            await draw();
            if (again)
                await pause(MIN_REDRAW_MS - (Date.now() - started));
        } while (again);
    }
    catch (error) {
        showError($("problem"), error);
    }
    finally {
        busy = false;
    }
}
async function draw() {
    const params = { game_id: gameId };
    const [game, log, svg] = await Promise.all([
        get("/v1/games/{game_id}", params),
        get("/v1/games/{game_id}/log", params),
        picture("/v1/games/{game_id}/picture.svg", params, { player: chosenSheet() }),
    ]);
    sheetMenu(game, () => void refresh());
    const view = seat === null ? null : await get("/v1/games/{game_id}/view", params);
    const box = $("picture");
    showSvg(box, svg);
    box.dataset.version = String(game.version);
    box.setAttribute("aria-label", `${game.game} board at move ${game.version}` + (seat === null ? "" : `, as ${seatName(game, seat)}`));
    $("heading").textContent = `${game.game} · game ${game.id}`;
    $("status").textContent = statusLine(game);
    const lines = owing(game, view?.to_act ?? game.to_act);
    if (lines.length === 0) {
        lines.push(game.status === "waiting" ? "Nobody yet: seats are waiting for players." : "Nobody: the game is over.");
    }
    $("turn").replaceChildren(...lines.map((line) => h("li", {}, line)));
    const entries = describeLog(log);
    $("log").replaceChildren(...entries.reverse());
    $("problem").textContent = "";
    if (game.status === "over" && game.result) {
        $("result").replaceChildren(resultTable(game, game.result), h("p", {}, h("a", { href: `/replay/${game.id}` }, "Replay this game move by move")));
    }
    document.body.dataset.status = game.status;
    document.body.dataset.version = String(game.version);
}
function statusLine(game) {
    const fork = game.forked_from
        ? ` Forked from game ${game.forked_from.game} after move ${game.forked_from.version}.`
        : "";
    const state = { waiting: "Waiting for players", active: "Being played", over: "Over" }[game.status];
    return `${state}, move ${game.version}.${fork}`;
}
async function setToken(token) {
    useToken(token);
    seat = null;
    $("who").textContent = "You watch as a spectator.";
    if (token === null) {
        sessionStorage.removeItem(tokenKey);
        return;
    }
    try {
        const view = await get("/v1/games/{game_id}/view", { game_id: gameId });
        seat = view.seat ?? null;
        sessionStorage.setItem(tokenKey, token);
        $("who").textContent = seat === null ? "This token is the creator's: spectator view." : `You see seat ${seat}'s own view.`;
    }
    catch (error) {
        useToken(null);
        sessionStorage.removeItem(tokenKey);
        $("who").textContent =
            error instanceof ApiError && error.status === 401 ? "That token opens no seat of this game." : String(error);
    }
}
function start() {
    const form = $("token-form");
    const input = $("token");
    form.addEventListener("submit", (event) => {
        event.preventDefault();
        const token = input.value.trim();
        input.value = "";
        void setToken(token || null).then(restart);
    });
    $("forget").addEventListener("click", () => void setToken(null).then(restart));
    const saved = sessionStorage.getItem(tokenKey);
    void setToken(saved).then(restart);
}
let stream = null;
function restart() {
    stream?.stop();
    void refresh();
    stream = follow(url("/v1/games/{game_id}/events/stream", { game_id: gameId }), authHeaders, (event) => {
        if (event.type !== "pending")
            void refresh();
    }, (state) => {
        $("connection").textContent = {
            connected: "Live: following the game.",
            reconnecting: "Connection lost; reconnecting…",
            ended: "The game is over.",
        }[state];
    });
}
start();
