'use strict';
// A plugin that passes the conformance corpus and, on a document marked "hostile": true, yields on timers and throws
// its signal's reason from a timer callback once it is aborted: what plugins/README.md asks, but where no caller
// catches it (issue 57: it killed both Node services at the first run whose timeoutMs passed). Node 14 syntax.
module.exports = {
  name: 'throws-from-a-timer',
  stringify(value, { signal }) {
    if (value === null || typeof value !== 'object' || value.hostile !== true) return Promise.resolve(JSON.stringify(value));
    return new Promise(() => {
      const tick = () => {
        if (signal.aborted) throw signal.reason;
        setTimeout(tick, 1);
      };
      setTimeout(tick, 1);
    });
  },
};
