/* Who is around the table, beside its state: how many watch it, and for a seat whose table waits for
   the others, whether each of them is here, on the site, and told that you wait (docs/table-protocol.md,
   `who`). Asked over the table's own socket every few seconds while it is open, so the page keeps one
   connection and asks nothing while the server is down or the page is hidden; the spectators are kept
   out of the state on purpose (one coming or going bumps no `v`, so no seat's state is sent again).

   table.js owns the socket: it calls `start` when the socket opens, `stop` when it closes, and
   `answer` with each `who` reply; `ask` is its function that sends one.

   Plain script, no inline code (the site's Content-Security-Policy). */
(function () {
  "use strict";

  var EVERY_MS = 5000;
  var TOLD = { page: "told on their page", email: "emailed" };

  function drawOpponents(box, opponents) {
    var waiting = opponents.some(function (one) { return !one.seated; });
    box.hidden = !waiting;
    var list = box.querySelector("[data-role=opponents-list]");
    list.textContent = "";
    opponents.forEach(function (one) {
      var item = document.createElement("li");
      item.dataset.role = "opponent";
      item.dataset.seat = String(one.seat);
      var name = document.createElement("strong");
      name.textContent = one.handle;
      item.appendChild(name);
      var words = [one.seated ? "is here" : "is not here yet"];
      if (!one.seated) {
        words.push(one.online ? "is on the site" : "is not on the site");
        words.push(TOLD[one.told] || "not told yet");
      }
      item.appendChild(document.createTextNode(" " + words.join(", ") + "."));
      list.appendChild(item);
    });
  }

  function controls(root, ask) {
    var watching = root.querySelector("[data-role=watching]");
    var box = root.querySelector("[data-role=opponents]");
    var timer = null;

    function askNow() {
      window.clearTimeout(timer);
      timer = window.setTimeout(askNow, EVERY_MS);
      if (!document.hidden) ask();
    }
    document.addEventListener("visibilitychange", function () {
      if (!document.hidden && timer !== null) askNow();
    });
    return {
      start: askNow,
      stop: function () {
        window.clearTimeout(timer);
        timer = null;
      },
      answer: function (message) {
        if (watching && typeof message.watching === "number") {
          watching.textContent = message.watching + " watching";
          watching.setAttribute("data-watching", String(message.watching));
        }
        if (box && Array.isArray(message.opponents)) drawOpponents(box, message.opponents);
      },
    };
  }

  window.SpeedTableWho = { controls: controls };
})();
