// Server-Sent Events read with fetch (EventSource cannot send a token header), resumed
// after every drop with the Last-Event-ID header.
/** Follow the stream at ``target`` until it ends with ``game_over`` or ``stop()``; each
 * reconnection sends the id of the last event seen. */
export function follow(target, headers, onEvent, onState) {
    const abort = new AbortController();
    let lastId = null;
    let retry = 2000;
    let ended = false;
    const dispatch = (block) => {
        let id = null;
        let type = "message";
        const data = [];
        for (const line of block.split("\n")) {
            if (line === "" || line.startsWith(":"))
                continue;
            const colon = line.indexOf(":");
            const field = colon < 0 ? line : line.slice(0, colon);
            const value = colon < 0 ? "" : line.slice(colon + 1).replace(/^ /, "");
            if (field === "id")
                id = value;
            else if (field === "event")
                type = value;
            else if (field === "data")
                data.push(value);
            else if (field === "retry" && /^\d+$/.test(value))
                retry = Number(value);
        }
        if (id !== null)
            lastId = id;
        if (data.length === 0)
            return;
        if (type === "game_over")
            ended = true;
        onEvent({ id, type, data: data.join("\n") });
    };
    const run = async () => {
        while (!ended && !abort.signal.aborted) {
            try {
                const resume = lastId ? { "Last-Event-ID": lastId } : {};
                const reply = await fetch(target, {
                    headers: { Accept: "text/event-stream", ...headers(), ...resume },
                    signal: abort.signal,
                });
                if (!reply.ok || !reply.body)
                    throw new Error(`stream answered ${reply.status}`);
                onState("connected");
                const reader = reply.body.pipeThrough(new TextDecoderStream()).getReader();
                let buffer = "";
                for (;;) {
                    const { value, done } = await reader.read();
                    if (done)
                        break;
                    buffer += value.replace(/\r\n?/g, "\n");
                    let cut = buffer.indexOf("\n\n");
                    while (cut >= 0) {
                        dispatch(buffer.slice(0, cut));
                        buffer = buffer.slice(cut + 2);
                        cut = buffer.indexOf("\n\n");
                    }
                }
            }
            catch (error) {
                if (abort.signal.aborted)
                    return;
            }
            if (ended)
                break;
            onState("reconnecting");
            await new Promise((resolve) => setTimeout(resolve, retry));
        }
        onState("ended");
    };
    void run();
    return { stop: () => abort.abort() };
}
