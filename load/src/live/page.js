/* global document, window, uPlot */
'use strict';
// Runs in the live page (GET /), not in Node: polls the driver's /live/state (the run and its progress) every second
// and /live/series (Prometheus' series, through the driver) every two, and draws one row of uPlot charts per target;
// fetches /live/table when a scenario has ended and /live/runs when a run begins or ends. Everything it reads comes
// from the driver that served it. window.labLive holds what it shows (state, series, charts with their plots) so a
// test can check the page against its data.
(function live() {
  const WINDOW_SECONDS = 300;
  const STATE_MS = 1000;
  const SERIES_MS = 2000;
  // The report's colours (src/report/chart-data.js), the same quantity the same colour.
  const STROKE = { lagP99: '#d62728', lagMax: '#ff7f0e', gc: '#8c564b', probe: '#9467bd', request: '#1f77b4', cpu: '#d62728', rss: '#9467bd', elu: '#2ca02c', cpuWait: '#7f7f7f', elsewhere: '#e377c2' };
  const CHART = { width: 440, height: 220 };

  const live = { ready: false, state: null, series: null, seriesError: null, charts: [], updates: 0 };
  window.labLive = live;
  const $ = (selector, root = document) => root.querySelector(selector);
  const field = (name) => $(`[data-field="${name}"]`);
  const setText = (name, text) => {
    field(name).textContent = text === null || text === undefined || text === '' ? '—' : String(text);
  };

  async function getJson(url) {
    const res = await fetch(url, { headers: { Accept: 'application/json' } });
    const body = await res.json().catch(() => null);
    if (!res.ok) throw new Error(body && body.error ? body.error : `HTTP ${res.status}`);
    return body;
  }

  const seconds = (s) => (s === null || s === undefined ? '—' : s >= 60 ? `${Math.floor(s / 60)} min ${s % 60} s` : `${s} s`);

  function showState(s) {
    const run = s.run;
    const p = s.progress;
    if (!run) {
      setText('state', 'No suite has run since the driver started: POST /runs?suite=NAME starts one.');
      return;
    }
    const current = p && p.scenario;
    const words = { waiting: run.waitingFor ? `waiting for ${run.waitingFor}` : "waiting for the targets' /healthz", running: current ? 'running' : 'running, between scenarios' };
    setText('state', `${run.suite}: ${words[run.state] || run.state}${run.loop ? ' (looping)' : ''}${run.error ? ` — ${run.error}` : ''}`);
    setText('suite', run.suite);
    setText('run', run.id);
    setText('scenario', current ? `${current.index} of ${p.of}: ${current.name}` : null);
    setText('target', current ? current.target : null);
    setText('approach', current && current.workload ? `${current.workload}, ${current.approach}` : null);
    setText('request', current ? `${current.request}, ${current.connections} connections, ${current.durationSeconds} s${current.maxRequests ? ` or ${current.maxRequests} requests` : ''}` : null);
    $('#progress').max = p && p.of ? p.of : 1;
    $('#progress').value = p ? p.done : 0;
    setText('progress', p && p.of ? `${p.done} of ${p.of} scenarios ended` : null);
    setText('left', current ? `this scenario ${seconds(p.scenarioLeftSeconds)} (${seconds(p.elapsedSeconds)} in), the suite about ${seconds(p.suiteLeftSeconds)}` : null);
  }

  // One row of charts per target: its lag (or the JVM's GC pauses), the probe's latency beside the scenario's, CPU
  // and RSS. Which charts a target gets depends on its kind (the manifests): a Node service has an event loop.
  function chartsOf(target) {
    const lag = target.kind === 'jvm' ? null : { kind: 'lag', title: `${target.name} event-loop lag, p99 and max`, scales: ['ms'], lines: [['lag p99 (ms)', 'lagP99Seconds', 1000, STROKE.lagP99, 'ms'], ['lag max (ms)', 'lagMaxSeconds', 1000, STROKE.lagMax, 'ms']] };
    const gc = target.kind === 'jvm' ? { kind: 'gc', title: `${target.name}: stop-the-world GC pause, ms per second`, scales: ['ms/s'], lines: [['GC pause (ms/s)', 'gcPauseSecondsPerSecond', 1000, STROKE.gc, 'ms/s']] } : null;
    // Why the loop stalls: how busy it was, and the collector's longest pause each second (node-kit's runtime metrics).
    // The share of each second the loop's thread waited for a CPU something else held, on ELU's scale: a busy machine.
    const why = target.kind === 'node' ? { kind: 'elu-gc', title: `${target.name}: event-loop utilization, its wait for a CPU and the longest GC pause`, scales: ['ELU', 'ms'], lines: [['ELU', 'eluRatio', 1, STROKE.elu, 'ELU'], ['waiting for a CPU (share)', 'cpuWaitRatio', 1, STROKE.cpuWait, 'ELU'], ['longest GC pause (ms)', 'gcPauseMaxSeconds', 1000, STROKE.gc, 'ms']] } : null;
    return [lag, why, gc, {
      kind: 'latency',
      title: `latency p99 at ${target.name}: the probe beside the scenario`,
      scales: ['ms'],
      lines: [['probe p99 (ms)', 'probeP99Seconds', 1000, STROKE.probe, 'ms'], ['scenario p99 (ms)', 'requestP99Seconds', 1000, STROKE.request, 'ms']],
    }, {
      kind: 'resources',
      title: `${target.name} CPU and RSS, and the machine's CPU outside the lab`,
      scales: ['cores', 'MiB'],
      lines: [['CPU (cores)', 'cpuCores', 1, STROKE.cpu, 'cores'], ['RSS (MiB)', 'rssBytes', 1 / 1048576, STROKE.rss, 'MiB'], ['machine CPU elsewhere (cores)', 'machineElsewhereCores', 1, STROKE.elsewhere, 'cores']],
    }].filter(Boolean);
  }

  /** uPlot's draw hook: the target's scenarios as shaded bands from start to end, named at the top. */
  function markScenarios(target) {
    return (u) => {
      const spans = live.series ? live.series.scenarios.filter((s) => s.target === target) : [];
      const { ctx } = u;
      const { top, height } = u.bbox;
      ctx.save();
      ctx.font = `${Math.round(10 * window.devicePixelRatio)}px system-ui, sans-serif`;
      for (const [i, span] of spans.entries()) {
        const x0 = u.valToPos(span.start, 'x', true);
        const x1 = u.valToPos(span.end, 'x', true);
        ctx.fillStyle = 'rgba(255, 160, 0, 0.12)';
        ctx.fillRect(x0, top, Math.max(x1 - x0, 1), height);
        ctx.strokeStyle = 'rgba(200, 110, 0, 0.8)';
        ctx.beginPath();
        ctx.moveTo(x0, top);
        ctx.lineTo(x0, top + height);
        ctx.moveTo(x1, top);
        ctx.lineTo(x1, top + height);
        ctx.stroke();
        ctx.fillStyle = '#8a4b00';
        // Names on three lines in turn: short scenarios side by side would otherwise write over each other.
        ctx.fillText(span.scenario, x0 + 3, top + 12 * (1 + (i % 3)) * window.devicePixelRatio);
      }
      ctx.restore();
    };
  }

  function createRow(target) {
    const row = document.createElement('div');
    row.className = 'service';
    row.dataset.target = target.name;
    const title = document.createElement('h3');
    title.textContent = `${target.name}${target.kind ? ` (${target.kind})` : ''}`;
    row.appendChild(title);
    if (target.kind === 'jvm' || (target.kind !== 'node' && target.kind !== null)) {
      const note = document.createElement('p');
      note.className = 'no-loop';
      note.dataset.notice = 'no-event-loop';
      note.textContent = target.kind === 'jvm'
        ? `No event loop: ${target.name} serves requests on a thread pool. What stops all of them at once is a stop-the-world GC pause, charted instead.`
        : `No event loop charted for a ${target.kind} service (charted when Prometheus has its event-loop lag).`;
      row.appendChild(note);
    }
    const charts = document.createElement('div');
    charts.className = 'charts';
    row.appendChild(charts);
    $('#services').appendChild(row);
    for (const spec of chartsOf(target)) {
      const figure = document.createElement('figure');
      const caption = document.createElement('figcaption');
      caption.textContent = spec.title;
      const element = document.createElement('div');
      element.dataset.chart = `${target.name}-${spec.kind}`;
      figure.append(caption, element);
      charts.appendChild(figure);
      const options = {
        width: CHART.width,
        height: CHART.height,
        series: [{}].concat(spec.lines.map(([label, , , stroke, scale]) => ({ label, scale, stroke, width: 1.5, points: { size: 3 } }))),
        scales: Object.assign({ x: { time: true } }, Object.fromEntries(spec.scales.map((scale) => [scale, { auto: true }]))),
        axes: [{}].concat(spec.scales.map((scale, i) => ({ scale, label: scale, side: i === 0 ? 3 : 1, grid: { show: i === 0 } }))),
        hooks: { draw: [markScenarios(target.name)] },
      };
      const plot = new uPlot(options, [[], ...spec.lines.map(() => [])], element);
      live.charts.push({ target: target.name, kind: spec.kind, lines: spec.lines.map(([label, key]) => ({ label, key })), spec, plot });
    }
  }

  /** A chart's data from the series: x every second of the window, each line null where it has no sample. */
  function dataOf(spec, job, window) {
    const xs = [];
    for (let t = window.start; t <= window.end; t++) xs.push(t);
    const lines = spec.lines.map(([, key, factor]) => {
      const byTime = new Map((job[key] || []).map(([t, v]) => [t, Math.round(v * factor * 1000) / 1000]));
      return xs.map((t) => (byTime.has(t) ? byTime.get(t) : null));
    });
    return [xs, ...lines];
  }

  /** The machine beside the lab: its last second's share of CPU outside the lab, and whether that is past the limit. */
  function showMachine(series) {
    const m = series.machine;
    const last = (points) => (points && points.length ? points[points.length - 1][1] : null);
    const share = m ? last(m.elsewhereShare) : null;
    const line = field('machine');
    if (share === null) {
      line.textContent = 'The machine beside the lab: not known (the driver exports no machine figures to this Prometheus).';
      line.className = '';
      return;
    }
    const percent = Math.round(share * 1000) / 10;
    const busy = percent > series.busyPercent;
    line.dataset.elsewherePercent = String(percent);
    line.className = busy ? 'notice busy' : '';
    line.textContent = `The machine beside the lab, its last second: ${percent} % of its ${last(m.cpus)} CPUs went to processes outside the lab, load average ${last(m.load1)}. ${busy ? `Busy (past ${series.busyPercent} %): figures measured now are not a verdict.` : `Quiet enough (the limit is ${series.busyPercent} %).`}`;
  }

  function showSeries(series) {
    live.series = series;
    const notice = $('#prometheus-notice');
    notice.hidden = true;
    if (!series.window) {
      setText('newest', `Prometheus (${series.prometheus}) holds no scrape of the targets yet.`);
      return;
    }
    const age = Math.max(0, Math.round(Date.now() / 1000 - series.newestScrape));
    setText('newest', `From ${series.prometheus}: the last ${WINDOW_SECONDS} s up to its newest scrape, ${new Date(series.newestScrape * 1000).toISOString()} (${age} s ago by this browser's clock).`);
    field('newest').dataset.newest = String(series.newestScrape);
    showMachine(series);
    for (const chart of live.charts) chart.plot.setData(dataOf(chart.spec, series.jobs[chart.target] || {}, series.window));
    live.updates++;
    document.body.dataset.seriesUpdates = String(live.updates);
  }

  function showSeriesError(message) {
    live.seriesError = message;
    const notice = $('#prometheus-notice');
    notice.textContent = `No live series: ${message}. The run goes on; its results keep their own checks.`;
    notice.hidden = false;
  }

  let tableKey = null;
  async function refreshTable(run) {
    const key = run ? `${run.id}/${run.completed.length}` : '';
    if (key === tableKey) return;
    const res = await fetch('/live/table');
    if (!res.ok) return;
    $('#table').innerHTML = await res.text(); // the driver escapes every string of the run (src/report/html.js)
    tableKey = key;
  }

  let runsKey = null;
  async function refreshRuns(run) {
    const key = run ? `${run.id}/${run.state}` : '';
    if (key === runsKey) return;
    const { runs, folders } = await getJson('/live/runs');
    const body = $('#run-list tbody');
    body.replaceChildren();
    for (const r of runs) {
      const tr = document.createElement('tr');
      tr.dataset.run = r.id;
      const cell = (content) => {
        const td = document.createElement('td');
        if (content instanceof window.Node) td.appendChild(content);
        else td.textContent = content === null || content === undefined ? '—' : String(content);
        tr.appendChild(td);
      };
      const link = (href, text) => {
        const a = document.createElement('a');
        a.href = href;
        a.textContent = text;
        return a;
      };
      cell(r.id);
      cell(r.suite);
      cell(r.startedAt);
      cell(r.verdict);
      cell(r.scenarios);
      cell(r.report ? link(r.report, 'report.html') : 'not written yet');
      cell(r.previous ? link(`/live/compare?a=${encodeURIComponent(r.previous)}&b=${encodeURIComponent(r.id)}`, `compare with ${r.previous}`) : null);
      body.appendChild(tr);
    }
    setText('runs-more', folders > runs.length ? `The newest ${runs.length} runs of ${folders} folders.` : '');
    runsKey = key;
  }

  // Start and stop go through the driver's own guarded POST /runs and /runs/stop (a same-origin fetch carries this
  // page's Origin, which the driver accepts; another site's page is refused there, not here).
  async function post(target) {
    const res = await fetch(target, { method: 'POST' });
    const body = await res.json().catch(() => null);
    setText('control', res.ok ? `${target}: ${res.status}` : `${target}: ${res.status} ${body && body.error ? body.error : ''}`);
  }

  function setUpControl(suites) {
    const select = $('#suite');
    for (const name of suites) {
      const option = document.createElement('option');
      option.value = name;
      option.textContent = name;
      select.appendChild(option);
    }
    $('#start').addEventListener('click', () => post(`/runs?suite=${encodeURIComponent(select.value)}&loop=${$('#loop').checked ? 1 : 0}`));
    $('#stop').addEventListener('click', () => post('/runs/stop'));
  }

  function showControl(run) {
    const running = Boolean(run) && ['waiting', 'running'].includes(run.state);
    $('#start').disabled = running;
    $('#stop').disabled = !running;
  }

  const shownTargets = new Set();

  async function pollState() {
    try {
      const s = await getJson('/live/state');
      live.state = s;
      if (!live.ready) {
        live.ready = true;
        setUpControl(s.suites);
      }
      // A row for every target, those a POST /attach added since included.
      for (const target of s.targets) {
        if (!shownTargets.has(target.name)) {
          shownTargets.add(target.name);
          createRow(target);
        }
      }
      showControl(s.run);
      showState(s);
      await refreshTable(s.run);
      await refreshRuns(s.run);
    } catch (err) {
      setText('state', `The driver did not answer: ${err.message}`);
    }
    window.setTimeout(pollState, STATE_MS);
  }

  async function pollSeries() {
    if (live.charts.length > 0) {
      try {
        showSeries(await getJson(`/live/series?seconds=${WINDOW_SECONDS}`));
      } catch (err) {
        showSeriesError(err.message);
      }
    }
    window.setTimeout(pollSeries, live.charts.length > 0 ? SERIES_MS : 200);
  }

  pollState();
  pollSeries();
})();
