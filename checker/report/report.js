// The step slider of each counterexample: it highlights the step's row and
// the messages delivered at it, and lists every node's state after it.
for (const cx of document.querySelectorAll("section.cx")) {
	const steps = JSON.parse(cx.querySelector("script.data").textContent);
	const cycle = JSON.parse(cx.querySelector("script.cycle").textContent);
	const slider = cx.querySelector(".slider");
	const label = cx.querySelector(".label");
	const body = cx.querySelector(".states tbody");
	const rows = cx.querySelectorAll("svg g.row");
	const msgs = cx.querySelectorAll("svg g.msg");
	const last = steps.length - 1;
	const show = (k) => {
		slider.value = k;
		const s = steps[k];
		label.textContent = s.label + (cycle && k >= cycle ? "  (in the cycle)" : "");
		for (const r of rows) r.classList.toggle("current", Number(r.dataset.step) === k);
		for (const m of msgs) m.classList.toggle("now", Number(m.dataset.end) === k);
		body.replaceChildren(...s.nodes.map((n, i) => {
			const tr = document.createElement("tr");
			tr.className = (n.changed ? "changed" : "") + (n.alive ? "" : " down");
			const id = document.createElement("td");
			id.textContent = "n" + i + (n.alive ? "" : " (crashed)");
			const st = document.createElement("td");
			st.textContent = n.state;
			tr.append(id, st);
			return tr;
		}));
	};
	// after the last step of a lasso comes the cycle's first again
	const next = (k) => (k < last ? k + 1 : cycle ? cycle : last);
	slider.addEventListener("input", () => show(Number(slider.value)));
	cx.querySelector(".prev").addEventListener("click", () => show(Math.max(0, Number(slider.value) - 1)));
	cx.querySelector(".next").addEventListener("click", () => show(next(Number(slider.value))));
	for (const r of rows) r.addEventListener("click", () => show(Number(r.dataset.step)));
	cx.addEventListener("keydown", (e) => {
		if (e.target === slider) return; // the slider steps by itself
		if (e.key === "ArrowLeft") show(Math.max(0, Number(slider.value) - 1));
		if (e.key === "ArrowRight") show(next(Number(slider.value)));
	});
	show(last);
}
