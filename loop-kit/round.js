'use strict';
// The lab's figures are rounded in one way: milliseconds to the microsecond (3 digits), or finer where one op takes
// a microsecond or less (the WASM transfer's per-op figures, 6 digits). Node 14 syntax.

/** value rounded to `digits` decimals (default 3: a millisecond figure to the microsecond). */
function round(value, digits = 3) {
  const scale = 10 ** digits;
  return Math.round(value * scale) / scale;
}

module.exports = { round };
