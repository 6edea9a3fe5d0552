/* The table page: live Speed at a table the server referees (speed-table/1).

   The page opens the table's socket and draws every `state` the server sends
   in full (never by applying differences), so a reconnect is only a new state:
   the socket reconnects with backoff and the first state it gets is the whole
   table. Plays are intents: the server decides; a refusal is shown on the card
   for a moment. The clock runs from the state's `t` and is advanced locally
   between states; the round trip comes from `ping`/`pong` on the same socket.

   At the end the page shows the result, the replay and the deck's proof: the
   salt is revealed, the log's deck is fetched and SHA-256(salt + ":" + deck)
   is computed in the browser (SubtleCrypto) and compared with the hash shown
   from the start.

   The table's life around the game (amendment L: a second tab, abort / resign / claim, the away
   times, the endings and close codes in words) is static/js/table-life.js, loaded first; this file
   owns the socket and the state and calls it. Every `ref` this page sends starts with a random
   token of its own load: the server never applies a seat's `play` ref twice, so refs counted from
   1 again after a reload, or in a second tab, would be ignored as repeats. "Play again" after the
   game is static/js/table-again.js, who watches and who is awaited static/js/table-who.js, and Spit's
   stock piles static/js/table-stock.js, all loaded before this file too.

   The extension's games (docs/table-protocol.md) change what the page draws, not how it plays: a team
   game tags each seat with its team and a partner's hand stays a count; a tableau game (Spit) plays
   from the seat's stock piles instead of a hand, choosing a top and then a centre pile (a play with
   `from`) or an empty stock position (a `move`); Speed Solitaire is one seat timed from the first card.

   Plain script, no framework, no inline code (the site's Content-Security-Policy). */
(function () {
  "use strict";

  var root = document.querySelector("[data-table]");
  if (!root) return;

  var Life = window.SpeedTableLife;
  var Stock = window.SpeedTableStock;
  var PILE_KEYS = ["a", "s", "d", "f", "g", "h", "j", "k"];
  var REFUSALS = {
    bad_message: "The server could not read that move.",
    not_seated: "You are watching: only the players play.",
    game_over: "The game is over.",
    not_playing: "Not now: the cards are not in play.",
    not_in_hand: "That card is no longer in your hand.",
    no_fit: "It does not fit: a card goes on one rank above or below the pile's top.",
    joker_last: "A joker may not be your last card.",
    collision: "Too late: another card landed on that pile first.",
  };
  var STATUS_WORDS = {
    waiting: "Waiting for every player to be ready",
    countdown: "Get ready…",
    playing: "Playing",
    stuck: "Nobody can move",
    over: "Game over",
    abandoned: "Abandoned",
    aborted: "Aborted",
  };
  var PING_EVERY_MS = 2000;
  var REFUSAL_SHOWN_MS = 1800;

  var socketPath = root.dataset.socket;
  var replayTemplate = root.dataset.replayUrl; // ends in /0/: the log's id replaces the 0
  var state = null;
  var stateAt = 0; // performance.now() when `state` arrived
  var selected = []; // the hand cards chosen, in order (a run with multi_card)
  var chosenStock = null; // in a tableau game: the own stock pile whose top is chosen
  var flipSent = false; // this seat flipped in the present stuck spell (the state does not say)
  var refs = {}; // ref -> the cards it played, to show a refusal on them
  var refCount = 0;
  var loadToken = randomToken();
  var pings = {};
  var rtts = [];
  var socket = null;
  var retries = 0;
  var retryTimer = null;
  var pingTimer = null;
  var benched = null; // why this page stopped playing (a close policy's kind: "replaced", "signed_out", …)
  var replacedSeen = false; // the server said `replaced` on this socket
  var retryAfterMs = 0; // the server's `unavailable` said when to try again
  var proofDone = false;

  function $(role) { return root.querySelector('[data-role="' + role + '"]'); }
  var el = window.SpeedCards.el, plural = window.SpeedCards.plural;
  var cardLabel = window.SpeedCards.label, cardShort = window.SpeedCards.short;

  function cardNode(card) { return window.SpeedCards.face(card, false); }
  function backNode(count) {
    var node = el("span", "pcard " + (count ? "pcard--back" : "pcard--empty"));
    node.setAttribute("aria-hidden", "true");
    return node;
  }

  var clock = Life.clock;

  function randomToken() {
    var bytes = new Uint8Array(6);
    if (window.crypto && window.crypto.getRandomValues) window.crypto.getRandomValues(bytes);
    else for (var i = 0; i < bytes.length; i++) bytes[i] = Math.floor(Math.random() * 256);
    return Array.prototype.map.call(bytes, function (b) { return (b < 16 ? "0" : "") + b.toString(16); }).join("");
  }
  function nextRef(kind) {
    refCount += 1;
    return loadToken + "-" + kind + refCount;
  }

  function seated() { return state && state.you !== null && state.you !== undefined; }
  // This page may play for its seat: seated, still holding the seat here, and not resigned.
  function acting() { return seated() && !benched && (state.resigned || []).indexOf(state.you) < 0; }
  function finished() {
    return state && (state.status === "abandoned" || state.status === "aborted" || (state.status === "over" && state.log));
  }
  function inPlay() { return state && (state.status === "playing" || state.status === "stuck"); }
  // Spit: the seats play from stock piles, which the state lists (`stock`), not from a hand.
  function tableau() { return !!(state && state.stock); }
  function ownStock() { return tableau() && seated() ? state.stock[state.you] : null; }
  // The team of `seat` (an index into ruleset.teams), or null outside a team game.
  function teamOf(seat) {
    var teams = (state.ruleset && state.ruleset.teams) || [];
    for (var side = 0; side < teams.length; side++) if (teams[side].indexOf(seat) >= 0) return side;
    return null;
  }
  function flipAsked() {
    return (
      acting() && state.status === "stuck" && state.ruleset && state.ruleset.stall_source === "draw_piles" &&
      state.draw_counts[state.you] > 0 && !flipSent
    );
  }

  /* ---------- The socket ---------- */

  function socketUrl() {
    var scheme = window.location.protocol === "https:" ? "wss:" : "ws:";
    return scheme + "//" + window.location.host + socketPath;
  }

  function send(message) {
    if (socket && socket.readyState === WebSocket.OPEN) {
      socket.send(JSON.stringify(message));
      return true;
    }
    return false;
  }

  function connect() {
    retryTimer = null;
    benched = null;
    replacedSeen = false;
    retryAfterMs = 0;
    life.lost(null);
    setLink("connecting");
    socket = new WebSocket(socketUrl());
    socket.addEventListener("open", function () {
      setLink("open");
      who.start();
      ping();
      pingTimer = window.setInterval(ping, PING_EVERY_MS);
    });
    socket.addEventListener("message", function (event) {
      var message;
      try { message = JSON.parse(event.data); } catch (e) { return; }
      if (message.type === "state") {
        retries = 0; // the backoff starts again only once a state came: a socket accepted, then closed, is no success
        onState(message);
      } else if (message.type === "refused") onRefused(message);
      else if (message.type === "pong") onPong(message);
      else if (message.type === "who") who.answer(message);
      else if (message.type === "replaced") replacedSeen = true; // the close (4001) follows
      else if (message.type === "unavailable") retryAfterMs = Number(message.retry_after_ms) || 0; // 4013 follows
    });
    socket.addEventListener("close", function (event) {
      who.stop();
      window.clearInterval(pingTimer);
      pingTimer = null;
      socket = null;
      if (finished()) {
        setLink("done");
        return;
      }
      var policy = Life.closePolicy(replacedSeen ? 4001 : event.code, event.reason);
      if (policy.kind !== "retry") {
        bench(policy);
        return;
      }
      // Backoff with jitter: 0.5 s, 1 s, 2 s … up to 10 s, so a restarted server is not stampeded;
      // never sooner than an outage's `retry_after_ms`.
      var delay = Math.min(10000, 500 * Math.pow(2, retries)) * (0.75 + Math.random() * 0.5);
      if (event.code === 4013) delay = Math.max(delay, retryAfterMs * (1 + Math.random() * 0.25));
      retries += 1;
      var when = Math.ceil(delay / 1000) + " s…";
      setLink("retrying", event.code === 4013 ? "Service unavailable: reconnecting in " + when : "Reconnecting in " + when);
      retryTimer = window.setTimeout(connect, delay);
    });
  }

  // The page stops playing for its seat, says why, and offers what may help (reconnect, sign in).
  function bench(policy) {
    benched = policy.kind;
    setLink("closed", policy.link);
    life.lost(policy);
    if (state) draw(null);
  }

  function setLink(how, text) {
    var node = $("link");
    node.dataset.link = how;
    node.textContent = text || { connecting: "Connecting…", open: "Connected", done: "Finished", retrying: "Reconnecting…", closed: "Closed" }[how];
  }

  function ping() {
    var ref = nextRef("p");
    pings[ref] = performance.now();
    send({ type: "ping", ref: ref });
  }

  function onPong(message) {
    var sent = pings[message.ref];
    if (sent === undefined) return;
    delete pings[message.ref];
    rtts.push(performance.now() - sent);
    if (rtts.length > 15) rtts.shift();
    var sorted = rtts.slice().sort(function (a, b) { return a - b; });
    var median = sorted[Math.floor(sorted.length / 2)];
    $("rtt").textContent = Math.round(rtts[rtts.length - 1]) + " ms (median " + Math.round(median) + " ms)";
  }

  /* ---------- Intents ---------- */

  function ready() {
    if (!acting()) return;
    if (send({ type: "ready" })) $("ready").disabled = true;
  }

  // Abort, resign, claim (amendment L3): the server decides; a refusal comes back under the ref.
  function sendLife(kind) {
    if (!acting()) return;
    var ref = nextRef(kind.charAt(0));
    refs[ref] = { cards: [], kind: kind };
    if (!send({ type: kind, ref: ref })) note("Not connected: try again once the page is connected.", "error");
  }

  function choose(index) {
    if (tableau()) return stockChosen(index);
    if (!acting() || !state.hand || index >= state.hand.length) return;
    var card = state.hand[index];
    var at = selected.indexOf(index);
    if (state.ruleset.multi_card) {
      if (at >= 0) selected.splice(at, 1);
      else selected.push(index);
    } else {
      selected = at >= 0 ? [] : [index];
    }
    drawHand();
    var words = selected.length ? selected.map(function (i) { return cardShort(state.hand[i]); }).join(", ") + " chosen: now a pile" : "Nothing chosen";
    say(words);
    return card;
  }

  // A tableau game: a stock top is chosen (or let go); with one chosen, an empty position of one's own
  // takes it (a `move`).
  function stockChosen(index) {
    var mine = ownStock();
    if (!acting() || !inPlay() || !mine || index >= mine.length) return;
    if (mine[index].top) {
      chosenStock = chosenStock === index ? null : index;
      drawHand();
      say(chosenStock === null ? "Nothing chosen" : cardShort(mine[index].top) + " chosen: now a centre pile, or an empty stock pile to move it there");
      return;
    }
    if (chosenStock === null) {
      say("Stock pile " + (index + 1) + " is empty: choose a card first, then this place to move it here");
      return;
    }
    var ref = nextRef("m");
    var card = mine[chosenStock].top;
    refs[ref] = { cards: [card] };
    if (send({ type: "move", ref: ref, card: card, from: chosenStock, to: index })) {
      chosenStock = null;
      drawHand();
      say("");
    } else {
      note("Not connected: that move was not sent.", "error");
    }
  }

  function pileChosen(pile) {
    if (!state || !acting() || pile >= state.piles.length) return;
    if (flipAsked()) {
      if (send({ type: "flip", pile: pile })) {
        flipSent = true;
        drawFlip();
        say("Your draw pile's card goes on pile " + (pile + 1));
      }
      return;
    }
    if (tableau() ? chosenStock === null : !selected.length) {
      say(tableau() ? "Choose a card of your stock piles first" : "Choose a card of your hand first");
      return;
    }
    var cards = tableau() ? [ownStock()[chosenStock].top] : selected.map(function (i) { return state.hand[i]; });
    var ref = nextRef("c");
    var message = { type: "play", pile: pile, ref: ref };
    if (state.ruleset.multi_card) message.cards = cards;
    else message.card = cards[0];
    if (tableau()) message.from = chosenStock;
    refs[ref] = { cards: cards, pile: pile };
    if (send(message)) {
      selected = [];
      chosenStock = null;
      drawHand();
      say("");
    } else {
      note("Not connected: that card was not sent.", "error");
    }
  }

  function onRefused(message) {
    var attempt = message.ref ? refs[message.ref] : null;
    if (attempt && attempt.kind) {
      note(Life.refusalWords(attempt.kind, message.code, message.message, state), "error");
      return;
    }
    var words = REFUSALS[message.code] || message.message || message.code;
    if (attempt && attempt.cards.length) {
      showRefusal(attempt.cards[0], words);
    } else {
      note(words, "error");
    }
  }

  // The refusal is shown on the card where it now is in the hand (it stays there), for a moment,
  // through the redraws of the states that follow; if the card has gone, in the message line.
  var shown = {}; // card -> {words, until}
  function showRefusal(card, words) {
    if (!state || !state.hand || state.hand.indexOf(card) < 0) {
      note(words, "error");
      return;
    }
    shown = {}; // one at a time: the latest refusal is the one that matters
    shown[card] = { words: words, until: performance.now() + REFUSAL_SHOWN_MS };
    drawHand();
    window.setTimeout(drawHand, REFUSAL_SHOWN_MS + 20);
  }

  function note(text, kind) {
    var node = $("note");
    node.textContent = text;
    node.dataset.kind = kind || "info";
    window.clearTimeout(note.timer);
    note.timer = window.setTimeout(function () { node.textContent = ""; }, REFUSAL_SHOWN_MS + 800);
  }
  function say(text) { $("say").textContent = text; }

  /* ---------- Drawing a state ---------- */

  function onState(message) {
    if (state && message.v < state.v) return; // an older state from a connection being replaced
    var previous = state;
    state = message;
    stateAt = performance.now();
    if (state.status !== "stuck") flipSent = false;
    if (!previous || previous.hand === null || !sameCards(previous.hand, state.hand)) {
      // Keep a choice only while the chosen cards are still at their places.
      selected = selected.filter(function (i) { return previous && state.hand && previous.hand && state.hand[i] === previous.hand[i]; });
    }
    if (chosenStock !== null) {
      var before = previous && previous.stock && seated() ? previous.stock[state.you][chosenStock].top : null;
      var now = ownStock() ? ownStock()[chosenStock].top : null;
      if (!now || now !== before) chosenStock = null;
    }
    draw(previous);
  }

  function sameCards(a, b) {
    if (!a || !b || a.length !== b.length) return false;
    for (var i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
    return true;
  }

  function draw(previous) {
    root.dataset.status = state.status;
    root.dataset.v = String(state.v);
    root.classList.toggle("is-spectator", !seated());
    $("status").textContent = STATUS_WORDS[state.status] || state.status;
    var you = seated() ? "You play as " + state.players[state.you] + " (seat " + (state.you + 1) + ")." : "You are watching this table.";
    if (seated() && (state.resigned || []).indexOf(state.you) >= 0 && state.status !== "over") you += " You resigned: the game goes on without you.";
    $("you").textContent = you;
    drawSeats();
    drawPiles(previous);
    drawHand();
    drawStocksSeen();
    drawGameWords();
    if (!selected.length) say("");
    drawFlip();
    drawLast();
    var readyButton = $("ready");
    readyButton.hidden = !acting() || state.status !== "waiting";
    readyButton.disabled = !!(seated() && state.ready[state.you]);
    readyButton.textContent = seated() && state.ready[state.you] ? "Ready: waiting for the others" : "I'm ready";
    $("hash").textContent = state.deck_sha256 || "";
    life.draw(state, acting());
    playAgain.draw(state);
    tick();
    var ending = Life.endingWords(state);
    if (state.status === "over") drawOver(ending);
    if (state.status === "abandoned" || state.status === "aborted") {
      // Nothing is decided and no log is stored: no replay to wait for.
      $("over").hidden = false;
      $("result").textContent = ending.headline;
      life.places(null);
      $("replay").hidden = true;
      $("log-wait").hidden = true;
    }
  }

  function drawSeats() {
    var list = $("seats");
    list.textContent = "";
    state.players.forEach(function (name, seat) {
      var item = el("li", "tt-seat");
      item.dataset.seat = String(seat);
      if (seat === state.you) item.classList.add("is-you");
      var team = teamOf(seat);
      if (team !== null) item.dataset.team = String(team);
      var head = el("div", "tt-seat__head");
      var dot = el("span", "tt-dot " + (state.connected[seat] ? "tt-dot--on" : "tt-dot--off"));
      dot.setAttribute("aria-hidden", "true");
      head.appendChild(dot);
      head.appendChild(el("strong", null, name + (seat === state.you ? " (you)" : "")));
      item.appendChild(head);
      var out = (state.resigned || []).indexOf(seat) >= 0;
      var partner = team !== null && seated() && seat !== state.you && teamOf(state.you) === team;
      var cards = tableau()
        ? [plural(stockCount(seat), "card") + " in stock", plural(state.draw_counts[seat], "spit card")]
        : [plural(state.hand_counts[seat], "card") + " in hand", state.draw_counts[seat] + " to draw" + (team !== null ? " (the team's)" : "")];
      var facts = [
        team !== null ? "team " + (team + 1) + (partner ? ", your partner" : "") : null,
        out ? "resigned" : null,
        state.connected[seat] ? "connected" : "not connected",
        state.status === "waiting" ? (state.ready[seat] ? "ready" : "not ready") : null,
      ].concat(cards).filter(Boolean);
      var line = el("span", "tt-seat__facts", facts.join(" · "));
      line.dataset.role = "seat-facts";
      item.appendChild(line);
      var away = el("span", "tt-seat__away"); // counted on every tick (table-life.js)
      away.dataset.role = "away-for";
      away.dataset.seat = String(seat);
      item.appendChild(away);
      list.appendChild(item);
    });
  }

  function stockCount(seat) {
    return state.stock[seat].reduce(function (sum, pile) { return sum + pile.down + (pile.top ? 1 : 0); }, 0);
  }

  function drawPiles(previous) {
    var row = $("piles");
    if (unchanged("piles", JSON.stringify([state.piles, state.pile_counts, state.stacks, inPlay(), acting()]))) return;
    row.textContent = "";
    row.dataset.count = String(state.piles.length); // eight piles (Double Spit) take a smaller card
    var keysShown = state.piles.length <= PILE_KEYS.length;
    state.piles.forEach(function (top, pile) {
      var button = el("button", "tt-pile");
      button.type = "button";
      button.dataset.pile = String(pile);
      button.dataset.top = top || "";
      var count = state.pile_counts[pile];
      // Before t = 0 a pile shows no card: its starter lies face down.
      // In Spit centre pile p is seat p's spit pile (docs/table-protocol.md).
      var whose = tableau() && state.players[pile] ? " (" + state.players[pile] + "'s spit pile)" : "";
      var label = "Pile " + (pile + 1) + whose + ": " + (top ? cardLabel(top) : count ? "face down" : "empty") + ", " + plural(count, "card");
      if (keysShown) label += " (key " + PILE_KEYS[pile].toUpperCase() + ")";
      button.setAttribute("aria-label", label);
      var face = top ? cardNode(top) : backNode(0);
      if (previous && previous.piles && previous.piles[pile] !== top) face.classList.add("pcard--new");
      button.appendChild(face);
      button.appendChild(el("span", "tt-pile__count", String(count)));
      if (keysShown) button.appendChild(el("kbd", "tt-key", PILE_KEYS[pile].toUpperCase()));
      button.disabled = !inPlay() || !acting();
      row.appendChild(button);
    });
    var stacks = $("stacks");
    stacks.textContent = "";
    (state.stacks || []).forEach(function (count, i) {
      var item = el("div", "tt-stack");
      item.setAttribute("role", "img");
      item.setAttribute("aria-label", "Stack " + (i + 1) + ": " + plural(count, "card") + " face down");
      item.appendChild(backNode(count));
      item.appendChild(el("span", "tt-pile__count", String(count)));
      stacks.appendChild(item);
    });
    stacks.hidden = !(state.stacks && state.stacks.length);
  }

  // The hand and the piles are rebuilt only when what they show changed: a card under a finger
  // must not be replaced by a state about someone else's move (the tap would be lost).
  var drawn = {};
  function unchanged(part, signature) {
    if (drawn[part] === signature) return true;
    drawn[part] = signature;
    return false;
  }

  function drawHand() {
    if (tableau()) return drawOwnStock();
    var row = $("hand");
    var hand = (state && state.hand) || [];
    var now = performance.now();
    var showing = Object.keys(shown).filter(function (card) { return shown[card].until > now; });
    if (unchanged("hand", JSON.stringify([hand, selected, inPlay(), acting(), seated(), state && state.hand === null, showing]))) return;
    row.textContent = "";
    $("hand-box").hidden = !seated();
    hand.forEach(function (card, i) {
      var slot = el("div", "tt-slot" + (i >= hand.length / 2 ? " tt-slot--right" : ""));
      var button = el("button", "tt-card");
      button.type = "button";
      button.dataset.card = card;
      button.dataset.index = String(i);
      var chosen = selected.indexOf(i) >= 0;
      button.setAttribute("aria-pressed", String(chosen));
      button.setAttribute("aria-label", cardLabel(card) + (i < 9 ? " (key " + (i + 1) + ")" : ""));
      if (chosen) button.classList.add("is-chosen");
      button.appendChild(cardNode(card));
      if (i < 9) button.appendChild(el("kbd", "tt-key", String(i + 1)));
      button.disabled = !inPlay() || !acting();
      slot.appendChild(button);
      var refusal = shown[card];
      if (refusal && refusal.until > performance.now()) {
        button.classList.add("is-refused");
        var bubble = el("span", "tt-refusal", refusal.words);
        bubble.setAttribute("role", "alert");
        bubble.dataset.role = "refusal";
        slot.appendChild(bubble);
      } else if (refusal) {
        delete shown[card];
      }
      row.appendChild(slot);
    });
    if (seated() && !hand.length) row.appendChild(el("p", "tt-muted", state.hand === null ? "Your cards are dealt when the countdown starts." : "No cards in hand."));
  }

  // A tableau game: the seat's own stock piles, in the hand's place.
  function drawOwnStock() {
    var row = $("hand");
    var mine = ownStock();
    $("hand-box").hidden = !seated();
    if (unchanged("hand", JSON.stringify([mine, chosenStock, inPlay(), acting()]))) return;
    row.textContent = "";
    if (!mine) return;
    row.appendChild(Stock.row(mine, { chosen: chosenStock, enabled: inPlay() && acting() }));
  }

  // Everyone else's stock piles lie open on the table (a spectator sees every seat's).
  function drawStocksSeen() {
    var box = $("stocks-seen");
    box.hidden = !tableau();
    if (!tableau() || unchanged("stocks-seen", JSON.stringify([state.stock, state.you]))) return;
    box.textContent = "";
    state.stock.forEach(function (piles, seat) {
      if (seat === state.you) return;
      var group = el("div", "tt-stock-seen");
      group.setAttribute("role", "group");
      group.setAttribute("aria-label", state.players[seat] + "'s stock piles");
      group.dataset.seat = String(seat);
      group.appendChild(el("p", "tt-stock-seen__who", state.players[seat] + "'s stock piles"));
      group.appendChild(Stock.row(piles, null));
      box.appendChild(group);
    });
  }

  // What this game's seat plays from and how, in words: the heading and the help under the hand.
  function drawGameWords() {
    var solo = state.players.length === 1;
    $("hand-title").textContent = tableau() ? "Your stock piles" : "Your hand";
    var help = tableau()
      ? "Tap a card of your stock piles, then a centre pile to play it, or an empty stock pile to move it there. Keys: 1–5 choose a stock pile (with a card chosen, an empty one takes it), A S (or ← →) put it on pile 1 or 2; Esc lets go. When nobody can move, the server turns everyone's next spit card over."
      : null;
    if (!help && solo) help = "Tap a card, then a pile; when no card fits, choose where your draw pile's top card goes. The run is timed from the first card to your last. Keys: 1–4 choose a card, A S D F a pile, Esc lets go, R says you are ready.";
    $("hand").setAttribute("aria-label", tableau() ? "Your stock piles" : "Your hand");
    $("help").hidden = !!help;
    $("help-game").hidden = !help;
    $("help-game").textContent = help || "";
  }

  function drawFlip() {
    var box = $("flip");
    var asked = !!(state && flipAsked());
    box.hidden = !asked;
    if (!asked || unchanged("flip", String(state.v) + ":" + state.piles.length)) return;
    var choices = $("flip-choices");
    choices.textContent = "";
    var team = teamOf(state.you);
    $("flip-words").textContent = team !== null
      ? "Where does your team's draw pile's top card go? The first of you to choose decides."
      : "Where does your draw pile's top card go?";
    state.piles.forEach(function (_top, pile) {
      var button = el("button", "button button--small", "Pile " + (pile + 1));
      button.type = "button";
      button.dataset.flip = String(pile);
      choices.appendChild(button);
    });
  }

  function drawLast() {
    var last = state.last;
    var node = $("last");
    if (!last) {
      node.textContent = "";
      return;
    }
    var who = last.player !== undefined && last.player !== null ? state.players[last.player] : "";
    var text = Stock.lastWords(last, who);
    if (text) {
      // a tableau event (Spit), said by table-stock.js
    } else if (last.type === "play") {
      var cards = last.cards || [last.card];
      text = who + " played " + cards.map(cardShort).join(" ") + " on pile " + (last.pile + 1);
    } else if (last.type === "collision") {
      text = who + "'s " + cardShort(last.card || (last.cards || [""])[0]) + " collided on pile " + (last.pile + 1);
    } else if (last.type === "stall") {
      text = tableau() ? "Stalled: everyone turned a spit card onto their spit pile" : "Stalled: new cards turned onto the piles";
    } else if (last.type === "reshuffle") {
      text = "The centre piles were reshuffled into the stacks";
    } else if (last.type === "speed") {
      text = who + " called Speed!";
    } else {
      text = last.type;
    }
    node.textContent = (last.t !== undefined ? clock(last.t) + " · " : "") + text;
  }

  function drawOver(ending) {
    $("over").hidden = false;
    $("result").textContent = ending ? ending.headline : "";
    life.places(ending ? ending.places : null);
    $("salt").textContent = state.salt || "";
    $("salt-line").hidden = !state.salt;
    var logMatch = state.log ? /\/logs\/(\d+)\//.exec(state.log) : null;
    var replay = $("replay");
    var replayUrl = logMatch ? replayTemplate.replace(/0\/$/, logMatch[1] + "/") : null;
    // speed-table/1: `log` is the log's URL (a practice table's too) and its bytes are at `document/`.
    var documentUrl = state.log ? state.log.replace(/\/$/, "") + "/document/" : null;
    replay.hidden = !replayUrl;
    $("board").hidden = !replayUrl || state.players.length !== 1; // a solitaire run is ranked once verified
    $("log-wait").hidden = !!replayUrl;
    if (replayUrl) {
      replay.href = replayUrl;
      if (!proofDone) {
        proofDone = true;
        checkDeck(documentUrl);
      }
    }
  }

  // The deck's proof: the hash shown from the start must be SHA-256(salt + ":" + the log's deck).
  function checkDeck(documentUrl) {
    var out = $("proof-check");
    if (!window.crypto || !window.crypto.subtle || !window.TextEncoder) {
      out.textContent = "This browser cannot compute SHA-256 here (it needs a secure page); check it yourself as explained below.";
      return;
    }
    out.textContent = "Checking the deck…";
    fetch(documentUrl, { credentials: "same-origin", headers: { Accept: "application/json" } })
      .then(function (response) {
        if (!response.ok) throw new Error("the log answered " + response.status);
        return response.json();
      })
      .then(function (log) {
        var text = state.salt + ":" + log.deck.join(",");
        return window.crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
      })
      .then(function (digest) {
        var hex = Array.prototype.map.call(new Uint8Array(digest), function (b) { return (b < 16 ? "0" : "") + b.toString(16); }).join("");
        var good = hex === state.deck_sha256;
        out.dataset.ok = String(good);
        out.textContent = good
          ? "✓ Checked in your browser: the log's deck with this salt gives the hash shown before the game began, so the deal was fixed before anyone played."
          : "✗ The log's deck does not give the hash shown before the game (" + hex + ").";
      })
      .catch(function (error) {
        out.textContent = "The deck could not be checked here (" + error.message + "); check it yourself as explained below.";
      });
  }

  /* ---------- The clock ---------- */

  // The server's clock now: its `now` in the last state plus the time since it arrived, on this page's
  // monotonic clock; so a computer whose clock is wrong still counts an away time as the server does.
  function serverNow() {
    if (typeof state.now !== "number") return Date.now();
    return state.now + (performance.now() - stateAt);
  }

  function tick() {
    if (!state) return;
    life.tick(serverNow());
    var since = performance.now() - stateAt;
    var t = state.t;
    if (t !== null && t !== undefined && inPlay()) t += since;
    $("clock").textContent = clock(t);
    drawTimeLimit(serverNow());
    var countdown = $("countdown");
    if (state.status === "countdown" && state.starts_in_ms !== null && state.starts_in_ms !== undefined) {
      countdown.hidden = false;
      countdown.textContent = "Starting in " + Math.max(0, Math.ceil((state.starts_in_ms - since) / 1000)) + "…";
    } else if (state.status === "stuck") {
      countdown.hidden = false;
      var stall = state.settings ? state.settings.stall_ms : 1500;
      var left = Math.max(0, Math.ceil((stall - since) / 100) / 10);
      var source = state.ruleset && state.ruleset.stall_source;
      countdown.textContent = source === "draw_piles"
        ? "Nobody can move: each player turns a card of their draw pile onto a pile (" + left.toFixed(1) + " s)"
        : source === "spit_cards"
          ? "Nobody can move: everyone's next spit card turns over in " + left.toFixed(1) + " s"
          : "Nobody can move: the stacks turn over in " + left.toFixed(1) + " s";
    } else {
      countdown.hidden = true;
    }
  }

  // A timed match (the state's time_limit): the time left on the server's clock, for seats and spectators alike.
  function drawTimeLimit(now) {
    var node = $("time-limit");
    var limit = state.time_limit;
    if (!limit) { node.hidden = true; return; }
    node.hidden = false;
    var ended = state.ended && state.ended.by === "time";
    if (ended) {
      node.dataset.left = "0";
      node.textContent = "Time is up (" + clock(limit.limit_ms) + ")";
    } else if (limit.ends_at === null || limit.ends_at === undefined) {
      node.dataset.left = String(limit.limit_ms);
      node.textContent = "Timed game: " + clock(limit.limit_ms) + " from the first card";
    } else {
      var left = inPlay() ? Math.max(0, limit.ends_at - now) : Math.max(0, limit.ends_at - state.now);
      node.dataset.left = String(Math.round(left));
      node.textContent = "Time left " + clock(left);
    }
  }

  /* ---------- Input ---------- */

  $("hand").addEventListener("click", function (event) {
    var button = event.target.closest("[data-index]");
    if (button) choose(Number(button.dataset.index));
    var stock = event.target.closest("[data-stock]");
    if (stock) stockChosen(Number(stock.dataset.stock));
  });
  $("piles").addEventListener("click", function (event) {
    var button = event.target.closest("[data-pile]");
    if (button) pileChosen(Number(button.dataset.pile));
  });
  $("flip-choices").addEventListener("click", function (event) {
    var button = event.target.closest("[data-flip]");
    if (button) pileChosen(Number(button.dataset.flip));
  });
  $("ready").addEventListener("click", ready);
  $("lost-retry").addEventListener("click", function () {
    if (socket) return;
    window.clearTimeout(retryTimer);
    retries = 0;
    connect(); // the seat moves back here: the other tab is told it was replaced
  });
  var life = Life.controls(root, sendLife);
  var playAgain = window.SpeedTableAgain.controls(root); // "Play again" once the game is over: table-again.js
  // How many watch, and whether the others are coming: asked over this socket (table-who.js).
  var who = window.SpeedTableWho.controls(root, function () { send({ type: "who", ref: nextRef("w") }); });

  document.addEventListener("keydown", function (event) {
    if (!state || event.altKey || event.ctrlKey || event.metaKey || life.dialogOpen()) return;
    var target = event.target;
    if (target && (target.tagName === "INPUT" || target.tagName === "TEXTAREA" || target.isContentEditable)) return;
    var key = event.key.toLowerCase();
    if (/^[1-9]$/.test(key)) {
      choose(Number(key) - 1);
      event.preventDefault();
    } else if (PILE_KEYS.indexOf(key) >= 0) {
      pileChosen(PILE_KEYS.indexOf(key));
      event.preventDefault();
    } else if (key === "arrowleft" || key === "arrowright") {
      if (state.piles.length === 2) {
        pileChosen(key === "arrowleft" ? 0 : 1);
        event.preventDefault();
      }
    } else if (key === "escape") {
      selected = [];
      chosenStock = null;
      drawHand();
    } else if (key === "r" && state.status === "waiting" && acting()) {
      ready();
    }
  });

  window.setInterval(tick, 100);
  connect();
})();
