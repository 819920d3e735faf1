// Walks over a built Value tree: the `count` operation of every approach (the wasm-transfer experiment's "traversing
// nested tree structures"), and the hash that validates a tree whichever approach built it.
#pragma once

#include <cstddef>
#include <string>

#include "value.h"

namespace wasm_runner {

// Every Value is a node (object, array, string, integer); an object's member keys are not.
size_t count_nodes(const Value& value);

// sha256 (hex) over a canonical walk: a tag byte per node ('o' object, 'a' array, 's' string, 'i' integer), then
// for an object its member count and per member the key's byte length, its bytes and the value; for an array its
// count and items; for a string its byte length and UTF-8 bytes; for an integer its 8 bytes. Counts and lengths are
// 8-byte little-endian. The same tree gives the same hash whatever approach built it.
std::string tree_hash(const Value& value);

}  // namespace wasm_runner
