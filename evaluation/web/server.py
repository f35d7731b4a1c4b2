"""The HTTP side of ``dealers-choice serve``: the standard library's
:class:`~http.server.ThreadingHTTPServer`, the page's static files and ``/api/``.

Requests are parsed as data: a body is read only up to ``max_upload`` bytes (a larger
one is refused with 413 before it is read), must be a JSON object sent as
``application/json`` (a web page elsewhere cannot send that to this server without
the browser asking first, so it cannot drive the server from another site), and every
refusal is a 4xx JSON ``{"error": message}`` that the page shows as it is.
"""

from __future__ import annotations

import json
import logging
import sys
import threading
import traceback
from collections.abc import Sequence
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any
from urllib.parse import parse_qsl, unquote, urlsplit

from evaluation.web.api import App, Reply, json_reply
from evaluation.web.hands import RequestError

STATIC = Path(__file__).resolve().parent / "static"
CONTENT_TYPES = {
    ".html": "text/html; charset=utf-8",
    ".js": "text/javascript; charset=utf-8",
    ".css": "text/css; charset=utf-8",
    ".svg": "image/svg+xml",
    ".png": "image/png",
}
DEFAULT_PORT = 8765
LOOPBACK_NAMES = frozenset({"127.0.0.1", "localhost", "[::1]"})
MAX_UPLOAD = 8 * 2**20
DRAIN_LIMIT = 256 * 2**20  # a refused body up to this size is read and dropped, never kept
# nothing but this server: no script, style, font or image from anywhere else
SECURITY_HEADERS = {
    "Content-Security-Policy": "default-src 'self'; img-src 'self' data: blob:; style-src 'self'; "
    "script-src 'self'; connect-src 'self'; frame-ancestors 'none'",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
}
log = logging.getLogger("dealers_choice.serve")


def static_files() -> dict[str, Path]:
    """The page's files by URL name: only these are ever served from the package."""
    return {p.name: p for p in STATIC.iterdir() if p.is_file() and p.suffix in CONTENT_TYPES}


class Handler(BaseHTTPRequestHandler):
    """One request. ``server.app`` holds the state; ``server.max_upload`` the body limit."""

    server: Server
    protocol_version = "HTTP/1.1"
    timeout = 120  # seconds a connection may sit idle mid-request (a stalled client frees its thread)

    def log_message(self, format: str, *args: Any) -> None:
        log.info("%s %s", self.address_string(), format % args)

    def do_GET(self) -> None:
        self._serve("GET")

    def do_POST(self) -> None:
        self._serve("POST")

    def _serve(self, method: str) -> None:
        try:
            reply = self._route(method)
        except RequestError as err:
            reply = json_reply({"error": str(err)}, err.status)
        except ValueError as err:  # the library's own validation: options, variants, bot specs, layouts
            reply = json_reply({"error": str(err)}, 400)
        except Exception as err:  # a bug: say so, keep serving
            log.error("%s", traceback.format_exc())
            reply = json_reply({"error": f"internal error ({type(err).__name__}: {str(err)[:300]})"}, 500)
        self._send(reply)

    def _route(self, method: str) -> Reply:
        self._check_host()
        url = urlsplit(self.path)
        parts = [unquote(p) for p in url.path.split("/") if p]
        query = dict(parse_qsl(url.query, max_num_fields=20))
        body = self._body() if method == "POST" else None
        if parts[:1] == ["api"]:
            return self.server.app.handle(method, parts[1:], query, body)
        if method != "GET":
            raise RequestError("only the API takes POST", status=405)
        if not parts or parts == ["index.html"]:
            parts = ["static", "index.html"]
        elif parts == ["favicon.ico"]:
            parts = ["static", "favicon.svg"]
        files = static_files()
        if len(parts) == 2 and parts[0] == "static" and parts[1] in files:
            path = files[parts[1]]
            return Reply(200, path.read_bytes(), CONTENT_TYPES[path.suffix])
        raise RequestError(f"not found: {url.path[:100]}", status=404)

    def _check_host(self) -> None:
        """On loopback, only requests addressed to loopback: a web page elsewhere whose
        name is made to point at 127.0.0.1 (DNS rebinding) sends its own Host and is refused."""
        if not self.server.loopback:
            return
        host = self.headers.get("Host", "")
        name = host.rsplit(":", 1)[0] if not host.startswith("[") else host.split("]")[0] + "]"
        if name not in LOOPBACK_NAMES:
            raise RequestError(f"this server answers only requests for 127.0.0.1 or localhost, not {host[:80]!r}", 421)

    def _body(self) -> Any:
        length_text = self.headers.get("Content-Length")
        if length_text is None or not length_text.isdigit():
            raise RequestError("a POST needs a Content-Length", status=411)
        length = int(length_text)
        if length > self.server.max_upload:
            self._discard(length)
            raise RequestError(
                f"the request is {length} bytes; this server takes at most {self.server.max_upload} "
                "(serve --max-upload-mb)",
                status=413,
            )
        raw = self.rfile.read(length)
        kind = self.headers.get("Content-Type", "").split(";")[0].strip()
        if kind != "application/json":
            raise RequestError("send the request body as application/json", status=415)
        try:
            return json.loads(raw.decode("utf-8"))
        except (UnicodeDecodeError, json.JSONDecodeError) as err:
            raise RequestError(f"bad JSON in the request body: {err}") from None

    def _discard(self, length: int) -> None:
        """Read a refused body in chunks and drop it, so the browser, still sending,
        gets the 413 rather than a reset connection; past ``DRAIN_LIMIT`` just hang up."""
        if length > DRAIN_LIMIT:
            self.close_connection = True
            return
        while length > 0:
            chunk = self.rfile.read(min(length, 1 << 16))
            if not chunk:
                break
            length -= len(chunk)

    def _send(self, reply: Reply) -> None:
        self.send_response(reply.status)
        self.send_header("Content-Type", reply.content_type)
        self.send_header("Content-Length", str(len(reply.body)))
        self.send_header("Cache-Control", "no-store")
        if reply.filename:
            self.send_header("Content-Disposition", f'attachment; filename="{reply.filename}"')
        for key, value in SECURITY_HEADERS.items():
            self.send_header(key, value)
        if self.close_connection:
            self.send_header("Connection", "close")
        self.end_headers()
        self.wfile.write(reply.body)


class Server(ThreadingHTTPServer):
    """A threading HTTP server that holds one :class:`App`."""

    daemon_threads = True

    def __init__(self, address: tuple[str, int], app: App, max_upload: int = MAX_UPLOAD) -> None:
        super().__init__(address, Handler)
        self.app = app
        self.max_upload = max_upload
        self.loopback = address[0] in ("127.0.0.1", "localhost", "::1")

    @property
    def url(self) -> str:
        host, port = self.server_address[:2]
        return f"http://{host}:{port}/"


def make_server(
    roots: Sequence[Path],
    *,
    host: str = "127.0.0.1",
    port: int = DEFAULT_PORT,
    bots: Sequence[str] = (),
    max_upload: int = MAX_UPLOAD,
) -> Server:
    """A server bound to ``host:port`` (port 0: any free one), not started yet."""
    return Server((host, port), App(roots, bots, max_upload), max_upload)


def start_in_thread(server: Server) -> threading.Thread:
    """Serve in a daemon thread (tests, notebooks); ``server.shutdown()`` stops it."""
    thread = threading.Thread(target=server.serve_forever, name="dealers-choice-serve", daemon=True)
    thread.start()
    return thread


def serve_forever(server: Server) -> None:
    """Serve until Ctrl-C."""
    print(f"Dealer's Choice table: {server.url}  (Ctrl-C stops it)", file=sys.stderr)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()
