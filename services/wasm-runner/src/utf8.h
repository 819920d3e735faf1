// UTF-8 checks shared by the readers whose bytes come from outside a validating parser (msgpack, typed, embind):
// the Value tree holds well-formed UTF-8 only, so every writer can hand its strings back without checking again.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>

namespace wasm_runner {

// Length in bytes of the well-formed UTF-8 sequence at `p` (at most `end - p` bytes), and its code point in `code`;
// 0 if the bytes there are not one (a stray continuation byte, an overlong form, a surrogate, past U+10FFFF, cut off).
inline size_t utf8_sequence(const uint8_t* p, const uint8_t* end, uint32_t& code) {
  const uint8_t lead = p[0];
  if (lead < 0x80) {
    code = lead;
    return 1;
  }
  size_t length;
  uint32_t minimum;
  if ((lead & 0xE0) == 0xC0) {
    length = 2, minimum = 0x80, code = lead & 0x1F;
  } else if ((lead & 0xF0) == 0xE0) {
    length = 3, minimum = 0x800, code = lead & 0x0F;
  } else if ((lead & 0xF8) == 0xF0) {
    length = 4, minimum = 0x10000, code = lead & 0x07;
  } else {
    return 0;
  }
  if (size_t(end - p) < length) return 0;
  for (size_t k = 1; k < length; ++k) {
    if ((p[k] & 0xC0) != 0x80) return 0;
    code = (code << 6) | (p[k] & 0x3F);
  }
  if (code < minimum || code > 0x10FFFF || (code >= 0xD800 && code <= 0xDFFF)) return 0;
  return length;
}

// True if every byte is below 0x80, checked 8 bytes at a time: most strings are ASCII, and an ASCII string's UTF-16
// length is its byte count.
inline bool is_ascii(const char* bytes, size_t size) {
  size_t k = 0;
  uint64_t high = 0;
  for (; k + 8 <= size; k += 8) {
    uint64_t word;
    std::memcpy(&word, bytes + k, 8);
    high |= word;
  }
  for (; k < size; ++k) high |= uint8_t(bytes[k]);
  return (high & 0x8080808080808080ull) == 0;
}

// Offset of the first byte that does not start a well-formed sequence, or `size` if all of them are well-formed.
inline size_t utf8_invalid_at(const char* bytes, size_t size) {
  const uint8_t* p = reinterpret_cast<const uint8_t*>(bytes);
  const uint8_t* end = p + size;
  const uint8_t* at = p;
  uint32_t code;
  while (at < end) {
    if (*at < 0x80) {
      ++at;
      continue;
    }
    const size_t length = utf8_sequence(at, end, code);
    if (length == 0) return size_t(at - p);
    at += length;
  }
  return size;
}

inline bool utf8_error(const char* bytes, size_t size, const char* what, std::string& error) {
  const size_t at = utf8_invalid_at(bytes, size);
  if (at == size) return false;
  error = std::string("invalid UTF-8 in ") + what + " at byte " + std::to_string(at) + " of " + std::to_string(size);
  return true;
}

// UTF-16 code units (JS string length) of well-formed UTF-8: one per sequence, two for a 4-byte one.
inline size_t utf16_length(const std::string& text) {
  size_t units = 0;
  for (unsigned char byte : text) units += ((byte & 0xC0) != 0x80) + (byte >= 0xF0);
  return units;
}

}  // namespace wasm_runner
