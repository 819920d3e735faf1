'use strict';
// The benchmarks' one measuring loop: warm-ups, then rounds that run every approach one after the other, so that a
// noisy neighbour or a drift of the machine slows all of them alike instead of whichever ran during it. A run that
// throws is kept as {error}: the caller's validation fails it, and its time is never a result.

/**
 * Runs run(approach) for every approach: `warmups` times each (results dropped), then `rounds` rounds; resolves to
 * {approach: [result, ...]}. progress(text) is told each step (stderr by default: stdout is the table's).
 */
async function interleavedRounds({ approaches, warmups = 1, rounds, run, progress = (text) => process.stderr.write(text) }) {
  const attempt = async (approach) => {
    try {
      return await run(approach);
    } catch (error) {
      return { error: error.message };
    }
  };
  for (let w = 1; w <= warmups; w++) {
    progress(`warm-up ${w}/${warmups}:`);
    for (const approach of approaches) {
      progress(` ${approach}`);
      await attempt(approach);
    }
    progress('\n');
  }
  const runs = Object.fromEntries(approaches.map((approach) => [approach, []]));
  for (let round = 1; round <= rounds; round++) {
    progress(`round ${round}/${rounds}:`);
    for (const approach of approaches) {
      progress(` ${approach}`);
      runs[approach].push(await attempt(approach));
    }
    progress('\n');
  }
  return runs;
}

module.exports = { interleavedRounds };
