'use strict';
// Generated trees, one family per (container kind, leaf size): balanced trees whose inner nodes are objects (children
// under keys, beside an id and a label) or arrays (children as elements), with small leaves (a few scalars) or large
// ones (a 1000-character string), swept over branching 2 to 600 and a few depths. A tree of small containers is where
// fast decides, node by node, between walking a container itself and handing its subtree to native: the work-count
// guard (test/work-counts.test.js) and the quick benchmark (bench/shapes-quick.js) both sweep these families, so that
// a regression in that decision shows as work per node in `make test` and as a ratio to native in the benchmark.
// Deterministic (mulberry32, never Math.random). Node 14 syntax: the Node 14 run of the guard loads this file.
const { mulberry32 } = require('@lab/payloads');

const KINDS = ['objects', 'arrays'];
const LEAVES = ['small', 'large'];
const BRANCHINGS = [2, 3, 4, 8, 16, 64, 600];
const LARGE_LEAF_CHARS = 1000;
// Leaves a member has about (at most this many, at least one level below the root), by leaf size: 1-5 MB of JSON at
// scale 1.
const TARGET_LEAVES = { small: 60000, large: 2500 };
const PLAIN = 'abcdefghijklmnopqrstuvwxyz ABCDEFGHIJKLMNOPQRSTUVWXYZ 0123456789';

function leafOf(kind, size, id, next) {
  if (size === 'small') {
    const weight = next() / 4294967296;
    return kind === 'objects' ? { id, name: `leaf ${id}`, weight } : [id, `leaf ${id}`, weight];
  }
  let text = '';
  const start = next() % PLAIN.length;
  while (text.length < LARGE_LEAF_CHARS) text += PLAIN.slice(start) + PLAIN.slice(0, start);
  text = `${id} ${text.slice(0, LARGE_LEAF_CHARS)}`;
  return kind === 'objects' ? { id, text } : [id, text];
}

/** A balanced tree: `depth` levels of inner nodes with `branching` children each above the leaves. */
function tree(kind, leaf, branching, depth, seed) {
  const next = mulberry32(seed);
  let id = 0;
  const node = (below) => {
    const own = id++;
    if (below === 0) return leafOf(kind, leaf, own, next);
    if (kind === 'arrays') {
      const out = new Array(branching);
      for (let i = 0; i < branching; i++) out[i] = node(below - 1);
      return out;
    }
    const out = { id: own, label: `node ${own}` };
    for (let i = 0; i < branching; i++) out[`c${i}`] = node(below - 1);
    return out;
  };
  return node(depth);
}

/**
 * The depths a family sweeps for one branching: the one whose leaves come nearest the target (at most 6 times it, so
 * that branching 600 gets its two levels), and about half of it.
 */
function depthsFor(branching, leaf, scale) {
  const target = Math.max(branching, TARGET_LEAVES[leaf] * scale);
  let deepest = Math.max(1, Math.round(Math.log(target) / Math.log(branching)));
  if (deepest > 1 && branching ** deepest > 6 * target) deepest--;
  const half = Math.max(1, Math.round(deepest / 2));
  return half === deepest ? [deepest] : [deepest, half];
}

/**
 * Every member: {family: 'objects, small leaves', name, make()}; scale shrinks the target number of leaves (the guard
 * uses a fraction, the benchmark 1).
 */
function members(scale) {
  const s = scale === undefined ? 1 : scale;
  const list = [];
  for (const kind of KINDS) {
    for (const leaf of LEAVES) {
      const family = `${kind}, ${leaf} leaves`;
      for (const branching of BRANCHINGS) {
        for (const depth of depthsFor(branching, leaf, s)) {
          const name = `${family}, branching ${branching}, depth ${depth}`;
          list.push({ family, name, branching, depth, make: () => tree(kind, leaf, branching, depth, branching * 100 + depth) });
        }
      }
    }
  }
  return list;
}

/** The members whose name contains `filter` (all for ''); throws, naming the families, when none does. */
function membersMatching(filter, scale) {
  const found = members(scale).filter((member) => member.name.includes(filter));
  if (found.length === 0) {
    const families = Array.from(new Set(members(scale).map((member) => member.family)));
    throw new Error(`no tree family member's name contains "${filter}"; the families: ${families.join('; ')} ` +
      `(a name: "${members(scale)[0].name}")`);
  }
  return found;
}

/** The member of this exact name at this scale (the benchmark's children rebuild it by name); throws when none is. */
function memberNamed(name, scale) {
  const member = members(scale).find((m) => m.name === name);
  if (!member) throw new Error(`no tree family member is named "${name}" at scale ${scale}`);
  return member;
}

module.exports = { members, membersMatching, memberNamed, tree, KINDS, LEAVES, BRANCHINGS };
