"""Synthetic memories for the scale benchmark: users, texts and clustered 384-dim unit vectors.

Everything is derived from one seed, so load.py (which writes the rows) and measure.py (which draws query
vectors from the same distribution) agree without sharing any file but the manifest.

Users (for --total T, proportions of the issue's 1,000,000-row tenant):
  class 100k: 1 user   with T/10 memories
  class 10k:  20 users with T/100 each
  class 1k:   300 users with T/1000 each
  class 40:   the rest, 20..60 memories each (about 40), as many users as it takes
Vectors, two modes:
  anchored (run.sh's default): anchors.py has the service embed ANCHORS_PER_TOPIC texts of each of N_TOPICS
    topics with its own model (bge-small-en-v1.5). A memory of topic t is v = normalize(a + ANCHOR_B*b + noise)
    with a, b anchors of t, and its text is a's text with ANCHOR_REWRITE of its words replaced. Query vectors of
    the API (bge of the query words) then live where the stored vectors live, as with real data.
  synthetic: v = normalize(MEAN_W*mean + TOPIC_W*topic + SUB_W*subtopic + noise): `mean` one direction shared
    by every vector (embedding models are anisotropic), `topic` one of N_TOPICS random unit centroids, `subtopic`
    one of N_SUB per topic; cosine ~0.4 unrelated, ~0.7 same topic, ~0.85 same subtopic. The service's bge
    query vectors are far from all of these: see docs/scale-benchmark.md for what that does to HNSW.
Each user has a handful of topics (3..6 + log10(size)) with Zipf weights.
Texts: "User: ..." / "Assistant: ..." (as history memories are written) and 8..30 words drawn with Zipf
weights from words.txt, a quarter of them from a per-topic word set so that words and vectors correlate.
"""

import bisect
import datetime
import math
import os
import random
import uuid

DIM = 384
N_TOPICS = 300
N_SUB = 24
MEAN_W, TOPIC_W, SUB_W, NOISE_W = 1.0, 1.0, 0.6, 0.5
TOPIC_WORD_SHARE = 0.25
EMBEDDING_MODEL = "bge-small-en-v1.5"   # InProcessEmbeddingModel.BGE_SMALL: the name the service writes
ANCHORS_PER_TOPIC = 64
ANCHOR_B, ANCHOR_NOISE, ANCHOR_REWRITE = 0.5, 0.4, 0.3
KINDS = ["history", "summary", "conditional", "memo", "recursive_summary", "topic", "reflected"]
EPOCH = datetime.datetime(2023, 11, 1, tzinfo=datetime.timezone.utc)
SPAN_SECONDS = 2 * 365 * 24 * 3600
HERE = os.path.dirname(os.path.abspath(__file__))
# Words that every history record carries ("User:"/"Assistant:") are never used as query words.
NOT_QUERY_WORDS = {"user", "assistant"}


def rng(seed, *parts):
    return random.Random(":".join(str(p) for p in (seed,) + parts))


def unit(v):
    n = math.sqrt(sum(x * x for x in v))
    return [x / n for x in v]


def gauss_vector(r):
    g = r.gauss
    return unit([g(0.0, 1.0) for _ in range(DIM)])


def load_words():
    words, seen = [], set()
    with open(os.path.join(HERE, "words.txt")) as f:
        for line in f:
            if line.startswith("#"):
                continue
            for w in line.split():
                if w not in seen:
                    seen.add(w)
                    words.append(w)
    return words


def stop_words():
    path = "/usr/share/postgresql/15/tsearch_data/english.stop"
    for candidate in [path] + [f"/usr/share/postgresql/{v}/tsearch_data/english.stop" for v in range(14, 20)]:
        if os.path.exists(candidate):
            with open(candidate) as f:
                return {w.strip() for w in f if w.strip()}
    return set()


class Model:
    """The global distribution: vocabulary, Zipf weights, topic and subtopic centroids."""

    def __init__(self, seed, anchors=None):
        self.seed = seed
        self.anchors = None
        if anchors:
            # topic -> [(text, vector)]: texts of the topic embedded by the service's model (anchors.py)
            self.anchors = {}
            with open(anchors) as f:
                for line in f:
                    topic, _k, body, vector = line.rstrip("\n").split("\t")
                    self.anchors.setdefault(int(topic), []).append(
                        (body, [float(x) for x in vector.strip("[]").split(",")]))
        self.words = load_words()
        self.cum = []
        acc = 0.0
        for rank in range(len(self.words)):
            acc += 1.0 / (rank + 2.7)     # Zipf-Mandelbrot, exponent 1
            self.cum.append(acc)
        stops = stop_words()
        self.content = [i for i, w in enumerate(self.words) if w not in stops and w not in NOT_QUERY_WORDS]
        r = rng(seed, "global")
        self.mean = gauss_vector(r)
        self.topics = [gauss_vector(r) for _ in range(N_TOPICS)]
        # each topic favours 40 content words from the less common part of the vocabulary
        mid = [i for i in self.content if i >= 100]
        self.topic_words = [r.sample(mid, 40) for _ in range(N_TOPICS)]
        self._bases = {}

    def base(self, topic, sub):
        key = (topic, sub)
        b = self._bases.get(key)
        if b is None:
            s = gauss_vector(rng(self.seed, "sub", topic, sub))
            t = self.topics[topic]
            b = [MEAN_W * m + TOPIC_W * x + SUB_W * y for m, x, y in zip(self.mean, t, s)]
            self._bases[key] = b
        return b

    def vector(self, r, topic):
        """A unit vector near one of the topic's subtopics."""
        b = self.base(topic, r.randrange(N_SUB))
        sigma = NOISE_W / math.sqrt(DIM)
        g = r.gauss
        v = [x + g(0.0, sigma) for x in b]
        n = math.sqrt(sum(x * x for x in v))
        return [x / n for x in v]

    def sample(self, r, topic):
        """A memory of the topic: (text, unit vector)."""
        if self.anchors is None:
            return self.text(r, topic), self.vector(r, topic)
        body, a = self.anchors[topic][r.randrange(len(self.anchors[topic]))]
        words = body.rstrip(".").split()
        for i in range(len(words)):
            if r.random() < ANCHOR_REWRITE:
                words[i] = self.words[bisect.bisect_left(self.cum, r.random() * self.cum[-1])]
        speaker = "User: " if r.random() < 0.5 else "Assistant: "
        return speaker + " ".join(words) + ".", self.near(r, topic, a)

    def near(self, r, topic, a):
        """A unit vector around anchor a: a + ANCHOR_B x another anchor of the topic + isotropic noise."""
        _, b = self.anchors[topic][r.randrange(len(self.anchors[topic]))]
        sigma = ANCHOR_NOISE / math.sqrt(DIM)
        g = r.gauss
        v = [x + ANCHOR_B * y + g(0.0, sigma) for x, y in zip(a, b)]
        n = math.sqrt(sum(x * x for x in v))
        return [x / n for x in v]

    def query(self, r, topic):
        """A search of the topic: (2..4 words, unit vector). With anchors, the words come from one anchor text and
        the vector lies around that anchor, as a user asks about something said before."""
        if self.anchors is None:
            return self.query_text(r, topic), self.vector(r, topic)
        body, a = self.anchors[topic][r.randrange(len(self.anchors[topic]))]
        content = list(dict.fromkeys(w for w in body.rstrip(".").split() if w in self.content_words))
        if len(content) < 2:
            text = self.query_text(r, topic)
        else:
            text = " ".join(r.sample(content, min(len(content), r.randint(2, 4))))
        return text, self.near(r, topic, a)

    @property
    def content_words(self):
        s = getattr(self, "_content_words", None)
        if s is None:
            s = self._content_words = {self.words[i] for i in self.content}
        return s

    def body(self, r, topic):
        """8..30 words: Zipf-weighted, a share of them from the topic's word set."""
        n = r.randint(8, 30)
        out = r.choices(self.words, cum_weights=self.cum, k=n)
        tw = self.topic_words[topic]
        for i in range(n):
            if r.random() < TOPIC_WORD_SHARE:
                out[i] = self.words[tw[r.randrange(len(tw))]]
        return " ".join(out) + "."

    def text(self, r, topic):
        speaker = "User: " if r.random() < 0.5 else "Assistant: "
        return speaker + self.body(r, topic)

    def query_text(self, r, topic=None, words=None):
        """A few content words (2..4) with Zipf weights among content words, some from the user's topic."""
        k = words or r.randint(2, 4)
        picked = []
        while len(picked) < k:
            if topic is not None and r.random() < TOPIC_WORD_SHARE:
                w = self.words[self.topic_words[topic][r.randrange(40)]]
            else:
                i = bisect.bisect_left(self.cum, r.random() * self.cum[-1])
                if i not in self.content_set:
                    continue
                w = self.words[i]
            if w not in picked:
                picked.append(w)
        return " ".join(picked)

    @property
    def content_set(self):
        s = getattr(self, "_content_set", None)
        if s is None:
            s = self._content_set = set(self.content)
        return s


def users(total, seed):
    """[(user_id, class_name, size, [topic ids], [topic weights])] with sizes summing to total."""
    r = rng(seed, "users")
    plan = [("100k", 1, total // 10), ("10k", 20, total // 100), ("1k", 300, total // 1000)]
    out = []
    for cls, count, size in plan:
        if size < 1:
            continue
        for i in range(count):
            out.append((f"u{cls}-{i:03d}", cls, size))
    rest = total - sum(s for _, _, s in out)
    i = 0
    while rest > 0:
        size = min(rest, r.randint(20, 60))
        if rest - size < 20 and rest - size > 0:
            size = rest
        out.append((f"u40-{i:05d}", "40", size))
        rest -= size
        i += 1
    result = []
    for uid, cls, size in out:
        ur = rng(seed, "user", uid)
        k = ur.randint(3, 6) + int(math.log10(max(size, 1)))
        topics = ur.sample(range(N_TOPICS), k)
        weights = [1.0 / (j + 1) for j in range(k)]
        result.append((uid, cls, size, topics, weights))
    return result


def sessions(user_list, seed):
    """Every user's sessions as (start_seconds, user_index, session_index, rows), in time order: rows are
    inserted as a live service would insert them, so one user's memories are spread over the table."""
    out = []
    for ui, (uid, _cls, size, _t, _w) in enumerate(user_list):
        r = rng(seed, "sessions", uid)
        left, si = size, 0
        while left > 0:
            n = min(left, r.randint(5, 35))
            out.append((r.randrange(SPAN_SECONDS), ui, si, n))
            left -= n
            si += 1
    out.sort()
    return out


def copy_rows(model, user_list, tenant_id, seed, out):
    """Writes COPY text rows for every memory to `out` (a binary file object); returns the row count."""
    count = 0
    buf = []
    for start, ui, si, n in sessions(user_list, seed):
        uid, _cls, _size, topics, weights = user_list[ui]
        r = rng(seed, "rows", uid, si)
        session_id = str(uuid.UUID(int=r.getrandbits(128), version=4))
        for j in range(n):
            topic = r.choices(topics, weights=weights)[0]
            text, vec = model.sample(r, topic)
            ts = (EPOCH + datetime.timedelta(seconds=start + 40 * j)).strftime("%Y-%m-%d %H:%M:%S+00")
            row_id = str(uuid.UUID(int=r.getrandbits(128), version=4))
            emb = "[" + ",".join(["%.6f" % x for x in vec]) + "]"
            buf.append("\t".join((row_id, tenant_id, uid, "history", text, emb, session_id,
                                  "{}", ts, ts, ts, ts, EMBEDDING_MODEL, "1")))
            count += 1
        if len(buf) >= 500:
            out.write(("\n".join(buf) + "\n").encode())
            buf = []
    if buf:
        out.write(("\n".join(buf) + "\n").encode())
    return count


COPY_COLUMNS = ("id, tenant_id, user_id, kind, text, embedding, session_id, turn_ids, created_at, updated_at, "
                "occurred_from, occurred_to, embedding_model, version")
