#!/usr/bin/env python3
"""The PaginatedListHTTP tests' fixture server: one feed, served in every paging style.

Standard library only. Listens on 127.0.0.1 on an ephemeral port and prints the port on stdout (one line),
then serves until stdin reaches end of file (the test process closed it or died) or /control/shutdown.

Feed endpoints (every one honours If-None-Match / If-Modified-Since with a 304, sends ETag and
Last-Modified for the feed's version, answers late with ?delay=SECONDS, and is logged under ?tag=NAME):

  GET /page?page=P&limit=L[&totals=1]    {"items": [...]} (+ "total" with totals=1); pages from 1
  GET /cursor[?cursor=C]&limit=L         {"items": [...], "next_cursor": "ID" | null}
  GET /link[?page=P]&limit=L[&absolute=1] a top-level array; Link: <...>; rel="next" (relative or absolute)
  GET /drf[?cursor=C]&limit=L            {"results": [...], "next": "/drf?cursor=...&limit=L" | null}
  GET /offset?offset=O&limit=L           a top-level array

An item is {"id": 7, "title": "Item 7", "created_at": "2024-05-01T12:00:07Z"}.

Control endpoints (GET or POST; answer JSON):

  /control/reset?items=N                 a fresh feed of items 1...N; clears faults and the log
  /control/insert?at=I&count=C           inserts C new items at position I (new ids, above the rest)
  /control/delete?at=I&count=C           deletes C items from position I
  /control/fault?kind=K&times=T          the next T feed requests fail as K: 500, 429, malformed,
                                         truncated (Content-Length larger than the body, then close),
                                         content-type (a text/html page with status 200)
  /control/slow?delay=S&times=T          the next T feed requests answer after S seconds
  /control/log[?tag=NAME]                the feed requests: path, tag, status, outcome ("pending",
                                         "written", or "closed": the client closed the connection before
                                         the response was written)
  /control/shutdown                      stops the server
"""

import email.utils
import json
import os
import select
import socket
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlencode, urlsplit

BASE_TIME = 1714564800  # 2024-05-01T12:00:00Z


class Feed:
    def __init__(self, count):
        self.lock = threading.Lock()
        self.reset(count)

    def reset(self, count):
        self.items = [self.make(i) for i in range(1, count + 1)]
        self.next_id = count + 1
        self.version = 1
        self.faults = []  # kinds, one per coming feed request
        self.slow = []  # delays, one per coming feed request
        self.log = []

    @staticmethod
    def make(ident):
        stamp = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(BASE_TIME + ident))
        return {"id": ident, "title": "Item %d" % ident, "created_at": stamp}

    def changed(self):
        self.version += 1

    @property
    def etag(self):
        return '"v%d"' % self.version

    @property
    def last_modified(self):
        return email.utils.formatdate(BASE_TIME + self.version * 60, usegmt=True)


FEED = Feed(int(os.environ.get("FEED_ITEMS", "23")))


def integer(query, name, default):
    try:
        return int(query.get(name, [default])[0])
    except (TypeError, ValueError):
        return default


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server_version = "FeedServer/1.0"

    def log_message(self, *args):
        pass

    def do_POST(self):
        self.do_GET()

    def do_GET(self):
        url = urlsplit(self.path)
        query = parse_qs(url.query)
        if url.path.startswith("/control/"):
            self.control(url.path[len("/control/"):], query)
        elif url.path in ("/page", "/cursor", "/link", "/drf", "/offset"):
            self.feed(url.path, query)
        else:
            self.reply(404, {"error": "no such endpoint: %s" % url.path})

    # MARK: control

    def control(self, command, query):
        with FEED.lock:
            if command == "reset":
                FEED.reset(integer(query, "items", 23))
                answer = {"count": len(FEED.items)}
            elif command == "insert":
                at, count = integer(query, "at", 0), integer(query, "count", 1)
                new = []
                for _ in range(count):
                    new.append(Feed.make(FEED.next_id))
                    FEED.next_id += 1
                FEED.items[at:at] = new
                FEED.changed()
                answer = {"inserted": [item["id"] for item in new], "count": len(FEED.items)}
            elif command == "delete":
                at, count = integer(query, "at", 0), integer(query, "count", 1)
                gone = FEED.items[at:at + count]
                del FEED.items[at:at + count]
                FEED.changed()
                answer = {"deleted": [item["id"] for item in gone], "count": len(FEED.items)}
            elif command == "fault":
                kind = query.get("kind", ["500"])[0]
                FEED.faults.extend([kind] * integer(query, "times", 1))
                answer = {"faults": FEED.faults}
            elif command == "slow":
                FEED.slow.extend([float(query.get("delay", ["1"])[0])] * integer(query, "times", 1))
                answer = {"slow": FEED.slow}
            elif command == "log":
                tag = query.get("tag", [None])[0]
                answer = {"requests": [entry for entry in FEED.log if tag is None or entry["tag"] == tag]}
            elif command == "shutdown":
                answer = {"stopping": True}
                threading.Thread(target=self.server.shutdown, daemon=True).start()
            else:
                self.reply(404, {"error": "no such control: %s" % command})
                return
        self.reply(200, answer)

    # MARK: the feed

    def feed(self, path, query):
        with FEED.lock:
            fault = FEED.faults.pop(0) if FEED.faults else None
            delay = FEED.slow.pop(0) if FEED.slow else float(query.get("delay", ["0"])[0])
            entry = {"path": self.path, "tag": query.get("tag", [None])[0], "status": None, "outcome": "pending"}
            FEED.log.append(entry)
        if delay > 0 and self.wait_or_closed(delay):
            with FEED.lock:
                entry["outcome"] = "closed"
            self.close_connection = True
            return
        with FEED.lock:
            status, headers, body = self.answer(path, query, fault)
            entry["status"] = status
        try:
            self.send(status, headers, body, truncated=(fault == "truncated"))
            outcome = "written"
        except (BrokenPipeError, ConnectionResetError):
            outcome = "closed"
            self.close_connection = True
        with FEED.lock:
            entry["outcome"] = outcome

    def wait_or_closed(self, delay):
        """Sleeps `delay` seconds; True as soon as the client closes the connection."""
        deadline = time.monotonic() + delay
        while True:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                return False
            readable, _, _ = select.select([self.connection], [], [], min(remaining, 0.05))
            if readable:
                try:
                    if self.connection.recv(1, socket.MSG_PEEK) == b"":
                        return True
                except (ConnectionResetError, OSError):
                    return True
                time.sleep(min(remaining, 0.05))  # a pipelined request: keep waiting

    def answer(self, path, query, fault):
        """The status, headers and body of a feed request (called with the lock held)."""
        validators = {"ETag": FEED.etag, "Last-Modified": FEED.last_modified}
        if fault == "500":
            return 500, {}, json.dumps({"error": "internal server error"}).encode()
        if fault == "429":
            return 429, {"Retry-After": "1"}, json.dumps({"error": "too many requests"}).encode()
        if fault == "malformed":
            return 200, validators, b'{"items": [{"id": 1, "title": "Item 1"'
        if fault == "content-type":
            return 200, {"Content-Type": "text/html; charset=utf-8"}, b"<html><body>Please log in</body></html>"
        if self.not_modified():
            return 304, validators, b""
        limit = max(1, integer(query, "limit", 10))
        items = FEED.items
        headers = dict(validators)
        if path == "/page":
            page = max(1, integer(query, "page", 1))
            body = {"items": items[(page - 1) * limit:page * limit]}
            if query.get("totals", ["0"])[0] == "1":
                body["total"] = len(items)
        elif path in ("/cursor", "/drf"):
            cursor = query.get("cursor", [None])[0]
            start = 0
            if cursor is not None:
                ids = [item["id"] for item in items]
                start = ids.index(int(cursor)) + 1 if int(cursor) in ids else len(items)
            window = items[start:start + limit]
            more = start + limit < len(items)
            next_cursor = str(window[-1]["id"]) if more and window else None
            if path == "/cursor":
                body = {"items": window, "next_cursor": next_cursor}
            else:
                keep = {k: v[0] for k, v in query.items() if k != "cursor"}
                nxt = "/drf?" + urlencode(dict(keep, cursor=next_cursor)) if next_cursor else None
                body = {"results": window, "next": nxt}
        elif path == "/link":
            page = max(1, integer(query, "page", 1))
            body = items[(page - 1) * limit:page * limit]
            keep = {k: v[0] for k, v in query.items() if k != "page"}
            prefix = "http://%s:%d" % self.server.server_address[:2] if query.get("absolute", ["0"])[0] == "1" else ""
            last = max(1, (len(items) + limit - 1) // limit)
            links = ['<%s/link?%s>; rel="first"; title="first, the one"' % (prefix, urlencode(dict(keep, page=1)))]
            if page < last:
                links.append('<%s/link?%s>; rel="next"' % (prefix, urlencode(dict(keep, page=page + 1))))
            links.append('<%s/link?%s>; rel="last"' % (prefix, urlencode(dict(keep, page=last))))
            headers["Link"] = ", ".join(links)
        else:  # /offset
            offset = max(0, integer(query, "offset", 0))
            body = items[offset:offset + limit]
        return 200, headers, json.dumps(body).encode()

    def not_modified(self):
        etag = self.headers.get("If-None-Match")
        if etag is not None:
            return etag.strip() == FEED.etag
        since = self.headers.get("If-Modified-Since")
        if since is not None:
            try:
                return email.utils.parsedate_to_datetime(since).timestamp() >= BASE_TIME + FEED.version * 60
            except (TypeError, ValueError):
                return False
        return False

    def send(self, status, headers, body, truncated=False):
        self.send_response(status)
        if "Content-Type" not in headers and status != 304:
            self.send_header("Content-Type", "application/json")
        for name, value in headers.items():
            self.send_header(name, value)
        if status != 304:
            self.send_header("Content-Length", str(len(body) + (100 if truncated else 0)))
        if truncated:
            self.send_header("Connection", "close")
        self.end_headers()
        if status != 304:
            self.wfile.write(body)
        self.wfile.flush()
        if truncated:
            self.close_connection = True

    def reply(self, status, answer):
        self.send(status, {}, json.dumps(answer).encode())


def main():
    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    print(server.server_address[1], flush=True)

    def watch_stdin():
        try:
            while sys.stdin.buffer.read(1024):
                pass
        finally:
            os._exit(0)

    threading.Thread(target=watch_stdin, daemon=True).start()
    server.serve_forever(poll_interval=0.1)


if __name__ == "__main__":
    main()
