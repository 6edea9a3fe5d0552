"""The bottom of the site: domain errors, the API's shared pieces (errors, strict bodies,
tokens, throttles, pagination, schema), numbers, JSON documents, caches and the request
guards. It imports no app, so every app may import it; `speedsite` on top wires it up."""
