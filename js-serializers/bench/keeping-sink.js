'use strict';
// A Writable that does no I/O, for pipeTo()'s output: the shape benchmark and the shape tests both verify what it
// was given. Node 14 syntax.
const { Writable } = require('stream');

/**
 * {sink, kept}: the sink keeps each chunk (a reference) in `kept`, so the output can be checked after the clock stops,
 * and takes strings as they come (decodeStrings false), so no UTF-8 encoding is timed that native's run does not do.
 */
function keepingSink() {
  const kept = [];
  const sink = new Writable({
    decodeStrings: false,
    write(chunk, encoding, callback) {
      kept.push(chunk);
      callback();
    },
  });
  return { sink, kept };
}

module.exports = { keepingSink };
