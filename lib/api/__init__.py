"""The JSON API kit every app's endpoints share: views, parsing, rendering, errors."""
