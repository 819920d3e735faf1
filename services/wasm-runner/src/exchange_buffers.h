// The memory JavaScript and the exports share: one input buffer JS writes into, the bytes of the last output, and
// the message of the last failure. One of each is enough: JS calls the module from one thread, one call at a time.
#pragma once

#include <cstddef>
#include <string>

#include "json_codec.h"

namespace wasm_runner {

// Grows (never shrinks) the input buffer to at least `size` bytes and returns it; reused so that a round trip does
// not pay for an allocation JS would otherwise have to make and free around every call.
char* reserve_input(size_t size);
const char* input_data();

// Replaces the last output; the previous bytes are freed.
void set_output(JsonBytes bytes);
const JsonBytes& output();

void set_error(std::string message);
const std::string& last_error();

}  // namespace wasm_runner
