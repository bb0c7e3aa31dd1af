// A word-level diff of two versions of a memory: the longest common subsequence of their words and the spaces
// between them, after the common beginning and end are set aside.

const MAX_CELLS = 4_000_000;

function tokens(text) {
  return String(text ?? '').match(/\s+|[^\s]+/g) ?? [];
}

/**
 * The changes from `before` to `after` as runs of {op: 'same' | 'del' | 'ins', text}; joining the 'same' and
 * 'del' runs gives `before`, joining 'same' and 'ins' gives `after`.
 */
export function wordDiff(before, after) {
  const a = tokens(before);
  const b = tokens(after);
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) {
    start++;
  }
  let endA = a.length;
  let endB = b.length;
  while (endA > start && endB > start && a[endA - 1] === b[endB - 1]) {
    endA--;
    endB--;
  }
  const ops = [];
  for (let i = 0; i < start; i++) {
    ops.push(['same', a[i]]);
  }
  ops.push(...middle(a.slice(start, endA), b.slice(start, endB)));
  for (let i = endA; i < a.length; i++) {
    ops.push(['same', a[i]]);
  }
  return merge(ops);
}

function middle(a, b) {
  const n = a.length;
  const m = b.length;
  if (n === 0 || m === 0 || (n + 1) * (m + 1) > MAX_CELLS) {
    // Too long to align word by word: the whole middle was replaced.
    return [...a.map((t) => ['del', t]), ...b.map((t) => ['ins', t])];
  }
  // lengths[i][j]: the longest common subsequence of a[i..] and b[j..], in one flat array.
  const width = m + 1;
  const lengths = new Uint32Array((n + 1) * width);
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) {
      lengths[i * width + j] = a[i] === b[j]
        ? lengths[(i + 1) * width + j + 1] + 1
        : Math.max(lengths[(i + 1) * width + j], lengths[i * width + j + 1]);
    }
  }
  const ops = [];
  let i = 0;
  let j = 0;
  while (i < n && j < m) {
    if (a[i] === b[j]) {
      ops.push(['same', a[i]]);
      i++;
      j++;
    } else if (lengths[(i + 1) * width + j] >= lengths[i * width + j + 1]) {
      ops.push(['del', a[i++]]);
    } else {
      ops.push(['ins', b[j++]]);
    }
  }
  while (i < n) {
    ops.push(['del', a[i++]]);
  }
  while (j < m) {
    ops.push(['ins', b[j++]]);
  }
  return ops;
}

/** Joins neighbouring runs of the same kind; a lone space between two changes joins them, for readability. */
function merge(ops) {
  const runs = [];
  for (const [op, text] of ops) {
    const last = runs[runs.length - 1];
    if (last && last.op === op) {
      last.text += text;
    } else {
      runs.push({ op, text });
    }
  }
  const joined = [];
  for (let k = 0; k < runs.length; k++) {
    const run = runs[k];
    const prev = joined[joined.length - 1];
    const next = runs[k + 1];
    if (run.op === 'same' && /^\s+$/.test(run.text) && prev && prev.op !== 'same' && next && next.op !== 'same') {
      // "a b" -> "c d": show "-a b- +c d+" rather than "-a- +c- -b- +d-".
      addTo(joined, 'del', run.text);
      addTo(joined, 'ins', run.text);
      continue;
    }
    addTo(joined, run.op, run.text);
  }
  return regroup(joined);
}

function addTo(runs, op, text) {
  const last = runs[runs.length - 1];
  if (last && last.op === op) {
    last.text += text;
  } else {
    runs.push({ op, text });
  }
}

/** Within each stretch of changes, all deletions first, then all insertions. */
function regroup(runs) {
  const result = [];
  let dels = '';
  let inss = '';
  const flush = () => {
    if (dels) result.push({ op: 'del', text: dels });
    if (inss) result.push({ op: 'ins', text: inss });
    dels = '';
    inss = '';
  };
  for (const run of runs) {
    if (run.op === 'same') {
      flush();
      result.push(run);
    } else if (run.op === 'del') {
      dels += run.text;
    } else {
      inss += run.text;
    }
  }
  flush();
  return result;
}
