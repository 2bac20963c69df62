// /replay/{game_id}: a finished game step by step (buttons, slider, arrow keys), its
// verification, and a fork of the game at the step shown.
import { ApiError, createGame, get, picture } from "./api.js";
import { $, chosenSheet, h, resultTable, sheetMenu, showError, showSvg } from "./dom.js";
const gameId = document.body.dataset.game ?? "";
const pictures = new Map();
let game;
let log;
let step = 0;
function pictureAt(k) {
    const player = chosenSheet();
    const key = `${player ?? ""}:${k}`;
    let found = pictures.get(key);
    if (!found) {
        found = picture("/v1/games/{game_id}/picture.svg", { game_id: gameId }, { version: k, player });
        found.catch(() => pictures.delete(key));
        pictures.set(key, found);
    }
    return found;
}
async function show(k) {
    step = Math.max(0, Math.min(game.version, k));
    const slider = $("slider");
    slider.value = String(step);
    slider.setAttribute("aria-valuetext", `move ${step} of ${game.version}`);
    $("step").textContent = `Move ${step} of ${game.version}`;
    const entry = log.entries.find((e) => e.version === step);
    $("sentence").textContent = entry?.text ?? "";
    $("fork-at").textContent = String(step);
    $("fork-button").disabled = step >= game.version;
    const shown = step;
    const sheet = chosenSheet();
    const svg = await pictureAt(shown);
    if (shown !== step || sheet !== chosenSheet())
        return;
    const box = $("picture");
    showSvg(box, svg);
    box.dataset.version = String(shown);
    box.dataset.player = sheet === undefined ? "" : String(sheet);
    box.setAttribute("aria-label", `${game.game} board after move ${shown}`);
    void pictureAt(Math.min(game.version, shown + 1));
}
function controls() {
    const slider = $("slider");
    slider.max = String(game.version);
    slider.addEventListener("input", () => void show(Number(slider.value)));
    const moves = {
        first: () => 0,
        previous: () => step - 1,
        next: () => step + 1,
        last: () => game.version,
    };
    for (const [id, target] of Object.entries(moves)) {
        $(id).addEventListener("click", () => void show(target()));
    }
    document.addEventListener("keydown", (event) => {
        const target = event.target;
        if (target === slider || ["INPUT", "SELECT", "TEXTAREA"].includes(target.tagName))
            return;
        const keys = {
            ArrowLeft: moves.previous,
            ArrowRight: moves.next,
            Home: moves.first,
            End: moves.last,
        };
        const key = keys[event.key];
        if (key) {
            event.preventDefault();
            void show(key());
        }
    });
}
async function verification() {
    const box = $("verification");
    try {
        const audit = await get("/v1/games/{game_id}/verification", { game_id: gameId });
        const mark = h("p", { class: audit.ok ? "verified" : "unverified", id: "verified" }, audit.ok ? "✔ Verified" : "✘ Not verified", audit.ok ? ": the seed matches its commitment and the log re-plays to the result." : "");
        const checks = audit.checks.map((check) => h("li", {}, `${check.ok ? "✔" : "✘"} ${check.name}`, check.detail ? ` (${check.detail})` : ""));
        box.replaceChildren(mark, h("dl", {}, h("dt", {}, "Seed"), h("dd", { class: "hash" }, audit.seed), h("dt", {}, "Commitment (sha256 of the seed)"), h("dd", { class: "hash" }, audit.commitment)), h("details", {}, h("summary", {}, `The ${audit.checks.length} checks`), h("ul", {}, ...checks)));
    }
    catch (error) {
        showError(box, error);
    }
}
async function forkForm() {
    const info = await get("/v1/catalogue/{name}", { name: game.game });
    const choices = ["human", ...info.bots.map((bot) => `bot:${bot}`)];
    const rows = game.seats.map((seat, n) => {
        const select = h("select", { id: `fork-seat-${n}`, name: `seat-${n}` });
        for (const choice of choices) {
            const label = choice === "human" ? "a person (joins later)" : `${choice.slice(4)} bot`;
            select.append(h("option", { value: choice }, label));
        }
        select.value = seat.kind === "bot" && seat.bot ? `bot:${seat.bot}` : choices[1] ?? "human";
        return h("p", {}, h("label", { for: `fork-seat-${n}` }, `Seat ${n} (was ${seat.name}) `), select);
    });
    $("fork-seats").replaceChildren(...rows);
    $("fork").addEventListener("submit", (event) => {
        event.preventDefault();
        void fork();
    });
}
async function fork() {
    const seats = game.seats.map((_, n) => {
        const value = $(`fork-seat-${n}`).value;
        return value === "human" ? { kind: "human" } : { kind: "bot", bot: value.slice(4) };
    });
    const dice = document.querySelector('input[name="dice"]:checked').value;
    // public: its open seats are taken with `dicehall play --join`, as the page says
    const body = { seats, fork: { game: gameId, version: step, dice }, visibility: "public" };
    const out = $("fork-result");
    try {
        const created = await createGame(body);
        const open = seats.flatMap((seat, n) => (seat.kind === "human" ? [n] : []));
        const joins = open.map((n) => h("li", {}, h("code", {}, `dicehall play --join ${created.id} --seat ${n}`)));
        out.replaceChildren("Created game ", h("a", { href: `/watch/${created.id}`, id: "fork-link" }, created.id), ` from move ${step}. Creator token (shown once): `, h("code", {}, created.creator_token), open.length ? h("p", {}, "It starts when these seats are taken:") : "", open.length ? h("ul", {}, ...joins) : "");
    }
    catch (error) {
        out.textContent = error instanceof ApiError ? error.detail : String(error);
    }
}
async function start() {
    const params = { game_id: gameId };
    try {
        [game, log] = await Promise.all([get("/v1/games/{game_id}", params), get("/v1/games/{game_id}/log", params)]);
    }
    catch (error) {
        showError($("problem"), error);
        return;
    }
    $("heading").textContent = `Replay of ${game.game} · game ${game.id}`;
    if (game.status !== "over") {
        $("problem").replaceChildren("This game is not over yet: ", h("a", { href: `/watch/${game.id}` }, "watch it live"), ".");
        return;
    }
    if (game.forked_from) {
        $("origin").replaceChildren("Forked from ", h("a", { href: `/replay/${game.forked_from.game}` }, `game ${game.forked_from.game}`), ` after move ${game.forked_from.version} (${game.forked_from.dice} dice).`);
    }
    if (game.result)
        $("result").replaceChildren(resultTable(game, game.result));
    $("player").hidden = false;
    controls();
    sheetMenu(game, () => void show(step));
    await show(0);
    document.body.dataset.ready = "true";
    await Promise.all([verification(), forkForm()]);
}
void start();
