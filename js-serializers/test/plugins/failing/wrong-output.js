'use strict';
// A serializer plugin that departs from native: its stringify adds a space after the text.
module.exports = {
  name: 'wrong-output',
  stringify: (value) => Promise.resolve(JSON.stringify(value) + ' '),
};
