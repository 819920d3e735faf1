#include "documents.h"

#include <memory>
#include <unordered_map>
#include <utility>

#include "json_codec.h"
#include "msgpack_codec.h"

namespace wasm_runner {
namespace {

std::unordered_map<uint32_t, Value>& trees() {
  static std::unordered_map<uint32_t, Value> kept;
  return kept;
}

std::unordered_map<uint32_t, std::unique_ptr<MsgpackSteppedDecoder>>& loading() {
  static std::unordered_map<uint32_t, std::unique_ptr<MsgpackSteppedDecoder>> in_progress;
  return in_progress;
}

uint32_t next_id = 0;

uint32_t new_id() {
  if (++next_id == 0) ++next_id;  // 0 is the failure code
  return next_id;
}

}  // namespace

uint32_t load_document(const char* bytes, size_t size, std::string& error) {
  Value tree;
  if (!json_decode(bytes, size, tree, error)) return 0;
  const uint32_t id = new_id();
  trees().emplace(id, std::move(tree));
  return id;
}

uint32_t begin_document(size_t size, std::string& error) {
  auto decoder = std::make_unique<MsgpackSteppedDecoder>();
  if (decoder->reserve(size) == nullptr) {
    error = "out of memory: no room for the document's " + std::to_string(size) + " bytes";
    return 0;
  }
  const uint32_t id = new_id();
  loading().emplace(id, std::move(decoder));
  return id;
}

char* document_buffer(uint32_t id) {
  const auto found = loading().find(id);
  return found == loading().end() ? nullptr : found->second->buffer();
}

Loading continue_document(uint32_t id, size_t max_values, size_t max_bytes, std::string& error) {
  const auto found = loading().find(id);
  if (found == loading().end()) {
    error = "no document " + std::to_string(id) + " is loading";
    return Loading::kFailed;
  }
  MsgpackSteppedDecoder& decoder = *found->second;
  switch (decoder.step(max_values, max_bytes)) {
    case MsgpackSteppedDecoder::Step::kMore:
      return Loading::kMore;
    case MsgpackSteppedDecoder::Step::kDone:
      trees().emplace(id, decoder.take());
      loading().erase(found);
      return Loading::kDone;
    case MsgpackSteppedDecoder::Step::kFailed:
      break;
  }
  error = decoder.error();
  loading().erase(found);
  return Loading::kFailed;
}

const Value* document_tree(uint32_t id) {
  const auto found = trees().find(id);
  return found == trees().end() ? nullptr : &found->second;
}

void drop_document(uint32_t id) {
  trees().erase(id);
  loading().erase(id);
}

}  // namespace wasm_runner
