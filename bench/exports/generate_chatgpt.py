"""A synthetic ChatGPT conversations.json of about 100 MB (no one's data): 20-message conversations of random words,
each a straight branch, to measure an export import's time and heap (docs/benchmarks.md, "Importing a 100 MB
export"). Writes conversations.json in the current directory."""
import json, random, sys
random.seed(7)
words = "the a garden tulip autumn train Tokyo river pasta choir cello bees hens Porto Berlin map spring blossom".split()
def text(n):
    return " ".join(random.choice(words) for _ in range(n))
out = open("conversations.json", "w", encoding="utf-8")
out.write("[")
t0 = 1.7e9
size = 0
i = 0
while size < 100 * 1024 * 1024:
    mapping = {"root": {"id": "root", "message": None, "parent": None, "children": []}}
    parent = "root"
    t = t0 + i * 3600
    for j in range(20):
        nid = f"c{i}-m{j}"
        role = "user" if j % 2 == 0 else "assistant"
        mapping[nid] = {"id": nid, "parent": parent, "children": [], "message": {
            "id": nid, "author": {"role": role, "name": None, "metadata": {}}, "create_time": t + j,
            "content": {"content_type": "text", "parts": [text(random.randint(50, 250))]},
            "metadata": {}, "recipient": "all", "status": "finished_successfully"}}
        mapping[parent]["children"].append(nid)
        parent = nid
    conv = {"title": f"Conversation {i}", "create_time": t, "update_time": t + 30, "mapping": mapping,
            "current_node": parent, "conversation_id": f"bench-{i}", "id": f"bench-{i}"}
    s = json.dumps(conv, ensure_ascii=False)
    out.write(("," if i else "") + s)
    size += len(s) + 1
    i += 1
out.write("]")
out.close()
print(i, "conversations")
