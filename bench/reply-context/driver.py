#!/usr/bin/env python3
"""Reply-context benchmark driver: how often the evidence of a question reaches the model's reply request.

    python3 driver.py --name generated --data /tmp/memoir-reply-bench/gen-data.json \
        --base-url http://127.0.0.1:18082 --control http://127.0.0.1:PORT [--sample 150] [--dialogues 0] ...
    python3 driver.py --name beam --beam ../shared/data/beam-100k ...
    python3 driver.py --table result-generated.json result-beam.json     # the Markdown tables of earlier results

Memoir runs against the test suite's scripted model server (ScriptedModelServer.java), which records every model
call and serves them on its control port. For each data set:

1. Import (unless the saved --state still matches the data and its tenant still answers): bench/retrieval/run.py's
   import, one tenant, one user per dialogue, one session per dated session writing and reading history only (no
   model job), turns with their occurredAt; saved after every dialogue, so that an interrupted import resumes
   with the dialogues not yet imported (--reimport starts over in a new tenant). A BEAM directory is first converted to the same format (written under
   $BENCH_OUT, never into the repository: its license is CC BY-SA): chat_trunecated.json where it exists else
   chat.json, one session per batch dated by its time_anchor (the messages one minute apart from 09:00 UTC), the
   ` ->-> n,m` markers stripped, messages longer than the import's 32000 characters cut there; questions from
   probing_questions.json, their source_chat_ids flattened (abstention questions have none: counted, but left
   out of the evidence and recall measures).
2. Search: every sampled question through GET /memory (kind history, limit 50, the service's default mode); a
   hit at k when any evidence turn is among the first k (provenance.turnIds).
3. Chat: for each scripted self-reflection answer (single: names memory 1 alone relevant; keywords: "not
   sufficient", two or three content words of the question) and each configuration of --configs, a new session
   per question for the dialogue's user with the configuration's memory settings and "write": [] (so that the
   question writes no memory; if the service refused an empty write set, each session would be deleted after its
   question), then POST /chat, then the calls the model server recorded for that chat. Measured per chat:
   - evidence in the reply request: any evidence turn's text, whitespace-normalized and case-folded, is contained
     in the reply request's messages other than the question itself; for evidence longer than 300 characters, any
     120-character window of it taken at a stride of 60 (a long memory may be shown by its matching passage);
   - memory tokens: FakeOpenAiServer.promptTokens of the reply request's system message, minus the same for a
     user with no memory under the same configuration and answer (measured once per configuration and answer);
   - the model calls per chat by step (self-reflection rounds), the memories the response lists, the latency.
4. Report per question type and overall: evidence-in-reply-request %, median and p95 memory tokens, search
   recall@10/@50 beside it, chats per second; JSON and Markdown under --out-dir.

Python 3 standard library only.
"""

import argparse
import concurrent.futures
import datetime as dt
import importlib.util
import json
import math
import os
import random
import re
import statistics
import subprocess
import sys
import time
import urllib.parse
from collections import Counter, defaultdict

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))


def _load_retrieval_run():
    spec = importlib.util.spec_from_file_location("retrieval_run", os.path.join(ROOT, "bench", "retrieval", "run.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


retrieval = _load_retrieval_run()
Api = retrieval.Api
percentile = retrieval.percentile

MAX_CONTENT = 32000          # the import's longest message (docs/api.md)
LONG_EVIDENCE = 300          # evidence longer than this is looked for by windows
WINDOW, STRIDE = 120, 60


def log(msg):
    print("[reply-bench] " + msg, file=sys.stderr, flush=True)


# ---------------------------------------------------------------------------------------------------------------
# Data sets
# ---------------------------------------------------------------------------------------------------------------

BEAM_MARKER = re.compile(r"\s*->->\s*(?:\d+|N/A)(?:\s*,\s*(?:\d+|N/A))*")


def flatten_ids(x):
    if x is None:
        return []
    if isinstance(x, bool):
        return []
    if isinstance(x, int):
        return [x]
    if isinstance(x, str):
        return [int(x)] if x.strip().isdigit() else []
    if isinstance(x, list):
        return [y for e in x for y in flatten_ids(e)]
    if isinstance(x, dict):
        return [y for e in x.values() for y in flatten_ids(e)]
    return []


def convert_beam(beam_dir):
    """BEAM's 100K tier in bench/retrieval's data format (dialogues with dated sessions, questions with evidence
    indices into the dialogue's turns)."""
    convs = sorted((n for n in os.listdir(beam_dir) if n.isdigit()), key=int)
    if not convs:
        raise SystemExit("no BEAM conversations under %s" % beam_dir)
    dialogues, questions = [], []
    stats = Counter()
    for n in convs:
        base = os.path.join(beam_dir, n)
        path = os.path.join(base, "chat_trunecated.json")
        if not os.path.exists(path):
            path = os.path.join(base, "chat.json")
        with open(path) as fh:
            batches = json.load(fh)
        did = "beam-%s" % n
        sessions, id_to_index, index = [], {}, 0
        day = None
        for b in batches:
            msgs = [m for t in b["turns"] for m in t]
            anchor = next((m.get("time_anchor") for m in msgs if m.get("time_anchor")), None) or b.get("time_anchor")
            if anchor:
                day = dt.datetime.strptime(anchor, "%B-%d-%Y").replace(hour=9, tzinfo=dt.timezone.utc)
            elif day is None:
                raise SystemExit("%s: a batch without any date" % path)
            turns = []
            for k, m in enumerate(msgs):
                content = BEAM_MARKER.sub("", m["content"]).strip()
                if not content:
                    stats["empty"] += 1
                    continue
                if len(content) > MAX_CONTENT:
                    stats["cut"] += 1
                    content = content[:MAX_CONTENT]
                if m["role"] not in ("user", "assistant"):
                    stats["role-" + m["role"]] += 1
                    continue
                id_to_index[m["id"]] = index
                turns.append({"index": index, "role": m["role"], "content": content,
                              "occurredAt": (day + dt.timedelta(minutes=k)).strftime("%Y-%m-%dT%H:%M:%SZ")})
                index += 1
            if turns:
                sessions.append({"turns": turns})
        dialogues.append({"id": did, "userId": "beam-user-%s" % n, "speakers": {"user": "User", "assistant": "Assistant"},
                          "sessions": sessions})
        with open(os.path.join(base, "probing_questions", "probing_questions.json")) as fh:
            probing = json.load(fh)
        for qtype, items in probing.items():
            for i, q in enumerate(items):
                ids = flatten_ids(q.get("source_chat_ids"))
                evidence = sorted({id_to_index[x] for x in ids if x in id_to_index})
                if len(evidence) < len(set(ids)):
                    stats["unresolved-evidence"] += len(set(ids)) - len({x for x in ids if x in id_to_index})
                questions.append({"id": "%s-%s-%d" % (did, qtype, i), "dialogueId": did, "type": qtype,
                                  "subtype": q.get("question_type") or q.get("difficulty") or "", "question": q["question"],
                                  "evidence": evidence})
    meta = {"source": "BEAM 100K (CC BY-SA 4.0, read at run time from %s)" % os.path.abspath(beam_dir),
            "dialogues": len(dialogues), "turns": sum(len(s["turns"]) for d in dialogues for s in d["sessions"]),
            "questions": len(questions), "conversion": dict(stats)}
    return {"meta": meta, "dialogues": dialogues, "questions": questions}


def join_dialogues(data, size):
    """A longer history from the one converted: every `size` consecutive conversations (by number; BEAM numbers them
    by category: coding and math, writing, discussion and recommendations, lifestyle and legal) as one user's, their
    sessions in date order (the dates of the conversations overlap, so they interleave as one person's topics would),
    each question asked of the joined user with its evidence re-indexed. A question keeps its conversation as its
    "source", by which --part splits: a question of a tuning conversation is never reported."""
    dialogues = sorted(data["dialogues"], key=lambda d: int(d["id"].split("-")[-1]))
    joined, questions = [], []
    by_dialogue = defaultdict(list)
    for q in data["questions"]:
        by_dialogue[q["dialogueId"]].append(q)
    for start in range(0, len(dialogues), size):
        group = dialogues[start:start + size]
        jid = "beam-joined-%d" % (start // size + 1)
        sessions = []
        for d in group:
            offset = 0
            for k, s in enumerate(d["sessions"]):
                sessions.append((s["turns"][0]["occurredAt"], d["id"], k, offset, s))
                offset += len(s["turns"])
        sessions.sort(key=lambda x: (x[0], x[1], x[2]))
        new_index, out_sessions, index = {}, [], 0
        for _, did, _, offset, s in sessions:
            turns = []
            for j, t in enumerate(s["turns"]):
                new_index[(did, offset + j)] = index
                turns.append(dict(t, index=index))
                index += 1
            out_sessions.append({"turns": turns})
        joined.append({"id": jid, "userId": "beam-joined-user-%d" % (start // size + 1),
                       "speakers": group[0]["speakers"], "sessions": out_sessions})
        for d in group:
            for q in by_dialogue[d["id"]]:
                questions.append(dict(q, id=q["id"].replace(d["id"], jid + "-" + d["id"], 1), dialogueId=jid,
                                      source=d["id"], evidence=sorted(new_index[(d["id"], i)] for i in q["evidence"])))
    meta = dict(data["meta"], joined=size, dialogues=len(joined))
    return {"meta": meta, "dialogues": joined, "questions": questions}


def sample_questions(questions, n, seed):
    """n questions (0 = all), stratified by type: each type gets its share (at least one), chosen with the seed."""
    if not n or n >= len(questions):
        return list(questions)
    by_type = defaultdict(list)
    for q in questions:
        by_type[q["type"]].append(q)
    total = len(questions)
    quota = {t: max(1, round(n * len(qs) / total)) for t, qs in by_type.items()}
    rng = random.Random(seed)
    chosen = set()
    for t in sorted(by_type):
        qs = by_type[t]
        for q in rng.sample(qs, min(quota[t], len(qs))):
            chosen.add(q["id"])
    return [q for q in questions if q["id"] in chosen]


# ---------------------------------------------------------------------------------------------------------------
# Evidence matching
# ---------------------------------------------------------------------------------------------------------------

def norm(text):
    return re.sub(r"\s+", " ", text).strip().casefold()


def evidence_shown(evidence_texts, haystack):
    """Whether any evidence text is in the haystack (both normalized): whole, or for long evidence by any window."""
    for text in evidence_texts:
        t = norm(text)
        if not t:
            continue
        if len(t) <= LONG_EVIDENCE:
            if t in haystack:
                return True
            continue
        for start in range(0, max(1, len(t) - WINDOW + 1), STRIDE):
            if t[start:start + WINDOW] in haystack:
                return True
        if t[-WINDOW:] in haystack:
            return True
    return False


def opening_shown(evidence_texts, haystack):
    """The stricter count: whether the whole first WINDOW characters of any evidence text (normalized) are in the
    haystack. A long turn shown only by a passage from its middle does not count; its opening with that passage
    does."""
    for text in evidence_texts:
        t = norm(text)
        if t and t[:WINDOW] in haystack:
            return True
    return False


def reply_haystack(call, question):
    """The reply request's messages other than the question itself (the last user message), normalized."""
    messages = call.get("messages") or []
    last_user = max((i for i, m in enumerate(messages) if m["role"] == "user" and norm(m["content"]) == norm(question)),
                    default=None)
    return "\n".join(norm(m["content"]) for i, m in enumerate(messages) if i != last_user)


# ---------------------------------------------------------------------------------------------------------------
# The run
# ---------------------------------------------------------------------------------------------------------------

class Control:
    def __init__(self, url):
        self.api = Api(url)
        self.since = 0

    def mode(self, reflection):
        status, body = self.api.request("POST", "/mode?reflection=" + reflection)
        if status != 200 or body.get("reflection") != reflection:
            raise SystemExit("the model server did not switch self-reflection to %s: %s %s" % (reflection, status, body))

    def mark(self):
        status, body = self.api.request("GET", "/calls?since=%d" % self.since)
        self.since = body["next"]

    def calls(self):
        status, body = self.api.request("GET", "/calls?since=%d" % self.since)
        if status != 200:
            raise SystemExit("control port answered %s" % status)
        calls = [c for c in body["calls"] if c["index"] >= self.since]
        self.since = body["next"]
        return calls

    def stats(self):
        return self.api.request("GET", "/stats")[1]


def import_or_reuse(api, data, data_path, args):
    """The saved import when it matches the data and its tenant still answers; otherwise an import, saved after every
    dialogue, so that an interrupted import (BEAM's long turns take minutes) resumes with the dialogues not yet in."""
    state = None
    digest = retrieval.data_digest(data_path)
    if os.path.exists(args.state) and not args.reimport:
        with open(args.state) as fh:
            state = json.load(fh)
        if state.get("dataSha256") != digest:
            log("%s holds another data set: importing again" % args.state)
            state = None
        elif tuple(state.get("write", ["history"])) != tuple(args.write):
            log("%s was imported writing %s: importing again writing %s"
                % (args.state, state.get("write", ["history"]), list(args.write)))
            state = None
        else:
            status, _ = api.request("GET", "/memory?" + urllib.parse.urlencode({"userId": "reply-bench-probe", "limit": 1}),
                                    state["tenantKey"])
            if status != 200:
                log("the saved tenant answers %s (another database?): importing again" % status)
                state = None
    if state is None:
        tenant = api.expect(201, "POST", "/admin/tenants", args.bootstrap_key,
                            {"name": "reply-bench-%s-%d" % (args.name, int(time.time()))})
        state = {"baseUrl": args.base_url, "tenantId": tenant["id"], "tenantKey": tenant["apiKey"], "data": data_path,
                 "dataSha256": digest, "users": {}, "turnIds": {}, "speakers": args.speakers, "importSeconds": 0.0,
                 "write": list(args.write)}
    todo = [d for d in data["dialogues"] if d["id"] not in state["turnIds"]]
    if not todo:
        log("reusing the import in %s" % args.state)
        return state
    turns = sum(len(s["turns"]) for d in todo for s in d["sessions"])
    log("importing %d dialogues, %d turns (%d clients)" % (len(todo), turns, args.import_clients))
    started = time.perf_counter()
    suffix = "-%d" % int(time.time()) if state["turnIds"] or state["users"] else ""
    done = 0

    def one(d):
        # A dialogue an interrupted import left half done stays under its old user id; this one gets a new one.
        d = dict(d, userId=d["userId"] + suffix)
        return d, retrieval.import_dialogue(Api(args.base_url), state["tenantKey"], d, args.speakers, args.write)[0]

    with concurrent.futures.ThreadPoolExecutor(args.import_clients) as pool:
        for d, ids in pool.map(one, todo):
            state["users"][d["id"]] = d["userId"]
            state["turnIds"][d["id"]] = ids
            done += sum(len(s["turns"]) for s in d["sessions"])
            elapsed = time.perf_counter() - started
            log("imported %s (%d/%d turns, %.1f turns/s)" % (d["id"], done, turns, done / elapsed))
            with open(args.state + ".tmp", "w") as fh:
                json.dump(state, fh)
            os.replace(args.state + ".tmp", args.state)
    elapsed = time.perf_counter() - started
    state["importSeconds"] = round(state.get("importSeconds", 0) + elapsed, 1)
    state["import"] = {"turns": sum(len(s["turns"]) for d in data["dialogues"] for s in d["sessions"]),
                       "turnsThisRun": turns, "secondsThisRun": round(elapsed, 1),
                       "turnsPerSecond": round(turns / elapsed, 1), "clients": args.import_clients}
    with open(args.state, "w") as fh:
        json.dump(state, fh)
    if args.db_url:
        subprocess.run(["psql", args.db_url, "-X", "-q", "-c", "analyze memory_records"], check=True)
    return state


def search_recall(api, key, questions, state, by_uuid):
    ranks = {}
    for q in questions:
        if not q["evidence"]:
            continue
        path = "/memory?" + urllib.parse.urlencode({"userId": state["users"][q["dialogueId"]], "query": q["question"],
                                                    "kind": "history", "limit": 50})
        status, payload = api.request("GET", path, key)
        rank = None
        if status == 200:
            evidence = set(q["evidence"])
            for r, item in enumerate(payload.get("items", []), start=1):
                hits = [by_uuid.get(u) for u in (item.get("provenance") or {}).get("turnIds", [])]
                if any(h and h[0] == q["dialogueId"] and h[1] in evidence for h in hits):
                    rank = r
                    break
        else:
            rank = "error %s" % status
        ranks[q["id"]] = rank
    return ranks


def new_session(api, key, user, memory):
    """(session, None), or (None, why) when the service refuses the settings."""
    status, body = api.request("POST", "/sessions", key, {"userId": user, "memory": memory})
    if status == 201:
        return body, None
    return None, "%s %s" % (status, json.dumps(body)[:300])


def ignored_settings(sent, echoed):
    """Settings sent that the session's resolved memory does not show (a service that does not know them)."""
    out = []
    for k, v in sent.items():
        if k not in echoed:
            out.append(k)
        elif isinstance(v, dict) and isinstance(echoed[k], dict):
            out.extend("%s.%s" % (k, kk) for kk, vv in v.items() if echoed[k].get(kk) != vv)
        elif isinstance(v, list):
            if sorted(v) != sorted(echoed[k] or []):
                out.append(k)
        elif echoed[k] != v:
            out.append(k)
    return out


def run_chats(api, control, key, state, questions, turn_texts, configs, modes, args):
    """Every (mode, config, question): a session, one chat, the reply request measured."""
    runs = []
    dump = open(os.path.join(args.out_dir, "requests-%s.jsonl" % args.name), "w") if args.dump_requests else None
    empty_user = "reply-bench-empty-%d" % int(time.time())
    warmed = False
    for mode in modes:
        control.mode(mode)
        for cfg in configs:
            label = cfg["label"]
            memory = dict(cfg.get("memory") or {})
            memory["write"] = []
            run = {"config": label, "memory": cfg.get("memory") or {}, "reflection": mode, "rows": [], "errors": 0}
            runs.append(run)
            # Does the service take these settings? (A 400 skips the configuration.)
            session, why = new_session(api, key, empty_user, memory)
            delete_after = False
            if session is None and "write" in why:
                # An empty write set refused: write nothing else, delete each question's session afterwards.
                memory.pop("write")
                session, why = new_session(api, key, empty_user, memory)
                delete_after = True
            if session is None:
                run["skipped"] = why
                log("%s / %s: the service refused the settings, skipped: %s" % (label, mode, why))
                continue
            echoed = session.get("memory") or {}
            run["sessionMemory"] = echoed
            run["ignored"] = ignored_settings(memory, echoed)
            run["deleteSessions"] = delete_after
            if run["ignored"]:
                log("%s / %s: the service ignored %s" % (label, mode, ", ".join(run["ignored"])))
            # Baseline: the reply request for a user with no memory.
            control.mark()
            status, body = api.request("POST", "/chat", key, {"sessionId": session["id"],
                                                              "message": "What do you remember about me?"})
            calls = [c for c in control.calls() if c["step"] == "reply"]
            if status != 200 or not calls:
                raise SystemExit("baseline chat failed: %s %s" % (status, body))
            run["baselineSystemTokens"] = calls[-1]["systemTokens"]
            run["baselinePromptTokens"] = calls[-1]["promptTokens"]
            run["baselineSystemCl100k"] = calls[-1]["systemCl100k"]
            if delete_after:
                api.request("DELETE", "/sessions/%s" % session["id"], key)
            if not warmed:
                for q in questions[:args.warmup]:
                    s, _ = new_session(api, key, state["users"][q["dialogueId"]], memory)
                    api.request("POST", "/chat", key, {"sessionId": s["id"], "message": q["question"]})
                    if delete_after:
                        api.request("DELETE", "/sessions/%s" % s["id"], key)
                control.mark()
                warmed = True
            started = time.perf_counter()
            chat_seconds = 0.0
            dumped = 0
            for q in questions:
                user = state["users"][q["dialogueId"]]
                session, why = new_session(api, key, user, memory)
                if session is None:
                    raise SystemExit("session refused mid-run: %s" % why)
                context = None
                if args.context:
                    # The same memory through POST /context, asked before the chat stores its turn, so that both
                    # see the same memory.
                    c_status, context = api.request("POST", "/context", key, {
                        "userId": user, "sessionId": session["id"], "query": q["question"]})
                    if c_status != 200:
                        raise SystemExit("POST /context answered %s %s" % (c_status, json.dumps(context)[:300]))
                control.mark()
                t0 = time.perf_counter()
                status, body = api.request("POST", "/chat", key, {"sessionId": session["id"], "message": q["question"]})
                seconds = time.perf_counter() - t0
                chat_seconds += seconds
                calls = control.calls()
                steps = Counter(c["step"] for c in calls)
                replies = [c for c in calls if c["step"] == "reply"]
                row = {"id": q["id"], "type": q["type"], "hasEvidence": bool(q["evidence"]),
                       "ms": round(seconds * 1000, 1), "steps": dict(steps)}
                if status != 200 or not replies:
                    run["errors"] += 1
                    row["error"] = "%s %s" % (status, json.dumps(body)[:300])
                else:
                    call = replies[-1]
                    row["memoryTokens"] = call["systemTokens"] - run["baselineSystemTokens"]
                    row["memoryCl100k"] = call["systemCl100k"] - run["baselineSystemCl100k"]
                    row["promptTokens"] = call["promptTokens"]
                    row["memories"] = len(body.get("memories") or [])
                    row["memoryKinds"] = dict(Counter(m.get("kind") for m in body.get("memories") or []))
                    if q["evidence"]:
                        texts = [turn_texts[q["dialogueId"]][i] for i in q["evidence"]]
                        haystack = reply_haystack(call, q["question"])
                        row["inReply"] = evidence_shown(texts, haystack)
                        row["openingInReply"] = opening_shown(texts, haystack)
                        # A check of the measure: the same match against the memories the response lists.
                        row["inMemories"] = evidence_shown(
                            texts, "\n".join(norm(m.get("text") or "") for m in body.get("memories") or []))
                    if context is not None:
                        # The endpoint's text must be the memory block of the reply request, character for character.
                        system = next((m["content"] for m in call["messages"] if m["role"] == "system"), "")
                        row["contextInReply"] = bool(context.get("text")) and context["text"] in system \
                            or not context.get("text")
                        if q["evidence"]:
                            row["inContext"] = evidence_shown(texts, norm(context.get("text") or ""))
                    if dump is not None and dumped < args.dump_requests:
                        dump.write(json.dumps({"config": label, "reflection": mode, "question": q,
                                               "evidenceTexts": [turn_texts[q["dialogueId"]][i] for i in q["evidence"]],
                                               "row": row, "replyRequest": call["messages"],
                                               "responseMemories": body.get("memories")}) + "\n")
                        dumped += 1
                run["rows"].append(row)
                if delete_after:
                    api.request("DELETE", "/sessions/%s" % session["id"], key)
            elapsed = time.perf_counter() - started
            run["seconds"] = round(elapsed, 2)
            run["chatsPerSecond"] = round(len(questions) / elapsed, 2) if elapsed else None
            run["chatMsMean"] = round(1000 * chat_seconds / len(questions), 1) if questions else None
            s = summarize_rows(run["rows"])
            log("%-28s %-8s evidence in reply %s%%, memory tokens p50 %s p95 %s, %.1f chats/s, %d errors"
                % (label, mode, pct(s["evidenceInReply"]), s["memoryTokensP50"], s["memoryTokensP95"],
                   run["chatsPerSecond"] or 0, run["errors"]))
            if s["evidenceInContext"] is not None:
                log("  POST /context: evidence in its text %s%%, its text is the reply request's memory block for %s%%"
                    % (pct(s["evidenceInContext"]), pct(s["contextIsReplyBlock"])))
            if s["evidenceInMemories"] is not None and s["evidenceInMemories"] != s["evidenceInReply"]:
                log("  note: the evidence is in the response's memories for %s%% (in the reply request for %s%%)"
                    % (pct(s["evidenceInMemories"]), pct(s["evidenceInReply"])))
    if dump is not None:
        dump.close()
    return runs


def summarize_rows(rows):
    with_ev = [r for r in rows if r["hasEvidence"] and "inReply" in r]
    tokens = [r["memoryTokens"] for r in rows if "memoryTokens" in r]
    cl100k = [r["memoryCl100k"] for r in rows if "memoryCl100k" in r]
    refl = [r["steps"].get("self-reflection", 0) for r in rows]
    return {"questions": len(rows), "withEvidence": len(with_ev),
            "evidenceInReply": round(sum(r["inReply"] for r in with_ev) / len(with_ev), 6) if with_ev else None,
            "openingInReply": round(sum(r.get("openingInReply", False) for r in with_ev) / len(with_ev), 6)
            if with_ev else None,
            "evidenceInMemories": round(sum(r["inMemories"] for r in with_ev) / len(with_ev), 6) if with_ev else None,
            "evidenceInContext": round(sum(r["inContext"] for r in with_ev) / len(with_ev), 6)
            if with_ev and all("inContext" in r for r in with_ev) else None,
            "contextIsReplyBlock": round(sum(r["contextInReply"] for r in rows if "contextInReply" in r)
                                         / sum(1 for r in rows if "contextInReply" in r), 6)
            if any("contextInReply" in r for r in rows) else None,
            "memoryTokensP50": round(statistics.median(tokens)) if tokens else None,
            "memoryTokensP95": percentile(tokens, 95) if tokens else None,
            "memoryCl100kP50": round(statistics.median(cl100k)) if cl100k else None,
            "memoryCl100kP95": percentile(cl100k, 95) if cl100k else None,
            "selfReflectionCallsMean": round(statistics.mean(refl), 2) if refl else None,
            "memoriesMean": round(statistics.mean([r["memories"] for r in rows if "memories" in r]), 1)
            if any("memories" in r for r in rows) else None,
            "errors": sum(1 for r in rows if "error" in r)}


def recall_summary(qs, ranks):
    rs = [ranks.get(q["id"]) for q in qs if q["evidence"]]
    n = len(rs)
    if not n:
        return {"questions": 0, "10": None, "50": None}
    ok = lambda r, k: isinstance(r, int) and r <= k  # noqa: E731
    return {"questions": n, "10": round(sum(ok(r, 10) for r in rs) / n, 6), "50": round(sum(ok(r, 50) for r in rs) / n, 6)}


def pct(x):
    return "—" if x is None else "%.1f" % (100 * x)


def summarize(name, questions, ranks, runs):
    types = sorted({q["type"] for q in questions})
    out = {"name": name, "types": {t: sum(1 for q in questions if q["type"] == t) for t in types},
           "recall": {"all": recall_summary(questions, ranks)}, "runs": []}
    for t in types:
        out["recall"][t] = recall_summary([q for q in questions if q["type"] == t], ranks)
    for run in runs:
        entry = {k: v for k, v in run.items() if k != "rows"}
        if "skipped" not in run:
            entry["all"] = summarize_rows(run["rows"])
            entry["byType"] = {t: summarize_rows([r for r in run["rows"] if r["type"] == t]) for t in types}
        out["runs"].append(entry)
    return out


def markdown(res):
    out = []
    meta = res.get("dataMeta", {})
    out.append("### %s: %d questions (%d with evidence) of %s" % (
        res["name"], sum(res["types"].values()), res["recall"]["all"]["questions"],
        meta.get("source") or meta.get("generator") or "the data set"))
    out.append("")
    out.append("Search (GET /memory, history, limit 50): recall@10 %s%%, @50 %s%%. Chat: %d chats (one session each) "
               "in %.0f s, %.2f chats/s, sequential."
               % (pct(res["recall"]["all"]["10"]), pct(res["recall"]["all"]["50"]), res.get("chats", 0),
                  res.get("chatSeconds", 0), res.get("chats", 0) / res["chatSeconds"] if res.get("chatSeconds") else 0))
    out.append("")
    out.append("Memory tokens: the reply request's system message minus the same for a user with no memory, counted by "
               "the model server (FakeOpenAiServer.promptTokens: 1.25 tokens per cl100k_base token) and by the "
               "service's own count (cl100k_base, the unit of promptTokenBudget).")
    out.append("")
    out.append("| settings | self-reflection | evidence in reply request | its opening (strict) | memory tokens p50 / "
               "p95 (server) | (service, cl100k) | memories shown | self-reflection calls | chats/s | errors |")
    out.append("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    for run in res["runs"]:
        if "skipped" in run:
            out.append("| %s | %s | skipped: the service refused the settings (%s) | | | | | | |"
                       % (run["config"], run["reflection"], run["skipped"][:80].replace("|", "/")))
            continue
        a = run["all"]
        note = " (ignored: %s)" % ", ".join(run["ignored"]) if run.get("ignored") else ""
        out.append("| %s%s | %s | %s%% | %s%% | %s / %s | %s / %s | %s | %s | %s | %d |" % (
            run["config"], note, run["reflection"], pct(a["evidenceInReply"]), pct(a.get("openingInReply")),
            a["memoryTokensP50"],
            a["memoryTokensP95"], a.get("memoryCl100kP50"), a.get("memoryCl100kP95"), a["memoriesMean"],
            a["selfReflectionCallsMean"], run["chatsPerSecond"], run["errors"]))
    for run in res["runs"]:
        a = run.get("all") or {}
        if a.get("evidenceInContext") is not None:
            out.append("")
            out.append("POST /context, %s / %s: evidence in its text %s%%; its text is the reply request's memory "
                       "block for %s%% of questions." % (run["config"], run["reflection"], pct(a["evidenceInContext"]),
                                                         pct(a["contextIsReplyBlock"])))
    out.append("")
    types = list(res["types"])
    out.append("Evidence in the reply request per question type, % (the count above / the strict count of its "
               "opening); memory tokens p50 (server) in brackets. Search recall@10 / @50 in the first row.")
    out.append("")
    out.append("| settings | self-reflection | " + " | ".join("%s (%d)" % (t, res["types"][t]) for t in types) + " |")
    out.append("|---|---|" + "---:|" * len(types))
    out.append("| search recall@10 / @50 | | " + " | ".join(
        "%s / %s" % (pct(res["recall"][t]["10"]), pct(res["recall"][t]["50"])) for t in types) + " |")
    for run in res["runs"]:
        if "skipped" in run:
            continue
        cells = []
        for t in types:
            s = run["byType"][t]
            cells.append("%s / %s (%s)" % (pct(s["evidenceInReply"]), pct(s.get("openingInReply")),
                                           s["memoryTokensP50"]))
        out.append("| %s | %s | %s |" % (run["config"], run["reflection"], " | ".join(cells)))
    return "\n".join(out)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--name", default=None, help="the data set's name in the report (generated, beam, ...)")
    ap.add_argument("--data", help="a data set in bench/retrieval/generate.py's format")
    ap.add_argument("--beam", help="BEAM's 100K directory (../shared/data/beam-100k)")
    ap.add_argument("--join", type=int, default=1,
                    help="with --beam: every N conversations joined as one user's history (N times as long)")
    ap.add_argument("--base-url", default="http://127.0.0.1:18082")
    ap.add_argument("--bootstrap-key", default="bench-key")
    ap.add_argument("--control", default=None, help="the scripted model server's control URL")
    ap.add_argument("--configs", default=os.path.join(HERE, "configs.json"))
    ap.add_argument("--only", default="", help="comma-separated configuration labels to run (default all)")
    ap.add_argument("--reflection", default="single,keywords", help="scripted self-reflection answers to run")
    ap.add_argument("--sample", type=int, default=0, help="questions per data set, stratified by type (0 = all)")
    ap.add_argument("--seed", type=int, default=20240501)
    ap.add_argument("--dialogues", type=int, default=0, help="only the first N dialogues and their questions (0 = all)")
    ap.add_argument("--part", choices=["all", "tune", "report"], default="all",
                    help="the questions of every other dialogue in id order, from the first (tune) or the second "
                         "(report): tune the service on one part, report on the other (every dialogue is imported)")
    ap.add_argument("--warmup", type=int, default=5, help="unmeasured chats before the first measured run")
    ap.add_argument("--dump-requests", type=int, default=0,
                    help="write the first N reply requests of every run to OUT/requests-NAME.jsonl (for inspection)")
    ap.add_argument("--speakers", action="store_true", help="import each turn's speaker (generated data)")
    ap.add_argument("--context", action="store_true",
                    help="also ask POST /context before each chat: the evidence in its text, and whether its text is "
                         "the reply request's memory block")
    ap.add_argument("--import-clients", type=int, default=2)
    ap.add_argument("--write", default="history,instruction",
                    help="the kinds the imported sessions write (comma-separated): those written as turns are recorded, "
                         "without the model")
    ap.add_argument("--state", default=None, help="the import's tenant and turn ids (default OUT/state-NAME.json)")
    ap.add_argument("--reimport", action="store_true")
    ap.add_argument("--db-url", default=None, help="ANALYZE memory_records through psql after an import")
    ap.add_argument("--out-dir", default=os.environ.get("BENCH_OUT", "/tmp/memoir-reply-bench"))
    ap.add_argument("--table", nargs="+", metavar="RESULT", help="print the Markdown of earlier result files and exit")
    args = ap.parse_args()
    args.write = tuple(k for k in args.write.split(",") if k)

    if args.table:
        for p in args.table:
            with open(p) as fh:
                print(markdown(json.load(fh)["summary"]))
            print()
        return
    if bool(args.data) == bool(args.beam):
        raise SystemExit("give --data or --beam")
    if not args.control:
        raise SystemExit("--control: the scripted model server's control URL")
    out_dir = os.path.abspath(args.out_dir)
    if out_dir == ROOT or out_dir.startswith(ROOT + os.sep):
        raise SystemExit("--out-dir must be outside the repository")
    os.makedirs(out_dir, exist_ok=True)
    name = args.name = args.name or ("beam" if args.beam else "generated")
    args.out_dir = out_dir
    if args.beam:
        data = convert_beam(args.beam)
        data_path = os.path.join(out_dir, "beam-data.json")
        if args.join > 1:
            data = join_dialogues(data, args.join)
            data_path = os.path.join(out_dir, "beam-joined%d-data.json" % args.join)
        # Written only when it changed, so that the saved import's digest still matches.
        text = json.dumps(data)
        if not os.path.exists(data_path) or open(data_path).read() != text:
            with open(data_path, "w") as fh:
                fh.write(text)
        log("BEAM converted: %s" % json.dumps(data["meta"]["conversion"]))
    else:
        data_path = os.path.abspath(args.data)
        with open(data_path) as fh:
            data = json.load(fh)
    if args.dialogues:
        keep = {d["id"] for d in data["dialogues"][:args.dialogues]}
        data = dict(data, dialogues=[d for d in data["dialogues"] if d["id"] in keep],
                    questions=[q for q in data["questions"] if q["dialogueId"] in keep])
        data_path = os.path.join(out_dir, "%s-first%d.json" % (name, args.dialogues))
        text = json.dumps(data)
        if not os.path.exists(data_path) or open(data_path).read() != text:
            with open(data_path, "w") as fh:
                fh.write(text)
    args.state = args.state or os.path.join(out_dir, "state-%s%s.json" % (name, "-first%d" % args.dialogues if args.dialogues else ""))
    with open(args.configs) as fh:
        configs = json.load(fh)["configs"]
    if args.only:
        wanted = [x.strip() for x in args.only.split(",")]
        configs = [c for c in configs if c["label"] in wanted]
    modes = [m for m in args.reflection.split(",") if m]

    api = Api(args.base_url)
    control = Control(args.control)
    state = import_or_reuse(api, data, data_path, args)
    key = state["tenantKey"]
    by_uuid = {}
    for did, ids in state["turnIds"].items():
        for i, u in enumerate(ids):
            by_uuid[u] = (did, i)
    turn_texts = {d["id"]: [t["content"] for s in d["sessions"] for t in s["turns"]] for d in data["dialogues"]}
    questions = sample_questions(data["questions"], args.sample, args.seed)
    if args.part != "all":
        sources = {q.get("source", q["dialogueId"]) for q in data["questions"]}
        ordered = sorted(sources, key=lambda i: (len(str(i)), str(i)))
        part = set(ordered[0 if args.part == "tune" else 1::2])
        questions = [q for q in questions if q.get("source", q["dialogueId"]) in part]
        name = args.name = "%s-%s" % (name, args.part)
    log("%s: %d questions (%s)" % (name, len(questions), json.dumps(dict(Counter(q["type"] for q in questions)))))

    t0 = time.perf_counter()
    ranks = search_recall(api, key, questions, state, by_uuid)
    search_seconds = time.perf_counter() - t0
    runs = run_chats(api, control, key, state, questions, turn_texts, configs, modes, args)
    res = summarize(name, questions, ranks, runs)
    res["dataMeta"] = data.get("meta", {})
    res["searchSeconds"] = round(search_seconds, 1)
    res["chats"] = sum(len(r["rows"]) for r in runs)
    res["chatSeconds"] = round(sum(r.get("seconds", 0) for r in runs), 1)
    stats = control.stats()
    res["modelServer"] = {"perStep": stats.get("perStep"), "refused": stats.get("refused"), "untagged": stats.get("untagged")}
    if stats.get("refused") or stats.get("untagged"):
        log("the model server refused %d requests and could not tell the step of %d: see result modelServer"
            % (len(stats.get("refused") or []), len(stats.get("untagged") or [])))
    result = {"name": name, "data": data_path, "sample": args.sample, "seed": args.seed, "dialogues": args.dialogues,
              "baseUrl": args.base_url, "import": state.get("import"), "summary": res,
              "questions": [{"id": q["id"], "type": q["type"], "searchRank": ranks.get(q["id"])} for q in questions],
              "runs": runs}
    out = os.path.join(out_dir, "result-%s.json" % name)
    with open(out, "w") as fh:
        json.dump(result, fh, indent=1)
    md = markdown(res)
    with open(os.path.join(out_dir, "result-%s.md" % name), "w") as fh:
        fh.write(md + "\n")
    print(md)
    log("wrote %s" % out)


if __name__ == "__main__":
    main()
