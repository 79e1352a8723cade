// Sessions, real-time flows and drop counters: what the end-to-end streams and the nodes' drop
// counters say, refreshed every two seconds.
(function () {
  "use strict";
  const { api, fmt } = window.hopwise;

  // What each drop reason means, for the tooltips; the API names the reasons, the core explains them.
  const REASONS = {
    TRUNCATED: "shorter than its header says", OVERSIZED: "larger than a node accepts",
    BAD_MAGIC: "not Hopwise traffic", UNKNOWN_VERSION: "a protocol version this node does not speak",
    UNKNOWN_TYPE: "a packet type this node does not know", MALFORMED: "the body does not parse",
    NOT_A_NEIGHBOUR: "from a node that is not a configured neighbour", HOP_LIMIT: "ran out of hops",
    NO_ROUTE: "no route to the destination", PORT_CLOSED: "addressed to a port nobody opened",
    REASSEMBLY: "a fragment that could not be reassembled", SEND_FAILED: "the socket could not take it",
    IMPAIRMENT: "dropped by a configured impairment", DUPLICATE: "a copy already received",
    STALE: "from an epoch or window that is over", LINK_QUEUE_FULL: "the outgoing link's queue was full",
    LINK_DOWN: "queued on a link that went down", HANDLER_ERROR: "handling it threw",
    LINK_STATE_LIMIT: "a link-state advertisement over its bounds", STALE_HELLO: "a replayed or very late hello",
    FORGED_LINK_STATE: "link state whose origin's signature is missing or does not verify",
  };

  const reasonName = r => r.toLowerCase().replace(/_/g, " ");

  function cells(tr, values) {
    tr.selectAll("td").data(values).join("td")
      .attr("class", d => d.cls || null).attr("title", d => d.title || null)
      .html(d => d.html != null ? d.html : null).filter(d => d.html == null).text(d => d.text);
  }

  function drawSessions(list) {
    const reliable = list.filter(s => s.kind === "RELIABLE");
    const flows = list.filter(s => s.kind === "REAL_TIME");
    document.getElementById("sessions-count").textContent =
      `${reliable.length} reliable · ${flows.length} real-time`;

    const rows = d3.select("#sessions-table tbody").selectAll("tr")
      .data(reliable, s => `${s.node}:${s.localPort}~${s.peer}:${s.peerPort}`)
      .join("tr").attr("data-session", s => `${s.node}:${s.localPort}~${s.peer}:${s.peerPort}`);
    rows.each(function (s) {
      const r = s.reliable;
      cells(d3.select(this), [
        { cls: "ends", text: `${s.node}:${s.localPort} ⇄ ${s.peer}:${s.peerPort}` },
        { cls: "state", html: `<span class="pill ${r.state}">${r.state.toLowerCase()}</span>` },
        { cls: "sent num", text: fmt.count(r.messagesSent), title: "messages handed to the session" },
        { cls: "delivered num", text: fmt.count(r.messagesDelivered), title: "messages from the peer delivered here" },
        { cls: "resends num", text: fmt.count(r.retransmissions),
          title: `end-to-end resends of ${fmt.count(r.packetsSent)} packets sent; ${fmt.count(r.timeouts)} timeouts` },
        { cls: "buffered num", text: `${fmt.count(r.sendBuffered)} / ${fmt.count(r.receiveHeld)}`,
          title: "packets held for sending / held for reordering" },
        { cls: "window num", text: fmt.count(r.congestionWindow), title: "congestion window, packets" },
        { cls: "srtt num", text: fmt.ms(r.rttMs) },
      ]);
    });
    document.getElementById("sessions-empty").hidden = reliable.length > 0;

    const frows = d3.select("#flows-table tbody").selectAll("tr")
      .data(flows, s => `${s.peer}:${s.peerPort}~${s.node}:${s.localPort}`)
      .join("tr").attr("data-flow", s => `${s.peer}:${s.peerPort}~${s.node}:${s.localPort}`);
    frows.each(function (s) {
      const f = s.realTime;
      const lossCls = f.lossRate > 0.05 ? "loss-bad" : f.lossRate > 0.01 ? "loss-warn" : "";
      cells(d3.select(this), [
        { cls: "source", text: `${s.peer}:${s.peerPort}`,
          title: f.path.length ? "path " + f.path.join(" → ") : "path unknown" },
        { cls: "destination", text: `${s.node}:${s.localPort}` },
        { cls: "received num", text: fmt.count(f.received) },
        { cls: "lost num " + lossCls, text: fmt.count(f.lost), title: `${fmt.pct(f.lossRate)} of expected packets` },
        { cls: "recovered num" + (f.recovered == null ? " na" : ""), text: fmt.count(f.recovered),
          title: "recovered hop by hop on the path's links (shared with other real-time flows crossing them)" },
        { cls: "late num", text: fmt.count(f.late), title: "arrived after the deadline (counted as received)" },
        { cls: "p50 num", text: fmt.ms(f.delayP50Ms) },
        { cls: "p99 num", text: fmt.ms(f.delayP99Ms) },
        { cls: "jitter num", text: fmt.ms(f.jitterMs) },
      ]);
    });
    document.getElementById("flows-empty").hidden = flows.length > 0;
  }

  function drawDrops(nodes) {
    const all = nodes.length ? Object.keys(nodes[0].reasons) : [];
    // Reasons no node has counted would be rows of zeros: they are left out and named below.
    const shown = all.filter(r => nodes.some(n => n.reasons[r] > 0));
    const quiet = all.length - shown.length;
    d3.select("#drops-table thead tr").selectAll("th").data(["Reason", ...nodes.map(n => n.node)])
      .join("th").attr("class", (d, i) => i ? "num" : null).text(d => d);
    const rows = d3.select("#drops-table tbody").selectAll("tr").data([...shown, "TOTAL"], r => r)
      .join("tr").attr("data-reason", r => r).classed("total", r => r === "TOTAL");
    rows.each(function (r) {
      const values = [{ cls: "reason", text: r === "TOTAL" ? "total" : reasonName(r), title: REASONS[r] || null }];
      for (const n of nodes) {
        const v = r === "TOTAL" ? n.total : n.reasons[r];
        values.push({ cls: "num" + (v === 0 ? " na" : ""), text: fmt.count(v) });
      }
      const tr = d3.select(this);
      cells(tr, values);
      tr.selectAll("td").attr("data-node", (d, i) => i ? nodes[i - 1].node : null);
    });
    document.getElementById("drops-note").textContent = !nodes.length ? ""
      : quiet === all.length ? "no drops so far"
        : `${quiet} other reason${quiet === 1 ? "" : "s"} at 0`;
  }

  async function refresh() {
    try {
      const [sessions, drops] = await Promise.all([api("GET", "api/sessions"), api("GET", "api/drops")]);
      drawSessions(sessions);
      drawDrops(drops);
    } catch (e) { /* the next refresh tries again */ }
  }

  refresh();
  setInterval(refresh, 2000);
})();
