// The game viewer: board, move list (KIF, Western or USI, remembered), comments, tags, the evaluation
// graph; keys ←/→, Home/End; the graph and the moves are clickable. It shows a GameView the
// Rust side computed (every position is in the data); it plays no move itself.
"use strict";
var Viewer = (function () {
  var CAP = 3000;
  function mount(root, g, start) {
    var st = { ply: 0, flip: false };
    var E = Draw.esc;
    root.innerHTML =
      '<h1 id="title"></h1>' +
      '<div class="layout"><div class="boardcol"><div id="board"></div>' +
      '<div class="controls"><button id="first" title="Home">|◀</button><button id="prev" title="←">◀</button>' +
      '<button id="next" title="→">▶</button><button id="last" title="End">▶|</button>' +
      '<button id="flip">反転</button>' + Draw.notationSelect("nota") +
      '<span class="status" id="status"></span></div></div>' +
      '<div class="side"><div class="status" id="result"></div><h2>指し手</h2><div class="moves" id="moves"></div>' +
      '<h2>コメント</h2><div class="comment" id="comment"></div>' +
      '<h2>評価値 <span class="status" id="evsrc"></span></h2><div id="graph"></div>' +
      '<h2>棋譜情報</h2><table class="tags" id="tags"></table></div></div>';
    function $(id) { return root.querySelector("#" + id); }
    $("title").textContent = g.title;
    $("result").textContent = g.result;
    $("tags").innerHTML = g.tags.map(function (t) { return "<tr><td>" + E(t[0]) + "</td><td>" + E(t[1]) + "</td></tr>"; }).join("");
    var evals = g.plies.map(function (p) { return p.eval ? p.eval.cp : null; });
    var hasEval = evals.some(function (e) { return e !== null; });
    $("evsrc").textContent = hasEval ? "(" + (g.eval_source || "") + ")" : "(なし)";
    function moveList() {
      var s = [];
      for (var i = 1; i < g.plies.length; i++) {
        var p = g.plies[i];
        s.push(Draw.moveItem(i, g.plies[i - 1].board.turn === "sente", p, p.comments.length ? " c" : ""));
      }
      $("moves").innerHTML = s.join("") || '<div class="status">no moves</div>';
    }
    function show() {
      var p = g.plies[st.ply];
      $("board").innerHTML = Draw.boardSvg(p.board, { flip: st.flip, from: p.from, to: p.to });
      var txt = st.ply === 0 ? "開始局面" : (g.plies[st.ply - 1].board.turn === "sente" ? "☗" : "☖") + Draw.moveText(p);
      $("status").textContent = st.ply + " / " + (g.plies.length - 1) + "  " + txt + (p.eval ? "  評価値 " + p.eval.text : "");
      var comments = p.comments.slice();
      if (st.ply === g.plies.length - 1) comments = comments.concat(g.ending_comments);
      $("comment").textContent = comments.join("\n");
      $("graph").innerHTML = Draw.graphSvg(evals, st.ply, CAP);
      var cur = root.querySelector(".mv.cur");
      if (cur) cur.classList.remove("cur");
      var el = root.querySelector('.mv[data-ply="' + st.ply + '"]');
      if (el) {
        el.classList.add("cur");
        var box = $("moves");
        if (el.offsetTop < box.scrollTop || el.offsetTop > box.scrollTop + box.clientHeight - el.offsetHeight)
          box.scrollTop = el.offsetTop - box.clientHeight / 2;
      }
      root.setAttribute("data-ply", String(st.ply));
    }
    function go(n) { st.ply = Math.max(0, Math.min(g.plies.length - 1, n)); show(); }
    $("first").onclick = function () { go(0); };
    $("prev").onclick = function () { go(st.ply - 1); };
    $("next").onclick = function () { go(st.ply + 1); };
    $("last").onclick = function () { go(g.plies.length - 1); };
    $("flip").onclick = function () { st.flip = !st.flip; show(); };
    $("nota").onchange = function () { Draw.notation(this.value); moveList(); show(); };
    $("moves").onclick = function (ev) {
      var t = ev.target.closest(".mv");
      if (t) go(+t.getAttribute("data-ply"));
    };
    $("graph").onclick = function (ev) {
      var svg = $("graph").querySelector("svg");
      go(Draw.graphPly(svg, ev.clientX, g.plies.length));
    };
    function onKey(ev) {
      if (!document.body.contains(root) || (ev.target && ev.target.tagName === "INPUT")) return;
      var k = ev.key;
      if (k === "ArrowLeft") go(st.ply - 1);
      else if (k === "ArrowRight") go(st.ply + 1);
      else if (k === "Home") go(0);
      else if (k === "End") go(g.plies.length - 1);
      else return;
      ev.preventDefault();
    }
    document.addEventListener("keydown", onKey);
    moveList();
    go(start || 0);
    return { go: go, detach: function () { document.removeEventListener("keydown", onKey); } };
  }
  return { mount: mount };
})();
