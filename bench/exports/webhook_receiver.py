"""A Standard Webhooks receiver written apart from Memoir and its tests: listens on 127.0.0.1:18098, verifies each
delivery's webhook-signature (HMAC-SHA256 over id.timestamp.body, keyed with the base64 after whsec_ of the secret
in secret.txt) and its timestamp, and appends one JSON line per delivery to received.log. Start Memoir with
MEMOIR_WEBHOOKS_ALLOWED_HOSTS=127.0.0.1 and register http://127.0.0.1:18098/hook."""
import base64, hashlib, hmac, http.server, json, sys, time
class H(http.server.BaseHTTPRequestHandler):
    def do_POST(self):
        body = self.rfile.read(int(self.headers["Content-Length"]))
        secret = open("secret.txt").read().strip()
        key = base64.b64decode(secret.split("_", 1)[1])
        mid, ts = self.headers["webhook-id"], self.headers["webhook-timestamp"]
        expected = "v1," + base64.b64encode(hmac.new(key, f"{mid}.{ts}.".encode() + body, hashlib.sha256).digest()).decode()
        ok = any(hmac.compare_digest(expected, s) for s in self.headers["webhook-signature"].split(" "))
        fresh = abs(time.time() - int(ts)) < 300
        with open("received.log", "a") as f:
            f.write(json.dumps({"id": mid, "verified": ok and fresh, "type": json.loads(body)["type"], "data": json.loads(body)["data"]}) + "\n")
        self.send_response(204); self.end_headers()
    def log_message(self, *a): pass
http.server.HTTPServer(("127.0.0.1", 18098), H).serve_forever()
