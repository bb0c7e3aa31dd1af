#!/usr/bin/env python3
"""A webhook receiver written from the Standard Webhooks specification (https://www.standardwebhooks.com/,
spec/standard-webhooks.md), apart from Memoir and its tests; Python 3 standard library only.

What the specification says a receiver does, and this one does:
- the signed content is "<webhook-id>.<webhook-timestamp>.<raw body>";
- the secret is "whsec_" followed by the base64 of the key; the key is those decoded bytes;
- webhook-signature is a space-separated list of "<version>,<base64 signature>"; "v1" is HMAC-SHA256 of the signed
  content with the key, and the delivery is genuine when any v1 entry matches, compared in constant time;
- a timestamp more than five minutes from the receiver's clock is refused (a replay);
- webhook-id is the same on every attempt of one message: a receiver that sees it again drops the repeat.

  receiver.py --port 18098 --secret-file secret.txt --log received.jsonl

Each request appends one JSON line to the log: id, timestamp, whether the signature verified, whether it was a
repeat, the event type and its data. The answer is 204 when verified, 401 otherwise (a sender then retries, which
shows in the log). The secret file may appear after start (it is read on each request): register the endpoint
first, write the secret, then send.
"""
import argparse
import base64
import hashlib
import hmac
import http.server
import json
import threading
import time

TOLERANCE_SECONDS = 5 * 60


def verify(secret, msg_id, timestamp, body, signature_header):
    """True when one of the header's v1 signatures is HMAC-SHA256(key, id.timestamp.body) of the secret's key."""
    if not secret.startswith("whsec_"):
        return False
    key = base64.b64decode(secret[len("whsec_"):])
    signed = msg_id.encode() + b"." + timestamp.encode() + b"." + body
    expected = base64.b64encode(hmac.new(key, signed, hashlib.sha256).digest())
    for entry in signature_header.split(" "):
        version, _, signature = entry.partition(",")
        if version == "v1" and hmac.compare_digest(expected, signature.encode()):
            return True
    return False


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--port", type=int, default=18098)
    parser.add_argument("--secret-file", default="secret.txt")
    parser.add_argument("--log", default="received.jsonl")
    args = parser.parse_args()
    seen = set()
    lock = threading.Lock()

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_POST(self):
            body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
            msg_id = self.headers.get("webhook-id", "")
            timestamp = self.headers.get("webhook-timestamp", "")
            signature = self.headers.get("webhook-signature", "")
            try:
                with open(args.secret_file) as f:
                    secret = f.read().strip()
                fresh = abs(time.time() - int(timestamp)) <= TOLERANCE_SECONDS
                verified = fresh and verify(secret, msg_id, timestamp, body, signature)
            except (OSError, ValueError):
                verified = False
            try:
                event = json.loads(body)
            except ValueError:
                event = {}
            with lock:
                repeat = verified and msg_id in seen
                if verified:
                    seen.add(msg_id)
                with open(args.log, "a") as f:
                    f.write(json.dumps({"id": msg_id, "timestamp": timestamp, "verified": verified,
                                        "repeat": repeat, "type": event.get("type"),
                                        "data": event.get("data")}) + "\n")
            self.send_response(204 if verified else 401)
            self.end_headers()

        def log_message(self, *unused):
            pass

    http.server.ThreadingHTTPServer(("127.0.0.1", args.port), Handler).serve_forever()


if __name__ == "__main__":
    main()
