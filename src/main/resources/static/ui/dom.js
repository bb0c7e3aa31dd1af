// Building the page from data. Memories, turns and user ids are user content: they only ever become text nodes
// (strings passed to h() as children, or textContent). Nothing here parses HTML.

/**
 * Creates an element. `attrs`: `class`, `on` ({event: handler}), boolean and string attributes; children are
 * nodes or strings (as text), arrays of them, or null/false to skip.
 */
export function h(tag, attrs = {}, ...children) {
  const svg = tag.startsWith('svg:');
  const element = svg
    ? document.createElementNS('http://www.w3.org/2000/svg', tag.slice(4))
    : document.createElement(tag);
  for (const [name, value] of Object.entries(attrs ?? {})) {
    if (value === null || value === undefined || value === false) {
      continue;
    }
    if (name === 'on') {
      for (const [event, handler] of Object.entries(value)) {
        element.addEventListener(event, handler);
      }
    } else if (name === 'class') {
      element.setAttribute('class', Array.isArray(value) ? value.filter(Boolean).join(' ') : value);
    } else if (name === 'text') {
      element.textContent = String(value);
    } else if (value === true) {
      element.setAttribute(name, '');
    } else {
      element.setAttribute(name, String(value));
    }
  }
  append(element, children);
  return element;
}

function append(parent, children) {
  for (const child of children) {
    if (child === null || child === undefined || child === false) {
      continue;
    }
    if (Array.isArray(child)) {
      append(parent, child);
    } else if (child instanceof Node) {
      parent.appendChild(child);
    } else {
      parent.appendChild(document.createTextNode(String(child)));
    }
  }
}

/** Replaces an element's children. */
export function replace(element, ...children) {
  element.replaceChildren();
  append(element, children);
  return element;
}

const dateFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

/** A <time> element for an ISO instant, shown in the reader's time zone. */
export function time(iso) {
  if (!iso) {
    return h('span', { class: 'muted' }, '—');
  }
  const date = new Date(iso);
  return h('time', { datetime: iso, title: iso }, Number.isNaN(date.getTime()) ? iso : dateFormat.format(date));
}

/** When a session's dialogue happened: from its first turn to its last; when it was stored while it has none. */
export function dialogueSpan(session) {
  const from = session.dialogueFrom;
  const to = session.dialogueTo;
  if (!from) {
    return [time(session.createdAt), ' (no turns yet)'];
  }
  return to && to !== from ? [time(from), ' – ', time(to)] : time(from);
}

/** A user's last words by their own date; the last activity Memoir stored for a user without turns. */
export function lastSeen(user, long = false) {
  if (user.lastSaidAt) {
    return [long ? ' · last said ' : ' · ', time(user.lastSaidAt)];
  }
  return user.lastActiveAt ? [long ? ' · last active ' : ' · ', time(user.lastActiveAt)] : null;
}

export function formatNumber(value, digits = 3) {
  return value === null || value === undefined ? '—' : Number(value).toFixed(digits);
}

export function percent(value) {
  return value === null || value === undefined ? '—' : `${Math.round(value * 100)}%`;
}

export function plural(count, one, many = `${one}s`) {
  return `${count} ${count === 1 ? one : many}`;
}

export function excerpt(text, length = 140) {
  const flat = String(text ?? '').replace(/\s+/g, ' ').trim();
  return flat.length > length ? `${flat.slice(0, length - 1)}…` : flat;
}

export function facts(pairs) {
  return h('dl', { class: 'facts' },
    pairs.filter(Boolean).flatMap(([term, value]) => [h('dt', {}, term), h('dd', {}, value)]));
}

export function loading(what = 'Loading…') {
  return h('p', { class: 'loading' }, what);
}

export function errorBox(error) {
  return h('p', { class: 'error', role: 'alert' }, error?.message ?? String(error));
}

/** A button that is disabled while its (async) action runs, and shows the action's error next to it. */
export function actionButton(label, className, action, attrs = {}) {
  const button = h('button', { type: 'button', class: ['button', className], ...attrs }, label);
  button.addEventListener('click', async () => {
    button.disabled = true;
    try {
      await action(button);
    } catch (e) {
      showError(e);
    } finally {
      button.disabled = false;
    }
  });
  return button;
}

const noticeElement = () => document.getElementById('notice');

/** A message in the status area (announced to screen readers). */
export function notify(message) {
  const notice = noticeElement();
  notice.classList.remove('error');
  replace(notice, message);
  notice.hidden = false;
}

export function showError(error) {
  const notice = noticeElement();
  notice.classList.add('error');
  replace(notice, error?.message ?? String(error));
  notice.hidden = false;
}

export function clearNotice() {
  const notice = noticeElement();
  notice.hidden = true;
  notice.classList.remove('error');
  notice.replaceChildren();
}

/**
 * Asks before something is deleted. `details` (strings) name what goes; answers true when confirmed. A modal
 * <dialog>: focus moves into it, Escape cancels, and focus returns to where it was.
 */
export function confirmDialog({ title, message, details = [], confirmLabel }) {
  return new Promise((resolve) => {
    const returnFocus = document.activeElement;
    const cancel = h('button', { type: 'button', class: 'button', value: 'cancel' }, 'Cancel');
    const confirm = h('button', { type: 'button', class: 'button danger solid', value: 'confirm' }, confirmLabel);
    const dialog = h('dialog', { 'aria-labelledby': 'confirm-title', 'aria-describedby': 'confirm-message' },
      h('h2', { id: 'confirm-title' }, title),
      h('p', { id: 'confirm-message' }, message),
      details.length ? h('ul', {}, details.map((d) => h('li', {}, d))) : null,
      h('p', { class: 'muted' }, 'This cannot be undone.'),
      h('div', { class: 'row end' }, cancel, confirm));
    let answer = false;
    cancel.addEventListener('click', () => dialog.close());
    confirm.addEventListener('click', () => {
      answer = true;
      dialog.close();
    });
    dialog.addEventListener('close', () => {
      dialog.remove();
      if (returnFocus && document.contains(returnFocus)) {
        returnFocus.focus();
      }
      resolve(answer);
    });
    document.body.appendChild(dialog);
    dialog.showModal();
    cancel.focus();
  });
}
