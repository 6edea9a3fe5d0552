"""SVG drawing, pure: a bracket's boxes and links (`bracket`), a line chart (`charts`)."""
