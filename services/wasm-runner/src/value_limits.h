// The limits every reader enforces, whatever its wire format, so that every approach accepts and refuses the same
// values (json's yyjson reader, embind's emscripten::val walk, the msgpack reader, the typed tape reader).
#pragma once

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <string>

namespace wasm_runner {

// Deepest nesting of arrays and objects a reader accepts: an integer or a string alone is depth 0, `[]` and `{}` are
// depth 1, `[[]]` depth 2. Every reader and writer recurses once per level, so this bounds their stack use (a few
// hundred bytes a level against Emscripten 3.1.6's 5 MB stack) and that of the JS decoders on the way back. The
// payload spec's deepest case, tree_d6_b4, is 12 levels deep.
constexpr int MAX_DEPTH = 512;

// JS numbers carry integers exactly up to 2^53 - 1 (Number.MAX_SAFE_INTEGER): past it a value would not come back
// as the integer that went in, so every reader refuses it instead of int64's wider range.
constexpr int64_t MAX_SAFE_INTEGER = (int64_t(1) << 53) - 1;

inline bool is_safe_integer(int64_t value) { return value >= -MAX_SAFE_INTEGER && value <= MAX_SAFE_INTEGER; }

inline std::string too_deep_error() {
  return "nesting deeper than MAX_DEPTH (" + std::to_string(MAX_DEPTH) + " levels of arrays and objects)";
}

inline std::string unsafe_integer_error(const std::string& digits) {
  return "integer " + digits + " is beyond 2^53 - 1, what a JS number carries exactly";
}

// The same for a number that arrived as a double (embind, MessagePack's float 64): written without a fraction.
inline std::string unsafe_integer_error(double number) {
  char digits[400];
  std::snprintf(digits, sizeof digits, "%.0f", number);
  return unsafe_integer_error(std::string(digits));
}

// A double that is not an integer (a fraction, NaN or an infinity): what every reader calls a floating-point number.
inline bool is_fractional(double number) { return !(std::trunc(number) == number) || std::isinf(number); }

}  // namespace wasm_runner
