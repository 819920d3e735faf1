'use strict';
// The documents of issue 57's hostile round (docker/hostile-items.js): small ones that find one behaviour each, and
// the large ones at the upload cap (64 MiB) that took services down, made when asked (tens of MB each).
const MIB = 2 ** 20;

/** `[item,item,…]` of about `mebibytes`, never past the 64 MiB cap. */
function repeated(item, mebibytes) {
  const count = Math.floor((mebibytes * MIB - 2) / (item.length + 1));
  return `[${`${item},`.repeat(count - 1)}${item}]`;
}

const documents = {
  small: '{"orders": [{"id": 1, "total": 9.5, "note": "naïve ☃"}, {"id": 2, "lines": []}]}',
  // What the hostile plugins (js-serializers/test/plugins/hostile/) misbehave on.
  marked: '{"hostile": true, "orders": [{"id": 1, "lines": [1, 2]}]}',
  records: JSON.stringify(Array.from({ length: 140 }, (_, i) => ({ id: i, name: `n${i}"q"` }))),
  // 64 000 escapes in one string of 128 000 characters: minutes of yieldable-json's parse.
  escaped: JSON.stringify(['\n'.repeat(64000)]),
  // The densest document: 22 million empty objects, the cap's worth.
  objects64: () => repeated('{}', 64),
  // 33 arrays of a million zeros: over 4 GB for a json round trip in WASM.
  zeroRows: () => `[${Array.from({ length: 33 }, () => `[${'0,'.repeat(999999)}0]`).join(',')}]`,
  // 2^24 + 1 zeros: a length past yyjson's 24 bits on wasm32.
  longArray: () => `[${'0,'.repeat(2 ** 24)}0]`,
  findings: [
    '{"a":[1e-7,1.0],"b":9007199254740993}',
    '[9007199254740993, 123456789012345678901234567890]',
    '{"x":-0,"y":{"a":1,"\\u0061":2},"z":"\\ud800","n":[1e2,5e-324,1e21,1e400,0.1,-0.0]}',
  ],
  largeIntegers: '[9007199254740993, 123456789012345678901234567890]',
  // Not JSON, each where the services must answer alike: unclosed past every depth cap, a number's end, a later line.
  broken: ['['.repeat(2001), '[1e]', '{\n  "a": [1,\n    2 3]\n}'],
};

module.exports = { documents };
