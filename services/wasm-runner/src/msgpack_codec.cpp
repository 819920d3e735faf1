#include "msgpack_codec.h"

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <memory>

#include "utf8.h"
#include "value_limits.h"

namespace wasm_runner {
namespace {

// A bounds-checked cursor over the input: every read first checks that the bytes are there.
// A container read_head opened, and its item count: its items (or members) are in place, each still to be read, or
// (a Reader that only reserves) room is reserved for them.
struct Opened {
  Array* items = nullptr;
  Object* members = nullptr;
  size_t count = 0;
};

class Reader {
 public:
  // reserve_only: a container's items are not made when it is opened, only room for them (SteppedDecoder adds each as
  // it reads it: making 16 million items at once is a quarter of a second in one step).
  Reader(const char* bytes, size_t size, std::string& error, bool reserve_only = false)
      : start_(reinterpret_cast<const uint8_t*>(bytes)), at_(start_), end_(start_ + size), error_(error),
        reserve_only_(reserve_only) {}

  bool read_document(Value& out) { return read(out, 0) && at_end(); }

  bool at_end() { return at_ == end_ || fail(std::to_string(end_ - at_) + " bytes after the value"); }

  size_t offset() const { return size_t(at_ - start_); }

  // One value into `out`: a scalar or a string whole; an array or a map as its container, sized, with `opened`
  // pointing at its items to read next (by read, or by SteppedDecoder one at a time). `depth` is out's.
  bool read_head(Value& out, int depth, Opened& opened) {
    if (!need(1, "a value")) return false;
    const uint8_t tag = *at_++;
    size_t count;
    if (tag <= 0x7F) return integer(tag, out);
    if (tag >= 0xE0) return integer(int8_t(tag), out);
    if (tag <= 0x8F) return map(tag & 0x0F, out, depth, opened);
    if (tag <= 0x9F) return array(tag & 0x0F, out, depth, opened);
    if (tag <= 0xBF) return string(tag & 0x1F, out.make_string());
    switch (tag) {
      case 0xCC:
      case 0xCD:
      case 0xCE:
      case 0xCF: {
        const size_t bytes = size_t(1) << (tag - 0xCC);
        if (!need(bytes, "an unsigned integer")) return false;
        const uint64_t number = big_endian(bytes);
        if (number > uint64_t(MAX_SAFE_INTEGER)) {
          out = Value::number(double(number));
          return true;
        }
        return integer(int64_t(number), out);
      }
      case 0xD0:
      case 0xD1:
      case 0xD2:
      case 0xD3: {
        const size_t bytes = size_t(1) << (tag - 0xD0);
        if (!need(bytes, "a signed integer")) return false;
        // Sign-extend from the top bit of the `bytes`-wide number.
        const uint64_t raw = big_endian(bytes);
        const unsigned shift = unsigned(64 - 8 * bytes);
        return integer(int64_t(raw << shift) >> shift, out);
      }
      case 0xD9:
      case 0xDA:
      case 0xDB:
        return length(size_t(1) << (tag - 0xD9), "a string length", count) && string(count, out.make_string());
      case 0xDC:
      case 0xDD:
        return length(size_t(2) << (tag - 0xDC), "an array length", count) && array(count, out, depth, opened);
      case 0xDE:
      case 0xDF:
        return length(size_t(2) << (tag - 0xDE), "a map length", count) && map(count, out, depth, opened);
      case 0xCB:
        return floating(8, out);
      case 0xCA:
        return floating(4, out);
      case 0xC0:
        out = Value::null();
        return true;
      case 0xC2:
      case 0xC3:
        out = Value::boolean(tag == 0xC3);
        return true;
      case 0xC4:
      case 0xC5:
      case 0xC6:
        return refuse("a bin", tag);
      case 0xC1:
        return refuse("the never-used type byte", tag);
      default:  // 0xC7-0xC9 ext 8/16/32, 0xD4-0xD8 fixext
        return refuse("an ext", tag);
    }
  }

  // A string header (fixstr, str 8/16/32) and its bytes: the only thing a map key may be.
  bool key(std::string& out) {
    if (!need(1, "a map key")) return false;
    const uint8_t tag = *at_;
    size_t size;
    if ((tag & 0xE0) == 0xA0) {
      ++at_;
      return string(tag & 0x1F, out);
    }
    if (tag < 0xD9 || tag > 0xDB) return fail("a map key that is not a string (type byte 0x" + hex(tag) + ")");
    ++at_;
    return length(size_t(1) << (tag - 0xD9), "a string length", size) && string(size, out);
  }

 private:
  // A whole value, its items read recursively (once per level: MAX_DEPTH bounds it).
  bool read(Value& out, int depth) {
    Opened opened;
    if (!read_head(out, depth, opened)) return false;
    if (opened.items) {
      for (Value& item : *opened.items) {
        if (!read(item, depth + 1)) return false;
      }
    } else if (opened.members) {
      for (Member& member : *opened.members) {
        if (!key(member.key) || !read(member.value, depth + 1)) return false;
      }
    }
    return true;
  }
  size_t left() const { return size_t(end_ - at_); }

  bool fail(const std::string& what) {
    error_ = "msgpack: " + what + " (at byte " + std::to_string(offset()) + ")";
    return false;
  }

  bool need(size_t bytes, const char* what) {
    if (left() >= bytes) return true;
    return fail(std::string("input cut short in ") + what + ": needs " + std::to_string(bytes) + " bytes, " +
                std::to_string(left()) + " left");
  }

  // Big-endian unsigned integer of `bytes` bytes; the caller checked they are there.
  uint64_t big_endian(size_t bytes) {
    uint64_t number = 0;
    for (size_t k = 0; k < bytes; ++k) number = (number << 8) | at_[k];
    at_ += bytes;
    return number;
  }

  bool length(size_t bytes, const char* what, size_t& out) {
    if (!need(bytes, what)) return false;
    out = size_t(big_endian(bytes));
    return true;
  }

  bool integer(int64_t number, Value& out) {
    out = integer_value(number);
    return true;
  }

  bool string(size_t size, std::string& out) {
    if (!need(size, "a string")) return false;
    const char* bytes = reinterpret_cast<const char*>(at_);
    std::string why;
    if (utf8_error(bytes, size, "a string", why)) return fail(why);
    out.assign(bytes, size);
    at_ += size;
    return true;
  }

  bool array(size_t count, Value& out, int depth, Opened& opened) {
    if (depth == MAX_DEPTH) return fail(too_deep_error());
    // Every item takes at least one byte: a count past that is refused before anything is allocated for it.
    if (count > left()) return fail("array of " + std::to_string(count) + " items past the end of the input");
    opened.items = &out.make_array();
    opened.count = count;
    if (reserve_only_) {
      opened.items->reserve(count);
    } else {
      opened.items->resize(count);
    }
    return true;
  }

  bool map(size_t count, Value& out, int depth, Opened& opened) {
    if (depth == MAX_DEPTH) return fail(too_deep_error());
    if (count > left() / 2) return fail("map of " + std::to_string(count) + " entries past the end of the input");
    opened.members = &out.make_object();
    opened.count = count;
    if (reserve_only_) {
      opened.members->reserve(count);
    } else {
      opened.members->resize(count);
    }
    return true;
  }

  // float 64, and float 32 (exact as a double; neither JS encoder writes one by default): number_value's rules.
  bool floating(size_t bytes, Value& out) {
    if (!need(bytes, bytes == 8 ? "a float 64" : "a float 32")) return false;
    const uint64_t bits = big_endian(bytes);
    double number;
    if (bytes == 8) {
      std::memcpy(&number, &bits, sizeof number);
    } else {
      const uint32_t narrow = uint32_t(bits);
      float single;
      std::memcpy(&single, &narrow, sizeof single);
      number = single;
    }
    std::string why;
    return number_value(number, out, why) || fail(why);
  }

  static std::string hex(uint8_t byte) {
    static constexpr char kHex[] = "0123456789abcdef";
    return std::string{kHex[byte >> 4], kHex[byte & 0xF]};
  }

  bool refuse(const char* what, uint8_t tag) {
    --at_;  // name the type byte itself
    return fail(std::string(what) + " (type byte 0x" + hex(tag) +
                "): JSON has maps with string keys, arrays, numbers, strings, booleans and nil only");
  }

  const uint8_t* start_;
  const uint8_t* at_;
  const uint8_t* end_;
  std::string& error_;
  bool reserve_only_;
};

class Writer {
 public:
  explicit Writer(std::vector<char>& out) : out_(out) {}

  void write(const Value& value) {
    if (value.is_integer()) {
      integer(value.integer());
    } else if (value.is_double()) {
      uint64_t bits;
      const double number = value.number();
      std::memcpy(&bits, &number, sizeof bits);
      big_endian(0xCB, bits, 8);
    } else if (value.is_null()) {
      byte(0xC0);
    } else if (value.is_boolean()) {
      byte(value.boolean() ? 0xC3 : 0xC2);
    } else if (value.is_string()) {
      text(value.string());
    } else if (value.is_array()) {
      header(value.array().size(), 0x90, 0xDC);
      for (const Value& item : value.array()) write(item);
    } else {
      header(value.object().size(), 0x80, 0xDE);
      for (const Member& member : value.object()) {
        text(member.key);
        write(member.value);
      }
    }
  }

 private:
  void byte(uint8_t b) { out_.push_back(char(b)); }

  void big_endian(uint8_t tag, uint64_t number, size_t bytes) {
    byte(tag);
    for (size_t k = bytes; k-- > 0;) byte(uint8_t(number >> (8 * k)));
  }

  void integer(int64_t n) {
    if (n >= 0) {
      if (n < 0x80) return byte(uint8_t(n));
      if (n < 0x100) return big_endian(0xCC, uint64_t(n), 1);
      if (n < 0x10000) return big_endian(0xCD, uint64_t(n), 2);
      if (n < 0x100000000) return big_endian(0xCE, uint64_t(n), 4);
      return big_endian(0xCF, uint64_t(n), 8);
    }
    if (n >= -32) return byte(uint8_t(n));
    if (n >= -0x80) return big_endian(0xD0, uint64_t(n), 1);
    if (n >= -0x8000) return big_endian(0xD1, uint64_t(n), 2);
    if (n >= -0x80000000LL) return big_endian(0xD2, uint64_t(n), 4);
    big_endian(0xD3, uint64_t(n), 8);
  }

  void text(const std::string& s) {
    const size_t n = s.size();
    if (n < 32) {
      byte(uint8_t(0xA0 | n));
    } else if (n < 0x100) {
      big_endian(0xD9, n, 1);
    } else if (n < 0x10000) {
      big_endian(0xDA, n, 2);
    } else {
      big_endian(0xDB, n, 4);
    }
    out_.insert(out_.end(), s.begin(), s.end());
  }

  // fix form below 16, else the 16-bit form (`wide`) or the 32-bit one (`wide + 1`).
  void header(size_t n, uint8_t fix, uint8_t wide) {
    if (n < 16) return byte(uint8_t(fix | n));
    if (n < 0x10000) return big_endian(wide, n, 2);
    big_endian(uint8_t(wide + 1), n, 4);
  }

  std::vector<char>& out_;
};

}  // namespace

// The reader's state between steps: the bytes it owns, the tree so far, and the containers still being filled.
struct MsgpackSteppedDecoder::State {
  struct Frame {
    Opened opened;
    size_t next = 0;
  };

  explicit State(char* owned, size_t size) : bytes(owned), reader(owned, size, error, true) {}
  ~State() { std::free(bytes); }

  char* bytes;
  std::string error;
  Reader reader;
  Value root;
  bool started = false;
  std::vector<Frame> open;  // at most MAX_DEPTH deep: read_head refuses deeper

  // The slot the next value goes into (after its key, for a member), or null when the tree is complete. False when
  // a key cannot be read.
  bool next_slot(Value*& slot) {
    if (!started) {
      started = true;
      slot = &root;
      return true;
    }
    while (!open.empty() && open.back().next == open.back().opened.count) open.pop_back();
    if (open.empty()) {
      slot = nullptr;
      return true;
    }
    Frame& top = open.back();
    ++top.next;
    // Within the room reserved: never a reallocation, so the frames' pointers into the tree stay valid.
    if (top.opened.items) {
      slot = &top.opened.items->emplace_back();
      return true;
    }
    Member& member = top.opened.members->emplace_back();
    slot = &member.value;
    return reader.key(member.key);
  }
};

MsgpackSteppedDecoder::MsgpackSteppedDecoder() = default;
MsgpackSteppedDecoder::~MsgpackSteppedDecoder() = default;

char* MsgpackSteppedDecoder::reserve(size_t size) {
  // malloc, not new: too little memory is a refusal here, where new would abort the module.
  char* bytes = static_cast<char*>(std::malloc(size == 0 ? 1 : size));
  if (bytes != nullptr) state_ = std::make_unique<State>(bytes, size);
  return bytes;
}

MsgpackSteppedDecoder::Step MsgpackSteppedDecoder::step(size_t max_values, size_t max_bytes) {
  State& state = *state_;
  const size_t from = state.reader.offset();
  for (size_t values = 0; values < max_values && state.reader.offset() - from < max_bytes; ++values) {
    Value* slot;
    if (!state.next_slot(slot)) return Step::kFailed;
    if (slot == nullptr) return state.reader.at_end() ? Step::kDone : Step::kFailed;
    Opened opened;
    if (!state.reader.read_head(*slot, int(state.open.size()), opened)) return Step::kFailed;
    if (opened.count > 0) state.open.push_back(State::Frame{opened, 0});
  }
  return Step::kMore;
}

char* MsgpackSteppedDecoder::buffer() const { return state_ ? state_->bytes : nullptr; }

const std::string& MsgpackSteppedDecoder::error() const { return state_->error; }

Value MsgpackSteppedDecoder::take() { return std::move(state_->root); }

bool msgpack_decode(const char* bytes, size_t size, Value& out, std::string& error) {
  return Reader(bytes, size, error).read_document(out);
}

void msgpack_encode(const Value& value, std::vector<char>& out) {
  out.clear();
  Writer(out).write(value);
}

}  // namespace wasm_runner
