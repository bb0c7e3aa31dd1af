#!/usr/bin/env python3
"""Drives one Memoir through a model server's day and reports what the server made of it.

Sessions of every preset (four chat turns each, then closed), plus one long imported dialogue (about 40 turns of
1,200 characters, preset "all") closed too; then waits until every memory job is done or failed for good, or the
time limit passes. A recording proxy between Memoir and the model server counts each answer's status and the
prompt tokens the server reported. Standard library only.
"""

import argparse
import http.server
import json
import socketserver
import threading
import time
import urllib.error
import urllib.request

PRESETS = ["conditional", "conditional+summary", "multi-view", "memochat", "recursive", "rmm", "all"]
SENTENCES = [
    "On the third of May we drove from Porto to Braga to see my grandmother, who still keeps bees.",
    "My sister Maria plays the cello in a small orchestra that rehearses on Tuesday evenings.",
    "I have been a vegetarian since 2019, mostly because of a documentary I watched in college.",
    "The train to work takes forty minutes, so I read history books on the way.",
    "Last winter I broke my wrist skiing in the Alps, and it still aches when it rains.",
    "We are planning a trip to Japan next April to see the cherry blossoms in Kyoto.",
    "My manager asked me to lead the migration of our billing system before the end of the year.",
    "On Sundays I usually cook a big pot of lentil soup and freeze half of it for the week.",
]


def prose(seed, chars):
    text, i = [], seed
    while sum(len(s) + 1 for s in text) < chars:
        text.append(SENTENCES[(i * 5 + seed) % len(SENTENCES)])
        i += 1
    return " ".join(text)


class Proxy(http.server.BaseHTTPRequestHandler):
    target = ""
    records = []
    lock = threading.Lock()

    def log_message(self, *args):
        pass

    def _forward(self, method):
        length = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(length) if length else None
        request = urllib.request.Request(self.target + self.path, data=body, method=method)
        for name in ("Authorization", "Content-Type", "Accept", "X-Memoir-Step"):
            if self.headers.get(name):
                request.add_header(name, self.headers[name])
        started = time.time()
        try:
            with urllib.request.urlopen(request, timeout=3600) as response:
                status, payload, kind = response.status, response.read(), response.headers.get("Content-Type", "")
        except urllib.error.HTTPError as error:
            status, payload, kind = error.code, error.read(), error.headers.get("Content-Type", "")
        except Exception as error:  # the client gave up (a timeout) or the server went away
            with self.lock:
                self.records.append({"step": self.headers.get("X-Memoir-Step"), "status": "no answer",
                                     "seconds": time.time() - started, "error": type(error).__name__})
            return
        try:
            self.send_response(status)
            self.send_header("Content-Type", kind)
            self.send_header("Content-Length", str(len(payload)))
            self.end_headers()
            self.wfile.write(payload)
            delivered = True
        except (BrokenPipeError, ConnectionResetError):
            delivered = False
        if self.path.endswith("/chat/completions"):
            record = {"step": self.headers.get("X-Memoir-Step"), "status": status if delivered else "client gone",
                      "seconds": round(time.time() - started, 1)}
            try:
                sent = json.loads(body)
                record["model"] = sent.get("model")
                record["max_tokens"] = sent.get("max_tokens") or sent.get("max_completion_tokens")
                answer = json.loads(payload)
                if status == 200:
                    record["prompt_tokens"] = answer.get("usage", {}).get("prompt_tokens")
                else:
                    record["error"] = json.dumps(answer)[:200]
            except ValueError:
                pass
            with self.lock:
                self.records.append(record)

    def do_GET(self):
        self._forward("GET")

    def do_POST(self):
        self._forward("POST")


def call(base, key, method, path, body=None):
    request = urllib.request.Request(base + path, method=method,
                                     data=None if body is None else json.dumps(body).encode())
    request.add_header("Authorization", "Bearer " + key)
    if body is not None:
        request.add_header("Content-Type", "application/json")
    try:
        with urllib.request.urlopen(request, timeout=3600) as response:
            text = response.read()
            return response.status, json.loads(text) if text else None
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read() or b"null")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--base-url", required=True)
    parser.add_argument("--bootstrap-key", required=True)
    parser.add_argument("--proxy-port", type=int, required=True)
    parser.add_argument("--model-server", required=True, help="base URL of the model server, without /v1")
    parser.add_argument("--minutes", type=float, default=40)
    parser.add_argument("--context", type=int, required=True, help="the context per request the server gives")
    parser.add_argument("--label", required=True)
    parser.add_argument("--out", required=True)
    args = parser.parse_args()

    Proxy.target = args.model_server
    server = socketserver.ThreadingTCPServer(("127.0.0.1", args.proxy_port), Proxy)
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, daemon=True).start()
    started = time.time()

    status, tenant = call(args.base_url, args.bootstrap_key, "POST", "/admin/tenants", {"name": "bench"})
    key = tenant["apiKey"]
    sessions, chats = [], []
    for preset in PRESETS:
        status, session = call(args.base_url, key, "POST", "/sessions",
                               {"userId": "u-" + preset, "memory": {"strategy": preset}})
        for message in ["Hi! My name is Alice and I live in Porto.", "I am a vegetarian and I cook every Sunday.",
                        "What could I cook this weekend?", "Thanks, I will try that with my sister Maria."]:
            t = time.time()
            status, reply = call(args.base_url, key, "POST", "/chat", {"sessionId": session["id"], "message": message})
            chats.append({"preset": preset, "status": status, "seconds": round(time.time() - t, 1),
                          "code": (reply or {}).get("code")})
        call(args.base_url, key, "POST", "/sessions/" + session["id"] + "/close")
        sessions.append(session["id"])
    status, long_session = call(args.base_url, key, "POST", "/sessions", {"userId": "u-long", "memory": {"strategy": "all"}})
    turns = [{"role": "user" if i % 2 == 0 else "assistant", "content": prose(i, 1200)} for i in range(40)]
    call(args.base_url, key, "POST", "/sessions/" + long_session["id"] + "/turns", {"turns": turns})
    call(args.base_url, key, "POST", "/sessions/" + long_session["id"] + "/close")
    sessions.append(long_session["id"])

    deadline = started + args.minutes * 60
    jobs = []
    while time.time() < deadline:
        jobs = []
        for session in sessions:
            jobs += call(args.base_url, key, "GET", "/sessions/" + session)[1].get("jobs", [])
        if jobs and all(job["state"] in ("done", "failed") for job in jobs):
            break
        time.sleep(5)
    elapsed = time.time() - started
    records = list(Proxy.records)
    result = {
        "label": args.label,
        "minutes": round(elapsed / 60, 1),
        "chats": {"answered": sum(1 for c in chats if c["status"] == 200), "of": len(chats),
                  "errors": sorted({str(c["code"]) for c in chats if c["status"] != 200}),
                  "slowest_seconds": max(c["seconds"] for c in chats)},
        "jobs": {state: sum(1 for j in jobs if j["state"] == state) for state in ("done", "failed", "pending", "running")},
        "job_failures": sum(j.get("failures", 0) for j in jobs),
        "job_errors": sorted({(j.get("lastError") or "")[:160] for j in jobs if j.get("failures")}),
        "requests": len(records),
        "by_status": {},
        "models": sorted({str(r.get("model")) for r in records}),
        "largest_request": max(((r.get("prompt_tokens") or 0) + (r.get("max_tokens") or 0)) for r in records) if records else 0,
        "context": args.context,
        "server_errors": sorted({r["error"][:160] for r in records if r.get("error")}),
    }
    for record in records:
        result["by_status"][str(record["status"])] = result["by_status"].get(str(record["status"]), 0) + 1
    with open(args.out, "w") as handle:
        json.dump({"result": result, "requests": records, "chats": chats}, handle, indent=1)
    print(json.dumps(result, indent=1))


if __name__ == "__main__":
    main()
