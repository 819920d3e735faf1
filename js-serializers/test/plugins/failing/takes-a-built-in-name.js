'use strict';
// A serializer plugin declaring the name of a built-in approach of both Node services.
module.exports = {
  name: 'fast',
  stringify: (value) => Promise.resolve(JSON.stringify(value)),
  parse: (text) => Promise.resolve(JSON.parse(text)),
};
