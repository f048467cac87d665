// The index of a folder's game pages: a table of the games, each a link to its page.
"use strict";
(function () {
  var d = JSON.parse(document.getElementById("data").textContent);
  var E = Draw.esc;
  var rows = d.games.map(function (g, i) {
    return '<tr><td class="num">' + (i + 1) + '</td><td><a href="' + E(encodeURI(g.href)) + '">' + E(g.title) + "</a></td><td>" +
      E(g.date || "") + "</td><td>" + E(g.result) + "</td></tr>";
  });
  document.getElementById("app").innerHTML = "<h1>" + E(d.title) + '</h1><table id="games"><tr><th>#</th><th>対局</th><th>日時</th><th>結果</th></tr>' +
    rows.join("") + "</table>";
})();
