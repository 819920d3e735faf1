#include "exchange_buffers.h"

#include <optional>

#include "typed_codec.h"

namespace wasm_runner {
namespace {

std::vector<char>& input() {
  static std::vector<char> buffer;
  return buffer;
}

struct Output {
  JsonBytes owned;
  const char* data = nullptr;
  size_t size = 0;
};

Output& output_slot() {
  static Output output;
  return output;
}

std::optional<Value>& tree_slot() {
  static std::optional<Value> tree;
  return tree;
}

std::string& error_slot() {
  static std::string message;
  return message;
}

}  // namespace

char* reserve_input(size_t size) {
  if (input().size() < size) input().resize(size);
  return input().data();
}

const char* input_data() { return input().data(); }

size_t input_capacity() { return input().size(); }

void set_output(JsonBytes bytes) {
  Output& out = output_slot();
  out.owned = std::move(bytes);
  out.data = out.owned.data.get();
  out.size = out.owned.size;
}

void set_output_view(const char* data, size_t size) {
  Output& out = output_slot();
  out.owned = JsonBytes{};
  out.data = data;
  out.size = size;
}

const char* output_data() { return output_slot().data; }

size_t output_size() { return output_slot().size; }

std::vector<char>& reused_output_buffer() {
  static std::vector<char> buffer;
  return buffer;
}

void keep_tree(Value tree) { tree_slot() = std::move(tree); }

void drop_tree() { tree_slot().reset(); }

const Value* last_tree() { return tree_slot() ? &*tree_slot() : nullptr; }

void release_exchange_memory() {
  drop_tree();
  set_output_view(nullptr, 0);
  std::vector<char>().swap(input());
  std::vector<char>().swap(reused_output_buffer());
  typed_release_encode_buffers();
  typed_release_decode_buffers();
}

void set_error(std::string message) { error_slot() = std::move(message); }

const std::string& last_error() { return error_slot(); }

int fail_call(std::string message) {
  drop_tree();
  set_error(std::move(message));
  return 0;
}

}  // namespace wasm_runner
