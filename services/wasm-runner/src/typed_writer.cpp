// The typed layout's writer (C++ -> JS): the tree into buffers reused across calls, objects' key lists interned as
// shapes; the header it returns points JS at them.
#include <algorithm>
#include <cstring>
#include <vector>

#include "typed_codec.h"
#include "utf8.h"

namespace wasm_runner {
namespace {

bool same_keys(const Object& a, const Object& b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (a[i].key.size() != b[i].key.size() || std::memcmp(a[i].key.data(), b[i].key.data(), a[i].key.size()) != 0) {
      return false;
    }
  }
  return true;
}

// Interns the key lists of the objects of one write: the previous object's list is tried first (objects alike tend
// to come together), then an open-addressing table over all the keys' bytes. The table holds pointers into the tree
// being written, and is emptied between calls by bumping a generation instead of clearing its slots.
class ShapeTable {
 public:
  void clear() {
    used_ = 0;
    last_ = nullptr;
    if (++generation_ == 0) {  // wrapped: old slots could look current
      for (Slot& slot : slots_) slot.generation = 0;
      generation_ = 1;
    }
  }

  // The shape index of `object`'s keys, or `next` after remembering them as that shape.
  uint32_t intern(const Object& object, uint32_t next, bool& added) {
    added = false;
    if (last_ != nullptr && same_keys(*last_, object)) return last_index_;
    if ((used_ + 1) * 2 > slots_.size()) grow();
    const uint32_t h = hash(object);
    const size_t mask = slots_.size() - 1;
    for (size_t at = h & mask;; at = (at + 1) & mask) {
      Slot& slot = slots_[at];
      if (slot.generation != generation_) {
        slot = Slot{&object, h, next, generation_};
        ++used_;
        added = true;
        return remember(object, next);
      }
      if (slot.hash == h && same_keys(*slot.object, object)) return remember(*slot.object, slot.index);
    }
  }

 private:
  struct Slot {
    const Object* object;
    uint32_t hash;
    uint32_t index;
    uint32_t generation;
  };

  uint32_t remember(const Object& object, uint32_t index) {
    last_ = &object;
    last_index_ = index;
    return index;
  }

  static uint32_t hash(const Object& object) {
    uint32_t h = 2166136261u;  // FNV-1a over each key's bytes and a separator: keys are short
    for (const Member& member : object) {
      for (char c : member.key) h = (h ^ uint8_t(c)) * 16777619u;
      h = (h ^ 0xFFu) * 16777619u;
    }
    return h;
  }

  void grow() {
    std::vector<Slot> old(slots_.size() < 64 ? 128 : slots_.size() * 2, Slot{nullptr, 0, 0, 0});
    old.swap(slots_);
    const size_t mask = slots_.size() - 1;
    for (const Slot& slot : old) {
      if (slot.generation != generation_) continue;
      size_t at = slot.hash & mask;
      while (slots_[at].generation == generation_) at = (at + 1) & mask;
      slots_[at] = slot;
    }
  }

  std::vector<Slot> slots_;
  uint32_t generation_ = 1;
  size_t used_ = 0;
  const Object* last_ = nullptr;
  uint32_t last_index_ = 0;
};

// A buffer that only grows, written through a pointer: one capacity check per node instead of one per word or byte
// (std::vector's push_back and insert cost the writer more than its own work).
template <typename T>
class GrowBuffer {
 public:
  void clear() { size_ = 0; }
  size_t size() const { return size_; }
  const T* data() const { return storage_.data(); }

  // Room for `n` more items; returns where they go.
  T* extend(size_t n) {
    if (size_ + n > storage_.size()) storage_.resize(std::max(storage_.size() * 2, size_ + n));
    T* at = storage_.data() + size_;
    size_ += n;
    return at;
  }

 private:
  std::vector<T> storage_;
  size_t size_ = 0;
};

// The way back's buffers, reused across calls: they only grow, so a steady stream of calls allocates nothing here.
struct TapeWriter {
  GrowBuffer<uint32_t> tape;
  GrowBuffer<int32_t> lengths;
  GrowBuffer<char> blob;
  GrowBuffer<uint32_t> shape_words;
  ShapeTable shapes;
  uint32_t shape_count = 0;
  uint32_t header[kHeaderWords];

  void clear() {
    tape.clear();
    lengths.clear();
    blob.clear();
    shape_words.clear();
    shapes.clear();
    shape_count = 0;
  }

  static uint32_t node(uint32_t tag, size_t payload) { return uint32_t(payload) << TYPED_TAG_BITS | tag; }

  static bool is_int32(const Value& value) {
    return value.is_integer() && value.integer() >= INT32_MIN && value.integer() <= INT32_MAX;
  }

  uint32_t add_string(const std::string& text) {
    const uint32_t index = uint32_t(lengths.size());
    *lengths.extend(1) = int32_t(is_ascii(text.data(), text.size()) ? text.size() : utf16_length(text));
    std::memcpy(blob.extend(text.size()), text.data(), text.size());
    return index;
  }

  uint32_t shape_of(const Object& object) {
    bool added;
    const uint32_t index = shapes.intern(object, shape_count, added);
    if (added) {
      ++shape_count;
      uint32_t* words = shape_words.extend(2);
      words[0] = uint32_t(lengths.size());
      words[1] = uint32_t(object.size());
      for (const Member& member : object) add_string(member.key);
    }
    return index;
  }

  // Payloads fit 29 bits: a tree with 2^29 items would not fit the 4 GB of WASM memory.
  void write(const Value& value) {
    if (value.is_integer()) {
      const int64_t number = value.integer();
      if (is_int32(value)) {
        uint32_t* words = tape.extend(2);
        words[0] = kInt32;
        words[1] = uint32_t(number);
      } else {
        uint32_t* words = tape.extend(3);
        words[0] = kInt64;
        words[1] = uint32_t(uint64_t(number));
        words[2] = uint32_t(uint64_t(number) >> 32);
      }
    } else if (value.is_double()) {
      uint64_t bits;
      const double number = value.number();
      std::memcpy(&bits, &number, sizeof bits);
      uint32_t* words = tape.extend(3);
      words[0] = kDouble;
      words[1] = uint32_t(bits);
      words[2] = uint32_t(bits >> 32);
    } else if (value.is_null() || value.is_boolean()) {
      *tape.extend(1) = node(kScalar, value.is_null() ? kNull : value.boolean() ? kTrue : kFalse);
    } else if (value.is_string()) {
      const uint32_t index = add_string(value.string());
      *tape.extend(1) = node(kString, index);
    } else if (value.is_array()) {
      const Array& items = value.array();
      bool run = !items.empty();
      for (const Value& item : items) {
        if (!(run = is_int32(item))) break;
      }
      if (run) {
        uint32_t* words = tape.extend(1 + items.size());
        *words++ = node(kInt32Array, items.size());
        for (const Value& item : items) *words++ = uint32_t(item.integer());
      } else {
        *tape.extend(1) = node(kArray, items.size());
        for (const Value& item : items) write(item);
      }
    } else {
      const Object& object = value.object();
      const uint32_t shape = shape_of(object);
      *tape.extend(1) = node(kObject, shape);
      for (const Member& member : object) write(member.value);
    }
  }
};

uint32_t address_of(const void* p) { return uint32_t(reinterpret_cast<uintptr_t>(p)); }

TapeWriter& tape_writer() {
  static TapeWriter writer;
  return writer;
}

}  // namespace

const uint32_t* typed_encode(const Value& value) {
  TapeWriter& writer = tape_writer();
  writer.clear();
  writer.write(value);
  uint32_t* header = writer.header;
  header[kMagic] = TYPED_MAGIC;
  header[kTapeAddress] = address_of(writer.tape.data());
  header[kTapeWords] = uint32_t(writer.tape.size());
  header[kStringCount] = uint32_t(writer.lengths.size());
  header[kLengthsAddress] = address_of(writer.lengths.data());
  header[kBlobAddress] = address_of(writer.blob.data());
  header[kBlobBytes] = uint32_t(writer.blob.size());
  header[kShapesAddress] = address_of(writer.shape_words.data());
  header[kShapeWords] = uint32_t(writer.shape_words.size());
  return header;
}

void typed_release_encode_buffers() { tape_writer() = TapeWriter{}; }

}  // namespace wasm_runner
