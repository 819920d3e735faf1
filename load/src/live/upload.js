/* global document, window */
'use strict';
// Runs in the live page (GET /), not in Node: its "Your document" control. A chosen file goes to the driver's own
// PUT /documents (a same-origin fetch: the driver's cross-site guard lets it through and refuses another site's page),
// the answer is shown as it came (refusals with their reason; per service, stored or why not, and what the service
// found its runtime would treat differently), and "Try it" starts the try suite on it with POST /runs. Everything is
// written as text, never as HTML: a file name or a service's answer cannot add markup. window.labUpload holds the
// last answer for a test to read.
(function upload() {
  const state = { caps: null, answer: null, sha256: null };
  window.labUpload = state;
  const $ = (selector) => document.querySelector(selector);
  const say = (text) => {
    $('#document-state').textContent = text;
  };
  const mebibytes = (bytes) => `${Math.round((bytes / 1048576) * 10) / 10} MiB`;

  /** The media type the driver takes for a file: by its name's extension, since browsers leave .json's type empty. */
  function mediaTypeOf(file) {
    const kind = /\.csv$/i.test(file.name) || file.type === 'text/csv' ? 'csv' : 'json';
    return { kind, type: state.caps.mediaTypes[kind] };
  }

  function item(text, parent) {
    const li = document.createElement('li');
    li.textContent = text;
    parent.appendChild(li);
    return li;
  }

  function showServices(services) {
    const list = $('#document-services');
    list.replaceChildren();
    for (const [name, answer] of Object.entries(services)) {
      const li = item(`${name}: ${answer.stored ? 'stored' : `not stored — ${answer.error}`}`, list);
      li.dataset.service = name;
      li.dataset.stored = String(answer.stored);
      const findings = answer.findings || [];
      if (findings.length === 0) continue;
      const sub = document.createElement('ul');
      for (const f of findings) item(`${f.topic} at ${f.path || '/'} (${f.count}×): ${f.detail}`, sub).dataset.finding = f.topic;
      li.appendChild(sub);
    }
  }

  async function send(file) {
    state.answer = null;
    state.sha256 = null;
    $('#document-try').disabled = true;
    $('#document-services').replaceChildren();
    if (file.size > state.caps.maxDocumentBytes) {
      say(`${file.name} is ${mebibytes(file.size)}, over the driver's cap of ${mebibytes(state.caps.maxDocumentBytes)} (DOCUMENT_MAX_BYTES): not sent.`);
      return;
    }
    const { kind, type } = mediaTypeOf(file);
    say(`${file.name} (${kind.toUpperCase()}, ${mebibytes(file.size)}): the driver checks it and hands it to the services…`);
    try {
      const res = await window.fetch('/documents', { method: 'PUT', headers: { 'Content-Type': type }, body: file });
      const body = await res.json().catch(() => ({}));
      state.answer = { status: res.status, body };
      if (!res.ok) {
        say(`${file.name} was refused (HTTP ${res.status}): ${body.error || 'no reason given'}`);
        return;
      }
      state.sha256 = body.sha256;
      const stored = Object.values(body.services).filter((s) => s.stored).length;
      say(`${file.name}: ${body.kind.toUpperCase()}, ${body.bytes} bytes, sha256 ${body.sha256}; ${stored} of ${Object.keys(body.services).length} services stored it.`);
      showServices(body.services);
      $('#document-try').disabled = stored === 0;
    } catch (err) {
      say(`${file.name} could not be sent: ${err.message}`);
    }
  }

  async function tryIt() {
    const res = await window.fetch(`/runs?suite=try&document=${state.sha256}`, { method: 'POST' });
    const body = await res.json().catch(() => ({}));
    say(res.ok ? `The try suite started on ${state.sha256}: its progress is under "Running now", its choice in the report.` : `The try suite did not start (HTTP ${res.status}): ${body.error || ''}`);
  }

  async function start() {
    const res = await window.fetch('/live/state', { headers: { Accept: 'application/json' } });
    state.caps = (await res.json()).documents;
    $('[data-field="document-caps"]').textContent = `up to ${mebibytes(state.caps.maxDocumentBytes)}`;
    $('#document-file').addEventListener('change', (event) => {
      const [file] = event.target.files;
      if (file) send(file);
    });
    $('#document-try').addEventListener('click', tryIt);
    document.body.dataset.uploadReady = 'true';
  }

  start().catch((err) => say(`The upload control could not start: ${err.message}`));
})();
