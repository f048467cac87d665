// Drawing for the shogi toolkit's pages: a board (from the Board the Rust side computed:
// cells with kanji, hands, side to move) and an evaluation graph. No rules here.
"use strict";
var Draw = (function () {
  var CELL = 40, M = 10, HAND = 34, LAB = 18;
  var KANJI_NUM = ["", "一", "二", "三", "四", "五", "六", "七", "八", "九"];
  function esc(s) {
    return String(s).replace(/[&<>"']/g, function (c) {
      return { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" }[c];
    });
  }
  // The board as SVG text. opts: flip, from, to (cells of the last move), sel (a selected
  // cell), targets (cells to mark), selHand ("sente:歩").
  function boardSvg(b, opts) {
    opts = opts || {};
    var n = b.size, bw = n * CELL, flip = !!opts.flip;
    var W = M * 2 + bw + LAB, H = M * 2 + HAND * 2 + LAB + bw;
    var x0 = M, y0 = M + HAND + LAB;
    var s = ['<svg class="board" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ' + W + " " + H + '">'];
    s.push('<rect x="' + x0 + '" y="' + y0 + '" width="' + bw + '" height="' + bw + '" fill="#f3d58e" stroke="#333" stroke-width="2"/>');
    var targets = {};
    (opts.targets || []).forEach(function (t) { targets[t] = true; });
    for (var i = 0; i < n * n; i++) {
      var r = Math.floor(i / n), c = i % n;
      if (flip) { r = n - 1 - r; c = n - 1 - c; }
      var x = x0 + c * CELL, y = y0 + r * CELL;
      var fill = null;
      if (i === opts.to) fill = "#f7a35c";
      else if (i === opts.from) fill = "#f9c98f";
      if (i === opts.sel) fill = "#8fc3f9";
      s.push('<rect class="sq" data-cell="' + i + '" x="' + x + '" y="' + y + '" width="' + CELL + '" height="' + CELL +
        '" fill="' + (fill || "transparent") + '" stroke="#555" stroke-width="0.6"/>');
      if (targets[i]) s.push('<circle cx="' + (x + CELL / 2) + '" cy="' + (y + CELL / 2) + '" r="6" fill="#2a6fb0" opacity="0.6" pointer-events="none"/>');
      var p = b.cells[i];
      if (!p) continue;
      var gote = p.charAt(0) === "v";
      if (gote) p = p.slice(1);
      var promoted = p.charAt(0) === "+";
      if (promoted) p = p.slice(1);
      var cx = x + CELL / 2, cy = y + CELL / 2;
      var upside = gote !== flip;
      s.push('<text class="pc" x="' + cx + '" y="' + (cy + 10) + '" font-size="28" text-anchor="middle" pointer-events="none" fill="' +
        (promoted ? "#c00000" : "#111") + '"' + (upside ? ' transform="rotate(180 ' + cx + " " + cy + ')"' : "") + ">" + esc(p) + "</text>");
    }
    for (var k = 0; k < n; k++) {
      var file = flip ? k + 1 : n - k, rank = flip ? n - k : k + 1;
      s.push('<text x="' + (x0 + k * CELL + CELL / 2) + '" y="' + (y0 - 5) + '" font-size="13" text-anchor="middle" fill="#444">' + file + "</text>");
      s.push('<text x="' + (x0 + bw + LAB / 2) + '" y="' + (y0 + k * CELL + CELL / 2 + 5) + '" font-size="13" text-anchor="middle" fill="#444">' + KANJI_NUM[rank] + "</text>");
    }
    // Hands: the side at the bottom (sente, or gote when flipped) below the board.
    var sides = [["sente", 0, "☗"], ["gote", 1, "☖"]];
    sides.forEach(function (sd) {
      var bottom = (sd[1] === 0) !== flip;
      var y = bottom ? y0 + bw + HAND / 2 + 8 : M + HAND / 2 + 4;
      var turn = b.turn === sd[0];
      s.push('<text x="' + x0 + '" y="' + y + '" font-size="17"' + (turn ? ' font-weight="bold"' : "") + ">" + sd[2] + (turn ? "▶" : "") + "</text>");
      var x = x0 + 34;
      var hand = b.hands[sd[1]];
      if (!hand.length) s.push('<text x="' + x + '" y="' + y + '" font-size="15" fill="#777">なし</text>');
      hand.forEach(function (h) {
        var key = sd[0] + ":" + h[0];
        var w = h[1] > 1 ? 44 : 30;
        s.push('<rect class="hand" data-hand="' + esc(key) + '" x="' + (x - 3) + '" y="' + (y - 22) + '" width="' + w + '" height="30" rx="4" fill="' +
          (opts.selHand === key ? "#8fc3f9" : "transparent") + '"/>');
        s.push('<text x="' + x + '" y="' + y + '" font-size="22" pointer-events="none">' + esc(h[0]) +
          (h[1] > 1 ? '<tspan font-size="14">' + h[1] + "</tspan>" : "") + "</text>");
        x += w + 4;
      });
    });
    if (b.check) s.push('<text x="' + (x0 + bw) + '" y="' + (b.turn === "sente" !== flip ? y0 + bw + HAND / 2 + 8 : M + HAND / 2 + 4) +
      '" font-size="15" text-anchor="end" fill="#b00020">王手</text>');
    s.push("</svg>");
    return s.join("");
  }
  // The evaluation graph: one point per ply (null where unknown), sente up; `cur` marked.
  function graphSvg(evals, cur, cap) {
    var W = 600, H = 140, n = Math.max(evals.length - 1, 1);
    var s = ['<svg class="graph" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ' + W + " " + H + '" preserveAspectRatio="none">'];
    s.push('<line x1="0" y1="' + H / 2 + '" x2="' + W + '" y2="' + H / 2 + '" stroke="#bbb"/>');
    var pts = [], y;
    evals.forEach(function (e, i) {
      if (e === null || e === undefined) return;
      y = H / 2 - Math.max(-cap, Math.min(cap, e)) / cap * (H / 2 - 4);
      pts.push((i / n * W).toFixed(1) + "," + y.toFixed(1));
    });
    if (pts.length) s.push('<polyline points="' + pts.join(" ") + '" fill="none" stroke="#2a6fb0" stroke-width="2" vector-effect="non-scaling-stroke"/>');
    var cx = (cur / n * W).toFixed(1);
    s.push('<line class="cur" x1="' + cx + '" y1="0" x2="' + cx + '" y2="' + H + '" stroke="#e07000" stroke-width="2" vector-effect="non-scaling-stroke"/>');
    s.push("</svg>");
    return s.join("");
  }
  // The ply a click at clientX on the graph element `el` points to, of `count` positions.
  function graphPly(el, clientX, count) {
    var r = el.getBoundingClientRect();
    var f = (clientX - r.left) / Math.max(r.width, 1);
    return Math.max(0, Math.min(count - 1, Math.round(f * (count - 1))));
  }
  function bars(m) {
    var g = Math.max(m.games, 1);
    function pc(v) { return (100 * v / g).toFixed(1); }
    return '<div class="bar" title="sente ' + m.sente_wins + " / draw " + (m.draws + m.unfinished) + " / gote " + m.gote_wins + '">' +
      '<span class="s" style="width:' + pc(m.sente_wins) + '%"></span><span class="d" style="width:' + pc(m.draws + m.unfinished) +
      '%"></span><span class="g" style="width:' + pc(m.gote_wins) + '%"></span></div>';
  }
  // The notation moves are shown in: "kif" (the KIF writer's text, computed in Rust),
  // "western" or "usi"; the choice is remembered by the browser where the page may store it.
  var NOTAS = { kif: "日本式 (KIF)", western: "Western", usi: "USI" }, NOTA_KEY = "shogitk.notation", nota = null;
  function notation(set) {
    if (set && NOTAS[set]) {
      nota = set;
      try { localStorage.setItem(NOTA_KEY, set); } catch (e) { /* a page that may not store */ }
    }
    if (!nota) {
      try { nota = localStorage.getItem(NOTA_KEY); } catch (e) { nota = null; }
      if (!NOTAS[nota]) nota = "kif";
    }
    return nota;
  }
  function notationSelect(id) {
    return '<select id="' + id + '" class="nota" title="notation">' + Object.keys(NOTAS).map(function (k) {
      return '<option value="' + k + '"' + (k === notation() ? " selected" : "") + ">" + NOTAS[k] + "</option>";
    }).join("") + "</select>";
  }
  // A move ({kif, west, usi}) in the chosen notation.
  function moveText(m) {
    var n = notation();
    return n === "western" ? m.west : n === "usi" ? m.usi : m.kif;
  }
  // One entry of a move list: number, the mover's mark (sente: true), the move.
  function moveItem(i, sente, m, cls) {
    return '<div class="mv' + (cls || "") + '" data-ply="' + i + '"><span class="n">' + i + '</span><span class="sd">' +
      (sente ? "☗" : "☖") + '</span><span class="t">' + esc(moveText(m)) + "</span></div>";
  }
  return { boardSvg: boardSvg, graphSvg: graphSvg, graphPly: graphPly, esc: esc, bars: bars,
    notation: notation, notationSelect: notationSelect, moveText: moveText, moveItem: moveItem };
})();
