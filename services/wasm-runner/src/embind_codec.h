// The `embind` approach: no wire format at all. C++ reads the JS value itself through emscripten::val (one call
// into JS per type check, property and item) and builds the JS answer the same way. The wasm-transfer experiment's
// first method.
#pragma once

#include <emscripten/val.h>

#include <string>

#include "value.h"

namespace wasm_runner {

// Reads a JS value into `out`: objects through Object.keys, arrays by index, strings (checked for UTF-8, since a
// lone surrogate comes out of embind's conversion as bytes that are not), and numbers that are integers within
// 2^53 - 1. On failure returns false and says why in `error`: a value the payload spec excludes (boolean, null,
// undefined, float, function, ...), an unsafe integer, a lone surrogate, or nesting past MAX_DEPTH.
[[nodiscard]] bool embind_decode(const emscripten::val& value, Value& out, std::string& error);

// Builds the JS value of `value` with val::object()/val::array() and set(), key order kept.
emscripten::val embind_encode(const Value& value);

}  // namespace wasm_runner
