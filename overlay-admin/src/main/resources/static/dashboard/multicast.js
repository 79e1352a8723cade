// Multicast groups as the service's node knows them: member nodes, and for named groups what the local
// nodes sent, delivered and relayed and their reliable streams, refreshed every two seconds. Hidden when the node runs no multicast.
(function () {
  "use strict";
  const { api, fmt } = window.hopwise;

  function total(g, pick) {
    return g.local.length ? d3.sum(g.local, pick) : null;
  }

  function draw(view) {
    const groups = view.groups;
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
        .text(streams.length === 0 ? "–" : `${sources.size} stream${sources.size === 1 ? "" : "s"} · `
          + `${fmt.count(d3.sum(members, r => r.delivered))} delivered · ${fmt.count(d3.sum(streams, r => r.repairsSent))} repairs`)
        .attr("title", streams.map(r => `${r.node}: ${r.role} of ${r.source}:${r.port}, next ${r.next}, `
          + `acknowledged ${r.acknowledged}, held ${r.held}, gaps ${r.gaps}, NACKs ${r.nacksSent}`).join("\n") || null);
    });
    document.getElementById("multicast-empty").hidden = groups.length > 0;
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
