// The inspector: sign-in with a tenant API key, then hash routes over the tenant's users, sessions and memories.
import { call, storedKey, rememberKey, forgetKey, ApiError } from './api.js';
import { h, replace, clearNotice, showError } from './dom.js';
import { setRenderer, routeParts } from './router.js';
import { mountUsers, markCurrentUser, userPage } from './users.js';
import { memoryList, memoryDetail, memorySearch } from './memories.js';
import { sessionList, sessionDetail } from './sessions.js';
import { rerankerView } from './reranker.js';
import { webhooksView } from './webhooks.js';
import { usageView } from './usage.js';

const signIn = document.getElementById('sign-in');
const signInForm = document.getElementById('sign-in-form');
const signInError = document.getElementById('sign-in-error');
const keyInput = document.getElementById('api-key');
const workspace = document.getElementById('workspace');
const nav = document.querySelector('.topnav');
const view = document.getElementById('view');
const users = document.getElementById('users');
let firstRender = true;

signInForm.addEventListener('submit', async (event) => {
  event.preventDefault();
  const key = keyInput.value.trim();
  signInError.hidden = true;
  if (!key) {
    showSignInError('Type the API key first.');
    return;
  }
  const button = signInForm.querySelector('button[type=submit]');
  button.disabled = true;
  try {
    // Any read the key may make tells whether it is a tenant's key.
    await call('GET', '/users', { query: { limit: 1 }, key });
    rememberKey(key);
    keyInput.value = '';
    await enter();
  } catch (e) {
    showSignInError(e instanceof ApiError && e.status === 401
      ? `That API key was not accepted: ${e.message}`
      : `Could not sign in: ${e.message}`);
  } finally {
    button.disabled = false;
  }
});

function showSignInError(message) {
  replace(signInError, message);
  signInError.hidden = false;
  keyInput.focus();
}

document.getElementById('sign-out').addEventListener('click', () => leave());

// A key revoked meanwhile: back to the sign-in form, saying why.
window.addEventListener('memoir:unauthorized', () => {
  if (storedKey()) {
    leave('Your API key is no longer accepted. Sign in again.');
  }
});

function leave(message) {
  forgetKey();
  users.replaceChildren();
  view.replaceChildren();
  clearNotice();
  workspace.hidden = true;
  nav.hidden = true;
  signIn.hidden = false;
  if (message) {
    showSignInError(message);
  } else {
    signInError.hidden = true;
    keyInput.focus();
  }
}

async function enter() {
  signIn.hidden = true;
  workspace.hidden = false;
  nav.hidden = false;
  firstRender = true;
  await Promise.all([mountUsers(users), render()]);
}

async function render() {
  const parts = routeParts();
  if (parts === null || !storedKey()) {
    return; // an in-page anchor such as the skip link, or signed out
  }
  clearNotice();
  const container = h('div');
  replace(view, container);
  const [section, id, tab, subId, sub, subSubId] = parts;
  document.body.classList.toggle('has-detail', section !== undefined);
  for (const link of nav.querySelectorAll('a[data-nav]')) {
    const current = link.dataset.nav === 'users'
      ? section !== 'reranker' && section !== 'webhooks' && section !== 'usage'
      : link.dataset.nav === section;
    if (current) {
      link.setAttribute('aria-current', 'page');
    } else {
      link.removeAttribute('aria-current');
    }
  }
  markCurrentUser(section === 'users' ? id : null);
  if (!firstRender && !(sub === 'turns' && subSubId)) {
    view.focus({ preventScroll: true });
    window.scrollTo(0, 0);
  }
  firstRender = false;
  try {
    if (section === 'reranker') {
      await rerankerView(container);
    } else if (section === 'webhooks') {
      await webhooksView(container);
    } else if (section === 'usage') {
      await usageView(container);
    } else if (section === 'users' && id) {
      const body = userPage(container, id, tab === 'sessions' || tab === 'search' ? tab : 'memories');
      if (tab === 'sessions' && subId) {
        await sessionDetail(body, id, subId, sub === 'turns' ? subSubId : null);
      } else if (tab === 'sessions') {
        await sessionList(body, id);
      } else if (tab === 'search') {
        memorySearch(body, id);
      } else if (tab === 'memories' && subId) {
        await memoryDetail(body, id, subId);
      } else {
        await memoryList(body, id);
      }
    } else {
      replace(container,
        h('h2', { id: 'view-title' }, 'Memory inspector'),
        h('p', {}, 'Choose a user to see their sessions and memories: where each memory came from, how it changed, '
          + 'and what each reply was given and cited. The reranker page shows what the tenant\'s reranker learned, '
          + 'the webhooks page the tenant\'s endpoints and their recent deliveries, and the usage page the model '
          + 'tokens the tenant used, by step and by user.'));
    }
  } catch (e) {
    if (!(e instanceof ApiError && e.status === 401)) {
      showError(e);
    }
  }
}

setRenderer(render);
if (storedKey()) {
  enter();
} else {
  leave();
}
