// Multicast groups as the service's node knows them: member nodes, and for named groups what the local
// nodes sent, delivered and relayed, refreshed every two seconds. Hidden when the node runs no multicast.
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
