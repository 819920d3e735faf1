/* global document, window */
'use strict';
// Runs in the live page (GET /), not in Node: its "Attach a service" form. The endpoint, method, probe path, agent and seconds
// go to the driver's own POST /attach (a same-origin fetch: the driver's cross-site guard lets it through and refuses
// another site's page), which checks the endpoint and starts the attach suite on it; a refusal is shown with the
// driver's reason. The run is then followed under "Running now" as any run, and its verdict's lines (the run state's
// attachVerdict, once it has ended) are shown here. Everything is written as text, never as HTML: a service's answer
// cannot add markup. window.labAttach holds the last answer for a test to read.
(function attach() {
  const VERDICT_MS = 1000;
  const state = { answer: null };
  window.labAttach = state;
  const $ = (selector) => document.querySelector(selector);
  const say = (text) => {
    $('#attach-state').textContent = text;
  };

  /** The form's fields as POST /attach's query: empty ones left out (the driver's defaults), no agent as none. */
  function queryOf() {
    const query = new URLSearchParams({ url: $('#attach-url').value.trim(), method: $('#attach-method').value, agent: $('#attach-agent').value.trim() || 'none' });
    const probePath = $('#attach-probe').value.trim();
    if (probePath) query.set('probePath', probePath);
    const seconds = $('#attach-seconds').value.trim();
    if (seconds) query.set('durationSeconds', seconds);
    return query;
  }

  async function start() {
    state.answer = null;
    $('#attach-start').disabled = true;
    $('#attach-verdict').replaceChildren();
    say('The driver asks the endpoint (and its probe path and agent) before it starts…');
    try {
      const res = await window.fetch(`/attach?${queryOf()}`, { method: 'POST' });
      const body = await res.json().catch(() => ({}));
      state.answer = { status: res.status, body };
      if (!res.ok) {
        say(`Not attached (HTTP ${res.status}): ${body.error || 'no reason given'}`);
        return;
      }
      const notes = [body.agent ? `the lab's ${body.agent.kind} agent answers` : 'no agent', body.waitingFor ? `first ${body.waitingFor}` : null, body.unscraped ? `not measured: ${body.unscraped}` : null].filter(Boolean);
      say(`The attach suite started on ${body.method} ${body.url} (${notes.join('; ')}): its progress is under "Running now", its verdict below when it ends.`);
    } catch (err) {
      say(`POST /attach could not be sent: ${err.message}`);
    } finally {
      $('#attach-start').disabled = false;
    }
  }

  /** The verdict of the run the page shows, when it is an attach run that has one (page.js keeps the state). */
  function showVerdict() {
    const live = window.labLive && window.labLive.state;
    const run = live && live.run;
    const lines = run && run.attachVerdict ? run.attachVerdict.lines : [];
    const list = $('#attach-verdict');
    if (list.dataset.run !== String(run && run.id) || list.childElementCount !== lines.length) {
      list.replaceChildren(...lines.map((line) => Object.assign(document.createElement('li'), { textContent: line })));
      list.dataset.run = String(run && run.id);
    }
    window.setTimeout(showVerdict, VERDICT_MS);
  }

  $('#attach-start').addEventListener('click', start);
  showVerdict();
  document.body.dataset.attachReady = 'true';
})();
