#include "exchange_buffers.h"

#include <vector>

namespace wasm_runner {
namespace {

std::vector<char>& input() {
  static std::vector<char> buffer;
  return buffer;
}

JsonBytes& output_slot() {
  static JsonBytes bytes;
  return bytes;
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

void set_output(JsonBytes bytes) { output_slot() = std::move(bytes); }

const JsonBytes& output() { return output_slot(); }

void set_error(std::string message) { error_slot() = std::move(message); }

const std::string& last_error() { return error_slot(); }

}  // namespace wasm_runner
