// The `typed` approach's wire format, the lab's own, built for speed across the JS/WASM boundary: no text to parse
// and no call per value. JS and C++ exchange a tape of int32 words, a table of string lengths, one UTF-8 blob and
// the shapes (objects' key lists). README.md ("The typed layout") gives the exact layout; typed_reader.cpp and
// typed_writer.cpp are the C++ side, lib/transfer/typed-*.js the JS side.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "value.h"

namespace wasm_runner {

// Header words, in this order: a magic number, then where each section lies (absolute byte addresses in WASM
// memory, so the way back can point into C++'s own reused buffers without copying them together).
enum TypedHeader : uint32_t {
  kMagic,          // TYPED_MAGIC
  kTapeAddress,    // the tape: int32 words, 4-aligned
  kTapeWords,
  kStringCount,    // the string table: one int32 per string, its length in UTF-16 code units (JS string length)
  kLengthsAddress,
  kBlobAddress,    // every string's UTF-8 bytes, back to back, in table order
  kBlobBytes,
  kShapesAddress,  // the shapes: per shape two words, its first key's string index and its key count; 4-aligned
  kShapeWords,
  kHeaderWords
};

constexpr uint32_t TYPED_MAGIC = 0x32505954;  // "TYP2" in little-endian bytes

// A node is one word whose low 3 bits are its tag and whose upper 29 bits (read unsigned) its payload, followed by
// the words the tag says.
enum TypedTag : uint32_t {
  kInt32 = 0,       // next word: the integer
  kInt64 = 1,       // next two words: the low 32 bits, then the high 32 bits (two's complement), within 2^53 - 1
  kString = 2,      // payload: index into the string table
  kArray = 3,       // payload: item count; the items follow
  kInt32Array = 4,  // payload: item count; that many int32 words follow (an array of int32 crosses as one run)
  kObject = 5,      // payload: shape index; the values follow, one per key of the shape, in its order
                    // (a shape's keys are consecutive strings of the table)
  kScalar = 6,      // payload: kNull, kFalse or kTrue
  kDouble = 7,      // next two words: the low 32 bits, then the high 32 bits of the IEEE 754 double; only a number
                    // that is not an integer within 2^53 - 1 (those are kInt32 or kInt64)
};
enum TypedScalar : uint32_t { kNull = 0, kFalse = 1, kTrue = 2 };
constexpr uint32_t TYPED_TAG_BITS = 3;
constexpr uint32_t TYPED_MAX_PAYLOAD = (uint32_t(1) << (32 - TYPED_TAG_BITS)) - 1;

// Reads the layout JS wrote at `input` (`size` bytes, the header first) into `out`, reading the sections in place.
// On failure returns false and says why in `error`: a bad magic, tag or header, a section outside the input or
// misaligned, a count past the end of the tape or of the shapes, a string or shape index out of range, string
// lengths that do not match the blob (more, fewer, or ending inside a character), invalid UTF-8, an int64 beyond
// 2^53 - 1, a double that is NaN, infinite or such an integer, a scalar other than null, false and true, nesting past
// MAX_DEPTH, trailing words.
[[nodiscard]] bool typed_decode(const char* input, size_t size, Value& out, std::string& error);

// Writes `value` in the same layout into buffers this codec reuses, objects' key lists interned as shapes (the keys
// of objects alike cross once). Returns the header (kHeaderWords words), valid until the next call.
const uint32_t* typed_encode(const Value& value);

// Free the buffers typed_encode and typed_decode reuse across calls (exchange_buffers.h's release_exchange_memory).
void typed_release_encode_buffers();
void typed_release_decode_buffers();

}  // namespace wasm_runner
