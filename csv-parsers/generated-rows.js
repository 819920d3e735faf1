'use strict';
// The rows of the test document, drawn from a seeded PRNG: a header and records of eight columns shaped like an
// export of customer notes, about 108 UTF-8 bytes each (async-char-streams' 5.4 MB over 50 002 rows). The mix puts
// every case a CSV parser must get right into the default document many times over: quoted fields holding commas,
// doubled quotes, `\n` and `\r\n`; empty fields; non-ASCII text, astral characters (surrogate pairs) included.

const { mulberry32 } = require('@lab/payloads');

const HEADER = ['id', 'name', 'email', 'city', 'amount', 'date', 'status', 'note'];

const FIRST = ['Ana', 'Ben', 'Chloé', 'Dmitri', 'Emma', 'Fatima', 'György', 'Hana', 'Ivan', 'Jürgen', 'Kai', 'Lena', 'Marek', 'Nils', 'Olga', 'Pedro', 'Zoë', '王芳'];
const LAST = ['Smith', 'Müller', 'García', 'Nowak', 'Rossi', 'Dubois', 'Jensen', 'Kowalski', 'Øvergaard', 'Tanaka', 'Brown', 'Silva', 'Łukasik', '李'];
const CITIES = ['Berlin', 'Paris', 'Oslo', 'Madrid', 'São Paulo', 'Zürich', 'Kraków', 'Reykjavík', '東京', 'Austin', 'Lyon', 'Washington, D.C.', 'Porto'];
const STATUSES = ['active', 'pending', 'closed', 'on hold', 'review'];
const WORDS = ['order', 'shipped', 'late', 'call', 'back', 'invoice', 'paid', 'refund', 'box', 'damaged', 'address', 'changed', 'the', 'customer', 'asked', 'for', 'a', 'new', 'quote', 'next', 'week', 'ok'];
const NON_ASCII = ['café', 'naïve', 'déjà vu', 'Straße', 'привет', 'こんにちは', '😀', '🚀', '𝄞', '👍🏽'];

/** Floats in [0, 1) from payloads' mulberry32: the same seed gives the same document on every run and runtime. */
function seededRandom(seed) {
  const next = mulberry32(seed);
  return () => next() / 4294967296;
}

/** random: a seededRandom. Returns row(id) -> string[] for data row number id (1-based). */
function createRowGenerator(random) {
  const pick = (list) => list[Math.floor(random() * list.length)];
  const words = (count) => Array.from({ length: count }, () => pick(WORDS)).join(' ');

  function note() {
    const roll = random();
    if (roll < 0.06) return '';
    if (roll < 0.14) return `${words(2)}, ${words(3)}`;
    if (roll < 0.17) return `she said "${words(2)}" twice`;
    if (roll < 0.19) return `${words(3)}\n${words(2)}`;
    if (roll < 0.2) return `${words(2)}\r\n${words(3)}`;
    if (roll < 0.26) return `${words(2)} ${pick(NON_ASCII)} ${words(1)}`;
    return words(2 + Math.floor(random() * 9));
  }

  return function row(id) {
    const first = pick(FIRST);
    const last = pick(LAST);
    const day = 1 + Math.floor(random() * 28);
    return [
      String(id),
      `${first} ${last}`,
      `${pick(WORDS)}.${id}@example.com`,
      pick(CITIES),
      random() < 0.05 ? '' : (random() * 10000).toFixed(2),
      `2024-${String(1 + (id % 12)).padStart(2, '0')}-${String(day).padStart(2, '0')}`,
      pick(STATUSES),
      note(),
    ];
  };
}

module.exports = { HEADER, seededRandom, createRowGenerator };
