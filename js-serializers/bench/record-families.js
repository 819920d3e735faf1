'use strict';
// Generated documents of the two shapes issue 61 found fast losing on (2.0-2.5x native's stringify, 1.7-1.8x its
// parse, and 1.6-1.9x): a map of objects holding long strings (an icon set: thousands of icons, each an SVG path of a
// few hundred characters with quotes to escape, as @iconify-json's icons.json) and a long array of small all-number
// records (200 000 points of three numbers, as objects and as rows). Like the tree families (tree-families.js), the
// work-count guard (test/work-counts.test.js) and the quick benchmark (bench/shapes-quick.js) sweep them, with the
// same member form. Deterministic (mulberry32, never Math.random). Node 14 syntax: the Node 14 run of the guard loads
// this file.
const { mulberry32 } = require('@lab/payloads');

// An SVG path's commands, each followed by coordinates.
const COMMANDS = 'MLHVCSQTAZmlhvcsqtaz';

/** An SVG path element of about `chars` characters: quoted attributes, so its JSON text escapes quotes. */
function svgPath(next, chars) {
  const parts = ['<path fill="currentColor" d="'];
  let length = parts[0].length;
  while (length < chars) {
    const part = `${COMMANDS[next() % COMMANDS.length]}${next() % 24}.${next() % 100} ${next() % 24}.${next() % 100}`;
    parts.push(part);
    length += part.length;
  }
  parts.push('"/>');
  return parts.join('');
}

/**
 * An icon set: {prefix, info, lastModified, icons: {name: {body, [width, height]}}, aliases: {name: {parent}}, width,
 * height}, `count` icons whose bodies are `minChars` to `maxChars` characters (an eighth of them with their own size, as
 * some icon sets have) and an alias for every fourth icon (@iconify-json/mdi has 7638 icons and 6363 aliases).
 */
function iconSet(count, minChars, maxChars, seed) {
  const next = mulberry32(seed);
  const icons = {};
  const aliases = {};
  for (let i = 0; i < count; i++) {
    const body = svgPath(next, minChars + (next() % (maxChars - minChars + 1)));
    const name = `icon-${i.toString(36)}-${next() % 1000}`;
    icons[name] = (next() & 7) === 0 ? { body, width: 24, height: 24 } : { body };
    if (i % 4 === 0) aliases[`${name}-alias`] = { parent: name };
  }
  const info = { name: 'Generated icons', total: count };
  return { prefix: 'generated', info, lastModified: 1700000000, icons, aliases, width: 24, height: 24 };
}

/** `count` points of three numbers: {x, y, z} objects (two of two decimals, one integer), or [x, y, z] rows. */
function points(count, asRows, seed) {
  const next = mulberry32(seed);
  const out = new Array(count);
  for (let i = 0; i < count; i++) {
    const x = (next() % 1000000) / 100;
    const y = (next() % 1000000) / 100;
    const z = next() % 100000;
    out[i] = asRows ? [x, y, z] : { x, y, z };
  }
  return out;
}

const scaled = (count, scale) => Math.max(1, Math.round(count * scale));

/**
 * Every member: {family, name, make()} (tree-families.js' form); scale shrinks the counts (the guard uses a fraction,
 * the benchmark 1: 2-7 MB of JSON each).
 */
function members(scale) {
  const s = scale === undefined ? 1 : scale;
  const icons = 'maps of objects with long strings';
  const records = 'arrays of number records';
  return [
    { family: icons, name: `${icons}, 7000 icons of 200-800 characters`, make: () => iconSet(scaled(7000, s), 200, 800, 61) },
    { family: icons, name: `${icons}, 1500 icons of 1000-4000 characters`, make: () => iconSet(scaled(1500, s), 1000, 4000, 62) },
    { family: records, name: `${records}, 200000 objects {x, y, z}`, make: () => points(scaled(200000, s), false, 63) },
    { family: records, name: `${records}, 200000 rows [x, y, z]`, make: () => points(scaled(200000, s), true, 64) },
  ];
}

module.exports = { members, iconSet, points };
