/* The browser's time zone, told to the site (web.middleware.TimeZoneMiddleware reads it).
   - A cookie, speed_tz, for whoever chose no zone (a visitor, a new organiser): the next page is in it.
   - The sign-up form's hidden box (data-role=browser-time-zone): a new account starts in it.
   - Settings (data-role=browser-zone): "Your browser is in …" and a button to choose it, when it is not the
     zone chosen.
   A file of its own, loaded by every page: the site's policy runs no inline script. */
(function () {
  "use strict";

  var zone = "";
  try {
    zone = Intl.DateTimeFormat().resolvedOptions().timeZone || "";
  } catch (error) {
    return; /* no Intl: the site keeps UTC */
  }
  if (!zone) return;

  var COOKIE = "speed_tz";
  var said = document.cookie.split("; ").some(function (pair) {
    return pair === COOKIE + "=" + encodeURIComponent(zone);
  });
  if (!said) {
    document.cookie = COOKIE + "=" + encodeURIComponent(zone) + "; path=/; max-age=31536000; SameSite=Lax" +
      (location.protocol === "https:" ? "; Secure" : "");
  }

  document.querySelectorAll("input[data-role=browser-time-zone]").forEach(function (input) {
    input.value = zone;
  });

  document.querySelectorAll("[data-role=time-zone]").forEach(function (box) {
    var select = box.querySelector("select");
    var hint = box.querySelector("[data-role=browser-zone]");
    if (!select || !hint) return;
    var known = Array.prototype.some.call(select.options, function (option) { return option.value === zone; });
    if (!known || select.value === zone) return;
    hint.querySelector("[data-role=browser-zone-name]").textContent = zone.replace(/_/g, " ");
    hint.hidden = false;
    hint.querySelector("[data-role=use-browser-zone]").addEventListener("click", function () {
      select.value = zone;
      hint.hidden = true;
      select.focus();
    });
  });
})();
