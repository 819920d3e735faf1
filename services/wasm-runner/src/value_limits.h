// The limits every reader enforces, whatever its wire format, so that every approach accepts and refuses the same
// values (json's yyjson reader, embind's emscripten::val walk, the msgpack reader, the typed tape reader).
#pragma once

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <string>

#include "value.h"

namespace wasm_runner {

// Deepest nesting of arrays and objects a reader accepts: an integer or a string alone is depth 0, `[]` and `{}` are
// depth 1, `[[]]` depth 2. Every reader and writer recurses once per level, so this bounds their stack use (a few
// hundred bytes a level against Emscripten 3.1.6's 5 MB stack) and that of the JS decoders on the way back. The
// payload spec's deepest case, tree_d6_b4, is 12 levels deep.
constexpr int MAX_DEPTH = 512;

// JS numbers carry integers exactly up to 2^53 - 1 (Number.MAX_SAFE_INTEGER). An integer past it is kept as the
// double nearest to it (what JSON.parse makes of it), never as int64, whose wider range JS could not carry back.
constexpr int64_t MAX_SAFE_INTEGER = (int64_t(1) << 53) - 1;

inline bool is_safe_integer(int64_t value) { return value >= -MAX_SAFE_INTEGER && value <= MAX_SAFE_INTEGER; }

inline std::string too_deep_error() {
  return "nesting deeper than MAX_DEPTH (" + std::to_string(MAX_DEPTH) + " levels of arrays and objects)";
}

// An integer read as such (yyjson's, MessagePack's int 64) as the tree keeps it: past 2^53 - 1, the nearest double.
inline Value integer_value(int64_t number) {
  return is_safe_integer(number) ? Value(number) : Value::number(double(number));
}

// A number that arrived as a double (embind, MessagePack's floats, yyjson's reals, typed's double) as the tree keeps
// it, the same whichever way it crossed: an integer within 2^53 - 1 (-0 too, as 0) as an integer, any other finite
// double as a double. NaN and the infinities, which JSON cannot write, are refused.
inline bool number_value(double number, Value& out, std::string& error) {
  if (!std::isfinite(number)) {
    error = "NaN or an infinity, which JSON has no way to write";
    return false;
  }
  if (std::trunc(number) == number && std::fabs(number) <= double(MAX_SAFE_INTEGER)) {
    out = Value(int64_t(number));
  } else {
    out = Value::number(number);
  }
  return true;
}

}  // namespace wasm_runner
