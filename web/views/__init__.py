"""The site's pages, one module per area. Thin: a view reads through `web.selectors` or changes through
one service, shapes with `web.presenters`, and renders; it never queries the ORM itself."""
