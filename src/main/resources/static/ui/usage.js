// The tenant's model usage: tokens per day by step as a chart, and a table by user, read from GET /usage.
import { get } from './api.js';
import { h, replace, loading, errorBox, facts, plural } from './dom.js';
import { lineChart } from './chart.js';

const DAY = 24 * 60 * 60 * 1000;
const SERIES_CLASSES = 6;

export async function usageView(container) {
  replace(container, h('h2', { id: 'view-title' }, 'Usage'), loading('Loading the usage…'));
  let bySteps;
  let byUsers;
  try {
    [bySteps, byUsers] = await Promise.all([
      get('/usage', { groupBy: 'step', interval: 'day' }),
      get('/usage', { groupBy: 'user', interval: 'day' }),
    ]);
  } catch (e) {
    replace(container, h('h2', { id: 'view-title' }, 'Usage'), errorBox(e));
    return;
  }
  const total = bySteps.total;
  replace(container,
    h('h2', { id: 'view-title' }, 'Usage'),
    h('p', { class: 'meta' },
      'Every request to the chat model and every batch sent to the embedding model for this tenant, over the last ',
      `${days(bySteps)} days. Tokens are the model server's count where it reports one, else Memoir's.`),
    facts([
      ['Requests', h('span', { 'data-field': 'requests' }, tokens(total.requests))],
      ['Prompt tokens', h('span', { 'data-field': 'prompt-tokens' }, tokens(total.promptTokens))],
      ['Completion tokens', h('span', { 'data-field': 'completion-tokens' }, tokens(total.completionTokens))],
      ['Estimated cost', h('span', { 'data-field': 'estimated-cost' }, cost(total.estimatedCost, bySteps.currency))],
    ]),
    h('p', { class: 'meta' }, bySteps.costNote),
    chartSection(bySteps),
    userSection(byUsers));
}

function days(report) {
  return Math.round((Date.parse(report.to) - Date.parse(report.from)) / DAY);
}

function tokens(value) {
  return Number(value).toLocaleString('en');
}

function cost(value, currency) {
  return value === null || value === undefined ? 'no price set' : `${Number(value).toFixed(4)} ${currency} (estimate)`;
}

/** Every day of the report's range (UTC), as the API bins them. */
function dayStarts(report) {
  const first = Math.floor(Date.parse(report.from) / DAY) * DAY;
  const starts = [];
  for (let at = first; at < Date.parse(report.to); at += DAY) {
    starts.push(at);
  }
  return starts;
}

function chartSection(report) {
  const section = h('section', { class: 'section', 'aria-labelledby': 'usage-chart-title' },
    h('h3', { id: 'usage-chart-title' }, 'Tokens per day by step'));
  if (report.groups.length === 0) {
    section.append(h('p', { class: 'muted' }, 'No model requests in this range yet.'));
    return section;
  }
  const starts = dayStarts(report);
  const labels = starts.map((at) => new Date(at).toISOString().slice(5, 10));
  const series = report.groups.map((group, i) => {
    const byDay = new Map(group.series.map((p) => [Date.parse(p.start), p.usage.promptTokens + p.usage.completionTokens]));
    return {
      name: group.key,
      className: `series-${i % SERIES_CLASSES}`,
      values: starts.map((at) => byDay.get(at) ?? 0),
    };
  });
  const most = Math.max(1, ...series.flatMap((s) => s.values));
  const top = niceCeiling(most);
  section.append(
    h('ul', { class: 'legend' }, series.map((s) => h('li', {}, h('span', { class: `swatch ${s.className}` }), s.name))),
    lineChart({
      labels,
      series,
      yMin: 0,
      yMax: top,
      yTicks: [0, top / 2, top],
      title: 'Tokens per day by step',
      description: `${plural(series.length, 'step')} over ${labels.length} days; the table below has the totals.`,
    }),
    h('div', { class: 'table-wrap' }, h('table', { class: 'usage-steps' },
      h('thead', {}, h('tr', {}, ['Step', 'Requests', 'Prompt tokens', 'Completion tokens']
        .map((c) => h('th', { scope: 'col' }, c)))),
      h('tbody', {}, report.groups.map((group) => h('tr', {},
        h('th', { scope: 'row' }, group.key),
        h('td', { class: 'num' }, tokens(group.total.requests)),
        h('td', { class: 'num' }, tokens(group.total.promptTokens)),
        h('td', { class: 'num' }, tokens(group.total.completionTokens))))))));
  return section;
}

function userSection(report) {
  const section = h('section', { class: 'section', 'aria-labelledby': 'usage-users-title' },
    h('h3', { id: 'usage-users-title' }, 'By user'));
  if (report.groups.length === 0) {
    section.append(h('p', { class: 'muted' }, 'No model requests in this range yet.'));
    return section;
  }
  section.append(h('div', { class: 'table-wrap' }, h('table', { class: 'usage-users' },
    h('thead', {}, h('tr', {}, ['User', 'Requests', 'Prompt tokens', 'Completion tokens', 'Estimated cost']
      .map((c) => h('th', { scope: 'col' }, c)))),
    h('tbody', {}, report.groups.map((group) => h('tr', { 'data-user': group.key },
      h('th', { scope: 'row' }, group.key === '' ? '(no one user)' : group.key),
      h('td', { class: 'num' }, tokens(group.total.requests)),
      h('td', { class: 'num' }, tokens(group.total.promptTokens)),
      h('td', { class: 'num' }, tokens(group.total.completionTokens)),
      h('td', { class: 'num' }, cost(group.total.estimatedCost, report.currency))))))));
  return section;
}

/** 1, 2 or 5 times a power of ten, at least the value: a y axis whose ticks read well. */
function niceCeiling(value) {
  const power = 10 ** Math.floor(Math.log10(value));
  for (const step of [1, 2, 5, 10]) {
    if (step * power >= value) {
      return step * power;
    }
  }
  return 10 * power;
}
