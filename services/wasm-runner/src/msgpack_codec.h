// The `msgpack` and `msgpackr` approaches' wire format: standard MessagePack, read and written here (the wasm-transfer
// experiment embeds a small reader/writer of its own instead of a library, and so does the lab). Only what the payload
// spec has crosses: maps with string keys, arrays, integers and strings.
#pragma once

#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include "value.h"

namespace wasm_runner {

// Reads exactly `size` bytes of one MessagePack value into `out`. On failure returns false and says why in `error`,
// naming the byte: input cut short, a count past the end of the input, nil/bool/float/bin/ext or the unused 0xc1, a
// map key that is not a string, invalid UTF-8, an integer beyond 2^53 - 1, nesting past MAX_DEPTH, trailing bytes.
// One exception to "no floats": a float 64 that holds an integer within 2^53 - 1 is that integer, because msgpackr
// writes every integer beyond 32 bits as one and would otherwise carry less than the other approaches.
[[nodiscard]] bool msgpack_decode(const char* bytes, size_t size, Value& out, std::string& error);

// msgpack_decode in steps, for a tree too large to build in one call without holding the event loop (a user's
// document loaded for `create`: lib/documents/document-tree.js). The same reader and the same refusals; it reads bytes
// it owns, so calls of other approaches between steps (which reuse the input buffer) leave it alone.
class MsgpackSteppedDecoder {
 public:
  enum class Step { kFailed, kMore, kDone };

  MsgpackSteppedDecoder();
  ~MsgpackSteppedDecoder();
  MsgpackSteppedDecoder(const MsgpackSteppedDecoder&) = delete;
  MsgpackSteppedDecoder& operator=(const MsgpackSteppedDecoder&) = delete;

  // Room for the `size` bytes of one MessagePack value, to be written before the first step; null when memory is
  // short (nothing else is allocated then).
  char* reserve(size_t size);
  // Where reserve() put them.
  char* buffer() const;
  // Reads at most `max_values` more values (a container counts as one, its items as theirs) and about `max_bytes`
  // (a string is read whole); kDone once the value is complete and nothing follows it.
  Step step(size_t max_values, size_t max_bytes);
  const std::string& error() const;
  // The tree, once step() said kDone.
  Value take();

 private:
  struct State;
  std::unique_ptr<State> state_;
};

// Replaces the contents of `out` with `value` in the smallest MessagePack form of each item (as the JS libraries
// write it). Cannot fail: a Value holds nothing MessagePack cannot carry.
void msgpack_encode(const Value& value, std::vector<char>& out);

}  // namespace wasm_runner
