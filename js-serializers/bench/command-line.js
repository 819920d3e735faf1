'use strict';
// The benchmarks' one numeric option reader (fibers-to-async-table, csv-parsers' csv-bench, node-async's
// document-store-memory): `--name N`, a positive integer.

/** The value after `name` in args, or fallback when absent; throws unless it is a positive integer. */
function option(args, name, fallback) {
  const at = args.indexOf(name);
  if (at < 0) return fallback;
  const value = Number(args[at + 1]);
  if (!Number.isSafeInteger(value) || value < 1) throw new Error(`${name} needs a positive integer`);
  return value;
}

module.exports = { option };
