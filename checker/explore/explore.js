// The explorer's page: the run is the list of choices in the address's
// fragment (#1,0,3), replayed by the server on every change.
let choices = [];
let changed = new Set(); // the nodes the last step changed
const $ = (id) => document.getElementById(id);

// post sends body as JSON; the server refuses any other type. While it
// runs as many walks as it allows (503), post tries again, a few times,
// after the wait the server asks for.
async function post(url, body) {
	for (let tries = 1; ; tries++) {
		const r = await fetch(url, {method: "POST", headers: {"Content-Type": "application/json"}, body: JSON.stringify(body)});
		if (r.ok) return r;
		if (r.status === 503 && tries < 4) {
			const wait = Number(r.headers.get("Retry-After")) || 1;
			await new Promise((done) => setTimeout(done, wait * 1000));
			continue;
		}
		const refusal = await r.json().catch(() => null); // refusals are {"error": "..."}
		throw new Error(refusal && refusal.error ? refusal.error : `${r.status} ${r.statusText}`);
	}
}

function item(text, cls) {
	const li = document.createElement("li");
	li.textContent = text;
	if (cls) li.className = cls;
	return li;
}

function button(text, onclick, data) {
	const b = document.createElement("button");
	b.type = "button";
	b.textContent = text;
	b.addEventListener("click", onclick);
	for (const [k, v] of Object.entries(data || {})) b.dataset[k] = v;
	return b;
}

function describe(ev) {
	const from = ev.from ?? 0; // 0 is left out of the JSON
	switch (ev.kind) {
	case "deliver": return `n${from} → n${ev.node}  ${ev.msg}`;
	case "timeout": return `n${ev.node}  timeout ${ev.timer}`;
	case "action": return `n${ev.node}  ${ev.action}`;
	case "partition": return `partition  ${ev.groups}`;
	case "heal": return "heal";
	case "tick": return "tick";
	case "lose": return `lose  n${from} → n${ev.node}  ${ev.msg}`;
	case "duplicate": return `duplicate  n${from} → n${ev.node}  ${ev.msg}`;
	}
	return `n${ev.node}  ${ev.kind}`;
}

async function show() {
	$("error").textContent = "";
	let res;
	try {
		res = await (await post("/api/walk", {choices})).json();
	} catch (e) {
		$("error").textContent = e.message;
		return;
	}
	const p = res.position;
	const events = p.run.events || []; // JSON null for no step
	$("steps").replaceChildren(...events.map((ev) => item(describe(ev) + (ev.observed ? `   (observed ${ev.observed.join(", ")})` : ""))));
	const last = events[events.length - 1];
	changed = new Set(last ? (last.changes || []).map((c) => c.node) : []);
	$("enabled").replaceChildren(...p.enabled.map((ev, i) => {
		const li = document.createElement("li");
		li.append(button(describe(ev), () => { choices.push(i); update(); }, {choice: i}));
		return li;
	}));
	if (p.enabled.length === 0) $("enabled").append(item("nothing: the run is over"));
	$("judged").replaceChildren(...(p.judged || []).map((j) => {
		const tr = document.createElement("tr");
		tr.className = j.verdict.replaceAll(" ", "-");
		for (const t of [j.property, j.when, j.verdict, j.detail || ""]) {
			const td = document.createElement("td");
			td.textContent = t;
			tr.append(td);
		}
		return tr;
	}));
	$("states").replaceChildren(...p.states.map((n) => {
		const tr = document.createElement("tr");
		tr.className = (n.alive ? "" : "down") + (changed.has(n.node) ? " changed" : "");
		const a = document.createElement("td");
		a.textContent = "n" + n.node + (n.alive ? "" : " (crashed)");
		const b = document.createElement("td");
		b.textContent = n.state;
		tr.append(a, b);
		return tr;
	}));
	const bad = (p.judged || []).filter((j) => j.verdict === "violated");
	$("status").className = bad.length ? "violated" : "";
	$("status").textContent = `${choices.length} steps; ` +
		(bad.length ? "violated here: " + bad.map((j) => `${j.property} (${j.detail})`).join("; ")
			: p.quiescent ? "the run is over, and no property is violated" : "no property is violated here");
	$("chart").innerHTML = res.chart; // SVG the server drew, its text escaped
	$("back").disabled = choices.length === 0;
}

function update() {
	history.replaceState(null, "", "#" + choices.join(","));
	show();
}

$("back").addEventListener("click", () => { choices.pop(); update(); });
$("restart").addEventListener("click", () => { choices = []; update(); });
$("export").addEventListener("click", async () => {
	try {
		const blob = await (await post("/api/export", {choices})).blob();
		const a = document.createElement("a");
		a.href = URL.createObjectURL(blob);
		a.download = "vigil-run.json";
		a.click();
		URL.revokeObjectURL(a.href);
	} catch (e) {
		$("error").textContent = e.message;
	}
});

(async () => {
	const info = await (await fetch("/api/info")).json();
	$("cx").replaceChildren(...info.counterexamples.map((cx, i) => {
		const li = document.createElement("li");
		li.append(button(`${cx.property}: ${cx.detail} (${cx.choices.length} steps)`, () => { choices = [...cx.choices]; update(); }, {cx: i}));
		return li;
	}));
	if (info.counterexamples.length === 0) $("cx").append(item("none: every property held"));
	const frag = location.hash.slice(1);
	choices = frag ? frag.split(",").map(Number).filter((n) => Number.isInteger(n) && n >= 0) : [];
	show();
})();
