// Hopwise overlay dashboard: polls the admin API, listens to its event stream, draws with d3.
(function () {
  "use strict";

  const REFRESH_MS = 1000;
  const METRIC_UNITS = { HOPS: "", LATENCY: "ms", LOSS: "", EXPECTED_LATENCY: "ms" };
  const state = {
    metric: "LATENCY",
    selected: null,          // link id "a~b"
    topology: null,
    links: new Map(),        // id -> link statistics
    routes: null,
    credentials: sessionStorage.getItem("hopwise.credentials"),
    lastEventId: 0,
    spanSeconds: 900,        // how far back the charts reach
    impairmentEdited: false, // the operator typed into the impairment form: refreshes leave it alone
    impairment: null,        // the selected link's impairment as last read
    tree: new Set(),         // link ids of the multicast tree shown, from the multicast card
  };

  // ------------------------------------------------------------------ API

  async function api(method, path, body) {
    const headers = { "Accept": "application/json", "X-Requested-With": "hopwise-dashboard" };
    if (state.credentials) headers["Authorization"] = state.credentials;
    if (body !== undefined) headers["Content-Type"] = "application/json";
    const res = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    const isJson = (res.headers.get("Content-Type") || "").includes("json");
    const data = isJson ? await res.json() : null;
    if (!res.ok) {
      const err = new Error((data && (data.detail || data.title)) || res.statusText);
      err.status = res.status;
      throw err;
    }
    return data;
  }

  function signIn(reason) {
    const dialog = document.getElementById("signin-dialog");
    document.getElementById("signin-reason").textContent = reason || "Changing the overlay needs the operator's credentials.";
    return new Promise(resolve => {
      dialog.onclose = () => {
        if (dialog.returnValue !== "ok") return resolve(false);
        const f = document.getElementById("signin-form");
        const token = f.token.value.trim();
        state.credentials = token ? "Bearer " + token
          : "Basic " + btoa(unescape(encodeURIComponent(f.username.value + ":" + f.password.value)));
        sessionStorage.setItem("hopwise.credentials", state.credentials);
        f.reset();
        showSignedIn();
        resolve(true);
      };
      dialog.showModal();
    });
  }

  function showSignedIn() {
    const b = document.getElementById("signin");
    b.textContent = state.credentials ? "Sign out" : "Sign in";
  }

  /** A call that asks for credentials once when refused for want of them. */
  async function authorised(method, path, body) {
    try {
      return await api(method, path, body);
    } catch (e) {
      if (e.status === 401 && await signIn(e.message)) return api(method, path, body);
      throw e;
    }
  }

  // ------------------------------------------------------------------ formatting

  const fmt = {
    ms: v => v == null ? "–" : v < 10 ? v.toFixed(2) : v < 100 ? v.toFixed(1) : v.toFixed(0),
    pct: v => v == null ? "–" : (v * 100 < 10 ? (v * 100).toFixed(1) : (v * 100).toFixed(0)) + "%",
    rate: v => {
      if (v == null) return "–";
      if (v >= 1e6) return (v / 1e6).toFixed(2) + " Mbit/s";
      if (v >= 1e3) return (v / 1e3).toFixed(1) + " kbit/s";
      return v.toFixed(0) + " bit/s";
    },
    count: v => v == null ? "–" : d3.format(",")(v),
    cost: (v, metric) => {
      if (v == null) return "–";
      if (metric === "HOPS") return String(Math.round(v));
      if (metric === "LOSS") return v.toFixed(3);
      return v.toFixed(1);
    },
    time: iso => new Date(iso).toLocaleTimeString([], { hour12: false }),
  };

  function qualityClass(link) {
    if (!link || link.state === "DOWN") return "down";
    if (link.state !== "UP") return "warn";
    const loss = link.summary && link.summary.lossRate;
    if (loss != null && loss > 0.05) return "bad";
    if (loss != null && loss > 0.01) return "warn";
    return "good";
  }
  const QUALITY_COLOUR = { good: "#3fcf8e", warn: "#f2c14e", bad: "#ff7a59", down: "#e5484d" };

  // ------------------------------------------------------------------ topology graph

  const svg = d3.select("#graph");
  const gLinks = svg.append("g");
  const gNodes = svg.append("g");
  const positions = new Map();
  const simulation = d3.forceSimulation()
    .force("charge", d3.forceManyBody().strength(-900))
    .force("link", d3.forceLink().id(d => d.name).distance(150).strength(0.6))
    .force("collide", d3.forceCollide(46))
    .alphaDecay(0.04)
    .on("tick", ticked)
    // Tests and screenshots wait for this before reading the layout.
    .on("end", () => svg.attr("data-layout", "settled"));
  const NODE_RADIUS = 21;

  function reheat(alpha) {
    svg.attr("data-layout", "moving");
    simulation.alpha(alpha).restart();
  }

  function size() {
    const r = svg.node().getBoundingClientRect();
    return { w: r.width || 800, h: r.height || 390 };
  }

  function drawGraph() {
    const t = state.topology;
    if (!t) return;
    const { w, h } = size();
    simulation.force("center", d3.forceCenter(w / 2, h / 2)).force("x", d3.forceX(w / 2).strength(0.04))
      .force("y", d3.forceY(h / 2).strength(0.08));
    const nodes = t.nodes.map((n, i) => {
      let p = positions.get(n.name);
      if (!p) {
        const a = (2 * Math.PI * i) / t.nodes.length;
        p = { x: w / 2 + Math.cos(a) * Math.min(w, h) * 0.33, y: h / 2 + Math.sin(a) * Math.min(w, h) * 0.33 };
        positions.set(n.name, p);
      }
      return Object.assign(p, n);
    });
    const links = t.links.map(l => ({ ...l, source: l.a, target: l.b }));
    const changed = simulation.nodes().length !== nodes.length
      || simulation.force("link").links().length !== links.length;
    simulation.nodes(nodes);
    simulation.force("link").links(links);
    if (changed) reheat(0.9);

    const link = gLinks.selectAll("g.link").data(links, d => d.id);
    link.exit().remove();
    const enter = link.enter().append("g").attr("data-link", d => d.id)
      .on("click", (ev, d) => select(d.id));
    enter.append("line").attr("class", "stroke");
    enter.append("line").attr("class", "hit").append("title");
    enter.append("text").attr("class", "cost");
    const merged = enter.merge(link)
      .attr("class", d => linkClass(d));
    merged.select("line.stroke").attr("stroke", d => QUALITY_COLOUR[qualityClass(state.links.get(d.id) || d)]);
    merged.select("text.cost").text(d => costLabel(d));
    merged.select("line.hit title").text(d => linkTooltip(d));

    const node = gNodes.selectAll("g.node").data(nodes, d => d.name);
    node.exit().remove();
    const nEnter = node.enter().append("g").attr("data-node", d => d.name)
      .call(d3.drag()
        .on("start", (ev, d) => {
          if (!ev.active) { svg.attr("data-layout", "moving"); simulation.alphaTarget(0.2).restart(); }
          d.fx = d.x; d.fy = d.y;
        })
        .on("drag", (ev, d) => { d.fx = ev.x; d.fy = ev.y; })
        .on("end", (ev, d) => { if (!ev.active) simulation.alphaTarget(0); d.fx = null; d.fy = null; }));
    nEnter.append("circle").attr("r", NODE_RADIUS);
    nEnter.append("text").attr("class", "initial").attr("dy", "0.35em");
    nEnter.append("text").attr("class", "label").attr("dy", "0.35em").attr("y", NODE_RADIUS + 14);
    nEnter.append("title");
    const nMerged = nEnter.merge(node)
      .attr("class", d => "node " + (d.self ? "self" : d.local ? "local" : "remote") + (d.reachable ? "" : " unreachable"));
    nMerged.select("text.initial").text(d => d.name.slice(0, 2).toUpperCase());
    nMerged.select("text.label").text(d => d.name);
    nMerged.select("title").text(d => `${d.name} (${d.id})\n${d.self ? "this service's node" : d.local ? "local node" : "remote node"}`
      + `\n${d.reachable ? "reachable" : "unreachable"}; ${d.advertisedLinks} links advertised`
      + (d.address ? `\nUDP ${d.address}` : "")
      + (d.loopStalls ? `\nthread held ${d.loopStalls} times over a hello interval, longest ${Math.round(d.longestLoopStallMillis)} ms` : ""));
    ticked();
  }

  function linkClass(d) {
    return "link " + d.state + (d.id === state.selected ? " selected" : "") + (state.tree.has(d.id) ? " tree" : "");
  }

  /** Highlights a multicast tree on the graph: link ids "a~b" (an empty set clears it). */
  function showTree(ids) {
    state.tree = new Set(ids);
    gLinks.selectAll("g.link").attr("class", d => linkClass(d));
  }

  function costLabel(l) {
    const [ab, ba] = l.directions;
    const x = ab.costs[state.metric], y = ba.costs[state.metric];
    const unit = METRIC_UNITS[state.metric];
    if (x == null && y == null) return l.state === "DOWN" ? "down" : "…";
    const a = fmt.cost(x, state.metric), b = fmt.cost(y, state.metric);
    return (a === b ? a : a + " / " + b) + (unit ? " " + unit : "");
  }

  function linkTooltip(l) {
    const s = state.links.get(l.id);
    const parts = [`${l.a} ⇄ ${l.b}: ${l.state}`];
    if (s) parts.push(`RTT ${fmt.ms(s.summary.rttMs)} ms, loss ${fmt.pct(s.summary.lossRate)}`);
    return parts.join("\n");
  }

  function ticked() {
    clampNodes();
    gLinks.selectAll("g.link").each(function (d) {
      const g = d3.select(this);
      if (!d.source || d.source.x == null) return;
      g.selectAll("line").attr("x1", d.source.x).attr("y1", d.source.y).attr("x2", d.target.x).attr("y2", d.target.y);
      // The cost sits beside the middle of the link, clear of the line: on its outer side unless a
      // node is in the way there and not on the inner side.
      const dx = d.target.x - d.source.x, dy = d.target.y - d.source.y, len = Math.hypot(dx, dy) || 1;
      let nx = -dy / len, ny = dx / len;
      const { w, h } = size();
      const mx = (d.source.x + d.target.x) / 2, my = (d.source.y + d.target.y) / 2;
      if (nx * (mx - w / 2) + ny * (my - h / 2) < 0) { nx = -nx; ny = -ny; }
      const text = g.select("text");
      const put = side => text.attr("x", mx + side * nx * 14).attr("y", my + side * ny * 14 + 4)
        .attr("text-anchor", Math.abs(nx) < 0.35 ? "middle" : side * nx > 0 ? "start" : "end");
      put(1);
      if (text.text() && coversNode(text.node().getBBox())) {
        put(-1);
        if (coversNode(text.node().getBBox())) put(1);
      }
    });
    gNodes.selectAll("g.node").attr("transform", d => `translate(${d.x},${d.y})`);
    placeLabels();
  }

  /** Whether a box (in the drawing's coordinates) reaches into any node's ring, with a little room. */
  function coversNode(b) {
    return simulation.nodes().some(n => {
      const x = Math.max(b.x, Math.min(n.x, b.x + b.width)), y = Math.max(b.y, Math.min(n.y, b.y + b.height));
      return Math.hypot(n.x - x, n.y - y) < NODE_RADIUS + 4;
    });
  }

  /** Keeps every node, ring and all, inside the drawing. */
  function clampNodes() {
    const { w, h } = size(), pad = NODE_RADIUS + 4;
    for (const d of simulation.nodes()) {
      d.x = Math.max(pad, Math.min(w - pad, d.x));
      d.y = Math.max(pad, Math.min(h - pad, d.y));
    }
  }

  const labelWidths = new Map();
  function placeLabels() {
    const nodes = [];
    gNodes.selectAll("g.node").each(function (d) {
      if (d.x == null) return;
      const text = this.querySelector("text.label");
      let w = labelWidths.get(d.name);
      if (w == null && text.getComputedTextLength() > 0) {
        // Measured once: the paint-order stroke widens the glyphs by its half-width each side.
        w = text.getComputedTextLength() + 4;
        labelWidths.set(d.name, w);
      }
      nodes.push({ name: d.name, x: d.x, y: d.y, r: NODE_RADIUS + 2, w: w || 8 * d.name.length, h: 16,
        side: d.labelSide, datum: d });
    });
    const links = [], fixed = [];
    gLinks.selectAll("g.link").each(function (d) {
      if (!d.source || d.source.x == null) return;
      links.push({ x1: d.source.x, y1: d.source.y, x2: d.target.x, y2: d.target.y });
      const t = this.querySelector("text.cost");
      if (t && t.textContent) {
        const b = t.getBBox();
        fixed.push({ x1: b.x, y1: b.y, x2: b.x + b.width, y2: b.y + b.height });
      }
    });
    const { w, h } = size();
    const at = window.hopwiseLabels.place(nodes, links, fixed, { w, h });
    for (const n of nodes) n.datum.labelSide = n.side;
    gNodes.selectAll("g.node").select("text.label")
      .attr("x", d => at.has(d.name) ? at.get(d.name).x : 0)
      .attr("y", d => at.has(d.name) ? at.get(d.name).y : NODE_RADIUS + 14);
  }

  // ------------------------------------------------------------------ header, tables

  function drawHeader() {
    const t = state.topology;
    document.getElementById("self-name").textContent = t.self;
    document.getElementById("mode").hidden = !t.demo;
    document.getElementById("count-nodes").textContent = t.nodes.length;
    const up = t.links.filter(l => l.state === "UP").length;
    document.getElementById("count-links").textContent = `${up} / ${t.links.length}`;
    document.getElementById("routes-from").textContent = t.self;
  }

  function drawLinksTable() {
    const rows = d3.select("#links-table tbody").selectAll("tr").data([...state.links.values()], d => d.id);
    rows.exit().remove();
    const enter = rows.enter().append("tr").on("click", (ev, d) => select(d.id));
    ["link", "state", "rtt num", "jitter num", "loss num", "throughput num", "retransmissions num", "source"]
      .forEach(c => enter.append("td").attr("class", c));
    const maxRate = d3.max([...state.links.values()], d => d.summary.throughputBps) || 1;
    enter.merge(rows)
      .attr("data-link", d => d.id)
      .classed("selected", d => d.id === state.selected)
      .classed("stale", d => d.state === "DOWN")
      .attr("title", d => d.state === "DOWN" ? "down: the figures are the last measured" : null)
      .each(function (d) {
        const tr = d3.select(this), s = d.summary;
        tr.select(".link").text(`${d.a} ⇄ ${d.b}`);
        tr.select(".state").html(`<span class="pill ${d.state}">${d.state.replace("_", " ").toLowerCase()}</span>`);
        tr.select(".rtt").text(fmt.ms(s.rttMs));
        tr.select(".jitter").text(fmt.ms(s.jitterMs));
        tr.select(".loss").text(fmt.pct(s.lossRate))
          .attr("class", "loss num " + (s.lossRate > 0.05 ? "loss-bad" : s.lossRate > 0.01 ? "loss-warn" : ""));
        tr.select(".throughput").html(s.throughputBps == null ? "–"
          : `${fmt.rate(s.throughputBps)}<span class="bar-mini" style="width:${Math.round(36 * s.throughputBps / maxRate)}px"></span>`);
        const resent = resentSplit(d);
        tr.select(".retransmissions").text(s.retransmissions == null ? "–" : fmt.count(s.retransmissions))
          .classed("na", s.retransmissions == null)
          .attr("title", resent ? `reliable ${fmt.count(resent.reliable)} · real-time ${fmt.count(resent.realTime)}`
            : "measured ends only");
        tr.select(".source").text(d.source === "MEASURED" ? "measured" : "advertised").classed("muted", true);
      });
  }

  function drawRoutes() {
    const r = state.routes;
    if (!r) return;
    const metrics = ["HOPS", "LATENCY", "LOSS", "EXPECTED_LATENCY"];
    const rows = d3.select("#routes-table tbody").selectAll("tr").data(r.routes, d => d.destination);
    rows.exit().remove();
    const enter = rows.enter().append("tr");
    enter.append("td").attr("class", "dest");
    metrics.forEach(m => enter.append("td").attr("data-metric", m));
    // trace.js answers the click: the hops of the route under the selected metric, measured.
    enter.append("td").attr("class", "act").append("button").attr("class", "trace compact")
      .attr("title", "Trace the route under the selected metric").text("trace");
    enter.merge(rows).attr("data-destination", d => d.destination).each(function (d) {
      const tr = d3.select(this);
      tr.select(".dest").text(d.destination);
      metrics.forEach(m => {
        const p = d.metrics[m];
        const td = tr.select(`td[data-metric="${m}"]`).classed("current", m === state.metric);
        if (!p || !p.reachable) { td.html('<span class="muted">unreachable</span>'); return; }
        const hops = p.path.map((n, i) => i === 1 ? `<b>${n}</b>` : n).join(" → ");
        const unit = p.unit === "-ln(1-p)" ? "" : p.unit === "hops" && p.cost === 1 ? "hop" : p.unit;
        td.html(`<span class="path">${hops}</span><span class="cost">${fmt.cost(p.cost, m)} ${unit}</span>`);
      });
    });
  }

  // ------------------------------------------------------------------ link detail

  function select(id) {
    if (id !== state.selected) {
      state.impairmentEdited = false;
      state.impairment = null;
      clearImpairmentForm();
      document.getElementById("impair-status").textContent = "";
    }
    state.selected = id;
    drawGraph();
    drawLinksTable();
    drawDetail();
    refreshHistory();
    refreshImpairment();
  }

  function stat(k, v, unit, d, na) {
    return `<div class="stat${na ? " na" : ""}"><div class="k">${k}</div><div class="v">${v}${unit ? `<small>${unit}</small>` : ""}</div>`
      + (d ? `<div class="d">${d}</div>` : "") + "</div>";
  }

  /** Hop-by-hop resends of both directions, by channel; null for a link with no local end. */
  function resentSplit(l) {
    const ms = l.ends.map(e => e.measured).filter(m => m);
    if (!ms.length) return null;
    return {
      reliable: d3.sum(ms, m => m.reliableRetransmissions),
      realTime: d3.sum(ms, m => m.realTimeRetransmissions),
    };
  }

  /** The link's security at the local end: sealed with whose key, or open (a node run insecure). */
  function securityStat(m) {
    if (!m) return stat("Security", "–", "", "measured ends only", true);
    const sec = m.security;
    if (!sec) return stat("Security", `<span data-stat="security">open</span>`, "", "no link security: node runs insecure", true);
    const drops = sec.replayDrops + sec.forgeryDrops + sec.rejectionDrops;
    return stat("Security", `<span data-stat="security">${sec.authenticated ? "sealed" : "no keys yet"}</span>`, "",
      `peer ${sec.peerFingerprint || "unproven"} · ${fmt.count(sec.handshakes)} handshakes, ${fmt.count(sec.rekeys)} rekeys`
        + ` · refused: ${fmt.count(sec.replayDrops)} replayed, ${fmt.count(sec.forgeryDrops)} forged,`
        + ` ${fmt.count(sec.rejectionDrops)} rejected`, !sec.authenticated && drops === 0);
  }

  function drawDetail() {
    const l = state.links.get(state.selected);
    const detail = document.getElementById("detail");
    if (!l) { document.getElementById("detail-title").textContent = "Select a link"; return; }
    detail.dataset.link = l.id;
    document.getElementById("detail-title").textContent = `${l.a} ⇄ ${l.b}`;
    const st = document.getElementById("detail-state");
    st.className = "pill " + l.state;
    st.textContent = l.state.replace("_", " ").toLowerCase();
    document.getElementById("detail-source").textContent =
      l.source === "MEASURED" ? "measured here" : "from flooded link state";
    const s = l.summary;
    const [ea, eb] = l.ends;
    const m = ea.measured || eb.measured;
    const lossDetail = m ? `${l.a}→${l.b} ${fmt.pct(ea.measured ? ea.measured.lossOutRate : eb.measured.lossInRate)}, `
      + `${l.b}→${l.a} ${fmt.pct(ea.measured ? ea.measured.lossInRate : eb.measured.lossOutRate)}`
      : `advertised ${fmt.pct(ea.advertisedLossRate)} / ${fmt.pct(eb.advertisedLossRate)}`;
    document.getElementById("detail-stats").innerHTML = [
      stat("RTT", `<span data-stat="rtt">${fmt.ms(s.rttMs)}</span>`, "ms",
        m && m.minRttMs != null ? `min ${fmt.ms(m.minRttMs)} · var ${fmt.ms(m.rttVarMs)}` : "sum of advertised latencies"),
      stat("Loss", `<span data-stat="loss">${fmt.pct(s.lossRate)}</span>`, "", lossDetail),
      stat("Jitter", fmt.ms(s.jitterMs), s.jitterMs == null ? "" : "ms", m ? "RFC 3550, hellos" : "measured ends only", s.jitterMs == null),
      stat("Throughput", `<span data-stat="throughput">${fmt.rate(s.throughputBps)}</span>`, "",
        m ? `${m.packetsIn + m.packetsOut} packets` : "measured ends only", s.throughputBps == null),
      stat("Retransmissions", `<span data-stat="retransmissions">${s.retransmissions == null ? "–" : fmt.count(s.retransmissions)}</span>`,
        "", resentSplit(l) ? `reliable ${fmt.count(resentSplit(l).reliable)} · real-time ${fmt.count(resentSplit(l).realTime)}`
          : "measured ends only", s.retransmissions == null),
      stat("Queue", `<span data-stat="queue">${s.queuedPackets == null ? "–" : fmt.count(s.queuedPackets)}</span>`,
        s.queuedPackets == null ? "" : "pkts", m ? "reliable channel, both directions" : "measured ends only",
        s.queuedPackets == null),
      securityStat(m),
    ].join("");
    document.getElementById("dir-forward").textContent = `${l.a} → ${l.b}`;
    document.getElementById("dir-reverse").textContent = `${l.b} → ${l.a}`;
    document.getElementById("impair").classList.toggle("disabled", l.source !== "MEASURED");
  }

  function drawChart(selector, samples, value, colour, format, domain) {
    const el = document.querySelector(selector);
    const w = el.getBoundingClientRect().width || 400, h = 84;
    const m = { l: 40, r: 26, t: 6, b: 18 };
    const chart = d3.select(el);
    chart.selectAll("*").remove();
    const data = samples.filter(s => value(s) != null).map(s => ({ t: new Date(s.time), v: value(s) }));
    chart.attr("data-domain-seconds", Math.round((domain[1] - domain[0]) / 1000)).attr("data-points", data.length);
    if (data.length < 2) {
      chart.append("text").attr("class", "empty").attr("x", w / 2).attr("y", h / 2).attr("text-anchor", "middle")
        .text("collecting samples…");
      return;
    }
    // The axis spans the chosen time whatever part of it has samples yet: an hour reads as an hour.
    const x = d3.scaleTime().domain(domain).range([m.l, w - m.r]);
    const y = d3.scaleLinear().domain([0, (d3.max(data, d => d.v) || 1) * 1.15]).nice(3).range([h - m.b, m.t]);
    const id = "grad-" + selector.slice(1);
    const grad = chart.append("defs").append("linearGradient").attr("id", id).attr("x1", 0).attr("x2", 0).attr("y1", 0).attr("y2", 1);
    grad.append("stop").attr("offset", "0%").attr("stop-color", colour).attr("stop-opacity", 0.35);
    grad.append("stop").attr("offset", "100%").attr("stop-color", colour).attr("stop-opacity", 0);
    chart.append("g").selectAll("line").data(y.ticks(3)).join("line").attr("class", "grid-line")
      .attr("x1", m.l).attr("x2", w - m.r).attr("y1", d => y(d)).attr("y2", d => y(d));
    chart.append("path").datum(data).attr("fill", `url(#${id})`)
      .attr("d", d3.area().x(d => x(d.t)).y0(h - m.b).y1(d => y(d.v)).curve(d3.curveMonotoneX));
    chart.append("path").datum(data).attr("fill", "none").attr("stroke", colour).attr("stroke-width", 1.8)
      .attr("d", d3.line().x(d => x(d.t)).y(d => y(d.v)).curve(d3.curveMonotoneX));
    chart.append("g").attr("class", "axis").attr("transform", `translate(${m.l},0)`)
      .call(d3.axisLeft(y).ticks(3).tickSize(0).tickPadding(6).tickFormat(format)).select(".domain").remove();
    chart.append("g").attr("class", "axis").attr("transform", `translate(0,${h - m.b})`)
      .call(d3.axisBottom(x).ticks(Math.max(2, Math.floor(w / 110))).tickSize(0).tickPadding(5)
        .tickFormat(d3.timeFormat(state.spanSeconds > 600 ? "%H:%M" : "%H:%M:%S")))
      .select(".domain").remove();
  }

  async function refreshHistory() {
    if (!state.selected) return;
    const [a, b] = state.selected.split("~");
    const span = state.spanSeconds;
    // About one point per two pixel columns: finer would not show, coarser would look stepped.
    const width = document.querySelector("#chart-rtt").getBoundingClientRect().width || 400;
    const points = Math.max(30, Math.min(600, Math.round(width / 2)));
    try {
      const samples = await api("GET", `api/links/${enc(a)}/${enc(b)}/trend?seconds=${span}&points=${points}`);
      if (span !== state.spanSeconds || state.selected !== `${a}~${b}`) return; // a newer choice is on its way
      const end = samples.length ? new Date(samples[samples.length - 1].time) : new Date();
      const domain = [new Date(end - span * 1000), end];
      // A young service has less history than the span: say where it starts rather than leave a gap.
      const first = samples.length ? new Date(samples[0].time) : null;
      document.getElementById("history-since").textContent =
        first && first - domain[0] > span * 50 ? `· kept since ${fmt.time(samples[0].time)}` : "";
      drawChart("#chart-rtt", samples, s => s.rttMs, "#5aa9ff", d3.format("~s"), domain);
      drawChart("#chart-loss", samples, s => s.lossRate == null ? null : s.lossRate * 100, "#ff7a59", d3.format("~g"), domain);
      drawChart("#chart-throughput", samples, s => s.throughputBps == null ? null : s.throughputBps / 1000, "#3fcf8e", d3.format("~s"), domain);
    } catch (e) { /* the next refresh tries again */ }
  }

  async function refreshImpairment() {
    const l = state.links.get(state.selected);
    const now = document.getElementById("impair-now");
    if (!l || l.source !== "MEASURED") { now.textContent = l ? "only links with a local end can be impaired here" : ""; return; }
    try {
      const v = await api("GET", `api/links/${enc(l.a)}/${enc(l.b)}/impairment`);
      if (state.selected !== l.id) return; // the operator has moved on to another link
      const active = v.directions.filter(d => !d.none);
      now.textContent = active.length === 0 ? "none"
        : active.map(d => `${d.from}→${d.to}: ${describe(d)}`).join(" · ");
      state.impairment = v;
      if (!state.impairmentEdited) fillImpairment(true);
    } catch (e) { now.textContent = ""; }
  }

  /** Same loss, delay, jitter and rate both ways. */
  function sameImpairment(x, y) {
    return ["lossRate", "delayMs", "jitterMs", "rateKbps"].every(k => x[k] === y[k]);
  }

  /**
   * Shows the selected link's impairment in the form, so Apply starts from what is set. With
   * chooseDirection the form picks the direction that describes the link: both ways when they are
   * alike, else the one impaired (forward when both are, differently).
   */
  function fillImpairment(chooseDirection) {
    const v = state.impairment, f = document.getElementById("impair");
    if (!v || v.link !== state.selected) return;
    const [fwd, rev] = v.directions;
    if (chooseDirection) {
      f.direction.value = sameImpairment(fwd, rev) ? "BOTH" : fwd.none ? "REVERSE" : "FORWARD";
    }
    const d = f.direction.value === "REVERSE" ? rev : fwd;
    const show = x => x > 0 ? String(+x.toFixed(3)) : "";
    f.lossPercent.value = show(d.lossRate * 100);
    f.delayMs.value = show(d.delayMs);
    f.jitterMs.value = show(d.jitterMs);
    f.rateKbps.value = show(d.rateKbps);
    f.dataset.link = v.link;
  }

  function describe(d) {
    const parts = [];
    if (d.lossRate > 0) parts.push(`loss ${fmt.pct(d.lossRate)}`);
    if (d.delayMs > 0) parts.push(`delay ${d.delayMs} ms`);
    if (d.jitterMs > 0) parts.push(`jitter ${d.jitterMs} ms`);
    if (d.rateKbps > 0) parts.push(`rate ${d.rateKbps} kbit/s`);
    if (d.duplicateRate > 0) parts.push(`dup ${fmt.pct(d.duplicateRate)}`);
    if (d.reorderRate > 0) parts.push(`reorder ${fmt.pct(d.reorderRate)}`);
    return parts.join(", ") || "none";
  }

  const enc = encodeURIComponent;

  function clearImpairmentForm() {
    const f = document.getElementById("impair");
    ["lossPercent", "delayMs", "jitterMs", "rateKbps"].forEach(n => { f[n].value = ""; });
    f.direction.value = "BOTH";
    delete f.dataset.link;
  }

  document.getElementById("impair").addEventListener("input", ev => {
    if (ev.target.name === "direction") return;
    state.impairmentEdited = true;
  });
  document.getElementById("impair").direction.addEventListener("change", () => {
    if (!state.impairmentEdited) fillImpairment(false);
  });

  document.querySelectorAll("#span button").forEach(b => b.addEventListener("click", () => {
    document.querySelectorAll("#span button").forEach(x => x.classList.toggle("on", x === b));
    state.spanSeconds = Number(b.dataset.seconds);
    refreshHistory();
  }));

  document.getElementById("impair").addEventListener("submit", async ev => {
    ev.preventDefault();
    const l = state.links.get(state.selected);
    if (!l) return;
    const f = ev.target, status = document.getElementById("impair-status");
    const num = name => f[name].value === "" ? null : Number(f[name].value);
    const body = {
      direction: f.direction.value,
      lossRate: num("lossPercent") == null ? null : num("lossPercent") / 100,
      delayMs: num("delayMs"), jitterMs: num("jitterMs"), rateKbps: num("rateKbps"),
    };
    status.textContent = "applying…";
    try {
      await authorised("PUT", `api/links/${enc(l.a)}/${enc(l.b)}/impairment`, body);
      status.textContent = "applied";
      state.impairmentEdited = false;
      refreshImpairment();
    } catch (e) { status.textContent = e.message; }
  });

  // DELETE goes back to the configured impairment; a PUT with nothing set clears the link.
  const impairmentAction = (id, busy, done, request) =>
    document.getElementById(id).addEventListener("click", async () => {
      const l = state.links.get(state.selected);
      if (!l) return;
      const f = document.getElementById("impair"), status = document.getElementById("impair-status");
      status.textContent = busy;
      try {
        await request(`api/links/${enc(l.a)}/${enc(l.b)}/impairment`, f.direction.value);
        status.textContent = done;
        state.impairmentEdited = false;
        refreshImpairment();
      } catch (e) { status.textContent = e.message; }
    });
  impairmentAction("impair-restore", "restoring…", "configured impairment restored",
    (path, direction) => authorised("DELETE", `${path}?direction=${direction}`));
  impairmentAction("impair-clear", "clearing…", "cleared",
    (path, direction) => authorised("PUT", path, { direction }));

  document.getElementById("signin").addEventListener("click", () => {
    if (state.credentials) {
      state.credentials = null;
      sessionStorage.removeItem("hopwise.credentials");
      showSignedIn();
    } else {
      signIn();
    }
  });

  document.querySelectorAll("#metric button").forEach(b => b.addEventListener("click", () => {
    document.querySelectorAll("#metric button").forEach(x => x.classList.toggle("on", x === b));
    state.metric = b.dataset.metric;
    drawGraph();
    drawRoutes();
  }));

  // ------------------------------------------------------------------ events

  function addEvents(events, fresh) {
    const list = document.getElementById("events-list");
    for (const e of events) {
      if (e.id <= state.lastEventId) continue;
      state.lastEventId = e.id;
      const li = document.createElement("li");
      li.className = e.type + (fresh ? " fresh" : "");
      li.innerHTML = `<span class="t">${fmt.time(e.time)}</span><span class="k">${e.type.replace("_", " ")}</span><span class="m"></span>`;
      li.querySelector(".m").textContent = eventText(e);
      list.prepend(li);
    }
    while (list.children.length > 200) list.lastChild.remove();
  }

  function eventText(e) {
    switch (e.type) {
      case "LINK_UP": case "LINK_DOWN": return `${e.node} ⇄ ${e.peer}` + (e.detail ? ` (${e.detail})` : "");
      case "REROUTE": return `to ${e.destination} by ${e.metric.toLowerCase().replace("_", " ")}: `
        + `${e.oldPath.length ? e.oldPath.join("→") : "unreachable"} ⇒ ${e.newPath.length ? e.newPath.join("→") : "unreachable"}`;
      case "IMPAIRMENT": return e.detail;
      default: return `${e.node} ${e.peer || ""}`;
    }
  }

  function listen() {
    const status = document.getElementById("events-status");
    const source = new EventSource("api/events");
    source.onopen = () => { status.textContent = "live"; };
    const onEvent = msg => {
      addEvents([JSON.parse(msg.data)], true);
      refresh();
    };
    ["LINK_UP", "LINK_DOWN", "NEIGHBOUR_ADDED", "NEIGHBOUR_REMOVED", "REROUTE", "IMPAIRMENT"]
      .forEach(t => source.addEventListener(t, onEvent));
    source.onerror = () => {
      status.textContent = "reconnecting…";
      // The browser reconnects by itself; what was missed is fetched from the log.
      api("GET", `api/events/recent?after=${state.lastEventId}`).then(ev => addEvents(ev, true)).catch(() => {});
    };
  }

  // ------------------------------------------------------------------ refresh loop

  let refreshing = false;
  async function refresh() {
    if (refreshing) return;
    refreshing = true;
    try {
      const [topology, links, health] = await Promise.all([
        api("GET", "api/topology"), api("GET", "api/links"),
        fetch("actuator/health/readiness").then(r => r.json()).catch(() => null),
      ]);
      state.topology = topology;
      state.links = new Map(links.map(l => [l.id, l]));
      if (!state.selected || !state.links.has(state.selected)) {
        const first = links.find(l => l.source === "MEASURED") || links[0];
        if (first) { state.selected = first.id; refreshImpairment(); }
      }
      drawHeader();
      drawGraph();
      drawLinksTable();
      drawDetail();
      const h = document.getElementById("health");
      const status = health ? health.status : "DOWN";
      h.className = "pill health-" + status;
      h.textContent = status === "UP" ? "ready" : status === "OUT_OF_SERVICE" ? "joining" : "not ready";
    } catch (e) {
      if (e.status === 401) await signIn("Reading this overlay needs the operator's credentials.");
    } finally {
      refreshing = false;
    }
  }

  async function refreshRoutes() {
    try {
      state.routes = await api("GET", "api/routes");
      drawRoutes();
    } catch (e) { /* next time */ }
  }

  window.hopwise = { api, fmt, metric: () => state.metric, showTree };
  showSignedIn();
  refresh().then(() => { refreshHistory(); refreshRoutes(); });
  api("GET", "api/events/recent").then(ev => addEvents(ev, false)).catch(() => {}).finally(listen);
  setInterval(refresh, REFRESH_MS);
  setInterval(refreshHistory, REFRESH_MS);
  setInterval(refreshRoutes, 2 * REFRESH_MS);
  setInterval(refreshImpairment, 5 * REFRESH_MS);
  window.addEventListener("resize", () => { reheat(0.3); drawGraph(); });
})();
