// /tournaments/{id}: standings, the ratings chart and the games, re-read every few
// seconds until the tournament is finished.
import { ApiError, get, picture } from "./api.js";
import { $, h, showError, showSvg } from "./dom.js";
const tournamentId = document.body.dataset.tournament ?? "";
const POLL_MS = 2000;
function fixed(value, digits = 1) {
    return value === null || value === undefined ? "–" : value.toFixed(digits);
}
function standings(t) {
    const head = ["Rank", "Entrant", "Rating (μ − 3σ)", "μ ± 2σ", "Games", "Wins", "Average score", "Illegal", "Missed"];
    const rows = t.standings.map((row) => h("tr", {}, h("td", {}, String(row.rank)), h("th", { scope: "row" }, row.name), h("td", {}, fixed(row.ordinal)), h("td", {}, `${fixed(row.mu)} (${fixed(row.interval[0])}–${fixed(row.interval[1])})`), h("td", {}, String(row.games)), h("td", {}, String(row.wins)), h("td", {}, fixed(row.average_score)), h("td", {}, String(row.illegal_actions)), h("td", {}, String(row.deadlines_missed))));
    return h("table", { id: "standings-table" }, h("caption", { class: "visually-hidden" }, "Standings, best rating first"), h("thead", {}, h("tr", {}, ...head.map((text) => h("th", { scope: "col" }, text)))), h("tbody", {}, ...rows));
}
function games(list) {
    const items = list.map((g) => {
        const page = g.status === "over" ? "replay" : "watch";
        const who = g.participants.join(", ");
        return h("li", {}, h("a", { href: `/${page}/${g.game_id}` }, `Game ${g.index + 1}`), ` (${g.status}): ${who}`);
    });
    return h("ol", {}, ...items);
}
async function poll() {
    const params = { tournament_id: tournamentId };
    try {
        const [t, list, chart] = await Promise.all([
            get("/v1/tournaments/{tournament_id}", params),
            get("/v1/tournaments/{tournament_id}/games", params),
            picture("/v1/tournaments/{tournament_id}/chart.svg", params),
        ]);
        $("heading").textContent = `Tournament ${t.id} · ${t.game}`;
        const bar = $("progress");
        bar.max = t.progress.total;
        bar.value = t.progress.finished;
        $("progress-text").textContent =
            `${t.progress.finished} of ${t.progress.total} games finished, ${t.progress.started} started (${t.format}, ${t.seats_per_game} seats per game). ` +
                (t.status === "finished" ? "The tournament is finished." : "Running…");
        $("standings").replaceChildren(standings(t));
        const box = $("chart");
        showSvg(box, chart);
        box.setAttribute("aria-label", "Ratings: " + t.standings.map((row) => `${row.name} ${fixed(row.mu)} ± ${fixed(2 * row.sigma)}`).join("; "));
        $("games").replaceChildren(games(list.games));
        $("problem").textContent = "";
        document.body.dataset.status = t.status;
        if (t.status === "finished")
            return;
    }
    catch (error) {
        showError($("problem"), error);
        if (error instanceof ApiError && error.status === 404)
            return;
    }
    setTimeout(() => void poll(), POLL_MS);
}
void poll();
