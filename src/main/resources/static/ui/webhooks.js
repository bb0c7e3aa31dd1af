// The tenant's webhook endpoints and each one's recent deliveries: where each stands, its attempts and why the
// last one failed. Read only: endpoints are registered and deleted through the API.
import { get, path } from './api.js';
import { h, replace, time, loading, errorBox, facts, plural } from './dom.js';

const RECENT = 20;

export async function webhooksView(container) {
  replace(container, h('h2', { id: 'view-title' }, 'Webhooks'), loading('Loading the webhook endpoints…'));
  let endpoints;
  let deliveries;
  try {
    endpoints = (await get('/webhooks')).items ?? [];
    deliveries = await Promise.all(endpoints.map((e) => get(path('webhooks', e.id, 'deliveries'), { limit: RECENT })));
  } catch (e) {
    replace(container, h('h2', { id: 'view-title' }, 'Webhooks'), errorBox(e));
    return;
  }
  replace(container,
    h('h2', { id: 'view-title' }, 'Webhooks'),
    h('p', { class: 'meta' },
      'Endpoints told of memory events by signed deliveries, each user\'s in order. A failed delivery is retried; ',
      'after its last attempt it waits in the operator\'s dead-letter list, and no longer holds back the user\'s later ones.'),
    endpoints.length === 0
      ? h('p', { class: 'muted' }, 'No webhook endpoints. Register one with POST /webhooks.')
      : endpoints.map((endpoint, i) => endpointSection(endpoint, deliveries[i].items ?? [])));
}

function endpointSection(endpoint, items) {
  const titleId = `endpoint-${endpoint.id}`;
  return h('section', { class: 'section endpoint', 'aria-labelledby': titleId, 'data-endpoint': endpoint.id },
    h('h3', { id: titleId, class: 'text' }, endpoint.url),
    facts([
      ['Events', endpoint.events.join(', ')],
      ['Memory text', endpoint.includeText ? 'included' : 'not sent'],
      ['Registered', time(endpoint.createdAt)],
    ]),
    items.length === 0
      ? h('p', { class: 'muted' }, 'No deliveries yet.')
      : h('div', { class: 'table-wrap' }, h('table', { class: 'deliveries' },
        h('caption', { class: 'meta' }, `The last ${plural(items.length, 'delivery', 'deliveries')}, newest first`),
        h('thead', {}, h('tr', {}, ['Event', 'User', 'Queued', 'State', 'Attempts', 'Last answer', 'Last error']
          .map((c) => h('th', { scope: 'col' }, c)))),
        h('tbody', {}, items.map((d) => h('tr', { 'data-delivery': d.id },
          h('td', {}, d.event),
          h('td', { class: 'text' }, d.userId ?? '—'),
          h('td', {}, time(d.createdAt)),
          h('td', {}, h('span', { class: `badge state-${stateClass(d.state)}` }, d.state)),
          h('td', { class: 'num' }, String(d.attempts)),
          h('td', { class: 'num' }, d.lastStatus === undefined || d.lastStatus === null ? '—' : String(d.lastStatus)),
          h('td', { class: 'text' }, d.lastError ?? '')))))));
}

function stateClass(state) {
  return state === 'delivered' ? 'done' : state;
}
