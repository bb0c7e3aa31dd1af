// The tenant's learned reranker: its version and updates, and how its reward and its cited-in-top-K share moved
// version by version.
import { get } from './api.js';
import { h, replace, time, loading, errorBox, facts, formatNumber, percent, plural } from './dom.js';
import { lineChart } from './chart.js';

export async function rerankerView(container) {
  replace(container, h('h2', { id: 'view-title' }, 'Reranker'), loading('Loading the reranker…'));
  let status;
  let history;
  try {
    [status, history] = await Promise.all([get('/reflection/reranker'), get('/reflection/reranker/history')]);
  } catch (e) {
    replace(container, h('h2', { id: 'view-title' }, 'Reranker'), errorBox(e));
    return;
  }
  replace(container,
    h('h2', { id: 'view-title' }, 'Reranker'),
    h('p', { class: 'meta' },
      'Sessions that rerank (strategy rmm, or rerank: true) pass the memories retrieval found through a reranker ',
      'that learns from which memories the replies cite: +1 for a cited memory, −1 for one shown but not cited.'),
    facts([
      ['Version', h('span', { 'data-field': 'version' }, String(status.version))],
      ['Updates', h('span', { 'data-field': 'updates' }, String(status.updates))],
      ['Replies learned from', `${status.feedback - status.pendingFeedback} of ${status.feedback}`],
      ['Last update', status.updatedAt ? time(status.updatedAt) : 'never'],
      ['Average reward', `${formatNumber(status.averageReward, 2)} over the last ${plural(status.window, 'reply', 'replies')}`],
      ['Cited in top K', `${percent(status.citedRecallAfter)} with the reranker, ${percent(status.citedRecallBefore)} in retrieval order`],
    ]),
    historySection(history));
}

function historySection(history) {
  const section = h('section', { class: 'section', 'aria-labelledby': 'history-title' },
    h('h3', { id: 'history-title' }, 'Over time'));
  const periods = history.items ?? [];
  if (periods.length === 0) {
    section.append(h('p', { class: 'muted' }, 'No reranked replies yet.'));
    return section;
  }
  const labels = periods.map((p) => `v${p.version}`);
  section.append(
    h('p', { class: 'meta' }, `The last ${plural(history.replies, 'reranked reply', 'reranked replies')}, `
      + 'by the reranker version that served them. Cited in top K: the share of cited memories that the version\'s '
      + 'own scores put among the K it passes on.'),
    h('ul', { class: 'legend' },
      h('li', {}, h('span', { class: 'swatch reward' }), 'average reward (−1 to 1)'),
      h('li', {}, h('span', { class: 'swatch cited' }), 'cited in top K, reranker (0 to 1)'),
      h('li', {}, h('span', { class: 'swatch retrieval' }), 'cited in top K, retrieval order')),
    lineChart({
      labels,
      series: [
        { name: 'average reward', className: 'reward', values: periods.map((p) => p.averageReward) },
        { name: 'cited in top K (reranker)', className: 'cited', values: periods.map((p) => p.citedInTopK) },
        { name: 'cited in top K (retrieval)', className: 'retrieval', values: periods.map((p) => p.retrievalCitedInTopK) },
      ],
      yMin: -1,
      yMax: 1,
      yTicks: [-1, -0.5, 0, 0.5, 1],
      title: 'Average reward and cited in top K by reranker version',
      description: `${periods.length} versions; the table below has the figures.`,
    }),
    h('details', {},
      h('summary', {}, 'Figures'),
      h('div', { class: 'table-wrap' }, h('table', { class: 'history' },
        h('thead', {}, h('tr', {}, ['Version', 'Replies', 'Average reward', 'Cited in top K', 'Retrieval order', 'From', 'To']
          .map((c) => h('th', { scope: 'col' }, c)))),
        h('tbody', {}, periods.map((p) => h('tr', {},
          h('td', {}, `v${p.version}`),
          h('td', { class: 'num' }, String(p.replies)),
          h('td', { class: 'num' }, formatNumber(p.averageReward, 2)),
          h('td', { class: 'num' }, percent(p.citedInTopK)),
          h('td', { class: 'num' }, percent(p.retrievalCitedInTopK)),
          h('td', {}, time(p.from)),
          h('td', {}, time(p.to)))))))));
  return section;
}
