// The explorer application of `shogi serve`: a board played by clicks (the legal moves come
// from /api/position), the explorer of the position (/api/explore), the games that reached
// it (/api/games, paged; a click opens the viewer), search by player, a position pasted as
// SFEN or USI. Every number comes from the server; this script only shows it.
"use strict";
(function () {
  var E = Draw.esc, PAGE = 10;
  var st = { start: "startpos", moves: [], flip: false, sel: null, selHand: null, pos: null, offset: 0, viewer: null };
  var app = document.getElementById("app");
  app.innerHTML =
    '<div id="main"><h1>shogi explorer</h1><div class="layout"><div class="boardcol"><div id="xboard"></div>' +
    '<div class="controls"><button id="back" title="←">◀ 一手戻る</button><button id="reset">初期局面</button>' +
    '<button id="xflip">反転</button>' + Draw.notationSelect("xnota") + '<span class="status" id="xstatus"></span></div>' +
    '<div class="row"><input type="text" id="posin" placeholder="SFEN / USI: startpos moves 7g7f 3c3d"><button id="posgo">表示</button></div>' +
    '<div class="moves" id="xmoves"></div><div class="error" id="err"></div></div>' +
    '<div class="side"><h2>Explorer <span class="status" id="xcount"></span></h2>' +
    '<form id="filters" class="row filters">' +
    '<input name="since" size="7" placeholder="since 2020-05"><input name="until" size="7" placeholder="until 2021-12">' +
    '<input name="min_rating" size="5" placeholder="R ≥"><input name="max_rating" size="5" placeholder="R ≤">' +
    '<select name="rating_of"><option value="both">both</option><option value="average">average</option><option value="mover">mover</option></select>' +
    '<input name="time_control" size="9" placeholder="300+10F"><input name="event" size="9" placeholder="event">' +
    '<button id="fapply" type="submit">絞り込み</button></form><div id="explore"></div>' +
    '<h2>Games <span class="status" id="gcount"></span></h2><div id="games"></div>' +
    '<div class="controls"><button id="gprev">◀</button><button id="gnext">▶</button><span class="status" id="gpage"></span></div>' +
    '<h2>Player</h2><div class="row"><input type="text" id="player" placeholder="name"><button id="psearch">検索</button></div>' +
    '<div id="found"></div></div></div></div>' +
    '<div id="gameview" hidden><div class="controls"><button id="close">◀ explorer</button></div><div id="vroot"></div></div>';
  function $(id) { return document.getElementById(id); }
  function spec() { return st.start + (st.moves.length ? " moves " + st.moves.join(" ") : ""); }
  function get(path, params) {
    var q = Object.keys(params).map(function (k) { return k + "=" + encodeURIComponent(params[k]); }).join("&");
    return fetch(path + "?" + q).then(function (r) {
      return r.json().then(function (j) { if (!r.ok) throw new Error(j.error || r.status); return j; });
    });
  }
  // The filter form's values (those given), as /api/explore and /api/games take them.
  function filters(params) {
    Array.prototype.forEach.call($("filters").elements, function (el) {
      var v = (el.value || "").trim();
      if (el.name && v && !(el.name === "rating_of" && v === "both")) params[el.name] = v;
    });
    return params;
  }
  function fail(e) { $("err").textContent = String(e.message || e); }
  function drawBoard() {
    var p = st.pos, targets = [];
    p.legal.forEach(function (m) {
      if (st.sel !== null && m.from === st.sel) targets.push(m.to);
      if (st.selHand !== null && m.drop === st.selHand) targets.push(m.to);
    });
    $("xboard").innerHTML = Draw.boardSvg(p.board, { flip: st.flip, from: p.from, to: p.to, sel: st.sel, targets: targets,
      selHand: st.selHand === null ? null : p.board.turn + ":" + st.selHand });
  }
  // The explorer table's notation for each of the pages' notations.
  var NOTA = { kif: "japanese", western: "western", usi: "usi" };
  // The line played from the start position, in the chosen notation; a click goes back to it.
  function moveList() {
    var mv = st.pos.moves, n = mv.length, sente = st.pos.board.turn === "sente";
    $("xmoves").innerHTML = mv.map(function (m, i) {
      return Draw.moveItem(i + 1, ((n - i) % 2 === 1) !== sente, m, i === n - 1 ? " cur" : "");
    }).join("") || '<div class="status">開始局面</div>';
  }
  function play(usi) { st.moves.push(usi); st.offset = 0; load(); }
  // A book move's marks (value / depth / count), or an empty cell.
  function bookCell(b) {
    return b ? '<td class="bk" title="定跡: 評価値 ' + b.value + ", 深さ " + b.depth + ", 出現 " + b.count + '">◆ ' + b.value + "</td>" : "<td></td>";
  }
  function explorerTable(x) {
    var book = x.book_only !== undefined, only = x.book_only || [];
    if (!x.moves.length && !only.length) return '<div class="status">no game continues from here</div>';
    var rows = x.moves.map(function (m) {
      return '<tr class="click mvrow' + (m.book ? " inbook" : "") + '" data-usi="' + E(m.usi) + '"><td>' + E(m.move) + '</td><td class="num">' + m.games + "</td><td>" + Draw.bars(m) +
        '</td><td class="num">' + (100 * m.win_rate).toFixed(1) + '%</td><td class="num">' + (m.avg_rating === null ? "" : Math.round(m.avg_rating)) +
        "</td><td>" + E(m.recent && m.recent.date ? m.recent.date.slice(0, 10) : "") + "</td>" + (book ? bookCell(m.book) : "") + "</tr>";
    });
    only.forEach(function (m) {
      rows.push('<tr class="click mvrow inbook bookonly" data-usi="' + E(m.usi) + '"><td>' + E(m.move) +
        '</td><td class="num">0</td><td colspan="4" class="status">定跡のみ (no game)</td>' + bookCell(m.book) + "</tr>");
    });
    return '<table id="xtable"><tr><th>指し手</th><th>対局</th><th>先手 / 引分 / 後手</th><th>勝率</th><th>R</th><th>最新</th>' +
      (book ? "<th>定跡</th>" : "") + "</tr>" + rows.join("") + "</table>";
  }
  function gameTable(g, id) {
    if (!g.items.length) return '<div class="status">no games</div>';
    var rows = g.items.map(function (r) {
      return '<tr class="click gamerow" data-path="' + E(r.path) + '" data-game="' + r.game + '" data-ply="' + r.ply + '"><td>' +
        E(r.sente || "?") + " – " + E(r.gote || "?") + "</td><td>" + E((r.date || "").slice(0, 10)) + "</td><td>" + E(r.winner) +
        "</td><td>" + E(r.ending || "") + '</td><td class="num">' + r.plies + "</td></tr>";
    });
    return '<table id="' + id + '"><tr><th>対局者</th><th>日付</th><th>勝者</th><th>終局</th><th>手数</th></tr>' + rows.join("") + "</table>";
  }
  function loadGames() {
    return get("/api/games", filters({ pos: spec(), offset: st.offset, limit: PAGE })).then(function (g) {
      $("games").innerHTML = gameTable(g, "gtable");
      $("gcount").textContent = g.games + " games";
      $("gpage").textContent = g.items.length ? (g.offset + 1) + "–" + (g.offset + g.items.length) + " / " + g.total : "";
      $("gprev").disabled = g.offset === 0;
      $("gnext").disabled = !g.more;
    });
  }
  function load() {
    $("err").textContent = "";
    var s = spec();
    return Promise.all([get("/api/position", { pos: s }), get("/api/explore", filters({ pos: s, notation: NOTA[Draw.notation()] }))]).then(function (a) {
      st.pos = a[0]; st.sel = null; st.selHand = null;
      drawBoard();
      moveList();
      $("xstatus").textContent = a[0].line.length + " 手" + (a[0].board.check ? " 王手" : "");
      $("explore").innerHTML = explorerTable(a[1]);
      $("xcount").textContent = a[1].games + " games";
      return loadGames().then(function () {
        document.body.setAttribute("data-filters", JSON.stringify(filters({})));
        document.body.setAttribute("data-loaded", s);
        if (window.performance && performance.mark) performance.mark("loaded " + s);
      });
    }).catch(fail);
  }
  // The board is played with pointer events (mouse, pen and touch alike): press a piece (or a
  // piece in hand) to select it and press a marked square, or drag it there.
  function targetMoves(c) {
    return st.pos.legal.filter(function (m) {
      return m.to === c && ((st.sel !== null && m.from === st.sel) || (st.selHand !== null && m.drop === st.selHand));
    });
  }
  // Plays the selection's move to cell c (asking about promotion when both are legal).
  function moveTo(c) {
    var cands = targetMoves(c);
    if (!cands.length) return false;
    var m = cands[0];
    if (cands.length > 1) {
      var promo = window.confirm("成りますか？ (OK: 成, Cancel: 不成)");
      m = cands.filter(function (x) { return x.promote === promo; })[0] || cands[0];
    }
    play(m.usi);
    return true;
  }
  function cellAt(x, y) {
    var el = document.elementFromPoint(x, y), c = el && el.getAttribute && el.getAttribute("data-cell");
    return c === null || c === undefined ? null : +c;
  }
  var drag = null;
  function endDrag() {
    if (drag && drag.ghost) drag.ghost.remove();
    drag = null;
  }
  $("xboard").addEventListener("pointerdown", function (ev) {
    if (!st.pos || ev.button > 0 || !ev.target.getAttribute) return;
    var hand = ev.target.getAttribute("data-hand"), c = ev.target.getAttribute("data-cell"), piece;
    endDrag();
    if (hand) {
      var parts = hand.split(":");
      if (parts[0] !== st.pos.board.turn) return;
      drag = { again: st.selHand === parts[1] };
      st.sel = null; st.selHand = parts[1]; piece = parts[1];
    } else if (c !== null) {
      c = +c;
      if (moveTo(c)) { ev.preventDefault(); return; }
      if (!st.pos.legal.some(function (m) { return m.from === c; })) { st.sel = null; st.selHand = null; drawBoard(); return; }
      drag = { again: st.sel === c };
      st.selHand = null; st.sel = c; piece = st.pos.board.cells[c].replace(/^v/, "").replace(/^\+/, "");
    } else return;
    ev.preventDefault();
    var rect = $("xboard").querySelector("svg").getBoundingClientRect();
    drag.x = ev.clientX; drag.y = ev.clientY; drag.piece = piece; drag.size = rect.width / (st.pos.board.size + 1);
    drawBoard();
  });
  window.addEventListener("pointermove", function (ev) {
    if (!drag) return;
    if (!drag.ghost) {
      if (Math.abs(ev.clientX - drag.x) + Math.abs(ev.clientY - drag.y) < 6) return;
      drag.ghost = document.createElement("div");
      drag.ghost.className = "ghost";
      drag.ghost.textContent = drag.piece;
      drag.ghost.style.fontSize = Math.round(drag.size * 0.7) + "px";
      document.body.appendChild(drag.ghost);
    }
    drag.ghost.style.left = ev.clientX + "px";
    drag.ghost.style.top = ev.clientY + "px";
    ev.preventDefault();
  });
  window.addEventListener("pointerup", function (ev) {
    if (!drag) return;
    var d = drag, c = cellAt(ev.clientX, ev.clientY);
    endDrag();
    if (d.ghost) {
      if (c !== null && (c === st.sel || moveTo(c))) return;
    } else if (!d.again) return;
    // A drop off the targets, or a second press on the selection: nothing selected.
    st.sel = null; st.selHand = null;
    drawBoard();
  });
  window.addEventListener("pointercancel", endDrag);
  $("xnota").onchange = function () { Draw.notation(this.value); load(); };
  $("xmoves").onclick = function (ev) {
    var t = ev.target.closest(".mv");
    if (t && +t.getAttribute("data-ply") < st.moves.length) { st.moves = st.moves.slice(0, +t.getAttribute("data-ply")); st.offset = 0; load(); }
  };
  $("explore").onclick = function (ev) {
    var tr = ev.target.closest("tr.mvrow");
    if (tr) play(tr.getAttribute("data-usi"));
  };
  function openGame(ev) {
    var tr = ev.target.closest("tr.gamerow");
    if (!tr) return;
    get("/api/game", { path: tr.getAttribute("data-path"), game: tr.getAttribute("data-game") }).then(function (g) {
      $("main").hidden = true; $("gameview").hidden = false;
      if (st.viewer) st.viewer.detach();
      st.viewer = Viewer.mount($("vroot"), g, +tr.getAttribute("data-ply"));
    }).catch(fail);
  }
  $("games").onclick = openGame;
  $("found").onclick = openGame;
  $("close").onclick = function () {
    if (st.viewer) { st.viewer.detach(); st.viewer = null; }
    $("vroot").innerHTML = ""; $("gameview").hidden = true; $("main").hidden = false;
  };
  $("filters").onsubmit = function (ev) { ev.preventDefault(); st.offset = 0; load(); };
  $("back").onclick = function () { if (st.moves.length) { st.moves.pop(); st.offset = 0; load(); } };
  $("reset").onclick = function () { st.start = "startpos"; st.moves = []; st.offset = 0; load(); };
  $("xflip").onclick = function () { st.flip = !st.flip; if (st.pos) drawBoard(); };
  $("gprev").onclick = function () { st.offset = Math.max(0, st.offset - PAGE); loadGames().catch(fail); };
  $("gnext").onclick = function () { st.offset += PAGE; loadGames().catch(fail); };
  $("posgo").onclick = function () {
    var t = $("posin").value.trim().replace(/^position\s+/, "");
    if (!t) return;
    var i = t.indexOf(" moves");
    var start = i < 0 ? t : t.slice(0, i), moves = i < 0 ? [] : t.slice(i + 6).trim().split(/\s+/).filter(Boolean);
    get("/api/position", { pos: t }).then(function () {
      st.start = start; st.moves = moves; st.offset = 0; return load();
    }).catch(fail);
  };
  $("psearch").onclick = function () {
    var name = $("player").value.trim();
    if (!name) return;
    get("/api/search", { player: name, limit: 50 }).then(function (g) {
      $("found").innerHTML = '<div class="status" id="ftotal">' + g.total + " games</div>" + gameTable(g, "ftable") +
        (g.more ? '<div class="status">more than 50: refine the name</div>' : "");
    }).catch(fail);
  };
  document.addEventListener("keydown", function (ev) {
    if (!$("gameview").hidden || ev.target.tagName === "INPUT") return;
    if (ev.key === "ArrowLeft") { $("back").onclick(); ev.preventDefault(); }
  });
  load();
})();
