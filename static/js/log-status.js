/* Live verification status of a submitted log: polls /api/logs/{id}/ until the
   verdict is in (pending → verified or rejected), then redraws the panel in place
   from the page as the server now renders it, inside an aria-live region,
   without reloading the page. */
(function () {
  "use strict";

  var box = document.querySelector("[data-log-status]");
  if (!box || box.dataset.status !== "pending") return;
  var body = box.querySelector('[data-role="body"]');
  var apiUrl = box.dataset.apiUrl;
  var replayUrl = box.dataset.replayUrl;
  var matchUrl = box.dataset.matchUrl;

  var delay = 700;
  var MAX_DELAY = 5000;
  var deadline = Date.now() + 15 * 60 * 1000; // a worker queue backed up for longer needs a person, not a poll

  function el(tag, cls, text) {
    var node = document.createElement(tag);
    if (cls) node.className = cls;
    if (text !== undefined) node.textContent = text;
    return node;
  }

  function link(href, text, cls) {
    var a = el("a", cls, text);
    a.href = href;
    return a;
  }

  function actions(primary) {
    var p = el("p");
    p.appendChild(primary);
    p.appendChild(document.createTextNode(" "));
    p.appendChild(link(matchUrl, "Back to the match", "button button--ghost button--small"));
    return p;
  }

  // The verdict in the page's own words: the server words the result from the game's state (a verified
  // log may be one side's claim, awaiting the other side), so the panel is taken from the page itself.
  function render(log) {
    fetch(window.location.href, { headers: { Accept: "text/html" }, credentials: "same-origin", cache: "no-store" })
      .then(function (response) {
        if (!response.ok) throw new Error("HTTP " + response.status);
        return response.text();
      })
      .then(function (html) {
        var fresh = new DOMParser().parseFromString(html, "text/html").querySelector("[data-log-status]");
        var freshBody = fresh && fresh.querySelector('[data-role="body"]');
        if (!freshBody || fresh.dataset.status === "pending") throw new Error("no verdict in the page yet");
        body.replaceChildren.apply(body, Array.prototype.slice.call(freshBody.childNodes));
        box.dataset.status = fresh.dataset.status;
      })
      .catch(function () { renderPlain(log); });
  }

  // When the page cannot be fetched: the verdict alone, and where to see the game's result.
  function renderPlain(log) {
    body.textContent = "";
    box.dataset.status = log.status;
    if (log.status === "verified") {
      body.appendChild(el("p", "verify-status__title", "Verified"));
      body.appendChild(el("p", null, "Every event follows the rules and every card is accounted for. The match page says what it means for the game."));
      body.appendChild(actions(link(replayUrl, "Watch the replay", "button button--small")));
    } else {
      var title = el("p", "verify-status__title", "Rejected: ");
      title.appendChild(el("code", null, log.code || log.status));
      if (log.event !== null && log.event !== undefined) title.appendChild(document.createTextNode(" at event " + log.event));
      body.appendChild(title);
      body.appendChild(el("p", null, log.message || ""));
      var href = replayUrl + (log.event !== null && log.event !== undefined ? "#step=" + log.event : "");
      body.appendChild(actions(link(href, "See the replay at the failing event", "button button--small button--danger")));
    }
  }

  function poll() {
    fetch(apiUrl, { headers: { Accept: "application/json" }, credentials: "same-origin" })
      .then(function (response) {
        if (!response.ok) throw new Error("HTTP " + response.status);
        return response.json();
      })
      .then(function (log) {
        if (log.status && log.status !== "pending") {
          render(log);
          return;
        }
        schedule();
      })
      .catch(function () {
        // A dropped connection on a phone is no verdict: keep asking, more slowly.
        schedule();
      });
  }

  function schedule() {
    if (Date.now() > deadline) {
      var note = el("p", "small", "Still pending after a long while. Reload the page later to see the verdict.");
      body.appendChild(note);
      return;
    }
    window.setTimeout(poll, delay);
    delay = Math.min(Math.round(delay * 1.4), MAX_DELAY);
  }

  schedule();
})();
