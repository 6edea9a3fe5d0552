/* The table page, while its player waits: is each other player here, on the site, told that you wait?
   Polls GET /api/tables/{id}/opponents/ (players only: anyone else's page hides the box and stops)
   until every seat is taken, and again when the table says a seat is away. */
(function () {
  "use strict";
  var box = document.querySelector("[data-role=opponents]");
  if (!box || !window.fetch) return;
  var list = box.querySelector("[data-role=opponents-list]");
  var url = box.getAttribute("data-opponents-url");
  var EVERY = 5000;
  var timer = null;

  var told = { page: "told on their page", email: "emailed" };

  var draw = function (opponents) {
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
        words.push(told[one.told] || "not told yet");
      }
      item.appendChild(document.createTextNode(" " + words.join(", ") + "."));
      list.appendChild(item);
    });
  };

  var poll = function () {
    timer = null;
    fetch(url, { headers: { Accept: "application/json" }, credentials: "same-origin", cache: "no-store" })
      .then(function (response) {
        if (response.status === 401 || response.status === 403 || response.status === 404) return false;
        return response.ok ? response.json() : null;
      })
      .then(function (opponents) {
        if (opponents === false) { box.hidden = true; return; } // not a player here: nothing to wait for
        if (opponents) {
          var waiting = opponents.some(function (one) { return !one.seated; });
          box.hidden = !waiting;
          draw(opponents);
          if (!waiting) return; // everyone is here: the table's own state shows the rest
        }
        timer = window.setTimeout(poll, EVERY);
      })
      .catch(function () { timer = window.setTimeout(poll, EVERY); });
  };
  poll();
  // A seat's connection went later (table.js redraws the seats with each state): look again.
  var seats = document.querySelector("[data-role=seats]");
  if (seats) {
    new MutationObserver(function () {
      if (timer === null && seats.querySelector(".tt-dot--off")) timer = window.setTimeout(poll, 0);
    }).observe(seats, { childList: true });
  }
})();
