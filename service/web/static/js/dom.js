export function $(id) {
    const found = document.getElementById(id);
    if (!found)
        throw new Error(`the page has no #${id}`);
    return found;
}
/** An element with attributes and children. */
export function h(tag, attrs = {}, ...children) {
    const element = document.createElement(tag);
    for (const [name, value] of Object.entries(attrs)) {
        if (value === undefined || value === false)
            continue;
        element.setAttribute(name, value === true ? "" : String(value));
    }
    for (const child of children) {
        if (child === null || child === undefined || child === false)
            continue;
        element.append(child);
    }
    return element;
}
/** Replace the content of ``box`` with the SVG document ``svg`` (from this service). */
export function showSvg(box, svg) {
    const parsed = new DOMParser().parseFromString(svg, "image/svg+xml");
    const root = parsed.documentElement;
    if (root.nodeName !== "svg")
        throw new Error("the picture is not SVG");
    root.setAttribute("aria-hidden", "true");
    root.setAttribute("focusable", "false");
    box.replaceChildren(document.importNode(root, true));
}
export function seatName(game, seat) {
    const info = game.seats[seat];
    return info?.name ? `${info.name} (seat ${seat})` : `seat ${seat}`;
}
/** "ann (seat 0) owes: place dice, re-roll or score" for each seat that owes a decision. */
export function owing(game, toAct) {
    return Object.entries(toAct).map(([seat, prompt]) => {
        const what = prompt.text || prompt.kind;
        const sealed = prompt.sealed ? " (a sealed choice)" : "";
        const by = prompt.deadline
            ? `, by ${new Date(prompt.deadline * 1000).toISOString().slice(11, 19)} UTC`
            : "";
        return `${seatName(game, Number(seat))} owes: ${what}${sealed}${by}`;
    });
}
/** A table of the final scores and ranks. */
export function resultTable(game, result) {
    const rows = result.scores.map((score, seat) => h("tr", {}, h("td", {}, String(result.ranks[seat])), h("th", { scope: "row" }, seatName(game, seat)), h("td", {}, String(score))));
    return h("table", {}, h("caption", { class: "visually-hidden" }, "Final scores and ranks"), h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "Rank"), h("th", { scope: "col" }, "Seat"), h("th", { scope: "col" }, "Score"))), h("tbody", {}, ...rows));
}
/** Fill the "whose sheet" menu with the game's seats (once); ``changed`` runs on a choice. */
export function sheetMenu(game, changed) {
    const menu = $("sheet");
    if (menu.options.length > 1)
        return;
    game.seats.forEach((_, seat) => menu.append(h("option", { value: seat }, seatName(game, seat))));
    menu.addEventListener("change", changed);
}
/** The seat chosen in the "whose sheet" menu, or undefined for the game's own choice. */
export function chosenSheet() {
    const value = $("sheet").value;
    return value === "" ? undefined : Number(value);
}
export function showError(box, error) {
    box.textContent = error instanceof Error ? error.message : String(error);
}
