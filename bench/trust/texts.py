"""The texts of the project's dialogue data sets, one per line (base64 of UTF-8), for FalsePositives.java.

    python3 texts.py --beam ../shared/data/beam-100k --generated /tmp/gen-data.json > texts.b64

Each line is "<set>\t<role>\t<base64>". BEAM's user messages end with a marker (" ->-> 1,1") that is stripped.
"""
import argparse
import base64
import glob
import json
import os
import re
import sys

MARKER = re.compile(r"\s*->->\s*[\d,\s]+$")


def beam(root):
    for conversation in sorted(glob.glob(os.path.join(root, "*"))):
        path = os.path.join(conversation, "chat_trunecated.json")
        if not os.path.exists(path):
            path = os.path.join(conversation, "chat.json")
        if not os.path.exists(path):
            continue
        for batch in json.load(open(path)):
            for turn in batch.get("turns", []):
                for message in turn:
                    yield "beam-100k", message["role"], MARKER.sub("", message["content"])


def generated(path):
    for dialogue in json.load(open(path))["dialogues"]:
        for session in dialogue["sessions"]:
            for turn in session["turns"]:
                yield "generated", turn["role"], turn["content"]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--beam")
    ap.add_argument("--generated")
    args = ap.parse_args()
    sources = []
    if args.beam:
        sources.append(beam(args.beam))
    if args.generated:
        sources.append(generated(args.generated))
    for source in sources:
        for name, role, text in source:
            encoded = base64.b64encode(text.encode("utf-8")).decode("ascii")
            sys.stdout.write(f"{name}\t{role}\t{encoded}\n")


if __name__ == "__main__":
    main()
