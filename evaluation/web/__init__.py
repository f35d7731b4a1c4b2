"""The table in the browser: ``dealers-choice serve`` (:mod:`dealers_choice.commands.serve`).

A standard-library HTTP server (:mod:`evaluation.web.server`) with a JSON API and a
static page (``static/``: plain HTML, CSS and JavaScript, no build step, nothing
fetched from the internet). Replay hand histories, watch bots play, play against
bots, and read evaluation reports. See docs/web.md.
"""
