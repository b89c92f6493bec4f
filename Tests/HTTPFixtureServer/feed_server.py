#!/usr/bin/env python3
"""The PaginatedListHTTP tests' fixture server: one feed, served in every paging style.

Standard library only. Listens on 127.0.0.1 on an ephemeral port and prints the port on stdout (one line),
then serves until stdin reaches end of file (the test process closed it or died) or /control/shutdown.

Feed endpoints (every one honours If-None-Match / If-Modified-Since with a 304, sends ETag and
Last-Modified for the feed's version, answers late with ?delay=SECONDS, and is logged under ?tag=NAME):

  GET /page?page=P&limit=L[&totals=1][&past_end=S]
                                         {"items": [...]} (+ "total" with totals=1); pages from 1; with
                                         past_end=S (404 or 400) a page past the last (not the first) is
                                         status S, {"detail": "Invalid page."}
  GET /cursor[?cursor=C]&limit=L         {"items": [...], "next_cursor": "ID" | null, "prev_cursor": "<ID" | null}
                                         (C = "ID": the page after that item; "<ID": the page before it)
  GET /link[?page=P]&limit=L[&absolute=1] a top-level array; Link: <...>; rel="next" (relative or absolute)
  GET /drf[?cursor=C]&limit=L            {"results": [...], "next": "/drf?cursor=...&limit=L" | null,
                                          "previous": "/drf?cursor=<ID&limit=L" | null}
  GET /offset?offset=O&limit=L[&past_end=S] a top-level array; with past_end=S an offset past the end
                                         (above 0) is status S, {"detail": "Invalid offset."}
  GET /drf/page?page=P&page_size=S       Django REST framework's PageNumberPagination: {"count": N, "next":
                                         URL | null, "previous": URL | null, "results": [...]} (absolute
                                         URLs); a page past the last (or not a number) is
                                         404 {"detail": "Invalid page."}; page 1 of an empty feed is empty
  GET /drf/offset?offset=O&limit=L       Django REST framework's LimitOffsetPagination: {"count": N, "next":
                                         URL | null, "previous": URL | null, "results": [...]}; an offset
                                         past the end answers no results
  GET /github?page=P&per_page=L          GitHub: a top-level array; Link with first, prev, next, last;
                                         X-RateLimit-Limit/Remaining/Reset headers
  GET /stripe?limit=L[&starting_after=ID] Stripe: {"object": "list", "data": [...], "has_more": B};
                                         ids "cus_0007"
  GET /slack?limit=L[&cursor=C]          Slack: {"ok": true, "channels": [...],
                                         "response_metadata": {"next_cursor": "C" | ""}}; ids "C0007";
                                         cursors are base64 (they hold "+", "/" and "=")
  GET /notion?page_size=L[&start_cursor=C] Notion: {"object": "list", "results": [...],
                                         "next_cursor": C | null, "has_more": B}; ids "page-7"
  GET /jsonapi?page[size]=L[&page[after]=ID] JSON:API: {"data": [{"type": "items", "id": "7",
                                         "attributes": {"title": ...}}], "links": {"self": ..., "next": ...}}
                                         ("next" left out on the last page)
  GET /ids                               an ID snapshot: {"ids": [...]}, the feed's ids in order
  GET /items?ids=I,J,K                   {"items": [...]}: the items with those ids that exist, in the order
                                         asked (an ID snapshot's pages)

An item is {"id": 7, "title": "Item 7", "created_at": "2024-05-01T12:00:07Z", "likes": 0} (other ids as
above). The feed's version (ETag "vN", Last-Modified) goes up with every change a control endpoint makes.

With a cap (/control/cap), every feed endpoint serves at most that many items per request, fewer than
asked and without an error, as servers that cap the page size do (DRF's max_limit and max_page_size,
GitHub's per_page <= 100): limit, page_size, per_page and page[size] are cut to it (page numbers count
pages of the size served), and /items serves the first that many of the ids asked.

Every feed endpoint checks the query item q if present: it must arrive as NASTY (below), else the answer
is a 400 naming what arrived. With nasty=1, the cursors of /cursor, /drf and /notion start with NASTY (the
id follows) and /stripe's ids do (NASTY + "cus_0007"); a cursor or id that arrives changed is a 400. So a
client that does not percent-encode a query exactly fails.

Control endpoints (GET or POST; answer JSON):

  /control/reset?items=N                 a fresh feed of items 1...N; clears faults, the log, the cap and
                                         the churn
  /control/insert?at=I&count=C           inserts C new items at position I (new ids, above the rest)
  /control/delete?at=I&count=C           deletes C items from position I
  /control/delete?ids=I,J                deletes the items with those ids
  /control/move?id=I&to=P                moves the item with id I to position P (counted without it)
  /control/like?id=I&likes=N             sets the counter field "likes" of item I to N
  /control/cap?size=N                    serves at most N items per feed request from now on (0: no cap)
  /control/churn?insert=I&delete=D[&insert_at=P][&delete_at=Q][&times=T]
                                         after each of the next T feed requests (every one without times),
                                         inserts I new items at position P (0: the top) and deletes D items
                                         from position Q (0), each clamped to the feed: a feed that changes
                                         while it is paged; insert=0&delete=0 stops it
  /control/fault?kind=K&times=T[&after=A] the T feed requests after the next A (0 by default) fail as K:
                                         500, 429 (Retry-After: 1), 429-long (Retry-After: 60),
                                         429-hour (Retry-After: 3600), malformed,
                                         truncated (the page's headers, half its body, then close),
                                         drop (the connection closes with no answer),
                                         content-type (a text/html page with status 200),
                                         502 (a multi-line text/html page), 404 (GitHub's JSON message),
                                         github-rate-limit (403, X-RateLimit-Remaining: 0, Reset in 1 s),
                                         503-date (Retry-After as an HTTP date, 1 s ahead),
                                         ratelimit-reset (429 with RateLimit-Reset: 1, no Retry-After),
                                         big (500 with a 100 000-byte body), slack-error (200,
                                         {"ok": false, "error": "invalid_auth"}), stripe-error (400 with
                                         Stripe's {"error": {"message": ...}}), error-200 (200 with
                                         {"error": {"message": ...}}), same-cursor (/cursor: a page whose
                                         next_cursor and prev_cursor are the cursor it was asked with)
  /control/slow?delay=S&times=T          the next T feed requests answer after S seconds
  /control/log[?tag=NAME]                the feed requests: path, query (decoded), time (seconds since
                                         the server started), tag, status, conditional (whether it carried
                                         If-None-Match or If-Modified-Since), outcome ("pending",
                                         "written", or "closed": the client closed the connection before
                                         the response was written; "dropped" for the drop fault)
  /control/shutdown                      stops the server
"""

import base64
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
STARTED = time.monotonic()
# Every character a query must carry through unchanged: reserved ones, "%", space, and non-ASCII.
NASTY = "c++ +02:00 &=%/?#[]@!$'()*,;é漢"
SLACK_PREFIX = bytes([0xFB, 0xFF])  # base64 "+/…": a Slack-style cursor with "+", "/" and "="


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
        self.cap = 0  # the most items a feed request serves (0: as many as asked)
        self.churn = None  # (insert, insert_at, delete, delete_at, times left or None) after each feed request

    def served(self, asked):
        """`asked`, or the cap when it is smaller."""
        return min(asked, self.cap) if self.cap > 0 else asked

    def step(self):
        """Applies the churn after a feed request (called with the lock held)."""
        if self.churn is None:
            return
        insert, insert_at, delete, delete_at, times = self.churn
        new = []
        for _ in range(insert):
            new.append(Feed.make(self.next_id))
            self.next_id += 1
        at = min(max(0, insert_at), len(self.items))
        self.items[at:at] = new
        at = min(max(0, delete_at), len(self.items))
        del self.items[at:at + delete]
        if insert or delete:
            self.changed()
        if times is not None:
            self.churn = None if times <= 1 else (insert, insert_at, delete, delete_at, times - 1)

    @staticmethod
    def make(ident):
        stamp = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(BASE_TIME + ident))
        return {"id": ident, "title": "Item %d" % ident, "created_at": stamp, "likes": 0}

    def position(self, ident):
        """The position of the item with id `ident`, or None."""
        for index, item in enumerate(self.items):
            if item["id"] == ident:
                return index
        return None

    def changed(self):
        self.version += 1

    @property
    def etag(self):
        return '"v%d"' % self.version

    @property
    def last_modified(self):
        return email.utils.formatdate(BASE_TIME + self.version * 60, usegmt=True)


FEED = Feed(int(os.environ.get("FEED_ITEMS", "23")))


def query_pairs(query):
    return {k: v[0] for k, v in query.items()}


def ids_of(query):
    """The integers of the comma-separated query item `ids`; None if one is not an integer."""
    try:
        return [int(part) for part in query.get("ids", [""])[0].split(",") if part.strip()]
    except ValueError:
        return None


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

    def date_time_string(self, timestamp=None):
        """The Date header: the time a fault computed its other dates from, when it did."""
        override, self.date_override = getattr(self, "date_override", None), None
        return email.utils.formatdate(override or timestamp or time.time(), usegmt=True)

    def do_POST(self):
        self.do_GET()

    def do_HEAD(self):
        self.do_GET()

    def do_GET(self):
        url = urlsplit(self.path)
        query = parse_qs(url.query)
        if url.path.startswith("/control/"):
            self.control(url.path[len("/control/"):], query)
        elif url.path in ("/page", "/cursor", "/link", "/drf", "/offset", "/github", "/stripe", "/slack",
                          "/notion", "/jsonapi", "/ids", "/items", "/drf/page", "/drf/offset"):
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
                if "ids" in query:
                    if ids_of(query) is None:
                        self.reply(400, {"error": "ids must be integers: %s" % query["ids"][0]})
                        return
                    wanted = set(ids_of(query))
                    gone = [item for item in FEED.items if item["id"] in wanted]
                    FEED.items = [item for item in FEED.items if item["id"] not in wanted]
                else:
                    at, count = integer(query, "at", 0), integer(query, "count", 1)
                    gone = FEED.items[at:at + count]
                    del FEED.items[at:at + count]
                FEED.changed()
                answer = {"deleted": [item["id"] for item in gone], "count": len(FEED.items)}
            elif command in ("move", "like"):
                position = FEED.position(integer(query, "id", -1))
                if position is None:
                    self.reply(404, {"error": "no item with id %s" % query.get("id", ["?"])[0]})
                    return
                if command == "move":
                    item = FEED.items.pop(position)
                    FEED.items.insert(max(0, integer(query, "to", 0)), item)
                else:
                    FEED.items[position] = dict(FEED.items[position], likes=integer(query, "likes", 0))
                FEED.changed()
                answer = {"ids": [item["id"] for item in FEED.items]}
            elif command == "fault":
                kind = query.get("kind", ["500"])[0]
                # Faults queue behind the ones already set; None lets a request through.
                FEED.faults.extend([None] * integer(query, "after", 0) + [kind] * integer(query, "times", 1))
                answer = {"faults": FEED.faults}
            elif command == "cap":
                FEED.cap = max(0, integer(query, "size", 0))
                answer = {"cap": FEED.cap}
            elif command == "churn":
                insert, delete = max(0, integer(query, "insert", 0)), max(0, integer(query, "delete", 0))
                times = integer(query, "times", 0)
                FEED.churn = None if insert == 0 and delete == 0 else (
                    insert, integer(query, "insert_at", 0), delete, integer(query, "delete_at", 0),
                    times if times > 0 else None)
                answer = {"churn": FEED.churn}
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
            entry = {"path": self.path, "query": {k: v[0] for k, v in query.items()},
                     "time": time.monotonic() - STARTED, "tag": query.get("tag", [None])[0],
                     "conditional": self.headers.get("If-None-Match") is not None
                     or self.headers.get("If-Modified-Since") is not None,
                     "status": None, "outcome": "pending"}
            FEED.log.append(entry)
        if fault == "drop":  # the connection closes with no answer at all
            with FEED.lock:
                entry["outcome"] = "dropped"
            self.close_connection = True
            return
        if delay > 0 and self.wait_or_closed(delay):
            with FEED.lock:
                entry["outcome"] = "closed"
            self.close_connection = True
            return
        with FEED.lock:
            status, headers, body = self.answer(path, query, fault)
            entry["status"] = status
            FEED.step()
        try:
            self.send(status, headers, body, truncated=(fault == "truncated"), head_only=(self.command == "HEAD"))
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
        # A truncated answer is the page, cut short by send(); a same-cursor one, the page with its cursors changed.
        if fault is not None and fault not in ("truncated", "same-cursor"):
            return self.fault(fault, validators)
        if "q" in query and query["q"][0] != NASTY:
            return 400, {}, json.dumps({"error": "q arrived as %r" % query["q"][0]}).encode()
        if self.not_modified():
            return 304, validators, b""
        items = FEED.items
        headers = dict(validators)
        if path == "/page":
            limit = FEED.served(max(1, integer(query, "limit", 10)))
            page = max(1, integer(query, "page", 1))
            past_end = integer(query, "past_end", 0)
            if past_end and page > 1 and (page - 1) * limit >= len(items):
                return past_end, {}, json.dumps({"detail": "Invalid page."}).encode()
            body = {"items": items[(page - 1) * limit:page * limit]}
            if query.get("totals", ["0"])[0] == "1":
                body["total"] = len(items)
        elif path == "/drf/page":
            size = FEED.served(max(1, integer(query, "page_size", 10)))
            pages = max(1, (len(items) + size - 1) // size)
            page = integer(query, "page", -1)
            if not 1 <= page <= pages:
                return 404, {}, json.dumps({"detail": "Invalid page."}).encode()

            def link(number):
                return self.absolute(path, dict(query_pairs(query), page=number))

            body = {"count": len(items), "next": link(page + 1) if page < pages else None,
                    "previous": link(page - 1) if page > 1 else None, "results": items[(page - 1) * size:page * size]}
        elif path == "/drf/offset":
            limit = FEED.served(max(1, integer(query, "limit", 10)))
            offset = max(0, integer(query, "offset", 0))
            keep = query_pairs(query)
            nxt = self.absolute(path, dict(keep, offset=offset + limit, limit=limit)) if offset + limit < len(items) else None
            prv = None
            if offset > 0:
                prv = self.absolute(path, dict(keep, offset=max(0, offset - limit), limit=limit))
            body = {"count": len(items), "next": nxt, "previous": prv, "results": items[offset:offset + limit]}
        elif path in ("/cursor", "/drf"):
            limit = FEED.served(max(1, integer(query, "limit", 10)))
            nasty = query.get("nasty", ["0"])[0] == "1"
            cursor = query.get("cursor", [None])[0]
            if cursor is not None and nasty:
                if not cursor.startswith(NASTY):
                    return 400, {}, json.dumps({"error": "cursor arrived as %r" % cursor}).encode()
                cursor = cursor[len(NASTY):]
            if cursor is not None and cursor.startswith("<"):  # the page that ends just before item ID
                end = self.after(cursor[1:], lambda item: str(item["id"])) - 1
                start = max(0, end - limit)
            else:
                start = self.after(cursor, lambda item: str(item["id"]))
                end = start + limit
            window = items[start:end]
            more = end < len(items)
            prefix = NASTY if nasty else ""
            next_cursor = prefix + str(window[-1]["id"]) if more and window else None
            prev_cursor = prefix + "<" + str(window[0]["id"]) if start > 0 and window else None
            if path == "/cursor":
                body = {"items": window, "next_cursor": next_cursor, "prev_cursor": prev_cursor}
                if fault == "same-cursor":
                    body["next_cursor"] = body["prev_cursor"] = query.get("cursor", [None])[0]
            else:
                keep = {k: v[0] for k, v in query.items() if k != "cursor"}
                nxt = "/drf?" + urlencode(dict(keep, cursor=next_cursor)) if next_cursor else None
                prv = "/drf?" + urlencode(dict(keep, cursor=prev_cursor)) if prev_cursor else None
                body = {"results": window, "next": nxt, "previous": prv}
        elif path in ("/link", "/github"):
            size_name = "per_page" if path == "/github" else "limit"
            limit = FEED.served(max(1, integer(query, size_name, 30 if path == "/github" else 10)))
            page = max(1, integer(query, "page", 1))
            body = items[(page - 1) * limit:page * limit]
            keep = {k: v[0] for k, v in query.items() if k != "page"}
            absolute = path == "/github" or query.get("absolute", ["0"])[0] == "1"
            prefix = "http://%s:%d" % self.server.server_address[:2] if absolute else ""
            last = max(1, (len(items) + limit - 1) // limit)

            def link(number, relation, extra=""):
                return '<%s%s?%s>; rel="%s"%s' % (prefix, path, urlencode(dict(keep, page=number)), relation, extra)

            links = [link(1, "first", '; title="first, the one"')]
            if page > 1:
                links.append(link(page - 1, "prev"))
            if page < last:
                links.append(link(page + 1, "next"))
            links.append(link(last, "last"))
            headers["Link"] = ", ".join(links)
            if path == "/github":
                headers.update({"X-RateLimit-Limit": "60", "X-RateLimit-Remaining": "59",
                                "X-RateLimit-Reset": str(int(time.time()) + 3600)})
        elif path == "/stripe":
            limit = FEED.served(max(1, integer(query, "limit", 10)))
            after = query.get("starting_after", [None])[0]
            prefix = NASTY if query.get("nasty", ["0"])[0] == "1" else ""
            start = self.after(after, lambda item: "%scus_%04d" % (prefix, item["id"]))
            if after is not None and start == len(items) and not any(
                    after == "%scus_%04d" % (prefix, item["id"]) for item in items):
                return 400, {}, json.dumps({"error": {"message": "starting_after arrived as %r" % after,
                                                      "type": "invalid_request_error"}}).encode()
            window = items[start:start + limit]
            data = [{"id": "%scus_%04d" % (prefix, item["id"]), "object": "customer", "title": item["title"]}
                    for item in window]
            body = {"object": "list", "url": "/v1/customers", "data": data, "has_more": start + limit < len(items)}
        elif path == "/slack":
            limit = FEED.served(max(1, integer(query, "limit", 10)))
            cursor = query.get("cursor", [None])[0]
            after = None
            if cursor:
                try:
                    raw = base64.b64decode(cursor, validate=True)
                except ValueError:
                    raw = b""
                if not raw.startswith(SLACK_PREFIX):
                    return 200, {}, json.dumps({"ok": False, "error": "invalid_cursor"}).encode()
                after = raw[len(SLACK_PREFIX):].decode()
            start = self.after(after, lambda item: str(item["id"]))
            window = items[start:start + limit]
            more = start + limit < len(items)
            next_cursor = base64.b64encode(SLACK_PREFIX + str(window[-1]["id"]).encode()).decode() if more else ""
            channels = [{"id": "C%04d" % item["id"], "title": item["title"]} for item in window]
            body = {"ok": True, "channels": channels, "response_metadata": {"next_cursor": next_cursor}}
        elif path == "/notion":
            limit = FEED.served(max(1, integer(query, "page_size", 100)))
            cursor = query.get("start_cursor", [None])[0]
            nasty = query.get("nasty", ["0"])[0] == "1"
            if cursor is not None and nasty:
                if not cursor.startswith(NASTY):
                    return 400, {}, json.dumps({"object": "error", "status": 400, "code": "validation_error",
                                                "message": "start_cursor arrived as %r" % cursor}).encode()
                cursor = cursor[len(NASTY):]
            start = self.after(cursor, lambda item: "page-%d" % item["id"])
            window = items[start:start + limit]
            more = start + limit < len(items)
            results = [{"object": "page", "id": "page-%d" % item["id"], "title": item["title"]} for item in window]
            next_cursor = (NASTY if nasty else "") + results[-1]["id"] if more else None
            body = {"object": "list", "results": results, "next_cursor": next_cursor, "has_more": more}
        elif path == "/jsonapi":
            limit = FEED.served(max(1, integer(query, "page[size]", 10)))
            after = query.get("page[after]", [None])[0]
            start = self.after(after, lambda item: str(item["id"]))
            window = items[start:start + limit]
            data = [{"type": "items", "id": str(item["id"]), "attributes": {"title": item["title"]}} for item in window]
            keep = {k: v[0] for k, v in query.items() if k != "page[after]"}
            links = {"self": "/jsonapi?" + urlencode(query_pairs(query))}
            if start + limit < len(items):
                links["next"] = "/jsonapi?" + urlencode(dict(keep, **{"page[after]": str(window[-1]["id"])}))
            body = {"data": data, "links": links}
        elif path == "/ids":
            body = {"ids": [item["id"] for item in items]}
        elif path == "/items":
            if ids_of(query) is None:
                return 400, {}, json.dumps({"error": "ids arrived as %r" % query["ids"][0]}).encode()
            by_id = {item["id"]: item for item in items}
            found = [by_id[ident] for ident in ids_of(query) if ident in by_id]
            body = {"items": found[:FEED.served(len(found))]}
        else:  # /offset
            limit = FEED.served(max(1, integer(query, "limit", 10)))
            offset = max(0, integer(query, "offset", 0))
            past_end = integer(query, "past_end", 0)
            if past_end and offset > 0 and offset >= len(items):
                return past_end, {}, json.dumps({"detail": "Invalid offset."}).encode()
            body = items[offset:offset + limit]
        return 200, headers, json.dumps(body).encode()

    def absolute(self, path, pairs):
        """The absolute URL of `path` with the query `pairs` on this server (as DRF writes its links)."""
        return "http://%s:%d%s?%s" % (self.server.server_address[:2] + (path, urlencode(pairs)))

    @staticmethod
    def after(cursor, key):
        """The position just after the item whose key is `cursor` (0 with no cursor; the end if unknown)."""
        if cursor is None:
            return 0
        keys = [key(item) for item in FEED.items]
        return keys.index(cursor) + 1 if cursor in keys else len(FEED.items)

    def fault(self, fault, validators):
        """The answer of a faulty feed request."""
        if fault == "500":
            return 500, {}, json.dumps({"error": "internal server error"}).encode()
        if fault == "429":
            return 429, {"Retry-After": "1"}, json.dumps({"error": "too many requests"}).encode()
        if fault == "429-long":
            return 429, {"Retry-After": "60"}, json.dumps({"error": "too many requests"}).encode()
        if fault == "429-hour":
            return 429, {"Retry-After": "3600"}, json.dumps({"error": "too many requests"}).encode()
        if fault == "malformed":
            return 200, validators, b'{"items": [{"id": 1, "title": "Item 1"'
        if fault == "content-type":
            return 200, {"Content-Type": "text/html; charset=utf-8"}, b"<html><body>Please log in</body></html>"
        if fault == "502":
            page = b"<html>\r\n<head><title>502 Bad Gateway</title></head>\r\n<body>\r\n<center><h1>502 Bad Gateway</h1></center>\r\n</body>\r\n</html>\r\n"
            return 502, {"Content-Type": "text/html"}, page
        if fault == "404":
            return 404, {}, json.dumps({"message": "Not Found",
                                        "documentation_url": "https://docs.github.com/rest"}).encode()
        if fault == "github-rate-limit":
            reset = int(time.time()) + 2  # whole seconds: at least 1 s ahead
            self.date_override = time.time()
            headers = {"X-RateLimit-Limit": "60", "X-RateLimit-Remaining": "0", "X-RateLimit-Reset": str(reset)}
            return 403, headers, json.dumps({"message": "API rate limit exceeded for 127.0.0.1.",
                                             "documentation_url": "https://docs.github.com/rest"}).encode()
        if fault == "503-date":
            self.date_override = now = time.time()
            headers = {"Retry-After": email.utils.formatdate(now + 1, usegmt=True)}
            return 503, headers, json.dumps({"error": "maintenance"}).encode()
        if fault == "ratelimit-reset":
            return 429, {"RateLimit-Reset": "1", "RateLimit-Remaining": "0"}, json.dumps({"error": "slow down"}).encode()
        if fault == "big":
            return 500, {"Content-Type": "text/plain"}, b"x" * 100000
        if fault == "slack-error":
            return 200, {}, json.dumps({"ok": False, "error": "invalid_auth"}).encode()
        if fault == "stripe-error":
            return 400, {}, json.dumps({"error": {"message": "No such customer: 'cus_9999'",
                                                  "type": "invalid_request_error"}}).encode()
        if fault == "error-200":
            return 200, {}, json.dumps({"error": {"message": "token expired", "code": 190}}).encode()
        return 500, {}, json.dumps({"error": "unknown fault %s" % fault}).encode()

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

    def send(self, status, headers, body, truncated=False, head_only=False):
        self.send_response(status)
        if "Content-Type" not in headers and status != 304:
            self.send_header("Content-Type", "application/json")
        for name, value in headers.items():
            self.send_header(name, value)
        if status != 304:
            self.send_header("Content-Length", str(len(body)))
        if truncated:
            self.send_header("Connection", "close")
        self.end_headers()
        if status != 304 and not head_only:
            self.wfile.write(body[:len(body) // 2] if truncated else body)
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
