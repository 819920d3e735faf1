// Users' documents as C++ trees, for `create` on a document (the run's "generator" hands out a copy of the tree, as
// payloads.cpp hands out a newly built case). JS loads one when a run on it starts and drops it when the run ends
// (lib/transfer/document-input.js); each run has its own. A tree is read whole from JSON text (load_document: the
// worker that checks an upload, lib/documents/) or step by step from MessagePack (begin_document, then
// continue_document until done: the service's own module, so that loading a large document never holds the event loop
// for longer than a step).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "value.h"

namespace wasm_runner {

// Reads JSON text (yyjson, json_codec's rules) into a kept tree; returns its id (never 0), or 0 with `error`.
uint32_t load_document(const char* bytes, size_t size, std::string& error);

// Starts a tree read from the `size` bytes of one MessagePack value, written to document_buffer(id) before the first
// continue_document; returns its id, or 0 with `error` when memory is short.
uint32_t begin_document(size_t size, std::string& error);
char* document_buffer(uint32_t id);

enum class Loading { kFailed, kMore, kDone };
// Reads at most `max_values` values and about `max_bytes` bytes more (msgpack_codec.h's MsgpackSteppedDecoder); once
// kDone the tree is kept under the id. On kFailed (`error` says why) the id is gone.
Loading continue_document(uint32_t id, size_t max_values, size_t max_bytes, std::string& error);

// The kept tree, or nullptr for an id not loaded (or dropped, or still loading).
const Value* document_tree(uint32_t id);

// Drops a kept tree or one still loading.
void drop_document(uint32_t id);

}  // namespace wasm_runner
