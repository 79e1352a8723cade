// Places the topology's node labels where they cover no node, no other label and no link cost, and
// cross as few links as possible. A label keeps its place while that place stays clear, so labels do
// not hop about as the layout breathes.
(function () {
  "use strict";

  // Beside the node first (below, above), then right, left and the diagonals.
  const SIDES = [
    [0, 1], [0, -1], [1, 0], [-1, 0], [1, 1], [-1, 1], [1, -1], [-1, -1],
  ];
  const GAP = 5;       // between a node's ring and its label
  const MARGIN = 3;    // kept clear around every box

  function overlap(a, b) {
    const w = Math.min(a.x2, b.x2) - Math.max(a.x1, b.x1) + 2 * MARGIN;
    const h = Math.min(a.y2, b.y2) - Math.max(a.y1, b.y1) + 2 * MARGIN;
    return w > 0 && h > 0 ? w * h : 0;
  }

  function coversCircle(box, c) {
    const nx = Math.max(box.x1, Math.min(c.x, box.x2)), ny = Math.max(box.y1, Math.min(c.y, box.y2));
    const d = Math.hypot(c.x - nx, c.y - ny);
    return d < c.r + MARGIN ? (c.r + MARGIN - d + 1) * 400 : 0;
  }

  function segmentCrossesBox(s, box) {
    // Liang-Barsky clipping: does any part of the segment lie inside the box?
    let t0 = 0, t1 = 1;
    const dx = s.x2 - s.x1, dy = s.y2 - s.y1;
    const p = [-dx, dx, -dy, dy], q = [s.x1 - box.x1, box.x2 - s.x1, s.y1 - box.y1, box.y2 - s.y1];
    for (let i = 0; i < 4; i++) {
      if (p[i] === 0) { if (q[i] < 0) return false; continue; }
      const t = q[i] / p[i];
      if (p[i] < 0) { if (t > t1) return false; if (t > t0) t0 = t; }
      else { if (t < t0) return false; if (t < t1) t1 = t; }
    }
    return true;
  }

  function boxAt(n, side, w, h) {
    const [sx, sy] = side, ring = n.r + GAP;
    let x, y;
    if (sx === 0) { x = n.x; y = n.y + sy * (ring + h / 2); }
    else if (sy === 0) { x = n.x + sx * (ring + w / 2); y = n.y; }
    else {
      // The corner nearest the node sits on the ring's diagonal, not on its bounding square.
      x = n.x + sx * (ring * Math.SQRT1_2 + w / 2);
      y = n.y + sy * (ring * Math.SQRT1_2 + h / 2);
    }
    return { x1: x - w / 2, x2: x + w / 2, y1: y - h / 2, y2: y + h / 2, x, y };
  }

  /**
   * nodes: [{name, x, y, r, w, h, side}] (w, h: the label's size; side: index of its last place);
   * links: [{x1, y1, x2, y2}]; fixed: boxes that must stay clear (link costs); bounds {w, h}.
   * Sets each node's side and returns the label centres by name.
   */
  function place(nodes, links, fixed, bounds) {
    const placed = [];
    const out = new Map();
    // Nodes with the least room choose first.
    const order = nodes.slice().sort((a, b) => crowd(b, nodes) - crowd(a, nodes));
    for (const n of order) {
      let best = null;
      for (let i = 0; i < SIDES.length; i++) {
        const box = boxAt(n, SIDES[i], n.w, n.h);
        let score = i * 0.5 + (i === n.side ? -1 : 0);
        for (const c of nodes) score += coversCircle(box, c);
        for (const b of placed) score += overlap(box, b) * 50;
        for (const b of fixed) score += overlap(box, b) * 20;
        for (const s of links) if (segmentCrossesBox(s, box)) score += 30;
        if (box.x1 < 0 || box.y1 < 0 || box.x2 > bounds.w || box.y2 > bounds.h) score += 1000;
        if (!best || score < best.score) best = { score, box, i };
      }
      n.side = best.i;
      placed.push(best.box);
      out.set(n.name, { x: best.box.x - n.x, y: best.box.y - n.y });
    }
    return out;
  }

  function crowd(n, nodes) {
    return nodes.reduce((s, m) => s + (m === n ? 0 : 1 / Math.max(1, Math.hypot(m.x - n.x, m.y - n.y))), 0);
  }

  window.hopwiseLabels = { place };
})();
