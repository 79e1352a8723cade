// Multicast groups as the service's node knows them: member nodes, and for named groups what the local
// nodes sent, delivered and relayed, their reliable streams and the real-time streams members receive; a click on a group shows its source's
// tree on the topology graph; and the layered receivers with their levels over time and the node that
// feeds each. Refreshed every
// two seconds; hidden when the node runs no multicast.
(function () {
  "use strict";
  const { api, fmt, showTree } = window.hopwise;
  let shown = null; // the group whose first source's tree the graph highlights (click a row; again to clear)

  const linkId = e => [e.parent, e.child].sort().join("~");

  function highlight(groups) {
    const g = groups.find(x => (x.name || x.id) === shown);
    const tree = g && g.trees && g.trees.length ? g.trees[0] : null;
    showTree(tree ? tree.links.map(linkId) : []);
    d3.selectAll("#multicast-table tbody tr").classed("shown", x => (x.name || x.id) === shown)
      .attr("title", x => x.trees && x.trees.length
        ? `click to show the tree from ${x.trees[0].source} on the graph (${x.trees[0].links.length} links)` : null);
  }

  function total(g, pick) {
    return g.local.length ? d3.sum(g.local, pick) : null;
  }

  let last = [];

  function draw(view) {
    const groups = view.groups;
    last = groups;
    document.getElementById("multicast-note").textContent =
      `${groups.length} group${groups.length === 1 ? "" : "s"} · ${view.linkCosts.length} costed links`;
    const rows = d3.select("#multicast-table tbody").selectAll("tr").data(groups, g => g.id)
      .join(enter => {
        const tr = enter.append("tr");
        tr.append("td").attr("class", "group");
        tr.append("td").attr("class", "members");
        tr.append("td").attr("class", "sent num");
        tr.append("td").attr("class", "delivered num");
        tr.append("td").attr("class", "relayed num");
        tr.append("td").attr("class", "reliable");
        tr.append("td").attr("class", "realtime");
        tr.on("click", (ev, g) => {
          const key = g.name || g.id;
          shown = shown === key ? null : key;
          highlight(last);
        });
        return tr;
      })
      .attr("data-group", g => g.name || g.id);
    rows.each(function (g) {
      const tr = d3.select(this);
      tr.select("td.group").text(g.name || g.id).attr("title", `group id ${g.id}`);
      tr.select("td.members").text(g.memberNodes.join(", "));
      for (const [cls, pick] of [["sent", c => c.sent], ["delivered", c => c.delivered], ["relayed", c => c.forwarded]]) {
        const v = total(g, pick);
        tr.select("td." + cls).text(v == null ? "–" : fmt.count(v)).classed("na", v == null);
      }
      const streams = g.reliable || [];
      const sources = new Set(streams.map(r => r.source + ":" + r.port));
      const members = streams.filter(r => r.role === "member");
      tr.select("td.reliable").classed("na", streams.length === 0)
        .text(streams.length === 0 ? "–" : `${fmt.count(d3.sum(members, r => r.delivered))} delivered · `
          + `${fmt.count(d3.sum(streams, r => r.repairsSent))} repairs`)
        .attr("data-streams", sources.size)
        .attr("title", `${sources.size} reliable stream${sources.size === 1 ? "" : "s"}\n` + streams.map(r => `${r.node}: ${r.role} of ${r.source}:${r.port}, next ${r.next}, `
          + `acknowledged ${r.acknowledged}, held ${r.held}, gaps ${r.gaps}, NACKs ${r.nacksSent}`).join("\n") || null);
      drawRealTime(tr.select("td.realtime"), g.realTime || []);
    });
    highlight(groups);
    document.getElementById("multicast-empty").hidden = groups.length > 0;
    drawLayered(view.layered || [], view.layeredRelays || []);
  }

  // The real-time streams in one cell: how many member streams, and the worst member's missed share
  // (lost or late: what its codec must conceal) and delay; each member's figures in the title.
  function drawRealTime(td, streams) {
    const members = new Set(streams.map(r => r.node));
    td.classed("na", streams.length === 0).attr("data-streams", streams.length);
    if (streams.length === 0) {
      td.text("–").attr("title", null);
      return;
    }
    const worst = d3.max(streams, r => r.missedPercent);
    const p99 = d3.max(streams, r => r.p99DelayMillis);
    td.text(`${members.size} member${members.size === 1 ? "" : "s"} · ${worst.toFixed(1)}% missed · p99 ${p99.toFixed(0)} ms`)
      .attr("title", streams.map(r => `${r.node} from ${r.source}:${r.port} (${r.metric}): ${fmt.count(r.received)} received, `
        + `${fmt.count(r.recovered)} recovered, ${fmt.count(r.lost)} lost, ${fmt.count(r.late)} late, `
        + `delay p50 ${r.p50DelayMillis.toFixed(1)} / p99 ${r.p99DelayMillis.toFixed(1)} ms, jitter ${r.jitterMillis.toFixed(1)} ms`).join("\n"));
  }

  // Each layered receiver's level as a step line over its recorded changes, now at the right edge.
  function levelSteps(svg, r) {
    const w = 120, h = 22, span = Math.max(60, d3.max(r.history, p => p.secondsAgo) || 0);
    const maxLevel = Math.max(1, d3.max(r.history, p => p.level) || 0, r.level);
    const x = d3.scaleLinear().domain([span, 0]).range([0, w]);
    const y = d3.scaleLinear().domain([-1, maxLevel]).range([h - 1, 1]);
    const points = r.history.map(p => [p.secondsAgo, p.level]);
    if (points.length) points.push([0, r.level]);
    svg.attr("width", w).attr("height", h).attr("data-points", r.history.length);
    svg.selectAll("path").data([points]).join("path")
      .attr("d", d3.line().curve(d3.curveStepAfter).x(p => x(p[0])).y(p => y(p[1])));
  }

  // The local node whose part in the receiver's session forwards it to the receiver's node, and that
  // child's entry there (level, packets per layer); none at the source or before a subscription.
  function feeder(r, relays) {
    for (const relay of relays) {
      if (relay.group !== r.group || relay.port !== r.port) continue;
      const child = relay.children.find(c => c.node === r.node);
      if (child) return { node: relay.node, child };
    }
    return null;
  }

  function drawLayered(receivers, relays) {
    document.getElementById("layered-table").hidden = receivers.length === 0;
    const rows = d3.select("#layered-table tbody").selectAll("tr").data(receivers, r => r.node + "|" + r.group + "|" + r.port)
      .join(enter => {
        const tr = enter.append("tr");
        tr.append("td").attr("class", "receiver");
        tr.append("td").attr("class", "source");
        tr.append("td").attr("class", "level num");
        tr.append("td").attr("class", "rate num");
        tr.append("td").attr("class", "via");
        tr.append("td").attr("class", "level-history").append("svg").attr("class", "spark");
        return tr;
      })
      .attr("data-receiver", r => r.node + "@" + r.group);
    rows.each(function (r) {
      const tr = d3.select(this);
      tr.select("td.receiver").text(`${r.node} · ${r.group}:${r.port}`);
      tr.select("td.source").text(r.source || "–").classed("na", !r.source);
      // Level -1: before the first announcement, or ERA dropped even the base layer (its path carries
      // less than the base rate TCP-friendly, e.g. behind the demo's lossy chord).
      const none = r.source ? "none" : "–";
      tr.select("td.level").text(r.level < 0 ? none : r.level).classed("na", r.level < 0);
      tr.select("td.rate").text(r.level < 0 ? none : fmt.count(Math.round(r.rateBitsPerSecond / 1000)));
      const via = feeder(r, relays);
      tr.select("td.via").text(via ? via.node : "–").classed("na", !via)
        .attr("title", via ? `${via.node} forwards layers 0-${via.child.level} to ${r.node}; sent there:\n`
          + via.child.layers.map(t => `layer ${t.layer}: ${fmt.count(t.packets)} packets`).join("\n") : null);
      levelSteps(tr.select("svg.spark"), r);
    });
  }

  async function refresh() {
    try {
      draw(await api("GET", "api/multicast"));
    } catch (e) { /* the next refresh tries again */ }
  }

  (async function start() {
    let view;
    try {
      view = await api("GET", "api/multicast");
    } catch (e) {
      return; // no multicast on this node: the card stays hidden
    }
    document.getElementById("multicast-card").hidden = false;
    draw(view);
    setInterval(refresh, 2000);
  })();
})();
