#!/usr/bin/env python3
"""Drives a running Memoir through REST so that it sends every webhook event kind to receiver.py, takes the
receiver down for a while in the middle of one user's events, and prints what arrived. Python 3 standard library
only; started by run.sh (which starts Memoir and the scripted model), or on its own against a running service.

  drive.py --base-url http://127.0.0.1:18097 --bootstrap-key bench-key --workdir /tmp/memoir-webhooks-bench
"""
import argparse
import datetime
import json
import os
import subprocess
import sys
import time
import urllib.error
import urllib.request

EVENTS = ["memory.created", "memory.updated", "memory.superseded", "memory.deleted", "turns.recorded",
          "session.closed", "session.memories-written", "user.erased", "import.finished"]


class Api:
    def __init__(self, base, key):
        self.base, self.key = base, key

    def send(self, method, path, body=None, content_type="application/json", raw=False):
        data = body if raw else (None if body is None else json.dumps(body).encode())
        request = urllib.request.Request(self.base + path, data=data, method=method,
                                         headers={"Authorization": "Bearer " + self.key,
                                                  "Content-Type": content_type})
        try:
            with urllib.request.urlopen(request, timeout=60) as response:
                text = response.read().decode()
                return response.status, text
        except urllib.error.HTTPError as e:
            return e.code, e.read().decode()

    def json(self, method, path, body=None, expect=(200, 201, 202, 204), **kwargs):
        status, text = self.send(method, path, body, **kwargs)
        if status not in expect:
            sys.exit(f"{method} {path} answered {status}: {text}")
        return json.loads(text) if text else None


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--base-url", required=True)
    parser.add_argument("--bootstrap-key", required=True)
    parser.add_argument("--workdir", required=True)
    parser.add_argument("--receiver-port", type=int, default=18098)
    args = parser.parse_args()
    os.makedirs(args.workdir, exist_ok=True)
    secret_file = os.path.join(args.workdir, "secret.txt")
    log = os.path.join(args.workdir, "received.jsonl")
    for stale in (secret_file, log):
        if os.path.exists(stale):
            os.remove(stale)
    here = os.path.dirname(os.path.abspath(__file__))

    def start_receiver():
        process = subprocess.Popen([sys.executable, os.path.join(here, "receiver.py"), "--port",
                                    str(args.receiver_port), "--secret-file", secret_file, "--log", log])
        time.sleep(0.5)  # a script, not a test: long enough for the socket to listen
        return process

    def received():
        if not os.path.exists(log):
            return []
        with open(log) as f:
            return [json.loads(line) for line in f if line.strip()]

    def wait_for(what, condition, seconds=120):
        deadline = time.time() + seconds
        while time.time() < deadline:
            if condition(received()):
                return
            time.sleep(0.5)
        sys.exit(f"gave up waiting for {what}")

    admin = Api(args.base_url, args.bootstrap_key)
    tenant = admin.json("POST", "/admin/tenants", {"name": f"webhooks-bench-{int(time.time())}"})
    api = Api(args.base_url, tenant["apiKey"])
    receiver = start_receiver()
    url = f"http://127.0.0.1:{args.receiver_port}/hook"
    endpoint = api.json("POST", "/webhooks", {"url": url, "events": EVENTS})
    with open(secret_file, "w") as f:
        f.write(endpoint["secret"])
    print(f"endpoint {endpoint['id']} -> {url}, events {', '.join(endpoint['events'])}")

    # Retention: the tenant keeps facts for a minute; a fact added now is purged at the end.
    admin.json("PUT", f"/admin/tenants/{tenant['id']}/retention/fact", {"keepFor": "PT1M"})
    started = time.time()
    api.json("POST", "/memory", {"userId": "ada", "text": "Ada once had a cat.", "supersedes": []})

    # A session whose close writes a summary (the scripted model answers it): closed, written, then deleted.
    session = api.json("POST", "/sessions", {"userId": "ada", "memory": {"write": ["history", "summary"],
                                                                       "read": ["history"]}})["id"]
    api.json("POST", f"/sessions/{session}/turns", {"turns": [
        {"role": "user", "content": "I grow tomatoes on my balcony."}, {"role": "assistant", "content": "Nice."}]})
    api.json("POST", f"/sessions/{session}/close")
    wait_for("session.memories-written", lambda r: any(e["type"] == "session.memories-written" for e in r))

    fact = api.json("POST", "/memory", {"userId": "ada", "text": "Ada lives in Lyon.", "supersedes": []})["id"]
    api.json("PATCH", f"/memory/{fact}", {"text": "Ada lives in Lyon, France."})
    api.json("POST", "/memory", {"userId": "ada", "text": "Ada moved to Nantes.", "supersedes": [fact]})
    doomed = api.json("POST", "/memory", {"userId": "ada", "text": "Ada likes plums.", "supersedes": []})["id"]
    api.json("DELETE", f"/memory/{doomed}")
    expires = (datetime.datetime.now(datetime.timezone.utc) + datetime.timedelta(seconds=3)).isoformat()
    api.json("POST", "/memory", {"userId": "ada", "text": "Ada is in Paris today.", "supersedes": [],
                                 "expiresAt": expires})
    api.json("DELETE", f"/sessions/{session}")

    export = json.dumps([{"uuid": "bench-1", "name": "Plums", "created_at": "2024-03-02T09:00:00Z",
                          "chat_messages": [
                              {"uuid": "m1", "sender": "human", "created_at": "2024-03-02T09:00:01Z",
                               "text": "Are plums ripe in August?"},
                              {"uuid": "m2", "sender": "assistant", "created_at": "2024-03-02T09:00:02Z",
                               "text": "Mostly."}]}]).encode()
    api.json("POST", "/users/ada/import/claude", export, raw=True)
    status, archive = api.send("GET", "/users/ada/export")
    api.json("POST", "/users/ada-copy/import", archive.encode(), raw=True, content_type="application/x-ndjson")
    # The erasure drops every delivery naming the user that is not sent yet: the import's is awaited first.
    wait_for("the archive's import.finished", lambda r: any(
        e["type"] == "import.finished" and e["data"]["what"] == "user-archive" for e in r))
    api.json("DELETE", "/memory?userId=ada-copy")

    # The outage: the receiver stops (connections refused) while bo's events happen, and comes back.
    wait_for("everything so far", lambda r: any(e["type"] == "user.erased" for e in r))
    receiver.terminate()
    receiver.wait()
    produced = []
    for i in range(1, 6):
        produced.append(api.json("POST", "/memory", {"userId": "bo", "text": f"Bo fact {i}.",
                                                     "supersedes": []})["id"])
        if i == 2:
            api.json("PATCH", f"/memory/{produced[0]}", {"text": "Bo fact 1, edited."})
            produced.append(produced[0])
    print(f"receiver down for 8 s while bo's {len(produced)} memory events happen")
    time.sleep(8)
    receiver = start_receiver()
    try:
        wait_for("bo's events", lambda r: len([e for e in r if e["verified"] and not e["repeat"]
                                               and (e.get("data") or {}).get("userId") == "bo"]) == len(produced))
        remaining = 65 - (time.time() - started)
        print(f"waiting {max(0, int(remaining))} s more for the retention purge")
        wait_for("expiry and retention deletions", lambda r: {"expiry", "retention"} <= {
            (e.get("data") or {}).get("reason") for e in r if e["type"] == "memory.deleted"}, seconds=180)
    finally:
        receiver.terminate()

    events = received()
    accepted = [e for e in events if e["verified"] and not e["repeat"]]
    print(f"\n{len(events)} requests, {len(accepted)} distinct deliveries verified, "
          f"{sum(1 for e in events if not e['verified'])} not verified, "
          f"{sum(1 for e in events if e['repeat'])} repeats")
    kinds = {}
    for e in accepted:
        key = e["type"] + (f" ({e['data']['reason']})" if e["type"] == "memory.deleted" else "")
        kinds[key] = kinds.get(key, 0) + 1
    for kind in sorted(kinds):
        print(f"  {kind:40} {kinds[kind]}")
    missing = [kind for kind in EVENTS if kind not in {e["type"] for e in accepted}]
    missing += [f"memory.deleted ({reason})" for reason in ("client", "expiry", "retention", "erasure")
                if f"memory.deleted ({reason})" not in kinds]
    missing += [f"import.finished ({what})" for what in ("claude", "user-archive")
                if what not in {e["data"]["what"] for e in accepted if e["type"] == "import.finished"}]
    print("every event kind arrived" if not missing else f"MISSING: {', '.join(missing)}")
    bo = [e["data"]["memoryId"] for e in accepted if (e.get("data") or {}).get("userId") == "bo"]
    in_order = bo == produced
    print(f"bo's events after the outage: {'in production order' if in_order else 'OUT OF ORDER'} "
          f"({len(bo)} of {len(produced)})")
    erased = [i for i, e in enumerate(accepted) if e["type"] == "user.erased"][0]
    after = [e for e in accepted[erased + 1:] if (e.get("data") or {}).get("userId") == "ada-copy"]
    print(f"events naming ada-copy after user.erased: {len(after)}")
    sys.exit(0 if not missing and in_order and not after
             and all(e["verified"] for e in events) else 1)


if __name__ == "__main__":
    main()
