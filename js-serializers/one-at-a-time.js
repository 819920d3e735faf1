'use strict';
// Turns for work that must not run twice at once (a library that keeps its state in a global): take() waits for the
// turns taken before it. Node 14 syntax.

/** {take(signal) -> Promise<release()>}: a turn once every earlier one was released; signal aborting the wait rejects. */
function oneAtATime() {
  let last = Promise.resolve();
  return {
    take(signal) {
      let release;
      const released = new Promise((resolve) => {
        release = resolve;
      });
      const turn = last;
      last = last.then(() => released);
      return new Promise((resolve, reject) => {
        // A wait given up is still a turn in the line: it is handed on as soon as it comes.
        const onAbort = () => {
          reject(signal.reason);
          turn.then(release);
        };
        if (signal && signal.aborted) return onAbort();
        if (signal) signal.addEventListener('abort', onAbort);
        return turn.then(() => {
          if (signal) signal.removeEventListener('abort', onAbort);
          if (!signal || !signal.aborted) resolve(release);
        });
      });
    },
  };
}

module.exports = { oneAtATime };
