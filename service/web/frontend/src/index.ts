// /: live and recent games, and tournaments, each linked to its page.
import { get } from "./api.js";
import type { Game } from "./api.js";
import { $, h, showError } from "./dom.js";

function gameItem(game: Game): HTMLElement {
  const page = game.status === "over" ? "replay" : "watch";
  const seats = game.seats.map((seat) => seat.name).join(", ");
  const when = new Date(game.created_at * 1000).toISOString().slice(0, 16).replace("T", " ");
  return h(
    "li",
    {},
    h("a", { href: `/${page}/${game.id}` }, `${game.game} ${game.id}`),
    ` · ${seats} · move ${game.version} · ${when} UTC`,
    game.forked_from ? ` · fork of ${game.forked_from.game}` : "",
  );
}

function list(items: HTMLElement[], empty: string): HTMLElement {
  return items.length ? h("ul", {}, ...items) : h("p", {}, empty);
}

async function start(): Promise<void> {
  try {
    const [games, tournaments] = await Promise.all([
      get("/v1/games", {}, { limit: 50 }),
      get("/v1/tournaments", {}, { limit: 20 }),
    ]);
    const live = games.games.filter((g) => g.status !== "over");
    const over = games.games.filter((g) => g.status === "over");
    $("live").replaceChildren(list(live.map(gameItem), "No game is being played."));
    $("recent").replaceChildren(list(over.map(gameItem), "No finished game yet."));
    const items = tournaments.tournaments.map((t) =>
      h(
        "li",
        {},
        h("a", { href: `/tournaments/${t.id}` }, `${t.game} tournament ${t.id}`),
        ` · ${t.status} · ${t.progress.finished} of ${t.progress.total} games`,
      ),
    );
    $("tournaments").replaceChildren(list(items, "No tournament yet."));
  } catch (error) {
    showError($("problem"), error);
  }
}

void start();
