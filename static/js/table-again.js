/* "Play again" on the table page, once a match table's game is over (the state's `again` key, shown to
   the table's players only; docs/table-protocol.md).

   The buttons answer over HTTP (POST /api/tables/{id}/again/, the session's cookie and CSRF token);
   every player's page learns of each answer from the next state the socket brings, and once the new
   table exists (`again.table`) every page that saw the offer open goes to it (a page opened on an old
   table later only links to it). The server decides: this file only draws what the state says and
   sends the click.

   Plain script, no inline code (the site's Content-Security-Policy). */
(function () {
  "use strict";

  function joined(list) {
    if (list.length <= 1) return list.join("");
    return list.slice(0, -1).join(", ") + " and " + list[list.length - 1];
  }

  function words(state) {
    var again = state.again;
    var me = state.players[state.you];
    var said = again.offered_by || [];
    var waiting = state.players.filter(function (name) { return said.indexOf(name) < 0; });
    if (again.status === "declined") return { text: again.declined_by + " declined to play again.", ask: false };
    if (again.status === "expired") return { text: "The offer to play again has expired.", ask: false };
    if (again.table !== null) return { text: "Everyone said yes: the new table is open.", ask: false };
    if (!waiting.length) return { text: "Everyone said yes: the new table opens as soon as the result is recorded…", ask: false };
    if (said.indexOf(me) >= 0) return { text: "Waiting for " + joined(waiting) + " to say yes.", ask: false };
    if (said.length) return { text: joined(said) + " would like to play again.", ask: true };
    return { text: "Play again?", ask: true };
  }

  function controls(root) {
    function $(role) { return root.querySelector('[data-role="' + role + '"]'); }
    var box = $("again");
    if (!box) return { draw: function () {} };
    var yes = $("again-yes");
    var no = $("again-no");
    var line = $("again-words");
    var link = $("again-go");
    var leaving = false;
    var sawOpen = false; // this page saw the offer open: when it starts, the page follows it

    function go(tableId) {
      if (leaving) return;
      leaving = true;
      window.location.assign("/tables/" + tableId + "/");
    }

    function answer(kind) {
      yes.disabled = no.disabled = true;
      fetch(box.getAttribute("data-url"), {
        method: "POST",
        credentials: "same-origin",
        headers: { "Content-Type": "application/json", Accept: "application/json", "X-CSRFToken": box.getAttribute("data-csrf") },
        body: JSON.stringify({ answer: kind }),
      }).then(function (response) {
        return response.json().then(function (body) { return { ok: response.ok, body: body }; });
      }).then(function (reply) {
        if (!reply.ok) {
          line.textContent = reply.body.message || "That did not work: try again.";
          yes.hidden = no.hidden = true;
          return;
        }
        if (reply.body.table !== null && reply.body.table !== undefined) go(reply.body.table);
      }).catch(function () {
        line.textContent = "The answer did not reach the server: try again.";
      }).then(function () { yes.disabled = no.disabled = false; });
    }

    yes.addEventListener("click", function () { answer("accept"); });
    no.addEventListener("click", function () { answer("decline"); });

    function draw(state) {
      var again = state.again;
      box.hidden = !again || state.you === null || state.you === undefined || state.status !== "over";
      if (box.hidden) return;
      var shown = words(state);
      line.textContent = shown.text;
      yes.hidden = !shown.ask;
      no.hidden = again.status !== "open" || again.table !== null;
      link.hidden = again.table === null;
      if (again.table !== null) link.setAttribute("href", "/tables/" + again.table + "/");
      if (again.status === "open" && again.table === null) sawOpen = true;
      else if (again.table !== null && sawOpen) go(again.table);
    }

    return { draw: draw };
  }

  window.SpeedTableAgain = { controls: controls, words: words };
})();
