// A user's memories: by kind, newest first; one memory with its provenance, revisions (with diffs), edit and
// delete; and the hybrid search with its explanation.
import { call, get, path, ApiError } from './api.js';
import {
  h, replace, time, plural, loading, errorBox, actionButton, confirmDialog, notify, facts, formatNumber, excerpt,
  dialogueSpan,
} from './dom.js';
import { wordDiff } from './diff.js';
import { navigate, route } from './router.js';
import { refreshUsers } from './users.js';

export const KINDS = ['history', 'summary', 'conditional', 'memo', 'recursive_summary', 'topic', 'reflected', 'fact', 'instruction'];
const KIND_LABELS = {
  history: 'history', summary: 'summary', conditional: 'conditional', memo: 'memo',
  recursive_summary: 'recursive summary', topic: 'topic', reflected: 'reflected', fact: 'fact',
  instruction: 'standing instruction',
};
const PAGE = 20;

export function kindLabel(kind) {
  return KIND_LABELS[kind] ?? kind;
}

function memoryTitle(memory) {
  return [
    h('span', { class: 'badge' }, kindLabel(memory.kind)),
    memory.topic ? h('strong', {}, memory.topic) : null,
    memory.speaker ? h('span', { class: 'meta' }, `about the ${memory.speaker}`) : null,
  ];
}

function memoryHeading(memory) {
  const kind = kindLabel(memory.kind);
  return [
    `${kind.charAt(0).toUpperCase()}${kind.slice(1)} memory`,
    memory.topic ? h('span', { class: 'badge' }, memory.topic) : null,
    memory.speaker ? h('span', { class: 'meta' }, `about the ${memory.speaker}`) : null,
  ];
}

/** When what a memory records was said (its dialogue time), else when it was written. */
function saidWhen(memory) {
  if (!memory.occurredFrom) {
    return time(memory.createdAt);
  }
  return memory.occurredTo && memory.occurredTo !== memory.occurredFrom
    ? [time(memory.occurredFrom), ' – ', time(memory.occurredTo)] : time(memory.occurredFrom);
}

function memoryCard(userId, memory, extra = null) {
  const said = memory.occurredFrom ?? memory.createdAt;
  return h('li', { class: 'card', 'data-memory': memory.id },
    h('div', { class: 'card-title' },
      memoryTitle(memory),
      h('a', { href: route('users', userId, 'memories', memory.id), 'data-time': 'dialogue', 'aria-label': `Open ${kindLabel(memory.kind)} memory of ${new Date(said).toLocaleString()}` },
        saidWhen(memory)),
      h('span', { class: 'meta', 'data-time': 'stored' }, 'stored ', time(memory.createdAt)),
      memory.version > 1 ? h('span', { class: 'meta' }, `version ${memory.version}`) : null,
      memory.supersededBy ? h('span', { class: 'badge', 'data-superseded': '' }, 'superseded') : null,
      memory.provenance?.trust === 'low'
        ? h('span', { class: 'badge', 'data-trust': 'low', title: `source: ${memory.provenance.source}` }, 'low trust') : null),
    h('p', { class: 'text memory-text' }, memory.text),
    extra);
}

/** The user's memories, newest first, of one kind or all. */
export function memoryList(container, userId) {
  const select = h('select', { id: 'kind-filter', name: 'kind' },
    h('option', { value: '' }, 'All kinds'),
    KINDS.map((kind) => h('option', { value: kind }, kindLabel(kind))));
  const superseded = h('input', { type: 'checkbox', id: 'include-superseded', name: 'includeSuperseded' });
  const list = h('ol', { class: 'cards', 'aria-label': 'Memories, newest first' });
  const status = h('div');
  const more = h('div', { class: 'more' });
  let cursor = null;

  async function load(reset) {
    if (reset) {
      cursor = null;
      list.replaceChildren();
      replace(status, loading('Loading memories…'));
    }
    try {
      const page = await get('/memory', {
        userId, kind: select.value || null, limit: PAGE, cursor, includeSuperseded: superseded.checked || null,
      });
      for (const memory of page.items) {
        list.appendChild(memoryCard(userId, memory));
      }
      cursor = page.nextCursor ?? null;
      replace(status, list.children.length === 0
        ? h('p', { class: 'muted' }, select.value ? `No ${kindLabel(select.value)} memories.` : 'No memories.')
        : null);
      replace(more, cursor ? actionButton('More memories', '', () => load(false)) : null);
    } catch (e) {
      replace(status, errorBox(e));
    }
  }

  select.addEventListener('change', () => load(true));
  superseded.addEventListener('change', () => load(true));
  replace(container,
    h('div', { class: 'row' }, h('label', { for: 'kind-filter' }, 'Kind'), select,
      superseded, h('label', { for: 'include-superseded' }, 'Include superseded')),
    h('p', { class: 'meta' }, 'Newest first.'),
    status, list, more);
  return load(true);
}

/** One memory: text, dates, provenance, revisions with diffs; edit and delete. */
export async function memoryDetail(container, userId, memoryId) {
  replace(container, loading('Loading the memory…'));
  let memory;
  try {
    memory = await get(path('memory', memoryId));
  } catch (e) {
    replace(container, backToMemories(userId), errorBox(e));
    return;
  }
  const textBlock = h('div', { class: 'memory-body', 'aria-labelledby': 'memory-title' });
  const provenance = h('section', { class: 'section', 'aria-labelledby': 'provenance-title' },
    h('h4', { id: 'provenance-title' }, 'Provenance'), loading());
  const revisions = h('section', { class: 'section', 'aria-labelledby': 'revisions-title' },
    h('h4', { id: 'revisions-title' }, 'Revisions'), loading());

  const edit = actionButton('Edit', '', async () => startEdit(), { 'data-action': 'edit-memory' });
  const remove = actionButton('Delete…', 'danger', async () => deleteMemory(), { 'data-action': 'delete-memory' });

  function showText() {
    replace(textBlock,
      h('p', { class: 'text memory-text', id: 'memory-text' }, memory.text),
      h('div', { class: 'row actions' }, edit, remove));
  }

  function startEdit() {
    const area = h('textarea', { id: 'memory-edit', name: 'text', rows: 6, required: true, maxlength: 20000 });
    area.value = memory.text;
    const error = h('div');
    const form = h('form', { class: 'stack' },
      h('label', { for: 'memory-edit' }, 'Memory text'),
      area,
      h('p', { class: 'meta' }, 'Saving re-embeds the memory and keeps the current text as a revision.'),
      error,
      h('div', { class: 'row' },
        h('button', { type: 'submit', class: 'button primary' }, 'Save'),
        h('button', { type: 'button', class: 'button', on: { click: () => { showText(); edit.focus(); } } }, 'Cancel')));
    form.addEventListener('submit', async (event) => {
      event.preventDefault();
      const submit = form.querySelector('button[type=submit]');
      submit.disabled = true;
      try {
        memory = await call('PATCH', path('memory', memory.id), { body: { text: area.value } });
        drawHeader();
        showText();
        loadRevisions(revisions, memory);
        notify(`Saved: the memory is now at version ${memory.version}.`);
        edit.focus();
      } catch (e) {
        replace(error, errorBox(e));
        submit.disabled = false;
      }
    });
    replace(textBlock, form);
    area.focus();
  }

  async function deleteMemory() {
    const confirmed = await confirmDialog({
      title: 'Delete this memory?',
      message: `The ${kindLabel(memory.kind)} memory of user "${userId}" will be deleted, with ${plural(memory.version, 'version')} of its text:`,
      details: [`“${excerpt(memory.text, 200)}”`],
      confirmLabel: 'Delete memory',
    });
    if (!confirmed) {
      return;
    }
    await call('DELETE', path('memory', memory.id));
    await navigate(route('users', userId, 'memories'));
    refreshUsers();
    notify(`Deleted the ${kindLabel(memory.kind)} memory “${excerpt(memory.text, 80)}”.`);
  }

  const title = h('h3', { id: 'memory-title', class: 'card-title' });
  const header = h('div');
  function drawHeader() {
    replace(title, memoryHeading(memory));
    replace(header,
      facts([
        memory.occurredFrom ? ['Dialogue time', saidWhen(memory)] : null,
        ['Version', String(memory.version)],
        ['Stored', time(memory.createdAt)],
        memory.updatedAt && memory.updatedAt !== memory.createdAt ? ['Last changed', time(memory.updatedAt)] : null,
        memory.supersededBy ? ['Valid until', time(memory.validTo)] : null,
        memory.supersededBy ? ['Superseded by', chainLink(userId, memory.supersededBy)] : null,
        memory.supersedes ? ['Supersedes', memory.supersedes.map((id) => [chainLink(userId, id), ' '])] : null,
        memory.expiresAt ? ['Expires', time(memory.expiresAt)] : null,
        ['Id', h('code', {}, memory.id)],
      ]));
  }
  drawHeader();
  showText();
  replace(container, backToMemories(userId), title, textBlock, header, provenance, revisions);
  await Promise.all([loadProvenance(provenance, userId, memory), loadRevisions(revisions, memory)]);
}

/** A link to another memory of the user's supersession chain. */
function chainLink(userId, id) {
  return h('a', { href: route('users', userId, 'memories', id), 'data-chain': id }, h('code', {}, id.slice(0, 8)));
}

function backToMemories(userId) {
  return h('p', {}, h('a', { href: route('users', userId, 'memories') }, `← Memories of ${userId}`));
}

/** Where the memory came from and how far it is trusted (docs/trust.md). */
function sourceLine(memory) {
  const p = memory.provenance ?? {};
  if (!p.source) {
    return null;
  }
  return h('p', { 'data-source': p.source },
    'Source: ', h('strong', {}, p.source), p.sourceDetail ? ` (${p.sourceDetail})` : '',
    ' · trust ', h('span', { class: 'badge', 'data-trust': p.trust }, p.trust));
}

async function loadProvenance(section, userId, memory) {
  const title = section.firstChild;
  const origin = sourceLine(memory);
  const sessionId = memory.provenance?.sessionId;
  const turnIds = memory.provenance?.turnIds ?? [];
  if (!sessionId) {
    replace(section, title, origin, h('p', { class: 'muted' },
      memory.kind === 'fact' ? 'Added directly through the API; it rests on no dialogue.' : 'It rests on no session.'));
    return;
  }
  const sessionLink = h('a', { href: route('users', userId, 'sessions', sessionId) }, 'this session');
  if (turnIds.length === 0) {
    replace(section, title, origin, h('p', {}, 'Written from ', sessionLink, '.'));
    return;
  }
  try {
    const session = await get(path('sessions', sessionId));
    const byId = new Map(session.turns.map((t) => [t.id, t]));
    const found = turnIds.map((id) => byId.get(id)).filter(Boolean);
    replace(section, title, origin,
      h('p', {}, `Rests on ${plural(turnIds.length, 'turn')} of `, sessionLink,
        ', said ', dialogueSpan(session), ':'),
      h('ol', { class: 'cards provenance-turns' }, found.map((turn) => h('li', { class: 'card' },
        h('div', { class: 'card-title' },
          h('span', { class: ['badge', turn.role] }, turn.role),
          h('a', { href: route('users', userId, 'sessions', sessionId, 'turns', turn.id) },
            'Turn ', String(turn.seq + 1), ', ', time(turn.occurredAt))),
        h('p', { class: 'text' }, turn.content)))),
      found.length < turnIds.length
        ? h('p', { class: 'muted' }, `${plural(turnIds.length - found.length, 'turn')} no longer stored.`) : null);
  } catch (e) {
    if (e instanceof ApiError && e.status === 404) {
      replace(section, title, origin, h('p', { class: 'muted' }, 'The session it was written from has been deleted.'));
    } else {
      replace(section, title, origin, errorBox(e));
    }
  }
}

async function loadRevisions(section, memory) {
  const title = section.firstChild;
  replace(section, title, loading('Loading revisions…'));
  const versions = [];
  let cursor = null;
  try {
    do {
      const page = await get(path('memory', memory.id, 'revisions'), { limit: 100, cursor });
      versions.push(...page.items);
      cursor = page.nextCursor ?? null;
    } while (cursor && versions.length < 500);
  } catch (e) {
    replace(section, title, errorBox(e));
    return;
  }
  const list = h('ol', { class: 'cards revisions', 'aria-label': 'Versions, newest first' },
    versions.map((revision, i) => {
      const older = versions[i + 1];
      return h('li', { class: 'card', 'data-version': revision.version },
        h('div', { class: 'card-title' },
          h('strong', {}, `Version ${revision.version}`),
          h('span', { class: 'badge' }, revision.reason),
          time(revision.createdAt)),
        older && older.version === revision.version - 1
          ? [h('p', { class: 'diff-legend' }, `Changes from version ${older.version}: removed words struck through, `
            + 'added ones highlighted.'), diffView(older.text, revision.text)]
          : h('p', { class: 'text' }, revision.text),
        revision.absorbed
          ? h('p', { class: 'meta' }, 'Merged in: ', h('span', { class: 'text' }, revision.absorbed.text))
          : null);
    }));
  replace(section, title,
    versions.length <= 1 ? h('p', { class: 'muted' }, 'Never revised: this is its first version.') : null,
    list,
    cursor ? h('p', { class: 'muted' }, 'Older versions are not shown.') : null);
}

/** The word-level diff of two texts: removed words struck through (<del>), added ones highlighted (<ins>). */
export function diffView(before, after) {
  return h('p', { class: 'text diff' }, wordDiff(before, after).map((run) => {
    if (run.op === 'del') {
      return h('del', {}, run.text);
    }
    if (run.op === 'ins') {
      return h('ins', {}, run.text);
    }
    return run.text;
  }));
}

/** The search box over the user's memory, with each result's place in the dense and lexical rankings. */
export function memorySearch(container, userId) {
  const input = h('input', { id: 'memory-query', type: 'search', name: 'query', required: true, maxlength: 4000 });
  const mode = h('select', { id: 'search-mode', name: 'mode' },
    h('option', { value: 'hybrid' }, 'hybrid (both rankings)'),
    h('option', { value: 'dense' }, 'dense (embeddings)'),
    h('option', { value: 'lexical' }, 'lexical (full text)'));
  const results = h('div', { 'aria-live': 'polite' });
  const form = h('form', { class: 'stack', role: 'search', 'aria-label': 'Memories' },
    h('div', { class: 'row' },
      h('div', { class: 'field grow' }, h('label', { for: 'memory-query' }, 'Search memories'), input),
      h('div', { class: 'field' }, h('label', { for: 'search-mode' }, 'Ranking'), mode)),
    h('div', {}, h('button', { type: 'submit', class: 'button primary' }, 'Search')));
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const query = input.value.trim();
    if (!query) {
      return;
    }
    replace(results, loading('Searching…'));
    try {
      const found = await get('/memory', { userId, query, mode: mode.value, explain: true, limit: 20 });
      drawResults(results, userId, found.items, mode.value);
    } catch (e) {
      replace(results, errorBox(e));
    }
  });
  replace(container,
    form,
    h('p', { class: 'meta' },
      'Hybrid search ranks the memories twice, by embedding similarity (dense) and by PostgreSQL full-text ',
      'match of the words (lexical), and orders them by reciprocal-rank fusion: the sum of weight / (k + rank), ',
      'a lexical rank counting in proportion to how much of the query\'s rare words the memory holds (coverage).'),
    results);
  input.focus();
}

function drawResults(results, userId, items, mode) {
  if (items.length === 0) {
    replace(results, h('p', { class: 'muted' }, 'No memory matched.'));
    return;
  }
  const maxFused = Math.max(...items.map((m) => m.explanation?.fusedScore ?? 0), 1e-9);
  replace(results,
    h('p', { class: 'meta' }, `${plural(items.length, 'result')}, best first (${mode}).`),
    h('ol', { class: 'cards search-results' }, items.map((memory) => {
      const why = memory.explanation ?? {};
      const explanation = h('div', { class: 'explanation' },
        h('span', { class: 'part fused' }, h('strong', {}, 'Fused score'), formatNumber(why.fusedScore, 4),
          h('span', { class: 'bar', 'aria-hidden': 'true', 'data-width': Math.round((why.fusedScore / maxFused) * 100) })),
        h('span', { class: 'part dense' }, h('strong', {}, 'Dense'),
          why.denseRank ? `rank ${why.denseRank}, similarity ${formatNumber(why.denseScore)}` : 'not among the candidates',
          why.densePassage ? h('span', { class: 'passage', 'data-passage': why.densePassage.position },
            `, by passage ${why.densePassage.position}: “${excerpt(memory.text.slice(why.densePassage.start,
              why.densePassage.end), 160)}”`) : null),
        h('span', { class: 'part lexical' }, h('strong', {}, 'Lexical'),
          why.lexicalRank ? `rank ${why.lexicalRank}, score ${formatNumber(why.lexicalScore)}, `
            + `coverage ${formatNumber(why.lexicalCoverage)}` : 'no query word matched'),
        why.periodRank ? h('span', { class: 'part period' }, h('strong', {}, 'Period'),
          `rank ${why.periodRank} among the memories of the months the query names`) : null);
      return memoryCard(userId, memory, explanation);
    })));
  // Bar widths are set through the CSSOM: the page's policy allows no inline style attributes.
  for (const bar of results.querySelectorAll('.bar[data-width]')) {
    bar.style.width = `${Math.max(4, Number(bar.dataset.width)) * 0.8}px`;
  }
}
