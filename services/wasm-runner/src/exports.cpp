// The functions JavaScript calls (lib/wasm-module.js wraps them; embind_exports.cpp has the embind approach's).
// Each one that can fail returns 0 on failure, with the reason in wr_last_error(); outputs are read through
// wr_output_data()/wr_output_size().
#include <emscripten/emscripten.h>
#include <emscripten/version.h>
#include <yyjson.h>

#include <malloc.h>

#include <cstdint>
#include <string>

#include "documents.h"
#include "exchange_buffers.h"
#include "json_codec.h"
#include "msgpack_codec.h"
#include "mulberry32.h"
#include "payloads.h"
#include "tree_walk.h"
#include "typed_codec.h"
#include "value_limits.h"

using namespace wasm_runner;

namespace {

// An approach with a wire format is one decode (the input bytes JS wrote -> Value) and one encode (Value -> the
// output JS reads). The three operations below are the same C++ work for every approach: only these two differ.
using Decode = bool (*)(const char* bytes, size_t size, Value& out, std::string& error);
using Encode = bool (*)(const Value& value, std::string& error);

bool encode_json(const Value& value, std::string& error) {
  JsonBytes bytes;
  if (!json_encode(value, bytes, error)) return false;
  set_output(std::move(bytes));
  return true;
}

bool encode_msgpack(const Value& value, std::string&) {
  std::vector<char>& bytes = reused_output_buffer();
  msgpack_encode(value, bytes);
  set_output_view(bytes.data(), bytes.size());
  return true;
}

// The output is the header: it says where the sections are.
bool encode_typed(const Value& value, std::string&) {
  set_output_view(reinterpret_cast<const char*>(typed_encode(value)), kHeaderWords * sizeof(uint32_t));
  return true;
}

// A size past the reserved input would have the reader look outside it.
bool decode_input(Decode decode, size_t size, Value& out, std::string& error) {
  if (size > input_capacity()) {
    error = "input of " + std::to_string(size) + " bytes is larger than the " + std::to_string(input_capacity()) +
            " bytes reserved";
    return false;
  }
  return decode(input_data(), size, out, error);
}

// Each operation drops the previous tree first and keeps the one it built (exchange_buffers.h says why).
int round_trip(Decode decode, Encode encode, size_t size) {
  drop_tree();
  Value value;
  std::string error;
  if (!decode_input(decode, size, value, error) || !encode(value, error)) return fail_call(error);
  keep_tree(std::move(value));
  return 1;
}

// The node count (at least 1), or 0 on failure.
uint32_t count(Decode decode, size_t size) {
  drop_tree();
  Value value;
  std::string error;
  if (!decode_input(decode, size, value, error)) return fail_call(error);
  const size_t nodes = count_nodes(value);
  keep_tree(std::move(value));
  return uint32_t(nodes);
}

int create(Encode encode, const char* name, uint32_t seed) {
  drop_tree();
  Value value;
  std::string error;
  if (!generate_transfer_case(name, seed, value)) return fail_call(std::string("unknown transfer case ") + name);
  if (!encode(value, error)) return fail_call(error);
  keep_tree(std::move(value));
  return 1;
}

// create on a user's document: a copy of its kept tree (documents.h) in place of a generated one.
int create_document(Encode encode, uint32_t id) {
  drop_tree();
  const Value* tree = document_tree(id);
  if (tree == nullptr) return fail_call("no document tree " + std::to_string(id) + " is loaded");
  Value value = clone(*tree);
  std::string error;
  if (!encode(value, error)) return fail_call(error);
  keep_tree(std::move(value));
  return 1;
}

}  // namespace

extern "C" {

EMSCRIPTEN_KEEPALIVE char* wr_reserve_input(size_t size) { return reserve_input(size); }

EMSCRIPTEN_KEEPALIVE const char* wr_output_data() { return output_data(); }

EMSCRIPTEN_KEEPALIVE size_t wr_output_size() { return output_size(); }

EMSCRIPTEN_KEEPALIVE const char* wr_last_error() { return last_error().c_str(); }

EMSCRIPTEN_KEEPALIVE int wr_max_depth() { return MAX_DEPTH; }

// The versions /info reports, taken from the headers this module was compiled with.
EMSCRIPTEN_KEEPALIVE const char* wr_yyjson_version() { return YYJSON_VERSION_STRING; }

EMSCRIPTEN_KEEPALIVE const char* wr_emscripten_version() {
  static const std::string version = std::to_string(__EMSCRIPTEN_major__) + "." + std::to_string(__EMSCRIPTEN_minor__) +
                                     "." + std::to_string(__EMSCRIPTEN_tiny__);
  return version.c_str();
}

// Writes the first `count` outputs of mulberry32(seed) to `out`, for the tests against vectors.json's `prng`.
EMSCRIPTEN_KEEPALIVE void wr_mulberry32(uint32_t seed, uint32_t count, uint32_t* out) {
  Mulberry32 random(seed);
  for (uint32_t i = 0; i < count; ++i) out[i] = random.next();
}

// Generates a `records` or `objects` document and writes it as JSON into the output.
EMSCRIPTEN_KEEPALIVE int wr_generate_document_json(const char* document, uint32_t seed, uint32_t size) {
  Value value;
  std::string error;
  if (!generate_document(document, seed, size, value)) return fail_call(std::string("unknown document ") + document);
  return encode_json(value, error) ? 1 : fail_call(error);
}

// Generates a transfer case and writes it as JSON into the output.
EMSCRIPTEN_KEEPALIVE int wr_generate_transfer_json(const char* name, uint32_t seed) {
  Value value;
  std::string error;
  if (!generate_transfer_case(name, seed, value)) return fail_call(std::string("unknown transfer case ") + name);
  return encode_json(value, error) ? 1 : fail_call(error);
}

// The transfer approaches' operations. round_trip: the first `size` input bytes -> Value -> the output; count: the
// input -> Value -> its node count; create: the spec's generator -> Value -> the output.
EMSCRIPTEN_KEEPALIVE int wr_json_round_trip(size_t size) { return round_trip(json_decode, encode_json, size); }
EMSCRIPTEN_KEEPALIVE uint32_t wr_json_count(size_t size) { return count(json_decode, size); }
EMSCRIPTEN_KEEPALIVE int wr_json_create(const char* name, uint32_t seed) { return create(encode_json, name, seed); }

EMSCRIPTEN_KEEPALIVE int wr_msgpack_round_trip(size_t size) { return round_trip(msgpack_decode, encode_msgpack, size); }
EMSCRIPTEN_KEEPALIVE uint32_t wr_msgpack_count(size_t size) { return count(msgpack_decode, size); }
EMSCRIPTEN_KEEPALIVE int wr_msgpack_create(const char* name, uint32_t seed) { return create(encode_msgpack, name, seed); }

EMSCRIPTEN_KEEPALIVE int wr_typed_round_trip(size_t size) { return round_trip(typed_decode, encode_typed, size); }
EMSCRIPTEN_KEEPALIVE uint32_t wr_typed_count(size_t size) { return count(typed_decode, size); }
EMSCRIPTEN_KEEPALIVE int wr_typed_create(const char* name, uint32_t seed) { return create(encode_typed, name, seed); }

// The worker approach's round trip (lib/transfer/worker-approach.js): JSON text in, the typed layout out. Its count
// is json's and its create typed's: only the round trip mixes the two.
EMSCRIPTEN_KEEPALIVE int wr_json_typed_round_trip(size_t size) { return round_trip(json_decode, encode_typed, size); }

// create on a user's document loaded with wr_document_load.
EMSCRIPTEN_KEEPALIVE int wr_json_create_document(uint32_t id) { return create_document(encode_json, id); }
EMSCRIPTEN_KEEPALIVE int wr_msgpack_create_document(uint32_t id) { return create_document(encode_msgpack, id); }
EMSCRIPTEN_KEEPALIVE int wr_typed_create_document(uint32_t id) { return create_document(encode_typed, id); }

// Users' documents (documents.h): the first `size` input bytes, JSON text, read into a kept tree; its id, or 0.
EMSCRIPTEN_KEEPALIVE uint32_t wr_document_load(size_t size) {
  std::string error;
  if (size > input_capacity()) return fail_call("input larger than the bytes reserved");
  const uint32_t id = load_document(input_data(), size, error);
  return id == 0 ? fail_call(error) : id;
}

// The same tree read step by step from MessagePack (documents.h): begin reserves room for `size` bytes, which JS writes
// at wr_document_buffer(id); each continue reads at most `max_values` values and about `max_bytes` bytes. They return
// 0 on failure (the id is then gone), and continue 1 while there is more to read, 2 once the tree is kept.
EMSCRIPTEN_KEEPALIVE uint32_t wr_document_begin(size_t size) {
  std::string error;
  const uint32_t id = begin_document(size, error);
  if (id == 0) set_error(error);
  return id;
}

EMSCRIPTEN_KEEPALIVE char* wr_document_buffer(uint32_t id) { return document_buffer(id); }

EMSCRIPTEN_KEEPALIVE int wr_document_continue(uint32_t id, size_t max_values, size_t max_bytes) {
  std::string error;
  switch (continue_document(id, max_values, max_bytes, error)) {
    case Loading::kMore:
      return 1;
    case Loading::kDone:
      return 2;
    case Loading::kFailed:
      break;
  }
  set_error(error);
  return 0;
}

// A kept tree as MessagePack in the output: what the worker that read it from JSON hands the service's module.
EMSCRIPTEN_KEEPALIVE int wr_document_msgpack(uint32_t id) {
  const Value* tree = document_tree(id);
  if (tree == nullptr) {
    set_error("no document tree " + std::to_string(id) + " is loaded");
    return 0;
  }
  std::string error;
  return encode_msgpack(*tree, error) ? 1 : 0;
}

EMSCRIPTEN_KEEPALIVE void wr_document_drop(uint32_t id) { drop_document(id); }

// Memory (lib/documents/memory-model.js): what malloc holds now, the most it ever took from the linear memory (its
// footprint's high-water mark: what a run's peak is measured by), and the most the linear memory may grow to
// (CMakeLists.txt). wr_release_memory gives the exchange buffers back (exchange_buffers.h).
EMSCRIPTEN_KEEPALIVE size_t wr_memory_in_use() { return mallinfo().uordblks; }
EMSCRIPTEN_KEEPALIVE size_t wr_memory_peak() { return mallinfo().usmblks; }
EMSCRIPTEN_KEEPALIVE double wr_maximum_memory() { return double(WR_MAXIMUM_MEMORY); }
EMSCRIPTEN_KEEPALIVE void wr_release_memory() { release_exchange_memory(); }

// The hash of a kept document's tree (tree_walk.h), or null for an id not loaded.
EMSCRIPTEN_KEEPALIVE const char* wr_document_tree_hash(uint32_t id) {
  static std::string hex;
  const Value* tree = document_tree(id);
  if (tree == nullptr) {
    set_error("no document tree " + std::to_string(id) + " is loaded");
    return nullptr;
  }
  hex = tree_hash(*tree);
  return hex.c_str();
}

// Validation, outside the timed operations: the hash of the tree the last operation built (null after a failure),
// and that of the tree the generator builds for (name, seed) (null for an unknown case).
EMSCRIPTEN_KEEPALIVE const char* wr_tree_hash() {
  static std::string hex;
  const Value* tree = last_tree();
  if (tree == nullptr) return nullptr;
  hex = tree_hash(*tree);
  return hex.c_str();
}

EMSCRIPTEN_KEEPALIVE const char* wr_reference_tree_hash(const char* name, uint32_t seed) {
  static std::string hex;
  Value value;
  if (!generate_transfer_case(name, seed, value)) {
    set_error(std::string("unknown transfer case ") + name);
    return nullptr;
  }
  hex = tree_hash(value);
  return hex.c_str();
}

}  // extern "C"
