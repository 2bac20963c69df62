// Typed access to the public API: every path, parameter and answer type comes from
// schema.d.ts, which openapi-typescript generates from openapi.yaml (npm run types).
import type { components, paths } from "./schema";

type Path = Extract<keyof paths, string>;

export type Schemas = components["schemas"];
export type Game = Schemas["Game"];
export type Log = Schemas["Log"];
export type LogEntry = Log["entries"][number];
export type View = Schemas["View"];
export type Prompt = Schemas["Prompt"];
export type Tournament = Schemas["Tournament"];
export type TournamentGame = Schemas["TournamentGame"];
export type Verification = Schemas["Verification"];
export type CreateGame = Schemas["CreateGame"];
export type Seat = Schemas["Seat"];

export type Result = Schemas["Result"];

type JsonBody<R> = R extends { content: { "application/json": infer T } } ? T : never;
type Getter = { get: { responses: { 200: unknown } } };
type JsonGetPath = {
  [P in Path]: paths[P] extends Getter
    ? JsonBody<paths[P]["get"]["responses"][200]> extends never
      ? never
      : P
    : never;
}[Path];
type GetAnswer<P extends keyof paths> = paths[P] extends Getter
  ? JsonBody<paths[P]["get"]["responses"][200]>
  : never;
type Query<P extends keyof paths> = paths[P] extends { get: { parameters: { query?: infer Q } } }
  ? Q
  : never;

/** A problem+json answer, thrown by every call that does not succeed. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    readonly detail: string,
  ) {
    super(`${status} ${code}: ${detail}`);
  }
}

let bearer: string | null = null;

/** The seat token sent with every call from now on (null: a spectator). It stays in the
 * page; it is sent as a header, never in a URL. */
export function useToken(token: string | null): void {
  bearer = token;
}

export function authHeaders(): Record<string, string> {
  return bearer ? { Authorization: `Bearer ${bearer}` } : {};
}

/** ``path`` with its ``{name}`` parts filled from ``params`` and the query appended. */
export function url(
  path: Path,
  params: Record<string, string> = {},
  query: Record<string, string | number | undefined> = {},
): string {
  const filled = path.replace(/\{(\w+)\}/g, (_, name: string) =>
    encodeURIComponent(params[name] ?? ""),
  );
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value !== undefined) search.set(key, String(value));
  }
  const text = search.toString();
  return text ? `${filled}?${text}` : filled;
}

async function send(target: string, init: RequestInit = {}): Promise<Response> {
  const reply = await fetch(target, {
    ...init,
    headers: { ...authHeaders(), ...(init.headers as Record<string, string> | undefined) },
  });
  if (!reply.ok) {
    let code = "http_error";
    let detail = reply.statusText;
    try {
      const problem = (await reply.json()) as Schemas["Problem"];
      code = problem.code;
      detail = problem.detail ?? detail;
    } catch {
      // not problem+json: keep the status text
    }
    throw new ApiError(reply.status, code, detail);
  }
  return reply;
}

/** GET a JSON resource of the API. */
export async function get<P extends JsonGetPath>(
  path: P,
  params: Record<string, string>,
  query: Query<P> | Record<string, never> = {},
): Promise<GetAnswer<P>> {
  const reply = await send(url(path, params, query as Record<string, string | number>));
  return (await reply.json()) as GetAnswer<P>;
}

/** GET a picture (SVG text). */
export async function picture(
  path: "/v1/games/{game_id}/picture.svg" | "/v1/tournaments/{tournament_id}/chart.svg",
  params: Record<string, string>,
  query: Record<string, string | number | undefined> = {},
): Promise<string> {
  return (await send(url(path, params, query))).text();
}

/** Create a game (or a fork of a finished one). */
export async function createGame(body: CreateGame): Promise<Schemas["CreatedGame"]> {
  const reply = await send(url("/v1/games"), {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(body),
  });
  return (await reply.json()) as Schemas["CreatedGame"];
}
