// Users' documents as C++ trees, for `create` on a document (the run's "generator" hands out a copy of the tree, as
// payloads.cpp hands out a newly built case). JS loads one when a run on it starts and drops it when the run ends
// (lib/documents/document-trees.js); runs in flight together on one document share it. Bounded by the service's
// store of texts: a tree is loaded only for a run, which holds its document.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "value.h"

namespace wasm_runner {

// Reads JSON text (yyjson, json_codec's rules) into a kept tree; returns its id (never 0), or 0 with `error`.
uint32_t load_document(const char* bytes, size_t size, std::string& error);

// The kept tree, or nullptr for an id not loaded (or dropped).
const Value* document_tree(uint32_t id);

void drop_document(uint32_t id);

}  // namespace wasm_runner
