// Plays whole dicehall games through openapi-fetch with the types openapi-typescript generated
// from openapi.yaml (./api.d.ts, written by the test beside this file; never committed).
// One human seat chooses random legal actions; the other seats are the service's bots.
//
//   node out/play.js BASE_URL '[{"game": "carcassonne", "seats": 1, "options": {}}, ...]'
//
// Prints one JSON line per finished game: {"game", "id", "moves", "scores", "last", "entries"}.
import createClient from "openapi-fetch";
import type { components, paths } from "./api.js";

type Schemas = components["schemas"];
type GameName = Schemas["View"]["game"];
type Action = Schemas["Action"];
type LegalAction = { action: Action; text: string };
type StreamEntry = Schemas["Events"]["events"][number];

interface Plan {
  game: GameName;
  seats: number;
  bot: NonNullable<Schemas["SeatSpec"]["bot"]>;
  options: Record<string, unknown>;
}

interface Played {
  game: GameName;
  id: string;
  moves: number;
  scores: number[];
  last: string;
  entries: Record<string, number>;
}

const [baseUrl, plansJson] = process.argv.slice(2);
if (baseUrl === undefined || plansJson === undefined) {
  throw new Error("usage: play.js BASE_URL PLANS_JSON");
}
const plans: Plan[] = JSON.parse(plansJson) as Plan[];
const anonymous = createClient<paths>({ baseUrl });

function pick<T>(items: readonly T[]): T {
  const item = items[Math.floor(Math.random() * items.length)];
  if (item === undefined) throw new Error("nothing to pick from");
  return item;
}

async function playOne(plan: Plan): Promise<Played> {
  const seats: Schemas["SeatSpec"][] = [{ kind: "human", name: "typescript" }];
  for (let n = 1; n < plan.seats; n++) seats.push({ kind: "bot", bot: plan.bot });
  const created = await anonymous.POST("/v1/games", {
    body: { game: plan.game, seats, options: plan.options, visibility: "private" },
  });
  if (created.data === undefined) throw new Error(`createGame: ${JSON.stringify(created.error)}`);
  const gameId = created.data.id;
  const creator = createClient<paths>({
    baseUrl,
    headers: { Authorization: `Bearer ${created.data.creator_token}` },
  });
  const joined = await creator.POST("/v1/games/{game_id}/seats/{seat}/join", {
    params: { path: { game_id: gameId, seat: 0 } },
    body: { name: "typescript" },
  });
  if (joined.data === undefined) throw new Error(`joinSeat: ${JSON.stringify(joined.error)}`);
  const seat = joined.data.seat;
  const client = createClient<paths>({
    baseUrl,
    headers: { Authorization: `Bearer ${joined.data.seat_token}` },
  });
  const path = { game_id: gameId };
  const entries: Record<string, number> = {};
  let cursor = "0";
  let moves = 0;
  // Read the event feed after the cursor, waiting up to `wait` s; counts entries by type.
  async function follow(wait: number): Promise<number> {
    const feed = await anonymous.GET("/v1/games/{game_id}/events", {
      params: { path, query: { after: cursor, wait } },
    });
    if (feed.data === undefined) throw new Error(`listEvents: ${JSON.stringify(feed.error)}`);
    cursor = feed.data.cursor;
    // each game's feed is its own array type; only the entry's type is read here
    const seen: readonly Pick<StreamEntry, "type">[] = feed.data.events;
    for (const entry of seen) entries[entry.type] = (entries[entry.type] ?? 0) + 1;
    return seen.length;
  }
  for (let step = 0; step < 5000; step++) {
    const viewed = await client.GET("/v1/games/{game_id}/view", { params: { path } });
    if (viewed.data === undefined) throw new Error(`getView: ${JSON.stringify(viewed.error)}`);
    const view = viewed.data;
    if (view.game !== plan.game) throw new Error(`a ${plan.game} game answered ${view.game}`);
    // The discriminator narrows the view: each branch reads a field only its game has.
    let where: string;
    switch (view.game) {
      case "carcassonne":
        where = `carcassonne to ${view.view.target}`;
        break;
      case "burgundy":
        where = `burgundy round ${view.view.round}`;
        break;
      case "diceland":
        where = `diceland goal ${view.view.goal}`;
        break;
      case "kingdice":
        where = `kingdice turn ${view.view.turn}`;
        break;
    }
    if (view.status === "over") {
      if (view.result === null) throw new Error(`${where}: over without a result`);
      while ((await follow(0)) > 0);
      return { game: view.game, id: gameId, moves, scores: view.result.scores, last: where, entries };
    }
    const prompt = view.to_act[String(seat)];
    if (prompt !== undefined) {
      const listed = await client.GET("/v1/games/{game_id}/legal-actions", { params: { path } });
      if (listed.data === undefined) throw new Error(`listLegalActions: ${JSON.stringify(listed.error)}`);
      const legal: LegalAction[] = listed.data.actions;
      if (legal.length > 0) {
        const choice = pick(legal);
        const moved = await client.POST("/v1/games/{game_id}/actions", {
          params: { path, header: { "If-Match": `"${listed.data.version}"` } },
          body: { action: choice.action },
        });
        if (moved.data !== undefined) {
          moves += 1;
          continue;
        }
        if (moved.response.status !== 412) {
          throw new Error(`postAction ${JSON.stringify(choice.action)}: ${JSON.stringify(moved.error)}`);
        }
      }
    }
    // Nothing to do now: wait for the bots on the event feed (a long-poll, not a sleep).
    await follow(5);
  }
  throw new Error(`${plan.game} game ${gameId} did not end in 5000 steps`);
}

for (const plan of plans) {
  const played = await playOne(plan);
  console.log(JSON.stringify(played));
}
