#include "documents.h"

#include <unordered_map>
#include <utility>

#include "json_codec.h"

namespace wasm_runner {
namespace {

std::unordered_map<uint32_t, Value>& trees() {
  static std::unordered_map<uint32_t, Value> kept;
  return kept;
}

uint32_t next_id = 0;

}  // namespace

uint32_t load_document(const char* bytes, size_t size, std::string& error) {
  Value tree;
  if (!json_decode(bytes, size, tree, error)) return 0;
  if (++next_id == 0) ++next_id;  // 0 is the failure code
  trees().emplace(next_id, std::move(tree));
  return next_id;
}

const Value* document_tree(uint32_t id) {
  const auto found = trees().find(id);
  return found == trees().end() ? nullptr : &found->second;
}

void drop_document(uint32_t id) { trees().erase(id); }

}  // namespace wasm_runner
