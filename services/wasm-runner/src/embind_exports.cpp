// The embind approach's operations, registered on the module with EMSCRIPTEN_BINDINGS (lib/wasm-module.js wraps
// them). Without C++ exceptions a failure cannot throw into JS (val::throw_ would unwind past the destructors of the
// half-built tree), so it returns undefined (or a count of 0) with the reason in wr_last_error(), like exports.cpp.
#include <emscripten/bind.h>

#include <cstdint>
#include <string>

#include "documents.h"
#include "embind_codec.h"
#include "exchange_buffers.h"
#include "payloads.h"
#include "tree_walk.h"

using emscripten::val;
using namespace wasm_runner;

namespace {

val round_trip(val input) {
  drop_tree();
  Value value;
  std::string error;
  if (!embind_decode(input, value, error)) {
    fail_call(error);
    return val::undefined();
  }
  val output = embind_encode(value);
  keep_tree(std::move(value));
  return output;
}

uint32_t count(val input) {
  drop_tree();
  Value value;
  std::string error;
  if (!embind_decode(input, value, error)) return fail_call(error);
  const size_t nodes = count_nodes(value);
  keep_tree(std::move(value));
  return uint32_t(nodes);
}

val create(std::string name, uint32_t seed) {
  drop_tree();
  Value value;
  if (!generate_transfer_case(name, seed, value)) {
    fail_call("unknown transfer case " + name);
    return val::undefined();
  }
  val output = embind_encode(value);
  keep_tree(std::move(value));
  return output;
}

// create on a user's document: a copy of its kept tree (documents.h).
val create_document(uint32_t id) {
  drop_tree();
  const Value* tree = document_tree(id);
  if (tree == nullptr) {
    fail_call("no document tree " + std::to_string(id) + " is loaded");
    return val::undefined();
  }
  Value value = clone(*tree);
  val output = embind_encode(value);
  keep_tree(std::move(value));
  return output;
}

}  // namespace

EMSCRIPTEN_BINDINGS(wasm_runner_embind) {
  emscripten::function("embindRoundTrip", &round_trip);
  emscripten::function("embindCount", &count);
  emscripten::function("embindCreate", &create);
  emscripten::function("embindCreateDocument", &create_document);
}
