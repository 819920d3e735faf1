// The payload spec's pseudo-random generator and its two draws (../../payloads/SPEC.md, "The pseudo-random
// generator"). Unsigned 32-bit arithmetic wraps modulo 2^32 exactly like the spec's `imul` and `>>>`.
#pragma once

#include <cstdint>
#include <string>

namespace wasm_runner {

class Mulberry32 {
 public:
  explicit Mulberry32(uint32_t seed) : state_(seed) {}

  uint32_t next() {
    state_ += 0x6D2B79F5u;
    uint32_t t = state_;
    t = (t ^ (t >> 15)) * (t | 1u);
    t ^= t + (t ^ (t >> 7)) * (t | 61u);
    return t ^ (t >> 14);
  }

 private:
  uint32_t state_;
};

class Draws {
 public:
  explicit Draws(uint32_t seed) : random_(seed) {}

  // int(n): next() % n, 1 <= n <= 2^31.
  int64_t integer(uint32_t n) { return random_.next() % n; }

  // str(n): n characters, each picked by the top 6 bits of one draw.
  std::string text(size_t n) {
    static constexpr char kAlphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
    std::string out(n, '\0');
    for (size_t k = 0; k < n; ++k) out[k] = kAlphabet[random_.next() >> 26];
    return out;
  }

 private:
  Mulberry32 random_;
};

}  // namespace wasm_runner
