/* The table page's life around the game (speed-table/1 amendment L), beside static/js/table.js.

   What a page must say and offer that is not a card: why its socket closed and whether it
   reconnects, the abort / resign / claim buttons (the resign behind a confirmation in a <dialog>,
   not window.confirm, which would stop the page's own clock and sockets while it is open), how
   long an opponent has been away on the server's clock, and how a game ended in words.

   table.js owns the socket and the state; this file keeps no socket of its own. It exposes
   `window.SpeedTableLife`: pure wordings (`closePolicy`, `endingWords`, `refusalWords`,
   `awayView`) and `controls(root, send)`, which draws the buttons for each state, counts the
   away time on each tick, and shows why the page stopped playing (`lost`) and the places.

   Plain script, no framework, no inline code (the site's Content-Security-Policy). */
(function () {
  "use strict";

  var ORDINALS = ["1st", "2nd", "3rd", "4th"];

  // `m:ss.s`, as the replays write a game's clock.
  function clock(ms) {
    if (ms === null || ms === undefined) return "–:––.–";
    var tenths = Math.floor(Math.max(0, ms) / 100);
    var minutes = Math.floor(tenths / 600);
    var seconds = (tenths % 600) / 10;
    return minutes + ":" + (seconds < 10 ? "0" : "") + seconds.toFixed(1);
  }

  // `m:ss`, for how long someone has been away.
  function span(ms) {
    var seconds = Math.floor(Math.max(0, ms) / 1000);
    var rest = seconds % 60;
    return Math.floor(seconds / 60) + ":" + (rest < 10 ? "0" : "") + rest;
  }

  function seconds(ms) {
    var n = Math.max(1, Math.ceil(ms / 1000));
    return n + " s";
  }

  // "ben", "ben and cy", "ben, cy and dan".
  function names(list) {
    if (list.length < 2) return list.join("");
    return list.slice(0, -1).join(", ") + " and " + list[list.length - 1];
  }

  // A seat as a sentence names it: "you" for this page's own seat, else its handle (never capitalised:
  // handles are names as their owners wrote them).
  function seatName(state, seat) {
    return seat === state.you ? "you" : state.players[seat];
  }
  // Seats in words; `first`: they begin a sentence ("You and ben", never a handle changed).
  function seatsNamed(state, seats, first) {
    var list = seats.map(function (seat) { return seatName(state, seat); });
    if (first && list.length && seats[0] === state.you) list[0] = "You";
    return names(list);
  }

  /* ---------- Close codes ---------- */

  // What a close code means and what the page does about it. `retry`: reconnect by itself with
  // backoff; otherwise the page stops and, with `button`, offers to reconnect when the player asks.
  // 4013 is the edge's "try again later": daphne (autobahn) cannot send RFC 6455's 1013, so the
  // server sends 4000 + 1013's number, and it is the one 4xxx code worth retrying by itself.
  var CLOSES = {
    4001: { kind: "replaced", link: "In another tab", words: "This seat is now open in another tab.", button: "Play here instead" },
    4003: { kind: "signed_out", link: "Logged out", words: "You were logged out, or your account changed: log in again to play at this table." },
    4004: { kind: "gone", link: "No table", words: "There is no such table." },
    4008: { kind: "manual", link: "Closed", words: "This page sent more messages at once than the server reads, so it closed the connection.", button: "Reconnect" },
    4009: { kind: "manual", link: "Closed", words: "This page sent a message larger than the server accepts, so it closed the connection.", button: "Reconnect" },
    4029: { kind: "manual", link: "Closed", words: "Too many connections are open for you (other tabs or devices): close one, then reconnect.", button: "Reconnect" },
    4013: { kind: "retry", link: "Unavailable", words: "The service is unavailable for a moment." },
  };

  function closePolicy(code, reason) {
    if (CLOSES[code]) return CLOSES[code];
    if (code >= 4000 && code < 5000) {
      // Another answer of the server's own: retrying by itself would only meet it again.
      return { kind: "manual", link: "Closed", words: reason || "The server closed this table's connection.", button: "Reconnect" };
    }
    return { kind: "retry", link: "Reconnecting…", words: "The connection was lost." }; // 1006, 1011, 1001, …
  }

  /* ---------- Refusals of the lifecycle's intents ---------- */

  function refusalWords(kind, code, message, state) {
    var claimMs = state && state.settings ? state.settings.claim_ms : null;
    if (code === "game_over") return "The game is over.";
    if (code === "not_seated") return "You are watching: only the players can do that.";
    if (code !== "not_playing") return message || code;
    if (kind === "abort") return "Too late to abort: a card has been played, or the table has ended. You can resign instead.";
    if (kind === "resign") return "Only a game being played can be resigned; before the first card, abort it.";
    if (kind === "claim") {
      return "Not yet: the game can be claimed once every other player has been away" +
        (claimMs ? " for " + seconds(claimMs) : " long enough") + ".";
    }
    return message || code;
  }

  /* ---------- Away, and the claim ---------- */

  function resigned(state, seat) { return (state.resigned || []).indexOf(seat) >= 0; }

  // The other seats still in play, which of them are away (on the server's clock `serverNow`), and
  // whether `you` may claim the game now, as the server judges it (present, every other seat in play
  // away past its claim_at).
  function awayView(state, serverNow) {
    var away = state.away || [];
    var others = [];
    state.players.forEach(function (_name, seat) {
      if (seat !== state.you && !resigned(state, seat)) others.push(seat);
    });
    var gone = others.filter(function (seat) { return away[seat]; }).map(function (seat) {
      return { seat: seat, name: state.players[seat], forMs: serverNow - away[seat].since, leftMs: away[seat].claim_at - serverNow };
    });
    var onClock = state.status === "playing" || state.status === "stuck";
    var seated = state.you !== null && state.you !== undefined;
    var present = seated && (!state.connected || state.connected[state.you]);
    var everyone = others.length > 0 && gone.length === others.length;
    var waitMs = everyone ? Math.max.apply(null, gone.map(function (g) { return g.leftMs; })) : null;
    return {
      gone: gone,
      everyone: everyone,
      waitMs: waitMs,
      claimable: onClock && seated && present && !resigned(state, state.you) && everyone && waitMs <= 0,
    };
  }

  /* ---------- Endings ---------- */

  // The ending in words: `headline` for the result line, `places` (strings, best first) for a table
  // of three or four. Null when the table has not ended.
  function endingWords(state) {
    var ended = state.ended || null;
    var settings = state.settings || {};
    if (state.status === "aborted") {
      var who = ended && ended.seat !== null && ended.seat !== undefined ? seatsNamed(state, [ended.seat], true) : null;
      return {
        headline: (who
          ? who + " aborted the game before the first card."
          : "The table was closed: not every player was ready within " + seconds(settings.abandon_ms || 60000) + " of its opening.") +
          " Nothing is decided; the game stays open.",
        places: null,
      };
    }
    if (state.status === "abandoned") {
      // Amendment L3: only when every player still in play was away that long; a claim was never made.
      return {
        headline: "The table was abandoned: every player was away for " + seconds(settings.abandon_ms || 60000) +
          ". Nothing is decided; the game stays open.",
        places: null,
      };
    }
    if (state.status !== "over" || !state.result) return null;
    var result = state.result;
    var solo = state.players.length === 1; // Speed Solitaire: a run against the clock
    if (result.deadlock) {
      return {
        headline: solo
          ? "No card fits and no flip frees one: the run ends with " + result.cards_left + " cards left."
          : "Deadlock: no flip could free a move. The game is void.",
        places: null,
      };
    }
    // Who won, in words: a team game is won by a team ("You and chloe"), any other by one seat.
    var teams = state.ruleset && state.ruleset.teams;
    function winners(first) {
      var seats = teams && result.winner_team !== undefined ? teams[result.winner_team] : [result.winner];
      return seatsNamed(state, seats, first);
    }
    var by = result.by;
    var t = ended && ended.t !== null && ended.t !== undefined ? ended.t : state.t;
    var against = ended && ended.against ? ended.against : (state.resigned || []).slice(-1);
    var actor = ended && ended.seat !== null && ended.seat !== undefined ? ended.seat : null;
    var losers = seatsNamed(state, against, true);
    var won = result.places ? "." : ": " + winners(false) + " won by forfeit.";
    var headline;
    if (!by && solo) {
      headline = seatsNamed(state, [0], true) + " cleared the run in " + clock(state.t) + ".";
    } else if (!by) {
      headline = winners(true) + " won (Speed called at " + clock(state.t) + ").";
    } else if (by === "resign") {
      headline = seatsNamed(state, [actor !== null ? actor : against[0]], true) + " resigned at " + clock(t) +
        (result.places ? ": the game is over." : won);
    } else if (by === "claim") {
      var claimer = actor !== null ? actor : result.winner;
      headline = losers + " left the table: " + seatName(state, claimer) + " claimed the game at " + clock(t) +
        (result.places ? "." : teams ? " for " + winners(false) + "." : " and won by forfeit.");
    } else if (by === "time") {
      var scores = (ended && ended.played) || [];
      headline = "Time is up at " + clock(t) + ": " + (result.places ? "placed" : seatName(state, result.winner) + " won") +
        " on the cards played (" + state.players.map(function (name, seat) { return name + " " + (scores[seat] || 0); }).join(", ") + ").";
    } else if (by === "no_show") {
      headline = losers + " did not come to the table in time" + (result.places ? ": the others won by forfeit." : won);
    } else {
      headline = "The game is over (" + by + ").";
    }
    var places = null;
    if (result.places) {
      var order = result.places.map(function (place, seat) { return { place: place, seat: seat }; });
      order.sort(function (a, b) { return a.place - b.place || a.seat - b.seat; });
      places = order.map(function (entry) {
        var tags = [];
        if (entry.seat === state.you) tags.push("you");
        if (against.indexOf(entry.seat) >= 0) tags.push(by === "claim" ? "claimed against" : by === "no_show" ? "did not come" : "resigned");
        else if (resigned(state, entry.seat)) tags.push("resigned");
        return (ORDINALS[entry.place - 1] || entry.place + "th") + ": " + state.players[entry.seat] + (tags.length ? " (" + tags.join(", ") + ")" : "");
      });
    }
    return { headline: headline, places: places };
  }

  /* ---------- The buttons ---------- */

  function controls(root, send) {
    function $(role) { return root.querySelector('[data-role="' + role + '"]'); }
    var box = $("life");
    var abortButton = $("abort");
    var resignButton = $("resign");
    var claimButton = $("claim");
    var awayLine = $("away-line");
    var dialog = $("resign-dialog");
    var state = null;
    var acting = false;

    abortButton.addEventListener("click", function () { send("abort"); });
    claimButton.addEventListener("click", function () { send("claim"); });
    resignButton.addEventListener("click", function () {
      var others = state.players.filter(function (_n, seat) { return seat !== state.you && !resigned(state, seat); });
      $("resign-words").textContent = others.length === 1
        ? others[0] + " wins the game. This cannot be undone."
        : "You place behind everyone still playing, and the game goes on without you. This cannot be undone.";
      if (typeof dialog.showModal === "function") dialog.showModal();
      else dialog.setAttribute("open", "");
    });
    $("resign-yes").addEventListener("click", function () {
      closeDialog();
      send("resign");
    });
    $("resign-no").addEventListener("click", closeDialog);

    function closeDialog() {
      if (!dialog.open) return;
      if (typeof dialog.close === "function") dialog.close();
      else dialog.removeAttribute("open");
    }

    function onClock() { return state && (state.status === "playing" || state.status === "stuck"); }
    function inGame() { return acting && !resigned(state, state.you); }

    // Each state: which buttons a seat gets (`acting`: seated, and this page still holds the seat).
    function draw(next, canAct) {
      state = next;
      acting = !!canAct;
      var live = ["waiting", "countdown", "playing", "stuck"].indexOf(state.status) >= 0;
      // An older server sends no `abortable`: then only before the countdown ends, which is always allowed.
      var abortable = state.abortable !== undefined ? state.abortable : state.status === "waiting" || state.status === "countdown";
      abortButton.hidden = !(inGame() && live && abortable);
      resignButton.hidden = !(inGame() && onClock());
      if (resignButton.hidden) closeDialog();
      box.hidden = abortButton.hidden && resignButton.hidden && claimButton.hidden && awayLine.hidden;
    }

    // Every tick: the away times on the server's clock, and the claim once it is due.
    function tick(serverNow) {
      if (!state) return;
      var view = awayView(state, serverNow);
      root.querySelectorAll("[data-role=away-for]").forEach(function (node) {
        var entry = (state.away || [])[Number(node.dataset.seat)];
        node.textContent = entry ? "away " + span(serverNow - entry.since) : "";
      });
      var shown = onClock() && view.gone.length > 0;
      awayLine.hidden = !shown;
      if (shown) {
        var who = names(view.gone.map(function (g) { return g.name; }));
        var longest = Math.max.apply(null, view.gone.map(function (g) { return g.forMs; }));
        var text = who + (view.gone.length === 1 ? " has" : " have") + " been away for " + span(longest) + ".";
        if (inGame()) {
          if (!view.everyone) text += " The game can be claimed only when every other player is away.";
          else if (view.claimable) text += " You may claim the game.";
          else if (view.waitMs > 0) text += " If " + (view.gone.length === 1 ? view.gone[0].name + " is" : "they are") + " not back within " + seconds(view.waitMs) + ", you may claim the game.";
        }
        awayLine.textContent = text;
      }
      claimButton.hidden = !(inGame() && view.claimable);
      box.hidden = abortButton.hidden && resignButton.hidden && claimButton.hidden && awayLine.hidden;
    }

    // Why this page stopped playing (a close policy), and what may help; null hides it.
    function lost(policy) {
      root.dataset.benched = policy ? policy.kind : "";
      $("lost").hidden = !policy;
      if (!policy) return;
      $("lost-words").textContent = policy.words;
      var again = $("lost-retry");
      again.hidden = !policy.button;
      again.textContent = policy.button || "";
      $("sign-in").hidden = policy.kind !== "signed_out";
    }

    // A table of three or four's places, best first (null: none).
    function places(lines) {
      var list = $("places");
      list.textContent = "";
      list.hidden = !lines;
      (lines || []).forEach(function (line) {
        var item = document.createElement("li");
        item.textContent = line;
        list.appendChild(item);
      });
    }

    return { draw: draw, tick: tick, lost: lost, places: places, dialogOpen: function () { return dialog.open; } };
  }

  window.SpeedTableLife = {
    clock: clock,
    closePolicy: closePolicy,
    refusalWords: refusalWords,
    awayView: awayView,
    endingWords: endingWords,
    controls: controls,
  };
})();
