// Calls through the SIP relay beside this service's node: state, duration, the call's MOS now (the
// relay's estimate and, where they send RTCP, the phones' own), the phones' round trip from their RTCP
// timing, the MOS over time, and towards the phones what was missed and what the overlay recovered, refreshed every two seconds. The card stays hidden when the relay is not enabled.
(function () {
  "use strict";
  const { api, fmt } = window.hopwise;
  const HISTORY = 90; // three minutes of two-second refreshes
  const history = new Map(); // Call-ID -> MOS samples, oldest first (0: no media yet)

  function worst(streams, pick) {
    let value = null;
    for (const s of streams) {
      const d = s.toPhone;
      if (!d || d.expected === 0) continue;
      const v = pick(d);
      value = value == null ? v : Math.max(value, v);
    }
    return value;
  }

  function sparkline(svg, samples) {
    const w = 120, h = 22;
    const x = d3.scaleLinear().domain([0, Math.max(1, HISTORY - 1)]).range([0, w]);
    const y = d3.scaleLinear().domain([1, 4.5]).range([h - 1, 1]).clamp(true);
    const points = samples.map((m, i) => [i, m]).filter(p => p[1] > 0);
    svg.attr("width", w).attr("height", h).attr("data-points", points.length);
    svg.selectAll("path").data([points]).join("path")
      .attr("d", d3.line().x(p => x(p[0])).y(p => y(p[1])));
  }

  function draw(calls) {
    document.getElementById("calls-note").textContent =
      `${calls.filter(c => c.state !== "ENDED").length} active · ${calls.length} known`;
    for (const c of calls) {
      const h = history.get(c.callId) || [];
      h.push(c.mos);
      if (h.length > HISTORY) h.shift();
      history.set(c.callId, h);
    }
    for (const id of [...history.keys()]) {
      if (!calls.some(c => c.callId === id)) history.delete(id);
    }
    const rows = d3.select("#calls-table tbody").selectAll("tr").data(calls, c => c.callId)
      .join(enter => {
        const tr = enter.append("tr");
        tr.append("td").attr("class", "call");
        tr.append("td").attr("class", "state");
        tr.append("td").attr("class", "duration num");
        tr.append("td").attr("class", "mos num");
        tr.append("td").attr("class", "phone-mos num");
        tr.append("td").attr("class", "phone-rtt num");
        tr.append("td").attr("class", "mos-history").append("svg").attr("class", "spark");
        tr.append("td").attr("class", "missed num");
        tr.append("td").attr("class", "recovered num");
        tr.append("td").attr("class", "jitter num");
        return tr;
      })
      .attr("data-call", c => c.callId).attr("data-state", c => c.state);
    rows.each(function (c) {
      const tr = d3.select(this);
      tr.select("td.call").text(`${c.from} → ${c.to}`)
        .attr("title", `Call-ID ${c.callId}; ${c.caller} → ${c.callee}` + (c.endReason ? `; ended: ${c.endReason}` : ""));
      tr.select("td.state").html(`<span class="pill ${c.state}">${c.state.toLowerCase()}</span>`);
      tr.select("td.duration").text((c.durationMs / 1000).toFixed(0) + " s");
      tr.select("td.mos").text(c.mos > 0 ? c.mos.toFixed(2) : "–").classed("na", !(c.mos > 0))
        .classed("loss-bad", c.mos > 0 && c.mos < 3.6).classed("loss-warn", c.mos >= 3.6 && c.mos < 4.0);
      tr.select("td.phone-mos").text(c.phoneMos > 0 ? c.phoneMos.toFixed(2) : "–").classed("na", !(c.phoneMos > 0))
        .classed("loss-bad", c.phoneMos > 0 && c.phoneMos < 3.6)
        .classed("loss-warn", c.phoneMos >= 3.6 && c.phoneMos < 4.0);
      const rtt = c.phoneRttMs;
      tr.select("td.phone-rtt").text(rtt >= 0 ? fmt.ms(rtt) : "–").classed("na", !(rtt >= 0))
        .classed("loss-bad", rtt > 400).classed("loss-warn", rtt > 300 && rtt <= 400);
      sparkline(tr.select("svg.spark"), history.get(c.callId));
      const missed = worst(c.streams, d => 100 * (d.lost + d.late) / d.expected);
      const jitter = worst(c.streams, d => d.jitterMs);
      tr.select("td.missed").text(missed == null ? "–" : missed.toFixed(2) + " %").classed("na", missed == null);
      const recovered = worst(c.streams, d => 100 * d.recovered / d.expected);
      tr.select("td.recovered").text(recovered == null ? "–" : recovered.toFixed(2) + " %")
        .classed("na", recovered == null);
      tr.select("td.jitter").text(jitter == null ? "–" : fmt.ms(jitter)).classed("na", jitter == null);
    });
    document.getElementById("calls-empty").hidden = calls.length > 0;
  }

  async function refresh() {
    try {
      draw(await api("GET", "api/calls"));
    } catch (e) { /* the next refresh tries again */ }
  }

  (async function start() {
    try {
      await api("GET", "api/voip");
    } catch (e) {
      return; // no relay on this instance: the card stays hidden
    }
    document.getElementById("calls-card").hidden = false;
    refresh();
    setInterval(refresh, 2000);
  })();
})();
