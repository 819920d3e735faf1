'use strict';
// One component of `make native`, kept running as compose's restart policy keeps a container: when it ends, it is
// started again after a delay that doubles with each end (1 s, 2 s, 4 s ... up to 30 s), back to 1 s once a run stayed
// up (answering its health URL) for a minute, and each start tells it how many restarts came before (LAB_RESTARTS,
// shown in its /info). A component that ends before it ever answered its health URL is not restarted: it cannot start
// (its port is taken, it is broken), and a restart loop would hide that, so the lab is stopped with the reason instead.
const http = require('node:http');

const FIRST_DELAY_MS = 1000;
const MAX_DELAY_MS = 30000;
// Up this long (from its first health answer), it was not in a crash loop: the next end waits FIRST_DELAY_MS again.
// Compose takes 10 s; a minute also keeps backing off a service that a load scenario kills within seconds each time.
const STEADY_RUN_MS = 60000;
const HEALTH_POLL_MS = 250;
const HEALTH_TIMEOUT_MS = 2000;

/** "exit code 2" or "signal SIGKILL": why a process ended, from its 'exit' event. */
function endReason(code, signal) {
  return signal ? `signal ${signal}` : `exit code ${code}`;
}

/** The wait before the next start: FIRST_DELAY_MS after the first end or a steady run, else twice the last, capped. */
function nextDelay(lastDelayMs, upMs) {
  if (lastDelayMs === null || upMs >= STEADY_RUN_MS) return FIRST_DELAY_MS;
  return Math.min(lastDelayMs * 2, MAX_DELAY_MS);
}

/** Whether url answers 200; a fresh connection, closed after, so no idle keep-alive socket delays a server's stop. */
function answers200(url) {
  return new Promise((resolve) => {
    const req = http.get(url, { agent: false, timeout: HEALTH_TIMEOUT_MS }, (res) => {
      res.resume();
      resolve(res.statusCode === 200);
    });
    req.on('timeout', () => req.destroy());
    req.on('error', () => resolve(false));
  });
}

/**
 * Starts the component now and again after each end, until stop().
 * - start(restarts) -> a child process leading its own process group, `restarts` in its environment;
 * - healthUrl: answers 200 once the component is up;
 * - emptyGroup(pgid) -> Promise: stops what is left of an ended group (a server outliving its make keeps the port);
 * - onCannotStart(reason): the component ended (or could not be spawned) before it was ever up;
 * - log(line): one line when it is first up, and one per restart: the component, why it ended, the restart's number.
 */
function keepRunning({ name, start, healthUrl, emptyGroup, onCannotStart, log }) {
  let stopped = false;
  let everUp = false;
  let restarts = 0;
  let lastDelayMs = null;
  let timer = null;

  function run() {
    if (stopped) return; // the one place a start happens: none once the lab's stop has begun
    const child = start(restarts);
    let ended = false;
    let upAt = null; // when this run first answered its health URL
    child.on('error', (err) => {
      ended = true;
      if (!stopped) onCannotStart(`${name} could not start: ${err.message}`);
    });
    child.on('exit', (code, signal) => {
      ended = true;
      if (stopped) return;
      const reason = endReason(code, signal);
      if (!everUp) {
        onCannotStart(`${name} exited (${reason}) before it was ever up`);
        return;
      }
      restarts += 1;
      lastDelayMs = nextDelay(lastDelayMs, upAt === null ? 0 : Date.now() - upAt);
      log(`${name} exited (${reason}); restart ${restarts} in ${lastDelayMs / 1000} s`);
      emptyGroup(child.pid).then(() => {
        if (!stopped) timer = setTimeout(run, lastDelayMs);
      });
    });
    waitUp(() => ended || stopped).then((up) => {
      if (!up) return;
      upAt = Date.now();
      // From here on an end is a crash, restarted; the line tells a user (and a test) when that began.
      if (!everUp) log(`${name} is up`);
      everUp = true;
    });
  }

  /** Polls healthUrl until it answers 200 (true) or gaveUp() (false). */
  async function waitUp(gaveUp) {
    while (!gaveUp()) {
      if (await answers200(healthUrl)) return !gaveUp();
      await new Promise((resolve) => setTimeout(resolve, HEALTH_POLL_MS));
    }
    return false;
  }

  run();
  return {
    stop() {
      stopped = true;
      clearTimeout(timer);
    },
  };
}

module.exports = { keepRunning };
