// The tenant's users (paged, searchable), and the page of one user with its tabs and the erase action.
import { call, get } from './api.js';
import { navigate, route } from './router.js';
import {
  h, replace, plural, loading, errorBox, actionButton, confirmDialog, notify, lastSeen,
} from './dom.js';

const PAGE = 25;
let listState = { query: '', cursor: null, items: [] };
let currentUser = null;
let searchTimer = null;

/** Draws the users panel once; its list is reloaded by search, "More users" and refreshUsers(). */
export function mountUsers(aside) {
  const input = h('input', {
    id: 'user-query', type: 'search', name: 'query', autocomplete: 'off', spellcheck: 'false',
    'aria-describedby': 'user-query-hint',
  });
  const form = h('form', { class: 'stack', role: 'search', 'aria-label': 'Users' },
    h('label', { for: 'user-query' }, 'Find a user'),
    h('div', { class: 'row' }, input, h('button', { type: 'submit', class: 'button' }, 'Find')),
    h('p', { id: 'user-query-hint', class: 'meta' }, 'Part of a user id, any case.'));
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    clearTimeout(searchTimer);
    loadUsers(input.value.trim());
  });
  input.addEventListener('input', () => {
    clearTimeout(searchTimer);
    searchTimer = setTimeout(() => loadUsers(input.value.trim()), 300);
  });
  replace(aside,
    h('h2', { id: 'users-title' }, 'Users'),
    form,
    h('div', { id: 'user-results' }));
  listState = { query: '', cursor: null, items: [] };
  return loadUsers('');
}

export function refreshUsers() {
  return loadUsers(listState.query);
}

async function loadUsers(query, cursor = null) {
  const results = document.getElementById('user-results');
  if (!results) {
    return;
  }
  if (!cursor) {
    replace(results, loading('Loading users…'));
  }
  try {
    const page = await get('/users', { query, cursor, limit: PAGE });
    if (query !== (document.getElementById('user-query')?.value.trim() ?? query) && !cursor) {
      return; // a newer search is under way
    }
    listState = { query, cursor: page.nextCursor ?? null, items: cursor ? [...listState.items, ...page.items] : page.items };
    drawUsers(results);
  } catch (e) {
    replace(results, errorBox(e));
  }
}

function drawUsers(results) {
  const { items, cursor, query } = listState;
  const count = h('p', { class: 'meta', 'aria-live': 'polite' },
    items.length === 0 ? (query ? `No user id contains "${query}".` : 'No users yet.')
      : `${plural(items.length, 'user')}${cursor ? ' shown' : ''}`);
  const list = h('ul', { class: 'user-list' }, items.map((user) => h('li', {},
    h('a', {
      href: route('users', user.userId),
      'aria-current': user.userId === currentUser ? 'page' : null,
      'data-user': user.userId,
    },
    h('span', { class: 'user-id' }, user.userId),
    h('br'),
    h('span', { class: 'meta' },
      `${plural(user.sessions, 'session')} · ${plural(user.memories, 'memory', 'memories')}`,
      lastSeen(user))))));
  const more = cursor
    ? h('button', { type: 'button', class: 'button more', on: { click: () => loadUsers(query, cursor) } }, 'More users')
    : null;
  replace(results, count, list, more);
}

export function markCurrentUser(userId) {
  currentUser = userId;
  for (const link of document.querySelectorAll('.user-list a[data-user]')) {
    if (link.dataset.user === userId) {
      link.setAttribute('aria-current', 'page');
    } else {
      link.removeAttribute('aria-current');
    }
  }
}

/** The user's counts as they are now (the list may be older). */
async function summaryOf(userId) {
  let cursor = null;
  // The query matches by substring, so the exact user may be on a later page of matches.
  for (let pages = 0; pages < 20; pages++) {
    const page = await get('/users', { query: userId, limit: 200, cursor });
    const found = page.items.find((u) => u.userId === userId);
    if (found || !page.nextCursor) {
      return found ?? { userId, sessions: 0, memories: 0, lastActiveAt: null };
    }
    cursor = page.nextCursor;
  }
  return { userId, sessions: null, memories: null, lastActiveAt: null };
}

const TABS = [['memories', 'Memories'], ['sessions', 'Sessions'], ['search', 'Search']];

/** The user's page: heading, counts, the erase button and the tabs; the tab's content goes into the returned element. */
export function userPage(container, userId, tab) {
  const counts = h('p', { class: 'meta' }, loading('Counting…'));
  const body = h('div', { class: 'tab-body' });
  replace(container,
    h('a', { class: 'back-link', href: '#/' }, '← All users'),
    h('div', { class: 'view-header' },
      h('div', {}, h('p', { class: 'meta' }, 'User'), h('h2', { id: 'view-title' }, userId), counts),
      actionButton('Erase user…', 'danger', () => eraseUser(userId), { 'data-action': 'erase-user' })),
    h('nav', { class: 'tabs', 'aria-label': 'User' }, TABS.map(([id, label]) => h('a', {
      href: route('users', userId, id), 'aria-current': id === tab ? 'page' : null,
    }, label))),
    body);
  summaryOf(userId).then((user) => {
    replace(counts, user.sessions === null ? ''
      : `${plural(user.sessions, 'session')} · ${plural(user.memories, 'memory', 'memories')}`,
    lastSeen(user, true));
  }).catch(() => replace(counts, ''));
  return body;
}

async function eraseUser(userId) {
  const user = await summaryOf(userId);
  const confirmed = await confirmDialog({
    title: `Erase user ${userId}?`,
    message: `Everything stored for the user "${userId}" will be deleted in one transaction:`,
    details: [
      user.sessions === null ? 'all their sessions, with every turn' : `${plural(user.sessions, 'session')}, with every turn`,
      user.memories === null ? 'all their memories, with their revisions'
        : `${plural(user.memories, 'memory', 'memories')} of every kind, with their revisions`,
      'their learning episodes, feedback, reply traces and reranker feedback',
    ],
    confirmLabel: 'Erase user',
  });
  if (!confirmed) {
    return;
  }
  const erased = await call('DELETE', '/memory', { query: { userId } });
  await navigate('#/');
  await refreshUsers();
  notify(`Erased user ${erased.userId}: ${plural(erased.sessions, 'session')}, ${plural(erased.turns, 'turn')}, `
    + `${plural(erased.memories, 'memory', 'memories')} and ${plural(erased.rerankerFeedback, 'reranker feedback row')}.`);
}
