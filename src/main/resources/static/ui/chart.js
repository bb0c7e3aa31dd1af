// A small line chart drawn as inline SVG: one x position per point, a fixed y range, a line per series.
import { h } from './dom.js';

const WIDTH = 640;
const HEIGHT = 260;
const PAD = { left: 44, right: 16, top: 14, bottom: 40 };

/**
 * @param labels   x-axis labels, one per point
 * @param series   [{name, className, values: (number|null)[]}]; null leaves a gap
 * @param yMin     bottom of the y axis
 * @param yMax     top of the y axis
 * @param yTicks   values that get a grid line and a label
 * @param title    the chart's accessible name
 */
export function lineChart({ labels, series, yMin, yMax, yTicks, title, description }) {
  const plotWidth = WIDTH - PAD.left - PAD.right;
  const plotHeight = HEIGHT - PAD.top - PAD.bottom;
  const x = (i) => PAD.left + (labels.length <= 1 ? plotWidth / 2 : (i * plotWidth) / (labels.length - 1));
  const y = (v) => PAD.top + ((yMax - Math.min(yMax, Math.max(yMin, v))) * plotHeight) / (yMax - yMin);

  const svg = h('svg:svg', {
    class: 'chart', viewBox: `0 0 ${WIDTH} ${HEIGHT}`, role: 'img', 'aria-labelledby': 'chart-title chart-desc',
  });
  svg.appendChild(h('svg:title', { id: 'chart-title' }, title));
  svg.appendChild(h('svg:desc', { id: 'chart-desc' }, description));

  for (const tick of yTicks) {
    svg.appendChild(h('svg:line', {
      class: tick === 0 ? 'grid zero' : 'grid', x1: PAD.left, x2: WIDTH - PAD.right, y1: y(tick), y2: y(tick),
    }));
    svg.appendChild(h('svg:text', {
      class: 'axis-label', x: PAD.left - 8, y: y(tick) + 4, 'text-anchor': 'end',
    }, String(tick)));
  }
  // At most about ten x labels, so that they never overlap.
  const every = Math.max(1, Math.ceil(labels.length / 10));
  labels.forEach((label, i) => {
    if (i % every === 0 || i === labels.length - 1) {
      svg.appendChild(h('svg:text', {
        class: 'axis-label', x: x(i), y: HEIGHT - PAD.bottom + 18, 'text-anchor': 'middle',
      }, label));
    }
  });

  for (const one of series) {
    let d = '';
    let drawing = false;
    one.values.forEach((value, i) => {
      if (value === null || value === undefined) {
        drawing = false;
        return;
      }
      d += `${drawing ? 'L' : 'M'}${x(i).toFixed(1)} ${y(value).toFixed(1)} `;
      drawing = true;
    });
    if (d) {
      svg.appendChild(h('svg:path', { class: `line ${one.className}`, d: d.trim(), 'data-series': one.name }));
    }
    one.values.forEach((value, i) => {
      if (value !== null && value !== undefined) {
        svg.appendChild(h('svg:circle', { class: `${one.className}-point`, cx: x(i), cy: y(value), r: 3.5 },
          h('svg:title', {}, `${one.name}, ${labels[i]}: ${value.toFixed(2)}`)));
      }
    });
  }
  return svg;
}
