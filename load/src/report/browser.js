/* global document, window, uPlot */
'use strict';
// Runs in the report page, not in Node: draws every chart of the embedded data (#report-data, written by html.js)
// with uPlot. The plots are kept in window.labReport.charts (id, kind, scenario, strokes, plot) so a test can read what each
// chart drew; body[data-charts-drawn] says how many were drawn once all are.
(function drawCharts() {
  const report = JSON.parse(document.getElementById('report-data').textContent);
  const drawn = [];
  for (const chart of report.charts) {
    const element = document.querySelector(`[data-chart="${chart.id}"]`);
    const scales = [...new Set(chart.series.map((s) => s.scale))];
    const options = {
      width: 440,
      height: 240,
      series: [{}].concat(chart.series.map((s) => ({ label: s.label, scale: s.scale, stroke: s.stroke, width: 1.5, spanGaps: true, points: { size: 4 } }))),
      scales: Object.assign({ x: { time: true, range: () => chart.range } }, Object.fromEntries(scales.map((scale) => [scale, { auto: true }]))),
      axes: [{}].concat(scales.map((scale, i) => ({ scale, label: scale, side: i === 0 ? 3 : 1, grid: { show: i === 0 } }))),
    };
    const plot = new uPlot(options, chart.data, element);
    drawn.push({ id: chart.id, kind: chart.kind, scenario: chart.scenario, strokes: chart.series.map((s) => s.stroke), plot });
  }
  window.labReport = { charts: drawn };
  document.body.dataset.chartsDrawn = String(drawn.length);
})();
