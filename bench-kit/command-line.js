'use strict';
// The benchmarks' command line: `--name N` (a positive integer) and `--name text`, each given at most once, read in
// one place so every benchmark refuses a bad value the same way.

/** The value after `name` in args, or fallback when absent; throws unless it is a positive integer. */
function option(args, name, fallback) {
  const at = args.indexOf(name);
  if (at < 0) return fallback;
  const value = Number(args[at + 1]);
  if (!Number.isSafeInteger(value) || value < 1) throw new Error(`${name} needs a positive integer`);
  return value;
}

/** The text after `name` in args, or fallback when absent; throws when none follows. */
function textOption(args, name, fallback) {
  const at = args.indexOf(name);
  if (at < 0) return fallback;
  const value = args[at + 1];
  if (value === undefined || value.startsWith('--')) throw new Error(`${name} needs a value`);
  return value;
}

module.exports = { option, textOption };
