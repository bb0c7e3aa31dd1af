#!/usr/bin/env python3
"""A scripted stand-in for an OpenAI-compatible model server, enough for the memory jobs bench/webhooks/run.sh
causes: GET /v1/models lists one model, POST /v1/chat/completions answers every call with one short sentence (a
session summary); a request for another model is refused (404), and one beyond --context-tokens (400). Python 3 standard library only.

  scripted_model.py --port 18099 --model scripted
"""
import argparse
import http.server
import json


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--port", type=int, default=18099)
    parser.add_argument("--model", default="scripted")
    parser.add_argument("--context-tokens", type=int, default=8192,
                        help="refuse a request whose messages exceed this many tokens (counted as characters / 4)")
    args = parser.parse_args()

    class Handler(http.server.BaseHTTPRequestHandler):
        def answer(self, value, status=200):
            body = json.dumps(value).encode()
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def do_GET(self):
            self.answer({"object": "list", "data": [{"id": args.model, "object": "model", "owned_by": "bench"}]})

        def do_POST(self):
            request = json.loads(self.rfile.read(int(self.headers.get("Content-Length", "0"))) or b"{}")
            # As strict as a real server: another model is not found (as Ollama answers), and a prompt beyond the
            # context is refused (as llama.cpp's server answers).
            if request.get("model") != args.model:
                self.answer({"error": {"message": f"model '{request.get('model')}' not found",
                                       "type": "not_found_error"}}, 404)
                return
            prompt = sum(len(str(m.get("content", ""))) for m in request.get("messages", [])) // 4
            if prompt > args.context_tokens:
                self.answer({"error": {"message": f"the request exceeds the available context size "
                                                  f"({prompt} > {args.context_tokens} tokens)",
                                       "type": "exceed_context_size_error"}}, 400)
                return
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
