'use strict';
// A plugin that passes the conformance corpus and, on a document marked "hostile": true, never answers, whatever its
// signal says (issue 57: four such runs held every run slot, and every run after got 503). Node 14 syntax.
module.exports = {
  name: 'never-settles',
  parse(text) {
    const value = JSON.parse(text);
    if (value !== null && typeof value === 'object' && value.hostile === true) return new Promise(() => {});
    return Promise.resolve(value);
  },
};
