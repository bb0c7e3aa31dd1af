#!/usr/bin/env python3
"""A scripted stand-in for an OpenAI-compatible model server, enough for the memory jobs bench/webhooks/run.sh
causes: GET /v1/models lists one model, POST /v1/chat/completions answers every call with one short sentence (a
session summary). Python 3 standard library only.

  scripted_model.py --port 18099 --model scripted
"""
import argparse
import http.server
import json


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--port", type=int, default=18099)
    parser.add_argument("--model", default="scripted")
    args = parser.parse_args()

    class Handler(http.server.BaseHTTPRequestHandler):
        def answer(self, value):
            body = json.dumps(value).encode()
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def do_GET(self):
            self.answer({"object": "list", "data": [{"id": args.model, "object": "model", "owned_by": "bench"}]})

        def do_POST(self):
            self.rfile.read(int(self.headers.get("Content-Length", "0")))
            self.answer({"id": "chatcmpl-bench", "object": "chat.completion", "created": 0, "model": args.model,
                         "choices": [{"index": 0, "finish_reason": "stop",
                                      "message": {"role": "assistant",
                                                  "content": "The user talked about their garden."}}],
                         "usage": {"prompt_tokens": 10, "completion_tokens": 8, "total_tokens": 18}})

        def log_message(self, *unused):
            pass

    http.server.ThreadingHTTPServer(("127.0.0.1", args.port), Handler).serve_forever()


if __name__ == "__main__":
    main()
