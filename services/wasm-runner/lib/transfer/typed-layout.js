'use strict';
// The typed layout's numbers, shared by its encoder (typed-encoder.js) and decoder (typed-decoder.js); README.md
// ("The typed layout") and src/typed_codec.h describe the layout, and the C++ side has the same numbers.
const TAG_BITS = 3;
const TAG_MASK = (1 << TAG_BITS) - 1;
const INT32 = 0;
const INT64 = 1;
const STRING = 2;
const ARRAY = 3;
const INT32_ARRAY = 4;
const OBJECT = 5;
const SCALAR = 6; // payload: NULL, FALSE or TRUE
const DOUBLE = 7; // two words: the low and the high 32 bits of a double that is not an integer within 2^53 - 1
const NULL = 0;
const FALSE = 1;
const TRUE = 2;
const MAX_PAYLOAD = 2 ** (32 - TAG_BITS) - 1;
const MAGIC = 0x32505954; // "TYP2"
const HEADER_WORDS = 9;
const HEADER_BYTES = HEADER_WORDS * 4;
const TWO_32 = 2 ** 32;
// A UTF-16 code unit never needs more than 3 UTF-8 bytes.
const MAX_UTF8_BYTES_PER_UNIT = 3;

// A shape gets compiled code once that many objects used it (compiling costs far more than one object); the caches
// that hold it are emptied when full, so objects of ever new keys can neither fill memory nor each pay a compile.
const COMPILE_AFTER_USES = 16;

module.exports = {
  TAG_BITS, TAG_MASK, INT32, INT64, STRING, ARRAY, INT32_ARRAY, OBJECT, SCALAR, DOUBLE, NULL, FALSE, TRUE, MAX_PAYLOAD, MAGIC, HEADER_WORDS, HEADER_BYTES,
  TWO_32, MAX_UTF8_BYTES_PER_UNIT, COMPILE_AFTER_USES,
};
