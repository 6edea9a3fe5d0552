"""`{% cached_part reader name %}…{% endcached_part %}`: a part of a page whose HTML is cached under a tournament's
generation, through the page's reader of that cache (`tournaments.cache.TournamentCache`).

Django's `{% cache %}` reads each fragment on its own, a round trip to the cache
each; through the reader, the view fetches the parts' HTML together with the data
(`prefetch`), and the tag renders its contents only when its part was not cached.
"""

from __future__ import annotations

from typing import Any

from django import template
from django.template.base import FilterExpression, NodeList, Parser, Token
from django.utils.safestring import SafeString, mark_safe

register = template.Library()


class CachedPartNode(template.Node):
    def __init__(self, nodelist: NodeList, reader: FilterExpression, name: FilterExpression) -> None:
        self.nodelist = nodelist
        self.reader = reader
        self.name = name

    def render(self, context: template.Context) -> SafeString:
        reader: Any = self.reader.resolve(context)
        name = self.name.resolve(context)
        if reader is None or not name:  # no cache to read (a page rendered without one): render it
            return mark_safe(self.nodelist.render(context))  # noqa: S308 - rendered by the template engine
        html = reader.get(str(name), lambda: str(self.nodelist.render(context)))
        return mark_safe(html)  # noqa: S308 - what the template engine rendered, escaped as it was then


@register.tag
def cached_part(parser: Parser, token: Token) -> CachedPartNode:
    bits = token.split_contents()
    if len(bits) != 3:
        raise template.TemplateSyntaxError(f"{bits[0]} takes a cache reader and a part's name")
    nodelist = parser.parse(("endcached_part",))
    parser.delete_first_token()
    return CachedPartNode(nodelist, parser.compile_filter(bits[1]), parser.compile_filter(bits[2]))
