#include "tree_walk.h"

#include <cstdint>
#include <cstring>

#include "sha256.h"

namespace wasm_runner {
namespace {

void put_u64(Sha256& hash, uint64_t number) {
  uint8_t bytes[8];
  for (int i = 0; i < 8; ++i) bytes[i] = uint8_t(number >> (8 * i));
  hash.update(bytes, 8);
}

void put_tag(Sha256& hash, char tag) { hash.update(&tag, 1); }

void put_text(Sha256& hash, const std::string& text) {
  put_u64(hash, text.size());
  hash.update(text.data(), text.size());
}

void walk(Sha256& hash, const Value& value) {
  if (value.is_integer()) {
    put_tag(hash, 'i');
    put_u64(hash, uint64_t(value.integer()));
  } else if (value.is_double()) {
    uint64_t bits;
    const double number = value.number();
    std::memcpy(&bits, &number, sizeof bits);
    put_tag(hash, 'd');
    put_u64(hash, bits);
  } else if (value.is_null()) {
    put_tag(hash, 'n');
  } else if (value.is_boolean()) {
    put_tag(hash, value.boolean() ? 't' : 'f');
  } else if (value.is_string()) {
    put_tag(hash, 's');
    put_text(hash, value.string());
  } else if (value.is_array()) {
    put_tag(hash, 'a');
    put_u64(hash, value.array().size());
    for (const Value& item : value.array()) walk(hash, item);
  } else {
    put_tag(hash, 'o');
    put_u64(hash, value.object().size());
    for (const Member& member : value.object()) {
      put_text(hash, member.key);
      walk(hash, member.value);
    }
  }
}

}  // namespace

size_t count_nodes(const Value& value) {
  size_t count = 1;
  if (value.is_array()) {
    for (const Value& item : value.array()) count += count_nodes(item);
  } else if (value.is_object()) {
    for (const Member& member : value.object()) count += count_nodes(member.value);
  }
  return count;
}

std::string tree_hash(const Value& value) {
  Sha256 hash;
  walk(hash, value);
  return hash.hex_digest();
}

}  // namespace wasm_runner
