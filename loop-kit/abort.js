'use strict';
// An AbortController for both Node lines: Node 24's own, or on Node 14 (where it is only behind a flag) the small
// part of its interface the lab uses: signal.aborted, signal.reason, add/removeEventListener('abort'), abort(reason).

class AbortError extends Error {
  constructor(message) {
    super(message || 'The operation was aborted');
    this.name = 'AbortError';
    this.code = 'ABORT_ERR';
  }
}

function minimalController() {
  const listeners = new Set();
  const signal = {
    aborted: false,
    reason: undefined,
    addEventListener(type, listener) {
      if (type === 'abort') listeners.add(listener);
    },
    removeEventListener(type, listener) {
      if (type === 'abort') listeners.delete(listener);
    },
  };
  return {
    signal,
    abort(reason) {
      if (signal.aborted) return;
      signal.aborted = true;
      signal.reason = reason === undefined ? new AbortError() : reason;
      for (const listener of [...listeners]) listener({ type: 'abort', target: signal });
      listeners.clear();
    },
  };
}

const createAbortController = () => (typeof AbortController === 'function' ? new AbortController() : minimalController());

module.exports = { createAbortController, AbortError };
