/* The API docs in Redoc (/api/redoc/), started from this file because the
   Content-Security-Policy forbids inline scripts. The page names the schema's URL
   in data-spec-url. */
(function () {
  "use strict";

  var container = document.getElementById("redoc-container");
  if (!container || !window.Redoc) return;

  /* Redoc's sidebar credits Redocly with a logo that it loads from Redocly's CDN, and
     has no option to leave it out or serve it from elsewhere (Redoc issue 2108). So
     that the docs make no request to another host, an image given an address on that
     CDN gets an empty one: it fails at once, without a request, and Redoc's own error
     handler hides it, as it does offline; the credit's text stays. React sets an
     image's address both as an attribute and as the `src` property, so both are
     guarded. Nothing else on this page is touched. */
  function keepImagesOffRedoclyCdn() {
    var CDN = "https://cdn.redoc.ly/";
    function local(value) {
      return String(value).indexOf(CDN) === 0 ? "" : value;
    }
    var setAttribute = Element.prototype.setAttribute;
    Element.prototype.setAttribute = function (name, value) {
      var isSrc = this instanceof HTMLImageElement && String(name).toLowerCase() === "src";
      return setAttribute.call(this, name, isSrc ? local(value) : value);
    };
    var src = Object.getOwnPropertyDescriptor(HTMLImageElement.prototype, "src");
    Object.defineProperty(HTMLImageElement.prototype, "src", {
      configurable: true,
      enumerable: src.enumerable,
      get: src.get,
      set: function (value) {
        src.set.call(this, local(value));
      },
    });
  }

  keepImagesOffRedoclyCdn();
  var font = 'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, "Noto Sans", sans-serif';
  window.Redoc.init(
    container.dataset.specUrl,
    {
      // Redoc's default fonts come from a font host; the site's own stack needs none.
      theme: { typography: { fontFamily: font, headings: { fontFamily: font } } },
    },
    container
  );
})();
