// The memory JavaScript and the exports share: one input buffer JS writes into, the bytes of the last output, the
// tree the last call built, and the message of the last failure. One of each is enough: JS calls the module from one
// thread, one call at a time.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "json_codec.h"
#include "value.h"

namespace wasm_runner {

// Grows (never shrinks) the input buffer to at least `size` bytes and returns it; reused so that a call does not pay
// for an allocation JS would otherwise have to make and free around it. malloc's alignment (8) suits the typed
// approach's int32 words.
char* reserve_input(size_t size);
const char* input_data();
size_t input_capacity();

// The last output JS reads: either bytes yyjson allocated (json; freed when replaced), or a view of bytes a codec
// keeps in its own reused buffers (valid until that codec writes again).
void set_output(JsonBytes bytes);
void set_output_view(const char* data, size_t size);
const char* output_data();
size_t output_size();

// The buffer msgpack's writer reuses across calls, so a call pays for no allocation once it has grown.
std::vector<char>& reused_output_buffer();

// The tree the last successful call built (the decoded input, or the generated value of a `create`), kept so that
// hashing it for validation is a separate, untimed call. Every call drops the previous tree first, so a failed call
// leaves none: a stale tree can never validate a failure.
void keep_tree(Value tree);
void drop_tree();
const Value* last_tree();

void set_error(std::string message);
const std::string& last_error();

// Gives back every buffer above: the tree, the output (and the bytes it points into: msgpack's and the typed
// writer's reused buffers), the input buffer and the typed reader's string table. The module is then as it was
// before its first call but for the documents it keeps (documents.h): a run on a large document, or a failed call,
// leaves nothing behind that the next call would have to fit beside. A call after it grows them again.
void release_exchange_memory();

// Records a failed call: its message for wr_last_error(), and no tree. Returns 0, the exports' failure code.
int fail_call(std::string message);

}  // namespace wasm_runner
