'use strict';
// How many turns the event loop took while something ran: the property the sliced builders' tests check.

/** Counts turns of the event loop (one immediate per turn) until stop() is called; stop() returns the count. */
function countTurns() {
  let turns = 0;
  let counting = true;
  const count = () => {
    if (!counting) return;
    turns++;
    setImmediate(count);
  };
  setImmediate(count);
  return () => {
    counting = false;
    return turns;
  };
}

module.exports = { countTurns };
