// The typed layout's reader (JS -> C++): checks every section against the input and every index against its
// section, and builds the Value tree reading the sections in place.
#include <cstring>
#include <vector>

#include "typed_codec.h"
#include "utf8.h"
#include "value_limits.h"

namespace wasm_runner {
namespace {

struct StringRef {
  size_t offset;
  size_t size;
};

// Every read of a word or a byte is checked against the section it belongs to, and every section against the input.
class TapeReader {
 public:
  TapeReader(const char* input, size_t size, std::vector<StringRef>& strings, std::string& error)
      : input_(input), size_(size), strings_(strings), error_(error) {}

  bool read_document(Value& out) {
    if (!read_header() || !split_strings() || !read_shapes()) return false;
    if (!read(out, 0)) return false;
    if (at_ != words_) return fail(std::to_string(words_ - at_) + " words on the tape after the value");
    return true;
  }

 private:
  bool fail(const std::string& what) {
    error_ = "typed: " + what;
    return false;
  }

  bool fail_at(const std::string& what) { return fail(what + " (at tape word " + std::to_string(at_) + ")"); }

  // `bytes` bytes at WASM address `address` must lie inside the input, `alignment`-aligned.
  bool section(uint32_t address, uint64_t bytes, uint32_t alignment, const char* what, const char*& out) {
    const uintptr_t start = reinterpret_cast<uintptr_t>(input_);
    if (address % alignment != 0) return fail(std::string(what) + " at a misaligned address");
    if (address < start || uint64_t(address) - start + bytes > size_) {
      return fail(std::string(what) + " (" + std::to_string(bytes) + " bytes at address " + std::to_string(address) +
                  ") lies outside the " + std::to_string(size_) + " input bytes");
    }
    out = reinterpret_cast<const char*>(uintptr_t(address));
    return true;
  }

  bool read_header() {
    uint32_t header[kHeaderWords];
    if (size_ < sizeof header) return fail("input of " + std::to_string(size_) + " bytes is shorter than the header");
    std::memcpy(header, input_, sizeof header);
    if (header[kMagic] != TYPED_MAGIC) return fail("bad magic number: not a typed layout");
    words_ = header[kTapeWords];
    string_count_ = header[kStringCount];
    blob_bytes_ = header[kBlobBytes];
    shape_words_ = header[kShapeWords];
    const char *tape, *lengths, *shapes;
    if (!section(header[kTapeAddress], uint64_t(words_) * 4, 4, "the tape", tape) ||
        !section(header[kLengthsAddress], uint64_t(string_count_) * 4, 4, "the string table", lengths) ||
        !section(header[kBlobAddress], blob_bytes_, 1, "the string blob", blob_) ||
        !section(header[kShapesAddress], uint64_t(shape_words_) * 4, 4, "the shapes", shapes)) {
      return false;
    }
    tape_ = reinterpret_cast<const uint32_t*>(tape);
    lengths_ = reinterpret_cast<const int32_t*>(lengths);
    shape_section_ = reinterpret_cast<const uint32_t*>(shapes);
    return true;
  }

  // Turns the UTF-16 lengths JS knows into byte ranges of the blob, checking the UTF-8 on the way. An all-ASCII blob
  // (the common case) has one byte per unit: its ranges are the running sums of the lengths.
  bool split_strings() {
    strings_.resize(string_count_);
    if (is_ascii(blob_, blob_bytes_)) {
      uint64_t offset = 0;
      for (size_t i = 0; i < string_count_; ++i) {
        if (lengths_[i] < 0) return fail("string " + std::to_string(i) + " has a negative length");
        strings_[i] = StringRef{size_t(offset), size_t(lengths_[i])};
        offset += uint64_t(lengths_[i]);
      }
      if (offset == blob_bytes_) return true;
      if (offset > blob_bytes_) {
        return fail("the string lengths need " + std::to_string(offset) + " bytes, more than the blob's " +
                    std::to_string(blob_bytes_));
      }
      return fail(std::to_string(blob_bytes_ - offset) + " bytes in the string blob after the last string");
    }
    const uint8_t* blob = reinterpret_cast<const uint8_t*>(blob_);
    size_t offset = 0;
    for (size_t i = 0; i < string_count_; ++i) {
      if (lengths_[i] < 0) return fail("string " + std::to_string(i) + " has a negative length");
      size_t units = size_t(lengths_[i]);
      const size_t start = offset;
      // ASCII first: one byte is one unit.
      const size_t ascii_limit = offset + (units < blob_bytes_ - offset ? units : blob_bytes_ - offset);
      while (offset < ascii_limit && blob[offset] < 0x80) ++offset;
      units -= offset - start;
      while (units > 0) {
        if (offset == blob_bytes_) {
          return fail("the string lengths need more than the blob's " + std::to_string(blob_bytes_) +
                      " bytes (string " + std::to_string(i) + ")");
        }
        uint32_t code;
        const size_t length = utf8_sequence(blob + offset, blob + blob_bytes_, code);
        if (length == 0) {
          return fail("invalid UTF-8 in the string blob at byte " + std::to_string(offset) + " (string " +
                      std::to_string(i) + ")");
        }
        const size_t code_units = code >= 0x10000 ? 2 : 1;
        if (code_units > units) return fail("string " + std::to_string(i) + " ends inside a character");
        units -= code_units;
        offset += length;
      }
      strings_[i] = StringRef{start, offset - start};
    }
    if (offset != blob_bytes_) {
      return fail(std::to_string(blob_bytes_ - offset) + " bytes in the string blob after the last string");
    }
    return true;
  }

  // Checks every shape's keys are strings of the table, so objects need no checks of their own.
  bool read_shapes() {
    if (shape_words_ % 2 != 0) return fail("the shapes section has an odd number of words");
    for (size_t at = 0; at < shape_words_; at += 2) {
      const uint64_t first = shape_section_[at], keys = shape_section_[at + 1];
      if (first + keys > string_count_) {
        return fail("shape " + std::to_string(at / 2) + " has keys " + std::to_string(first) + " to " +
                    std::to_string(first + keys) + ", past the " + std::to_string(string_count_) + " strings");
      }
    }
    return true;
  }

  size_t words_left() const { return words_ - at_; }

  bool depth_allows(int depth) { return depth < MAX_DEPTH || fail_at(too_deep_error()); }

  bool read(Value& out, int depth) {
    if (words_left() == 0) return fail_at("the tape ends where a node should start");
    const uint32_t word = tape_[at_++];
    const uint32_t payload = word >> TYPED_TAG_BITS;
    switch (word & ((1u << TYPED_TAG_BITS) - 1)) {
      case kInt32:
        if (words_left() < 1) return fail_at("the tape ends inside an int32");
        out = Value(int64_t(int32_t(tape_[at_++])));
        return true;
      case kInt64: {
        if (words_left() < 2) return fail_at("the tape ends inside an int64");
        const uint64_t low = tape_[at_], high = tape_[at_ + 1];
        at_ += 2;
        const int64_t number = int64_t((high << 32) | low);
        if (!is_safe_integer(number)) return fail_at("int64 " + std::to_string(number) + " is beyond 2^53 - 1 (a kDouble carries it)");
        out = Value(number);
        return true;
      }
      case kDouble: {
        if (words_left() < 2) return fail_at("the tape ends inside a double");
        const uint64_t bits = uint64_t(tape_[at_]) | (uint64_t(tape_[at_ + 1]) << 32);
        at_ += 2;
        double number;
        std::memcpy(&number, &bits, sizeof number);
        std::string why;
        if (!number_value(number, out, why)) return fail_at(why);
        // One form per value, so that every approach builds the same tree: an integer within 2^53 - 1 is an int node.
        if (out.is_integer()) return fail_at("double " + std::to_string(out.integer()) + " is an integer: kInt32 or kInt64 carries it");
        return true;
      }
      case kScalar:
        if (payload > kTrue) return fail_at("scalar " + std::to_string(payload) + " is none of null, false, true");
        out = payload == kNull ? Value::null() : Value::boolean(payload == kTrue);
        return true;
      case kString: {
        if (payload >= string_count_) {
          return fail_at("string index " + std::to_string(payload) + " out of range (" +
                         std::to_string(string_count_) + " strings)");
        }
        const StringRef& ref = strings_[payload];
        out.make_string().assign(blob_ + ref.offset, ref.size);
        return true;
      }
      case kArray: {
        if (!depth_allows(depth)) return false;
        // Every item takes at least one word: a count past that is refused before anything is allocated for it.
        if (payload > words_left()) return fail_at("an array of " + std::to_string(payload) + " past the end of the tape");
        Array& items = out.make_array();
        items.resize(payload);
        for (Value& item : items) {
          if (!read(item, depth + 1)) return false;
        }
        return true;
      }
      case kInt32Array: {
        if (!depth_allows(depth)) return false;
        if (payload > words_left()) return fail_at("an int32 run of " + std::to_string(payload) + " past the end of the tape");
        Array& items = out.make_array();
        items.reserve(payload);
        const int32_t* run = reinterpret_cast<const int32_t*>(tape_ + at_);
        for (uint32_t k = 0; k < payload; ++k) items.emplace_back(int64_t(run[k]));
        at_ += payload;
        return true;
      }
      case kObject: {
        if (!depth_allows(depth)) return false;
        if (payload >= shape_words_ / 2) {
          return fail_at("shape index " + std::to_string(payload) + " out of range (" +
                         std::to_string(shape_words_ / 2) + " shapes)");
        }
        const uint32_t first_key = shape_section_[2 * payload], keys = shape_section_[2 * payload + 1];
        if (keys > words_left()) return fail_at("an object of " + std::to_string(keys) + " values past the end of the tape");
        Object& members = out.make_object();
        members.resize(keys);
        const StringRef* key = strings_.data() + first_key;
        for (Member& member : members) {
          member.key.assign(blob_ + key->offset, key->size);
          ++key;
          if (!read(member.value, depth + 1)) return false;
        }
        return true;
      }
      default:
        --at_;
        return fail_at("bad tag " + std::to_string(word & 7));
    }
  }

  const char* input_;
  size_t size_;
  std::vector<StringRef>& strings_;
  std::string& error_;
  const uint32_t* tape_ = nullptr;
  size_t words_ = 0;
  size_t at_ = 0;
  const int32_t* lengths_ = nullptr;
  size_t string_count_ = 0;
  const char* blob_ = nullptr;
  size_t blob_bytes_ = 0;
  const uint32_t* shape_section_ = nullptr;
  size_t shape_words_ = 0;
};

std::vector<StringRef>& string_table() {
  static std::vector<StringRef> strings;  // reused: it only grows
  return strings;
}

}  // namespace

bool typed_decode(const char* input, size_t size, Value& out, std::string& error) {
  return TapeReader(input, size, string_table(), error).read_document(out);
}

void typed_release_decode_buffers() { std::vector<StringRef>().swap(string_table()); }

}  // namespace wasm_runner
