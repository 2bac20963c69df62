/** A problem+json answer, thrown by every call that does not succeed. */
export class ApiError extends Error {
    constructor(status, code, detail) {
        super(`${status} ${code}: ${detail}`);
        this.status = status;
        this.code = code;
        this.detail = detail;
    }
}
let bearer = null;
/** The seat token sent with every call from now on (null: a spectator). It stays in the
 * page; it is sent as a header, never in a URL. */
export function useToken(token) {
    bearer = token;
}
export function authHeaders() {
    return bearer ? { Authorization: `Bearer ${bearer}` } : {};
}
/** ``path`` with its ``{name}`` parts filled from ``params`` and the query appended. */
export function url(path, params = {}, query = {}) {
    const filled = path.replace(/\{(\w+)\}/g, (_, name) => encodeURIComponent(params[name] ?? ""));
    const search = new URLSearchParams();
    for (const [key, value] of Object.entries(query)) {
        if (value !== undefined)
            search.set(key, String(value));
    }
    const text = search.toString();
    return text ? `${filled}?${text}` : filled;
}
async function send(target, init = {}) {
    const reply = await fetch(target, {
        ...init,
        headers: { ...authHeaders(), ...init.headers },
    });
    if (!reply.ok) {
        let code = "http_error";
        let detail = reply.statusText;
        try {
            const problem = (await reply.json());
            code = problem.code;
            detail = problem.detail ?? detail;
        }
        catch {
            // not problem+json: keep the status text
        }
        throw new ApiError(reply.status, code, detail);
    }
    return reply;
}
/** GET a JSON resource of the API. */
export async function get(path, params, query = {}) {
    const reply = await send(url(path, params, query));
    return (await reply.json());
}
/** GET a picture (SVG text). */
export async function picture(path, params, query = {}) {
    return (await send(url(path, params, query))).text();
}
/** Create a game (or a fork of a finished one). */
export async function createGame(body) {
    const reply = await send(url("/v1/games"), {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify(body),
    });
    return (await reply.json());
}
