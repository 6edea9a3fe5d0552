"""Pure shaping of what the selectors read into what the templates show: names in words, seats and places,
a match page's rows, the replay viewer, a tournament's bracket sections, pages of long lists. No queries: plain values in, plain values out."""
