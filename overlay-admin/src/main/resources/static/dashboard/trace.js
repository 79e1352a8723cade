// Traces from the routes table: the route to a destination under the selected metric, hop by hop,
// with each link's cost and RTT and the probe's round trip from this node.
(function () {
  "use strict";
  const { api, fmt } = window.hopwise;
  const enc = encodeURIComponent;
  const UNITS = { hops: "", ms: "ms", "-ln(1-p)": "" };
  let current = 0; // the latest trace asked for: an older answer arriving late is not shown over it

  function show(destination, metric, status, failed) {
    document.getElementById("trace").hidden = false;
    document.getElementById("trace-destination").textContent = destination;
    document.getElementById("trace-metric").textContent = metric ? "by " + metric.toLowerCase().replace("_", " ") : "";
    const s = document.getElementById("trace-status");
    s.textContent = status;
    s.classList.toggle("failed", !!failed);
  }

  function drawHops(t) {
    const unit = UNITS[t.unit] ?? "";
    const rows = d3.select("#trace-table tbody").selectAll("tr").data(t.hops, h => h.hop)
      .join("tr").attr("data-hop", h => h.hop).attr("data-node", h => h.node);
    rows.each(function (h) {
      const cell = (cls, text, na) => ({ cls: cls + (na ? " na" : ""), text });
      d3.select(this).selectAll("td").data([
        cell("hop num", String(h.hop)),
        cell("node", h.node),
        cell("link-cost num", h.linkCost == null ? "∞" : `${fmt.cost(h.linkCost, t.metric)}${unit ? " " + unit : ""}`),
        cell("link-rtt num", fmt.ms(h.linkRttMillis), h.linkRttMillis == null),
        // No answer within the probe's timeout: traceroute's star.
        cell("round-trip num", h.roundTripMillis == null ? "*" : fmt.ms(h.roundTripMillis), h.roundTripMillis == null),
      ]).join("td").attr("class", d => d.cls).text(d => d.text);
    });
  }

  async function trace(destination) {
    const metric = window.hopwise.metric();
    const mine = ++current;
    show(destination, metric, "tracing…");
    drawHops({ hops: [], metric, unit: "" });
    try {
      const t = await api("GET", `api/trace/${enc(destination)}?metric=${enc(metric)}`);
      if (mine !== current) return;
      drawHops(t);
      const n = t.hops.length;
      show(destination, t.metric, t.error ? `not reached: ${t.error}`
        : t.reached ? `reached in ${n} hop${n === 1 ? "" : "s"}` : `no answer from ${destination}`, !t.reached);
    } catch (e) {
      if (mine === current) show(destination, metric, e.message, true);
    }
  }

  document.getElementById("routes-table").addEventListener("click", ev => {
    const button = ev.target.closest("button.trace");
    if (!button) return;
    const row = button.closest("tr");
    if (row && row.dataset.destination) trace(row.dataset.destination);
  });
})();
