// The `msgpack` and `msgpackr` approaches' wire format: standard MessagePack, read and written here (the wasm-transfer
// experiment embeds a small reader/writer of its own instead of a library, and so does the lab). Only what the payload
// spec has crosses: maps with string keys, arrays, integers and strings.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "value.h"

namespace wasm_runner {

// Reads exactly `size` bytes of one MessagePack value into `out`. On failure returns false and says why in `error`,
// naming the byte: input cut short, a count past the end of the input, nil/bool/float/bin/ext or the unused 0xc1, a
// map key that is not a string, invalid UTF-8, an integer beyond 2^53 - 1, nesting past MAX_DEPTH, trailing bytes.
// One exception to "no floats": a float 64 that holds an integer within 2^53 - 1 is that integer, because msgpackr
// writes every integer beyond 32 bits as one and would otherwise carry less than the other approaches.
[[nodiscard]] bool msgpack_decode(const char* bytes, size_t size, Value& out, std::string& error);

// Replaces the contents of `out` with `value` in the smallest MessagePack form of each item (as the JS libraries
// write it). Cannot fail: a Value holds nothing MessagePack cannot carry.
void msgpack_encode(const Value& value, std::vector<char>& out);

}  // namespace wasm_runner
