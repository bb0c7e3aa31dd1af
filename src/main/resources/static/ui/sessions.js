// A user's sessions; one session with its turns, its memory jobs, and for each reply what it was given and cited
// and the learning episode (R^3 trace) about it; deleting a session.
import { call, get, path, ApiError } from './api.js';
import {
  h, replace, time, plural, loading, errorBox, actionButton, confirmDialog, notify, facts, formatNumber, excerpt,
  dialogueSpan,
} from './dom.js';
import { kindLabel } from './memories.js';
import { navigate, route } from './router.js';
import { refreshUsers } from './users.js';

const PAGE = 20;

export function sessionList(container, userId) {
  const list = h('ol', { class: 'cards', 'aria-label': 'Sessions, newest first' });
  const status = h('div');
  const more = h('div', { class: 'more' });
  let cursor = null;

  async function load() {
    try {
      const page = await get('/sessions', { userId, limit: PAGE, cursor });
      for (const session of page.items) {
        list.appendChild(h('li', { class: 'card', 'data-session': session.id },
          h('div', { class: 'card-title' },
            h('a', { href: route('users', userId, 'sessions', session.id), 'data-time': 'dialogue' }, 'Session of ', dialogueSpan(session)),
            h('span', { class: 'badge' }, session.status)),
          h('p', { class: 'meta', 'data-time': 'stored' },
            `Strategy ${session.memory?.strategy ?? '—'}`,
            ' · stored ', time(session.createdAt),
            session.closedAt ? [' · closed ', time(session.closedAt)] : null)));
      }
      cursor = page.nextCursor ?? null;
      replace(status, list.children.length === 0 ? h('p', { class: 'muted' }, 'No sessions.') : null);
      replace(more, cursor ? actionButton('More sessions', '', load) : null);
    } catch (e) {
      replace(status, errorBox(e));
    }
  }

  replace(container, h('p', { class: 'meta' }, 'Newest first.'), status, list, more);
  replace(status, loading('Loading sessions…'));
  return load();
}

export async function sessionDetail(container, userId, sessionId, focusTurnId) {
  replace(container, loading('Loading the session…'));
  let session;
  try {
    session = await get(path('sessions', sessionId));
  } catch (e) {
    replace(container, backToSessions(userId), errorBox(e));
    return;
  }
  const turns = session.turns ?? [];
  const remove = actionButton('Delete session…', 'danger', () => deleteSession(userId, session),
    { 'data-action': 'delete-session' });
  replace(container,
    backToSessions(userId),
    h('div', { class: 'view-header' },
      h('h3', { id: 'session-title' }, 'Session of ', dialogueSpan(session)),
      remove),
    facts([
      ['Status', h('span', { class: 'badge' }, session.status)],
      ['Stored', time(session.createdAt)],
      ['Strategy', session.memory?.strategy ?? '—'],
      ['Writes', (session.memory?.write ?? []).map(kindLabel).join(', ') || '—'],
      ['Reads', (session.memory?.read ?? []).map(kindLabel).join(', ') || '—'],
      session.closedAt ? ['Closed', time(session.closedAt)] : null,
      ['Turns', String(turns.length)],
      ['Id', h('code', {}, session.id)],
    ]),
    jobsSection(session.jobs ?? []),
    h('section', { class: 'section', 'aria-labelledby': 'turns-title' },
      h('h4', { id: 'turns-title' }, 'Turns'),
      turns.length === 0 ? h('p', { class: 'muted' }, 'No turns.') : null,
      h('ol', { class: 'cards turns' }, turns.map((turn) => turnCard(userId, turn, turn.id === focusTurnId)))));
  if (focusTurnId) {
    const target = document.getElementById(`turn-${focusTurnId}`);
    if (target) {
      target.scrollIntoView({ block: 'center' });
      target.focus({ preventScroll: true });
    }
  }
}

function backToSessions(userId) {
  return h('p', {}, h('a', { href: route('users', userId, 'sessions') }, `← Sessions of ${userId}`));
}

function jobsSection(jobs) {
  return h('section', { class: 'section', 'aria-labelledby': 'jobs-title' },
    h('h4', { id: 'jobs-title' }, 'Memory jobs'),
    jobs.length === 0
      ? h('p', { class: 'muted' }, 'No memory jobs.')
      : h('div', { class: 'table-wrap' }, h('table', { class: 'jobs' },
        h('thead', {}, h('tr', {}, ['Job', 'State', 'Failures', 'Queued', 'Finished or next'].map((c) => h('th', { scope: 'col' }, c)))),
        h('tbody', {}, jobs.map((job) => h('tr', { 'data-task': job.task },
          h('td', {}, job.task, job.lastError ? h('div', { class: 'meta' }, `Last error: ${job.lastError}`) : null),
          h('td', {}, h('span', { class: ['badge', `state-${job.state}`] }, job.state)),
          h('td', { class: 'num' }, String(job.failures ?? 0)),
          h('td', {}, time(job.queuedAt)),
          h('td', {}, job.finishedAt ? time(job.finishedAt) : job.nextAttemptAt ? ['next ', time(job.nextAttemptAt)] : '—')))))));
}

function turnCard(userId, turn, focused) {
  const card = h('li', { class: ['card', 'turn', focused ? 'highlight' : null], id: `turn-${turn.id}`, tabindex: '-1',
    'data-turn': turn.id },
  h('div', { class: 'card-title' },
    h('span', { class: ['badge', turn.role] }, turn.role),
    turn.speaker ? h('span', { class: 'speaker' }, turn.speaker) : null,
    h('span', { class: 'meta' }, `Turn ${turn.seq + 1}`),
    turn.origin && turn.origin !== 'live' ? h('span', { class: 'badge', 'data-origin': turn.origin }, turn.origin) : null,
    time(turn.occurredAt)),
  h('p', { class: 'text' }, turn.content));
  if (turn.role === 'assistant') {
    const panel = h('div', { class: 'reply-trace', id: `trace-${turn.id}`, hidden: true });
    const toggle = h('button', {
      type: 'button', class: 'link-button', 'aria-expanded': 'false', 'aria-controls': `trace-${turn.id}`,
      'data-action': 'why',
    }, 'Why this reply?');
    let loaded = false;
    toggle.addEventListener('click', async () => {
      const open = toggle.getAttribute('aria-expanded') !== 'true';
      toggle.setAttribute('aria-expanded', String(open));
      panel.hidden = !open;
      if (open && !loaded) {
        loaded = true;
        await drawTrace(panel, userId, turn);
      }
    });
    card.append(h('div', {}, toggle), panel);
  }
  return card;
}

async function drawTrace(panel, userId, turn) {
  replace(panel, loading('Loading what the reply was given…'));
  let trace;
  try {
    trace = await get(path('reflection', 'replies', turn.id));
  } catch (e) {
    replace(panel, errorBox(e));
    return;
  }
  const memories = await Promise.all(trace.memories.map(async (given) => {
    try {
      return { given, memory: await get(path('memory', given.memoryId)) };
    } catch (e) {
      if (e instanceof ApiError && e.status === 404) {
        return { given, memory: null };
      }
      throw e;
    }
  })).catch((e) => e);
  if (memories instanceof Error) {
    replace(panel, errorBox(memories));
    return;
  }
  const cited = trace.memories.filter((m) => m.cited).length;
  const episode = h('div');
  replace(panel,
    h('div', { class: 'trace' },
      !trace.traced
        ? h('p', { class: 'muted' }, 'This reply was imported, not made by Memoir: no memories were recorded for it.')
        : [
          h('p', {}, `Given ${plural(trace.memories.length, 'memory', 'memories')}, cited ${cited}.`),
          h('ol', { class: 'given' }, memories.map(({ given, memory }) => h('li', { 'data-memory': given.memoryId },
            given.cited ? h('span', { class: 'badge cited' }, 'cited') : null, ' ',
            memory
              ? [h('a', { href: route('users', userId, 'memories', memory.id) }, kindLabel(memory.kind)),
                h('span', { class: 'meta' }, ` · similarity ${formatNumber(given.score)}`),
                given.trust ? h('span', { class: 'meta', 'data-trust': given.trust }, ` · trust ${given.trust}`) : null,
                h('p', { class: 'text' }, excerpt(memory.text, 300))]
              : [h('span', { class: 'muted' }, 'a memory deleted since'),
                h('span', { class: 'meta' }, ` · similarity ${formatNumber(given.score)}`),
                given.trust ? h('span', { class: 'meta', 'data-trust': given.trust }, ` · trust ${given.trust}`) : null]))),
        ],
      episode));
  if (trace.episodeId) {
    replace(episode, loading('Loading the learning episode…'));
    try {
      drawEpisode(episode, userId, await get(path('reflection', 'episodes', trace.episodeId)));
    } catch (e) {
      replace(episode, errorBox(e));
    }
  }
}

/** A learning episode: the question, each trial's Thought / Action / Observation steps, answer and feedback. */
function drawEpisode(container, userId, episode) {
  replace(container,
    h('h5', {}, 'Learning episode ', h('span', { class: 'badge' }, episode.status)),
    h('p', {}, h('strong', {}, 'Question: '), h('span', { class: 'text' }, episode.question)),
    h('ol', { class: 'trials' }, (episode.trials ?? []).map((trial) => h('li', { class: 'trial', 'data-trial': trial.number },
      h('p', {}, h('strong', {}, `Trial ${trial.number}`)),
      trial.steps?.length
        ? h('ol', { class: 'steps' }, trial.steps.map((step) => h('li', { class: 'step' },
          h('div', {}, h('span', { class: 'step-label' }, 'Thought: '), h('span', { class: 'text' }, step.thought ?? '')),
          h('div', {}, h('span', { class: 'step-label' }, 'Action: '),
            `${step.action ?? ''}[`, h('span', { class: 'text' }, step.argument ?? ''), ']'),
          step.observation
            ? h('div', {}, h('span', { class: 'step-label' }, 'Observation: '), h('span', { class: 'text' }, step.observation))
            : null)))
        : h('p', { class: 'meta' }, 'No reasoning steps: the first reply.'),
      h('p', {}, h('span', { class: 'step-label' }, 'Answer: '), h('span', { class: 'text' }, trial.inference ?? '')),
      trial.feedback
        ? h('p', { class: 'meta' }, 'Feedback: ',
          [trial.feedback.verdict, trial.feedback.hint && `hint “${trial.feedback.hint}”`,
            trial.feedback.answer && `answer “${trial.feedback.answer}”`].filter(Boolean).join(', '))
        : null))),
    episode.learned
      ? h('p', {}, h('strong', {}, 'Learned: '), h('span', { class: 'text' }, episode.learned), ' ',
        episode.learnedMemoryId ? h('a', { href: route('users', userId, 'memories', episode.learnedMemoryId) }, '(the memory)') : null)
      : null);
}

async function deleteSession(userId, session) {
  const turns = session.turns?.length ?? 0;
  const confirmed = await confirmDialog({
    title: 'Delete this session?',
    message: `The session of user "${userId}" started ${new Date(session.createdAt).toLocaleString()} will be deleted with:`,
    details: [
      `its ${plural(turns, 'turn')}`,
      'the memories written from it alone (history, conditional notes, its summary and memos) with their revisions',
      'the feedback, learning episodes and reply traces of its turns, and its queued memory jobs',
    ],
    confirmLabel: 'Delete session',
  });
  if (!confirmed) {
    return;
  }
  const erased = await call('DELETE', path('sessions', session.id));
  await navigate(route('users', userId, 'sessions'));
  refreshUsers();
  notify(`Deleted the session: ${plural(erased.turns, 'turn')}, ${plural(erased.memories, 'memory', 'memories')} `
    + `and ${plural(erased.rerankerFeedback, 'reranker feedback row')}. Topic memories and the recursive summary stay.`);
}
