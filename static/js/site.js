/* Every page: the phone menu, live regions that follow the event, and the new-tournament form's options.
   No inline scripts anywhere (a Content-Security-Policy forbids them): pages say what they want with data-*. */
(function () {
  "use strict";

  /* ---------- The menu on narrow screens ---------- */
  var toggle = document.querySelector("[data-role=nav-toggle]");
  var menu = document.querySelector("[data-role=nav-menu]");
  if (toggle && menu) {
    toggle.addEventListener("click", function () {
      var open = toggle.getAttribute("aria-expanded") !== "true";
      toggle.setAttribute("aria-expanded", String(open));
      menu.classList.toggle("is-open", open);
    });
    document.addEventListener("keydown", function (event) {
      if (event.key === "Escape" && toggle.getAttribute("aria-expanded") === "true") {
        toggle.setAttribute("aria-expanded", "false");
        menu.classList.remove("is-open");
        toggle.focus();
      }
    });
  }

  /* ---------- A table that scrolls sideways shows that it does ---------- */
  function markScrollers(root) {
    root.querySelectorAll(".table-wrap, .bracket-wrap").forEach(function (wrap) {
      function update() {
        var more = wrap.scrollWidth - wrap.clientWidth - wrap.scrollLeft > 2;
        wrap.classList.toggle("has-more", more);
        wrap.classList.toggle("is-scrolled", wrap.scrollLeft > 2);
      }
      if (!wrap.dataset.scrollCue) {
        wrap.dataset.scrollCue = "1";
        wrap.addEventListener("scroll", update, { passive: true });
        window.addEventListener("resize", update);
      }
      update();
    });
  }
  markScrollers(document);

  /* ---------- Live regions ----------
     <main data-live-url="/live/?tournament=3"> polls a small JSON version (with its ETag: an unchanged
     version is a bodiless 304). When it changes, the page fetches itself and swaps each
     [data-live-region] whose content changed, leaving alone a region where someone is typing. */
  var live = document.querySelector("[data-live-url]");
  // A page that follows nothing else still follows the tables where someone waits for its reader
  // (the banner of every page), with the one poll; the table page has its socket instead.
  if (!live && !document.querySelector("[data-table]")) live = document.querySelector("[data-waiting-url]");
  if (live && window.fetch && window.DOMParser) {
    var url = live.getAttribute("data-live-url") || live.getAttribute("data-waiting-url");
    var every = Number(live.getAttribute("data-live-every") || 4000);
    var etag = null;
    // The version the page was made at, when it says (else the first poll's): a change between the
    // page and its first poll is not missed.
    var version = live.getAttribute("data-live-version");
    var busy = false;

    var typing = function (region) {
      var active = document.activeElement;
      return active && region.contains(active) && /^(INPUT|TEXTAREA|SELECT)$/.test(active.tagName) && active.value;
    };

    var refresh = function () {
      return fetch(window.location.href, { headers: { "X-Live": "1" }, credentials: "same-origin" })
        .then(function (response) { return response.ok ? response.text() : null; })
        .then(function (html) {
          if (!html) return;
          var fresh = new DOMParser().parseFromString(html, "text/html");
          var names = function (root) {
            return Array.prototype.map.call(root.querySelectorAll("[data-live-region]"), function (region) {
              return region.getAttribute("data-live-region");
            }).join(" ");
          };
          // The navigation's parts outside the live element: its counts, the tables waiting for the reader.
          ["waiting-count", "tables-waiting"].forEach(function (role) {
            var now = document.querySelector('[data-role="' + role + '"]');
            var then = fresh.querySelector('[data-role="' + role + '"]');
            if (now && then && now.innerHTML !== then.innerHTML) now.innerHTML = then.innerHTML;
          });
          var whole = live.hasAttribute("data-live-url") && fresh.querySelector("[data-live-url]");
          if (whole && names(fresh) !== names(document)) {
            // The page changed shape (the tournament started, a section appeared): take all of it.
            live.innerHTML = whole.innerHTML;
            markScrollers(document);
            document.dispatchEvent(new CustomEvent("live:updated"));
            return;
          }
          document.querySelectorAll("[data-live-region]").forEach(function (region) {
            var name = region.getAttribute("data-live-region");
            var next = fresh.querySelector('[data-live-region="' + CSS.escape(name) + '"]');
            if (!next || next.innerHTML === region.innerHTML || typing(region)) return;
            region.innerHTML = next.innerHTML;
          });
          markScrollers(document);
          document.dispatchEvent(new CustomEvent("live:updated"));
        });
    };

    var poll = function () {
      // A page whose poll is its reader's presence (the lobby's open game) keeps polling when hidden.
      if (busy || (document.hidden && !live.hasAttribute("data-live-while-hidden"))) return;
      busy = true;
      var headers = etag ? { "If-None-Match": etag } : {};
      fetch(url, { headers: headers, cache: "no-store", credentials: "same-origin" })
        .then(function (response) {
          if (response.status === 304 || !response.ok) return null;
          etag = response.headers.get("ETag");
          return response.json();
        })
        .then(function (body) {
          if (!body) return null;
          var changed = version !== null && body.version !== version;
          version = body.version;
          return changed ? refresh() : null;
        })
        .catch(function () { /* offline for a moment: the next poll tries again */ })
        .then(function () { busy = false; });
    };
    poll();
    window.setInterval(poll, every);
    document.addEventListener("visibilitychange", function () { if (!document.hidden) poll(); });
  }

  /* ---------- New tournament: only the chosen format's options (a fieldset per format) ---------- */
  var format = document.querySelector("select[data-role=format]");
  if (format) {
    var showFormat = function () {
      document.querySelectorAll("[data-formats]").forEach(function (input) {
        var field = input.closest(".field") || input;
        var used = (input.getAttribute("data-formats") || "").split(" ").indexOf(format.value) !== -1;
        field.hidden = !used;
      });
      document.querySelectorAll("[data-format-description]").forEach(function (text) {
        text.hidden = text.getAttribute("data-format-description") !== format.value;
      });
    };
    format.addEventListener("change", showFormat);
    showFormat();
  }

  /* ---------- An option that matters only for one value of another (the draw number of a random draw) ---------- */
  document.querySelectorAll("[data-when-field]").forEach(function (input) {
    var field = input.closest(".field") || input;
    var other = document.querySelector("[name='" + input.getAttribute("data-when-field") + "']");
    if (!other) return;
    var showWhen = function () { field.hidden = other.value !== input.getAttribute("data-when-value"); };
    other.addEventListener("change", showWhen);
    showWhen();
  });

  /* ---------- New match: points and time limit only where the chosen ruleset reads them ---------- */
  var ruleset = document.querySelector("select[data-role=ruleset]");
  if (ruleset) {
    var showRuleset = function () {
      document.querySelectorAll("[data-rulesets]").forEach(function (input) {
        var field = input.closest(".field") || input;
        var used = (input.getAttribute("data-rulesets") || "").split(" ").indexOf(ruleset.value) !== -1;
        field.hidden = !used;
        // A hidden field is not sent: a value typed under another ruleset would be refused for this one.
        input.disabled = !used;
      });
    };
    ruleset.addEventListener("change", showRuleset);
    showRuleset();
  }

  /* ---------- A button that undoes something asks once more ---------- */
  // <form data-confirm="question" data-confirm-label="Yes, …">: the first press shows the question and turns
  // the button into the confirmation; the second sends the form. (Not window.confirm: it freezes the page.)
  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (!form.matches || !form.matches("form[data-confirm]") || form.dataset.confirmed === "yes") return;
    event.preventDefault();
    var button = form.querySelector("[type=submit]");
    var note = document.createElement("span");
    note.className = "confirm-note";
    note.setAttribute("role", "alert");
    note.dataset.role = "confirm-note";
    note.textContent = form.dataset.confirm;
    form.insertBefore(note, button);
    if (button) button.textContent = form.dataset.confirmLabel || "Yes, go ahead";
    form.dataset.confirmed = "yes";
  });
})();
