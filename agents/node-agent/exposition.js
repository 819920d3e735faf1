'use strict';
// Prometheus' text format 0.0.4, written by hand (the agent depends on nothing): one family is its # HELP and # TYPE
// lines and its samples; a histogram's are its cumulative _bucket lines (le ending at +Inf), _sum and _count.
// Node 14 syntax.

// The format's escapes: in HELP a backslash and a line feed; in a label value those and a double quote.
const escapeHelp = (text) => String(text).replace(/\\/g, '\\\\').replace(/\n/g, '\\n');
const escapeLabel = (value) => String(value).replace(/\\/g, '\\\\').replace(/\n/g, '\\n').replace(/"/g, '\\"');

/** A sample's value as the format writes it: +Inf, -Inf, NaN or a decimal number. */
function formatValue(value) {
  if (Number.isNaN(value)) return 'NaN';
  if (value === Infinity) return '+Inf';
  if (value === -Infinity) return '-Inf';
  return String(value);
}

/** {name: value} as {a="1",b="2"}, '' for none. */
function formatLabels(labels) {
  const names = Object.keys(labels || {});
  return names.length ? `{${names.map((name) => `${name}="${escapeLabel(labels[name])}"`).join(',')}}` : '';
}

const header = (name, type, help) => `# HELP ${name} ${escapeHelp(help)}\n# TYPE ${name} ${type}\n`;

/** A counter or gauge family: samples [{labels, value}] (a family without samples keeps its HELP and TYPE). */
function family(name, type, help, samples) {
  return header(name, type, help) + samples.map((s) => `${name}${formatLabels(s.labels)} ${formatValue(s.value)}\n`).join('');
}

/** A histogram family: series [{labels, counts (per bucket, not cumulative; one more for +Inf), sum}]. */
function histogramFamily(name, help, buckets, series) {
  let text = header(name, 'histogram', help);
  for (const s of series) {
    let cumulative = 0;
    buckets.concat([Infinity]).forEach((le, i) => {
      cumulative += s.counts[i];
      text += `${name}_bucket${formatLabels(Object.assign({}, s.labels, { le: formatValue(le) }))} ${cumulative}\n`;
    });
    text += `${name}_sum${formatLabels(s.labels)} ${formatValue(s.sum)}\n${name}_count${formatLabels(s.labels)} ${cumulative}\n`;
  }
  return text;
}

/** Observations in buckets by label value: observe(key, value) into the series labelled {[label]: key}. */
function bucketCounter(label, buckets) {
  const series = new Map();
  return {
    observe(key, value) {
      let s = series.get(key);
      if (!s) series.set(key, (s = { labels: { [label]: key }, counts: new Array(buckets.length + 1).fill(0), sum: 0 }));
      let i = 0;
      while (i < buckets.length && value > buckets[i]) i++;
      s.counts[i]++;
      s.sum += value;
    },
    series: () => Array.from(series.values()),
  };
}

module.exports = { family, histogramFamily, bucketCounter, formatValue, formatLabels, escapeLabel, escapeHelp };
