// The `json` approach's wire format: UTF-8 JSON read and written by yyjson.
// A transfer approach is one decode (wire bytes -> Value) and one encode (Value -> wire bytes); msgpack_codec,
// typed_codec and embind_codec are the other pairs.
#pragma once

#include <cstddef>
#include <cstdlib>
#include <memory>
#include <string>

#include "value.h"

namespace wasm_runner {

struct FreeDeleter {
  void operator()(char* bytes) const { std::free(bytes); }
};

// Bytes yyjson allocated with malloc; empty until an encode succeeds.
struct JsonBytes {
  std::unique_ptr<char, FreeDeleter> data;
  size_t size = 0;
};

// Parses `size` bytes of JSON into `out`. On failure returns false and says why in `error`: malformed JSON (yyjson
// also refuses invalid UTF-8 and bytes after the document), a value the payload spec excludes (floats, booleans,
// null), an integer beyond 2^53 - 1, or nesting past MAX_DEPTH (value_limits.h).
[[nodiscard]] bool json_decode(const char* bytes, size_t size, Value& out, std::string& error);

// Writes `value` as compact JSON, keys in the object's order. On failure returns false and says why in `error`.
[[nodiscard]] bool json_encode(const Value& value, JsonBytes& out, std::string& error);

}  // namespace wasm_runner
