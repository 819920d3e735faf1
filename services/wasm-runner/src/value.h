// A generic JSON value as the payload spec allows it: objects, arrays, integers and strings.
// Every transfer approach decodes its wire format into this tree and encodes it back, so the tree is where the
// "processing" happens and the approaches (json now, embind and msgpack beside it later) stay interchangeable.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <variant>
#include <vector>

namespace wasm_runner {

class Value;
struct Member;

using Array = std::vector<Value>;
// A vector, not a map: the spec writes an object's keys in the order they were listed, and so must every encoder.
using Object = std::vector<Member>;

class Value {
 public:
  // int64_t holds every integer JSON can carry exactly as an integer; the spec's own stay below 2^31.
  using Storage = std::variant<int64_t, std::string, Array, Object>;

  Value() : storage_(int64_t{0}) {}
  Value(int64_t integer) : storage_(integer) {}
  Value(std::string text) : storage_(std::move(text)) {}
  Value(Array items) : storage_(std::move(items)) {}
  Value(Object members) : storage_(std::move(members)) {}

  bool is_integer() const { return std::holds_alternative<int64_t>(storage_); }
  bool is_string() const { return std::holds_alternative<std::string>(storage_); }
  bool is_array() const { return std::holds_alternative<Array>(storage_); }
  bool is_object() const { return std::holds_alternative<Object>(storage_); }

  int64_t integer() const { return std::get<int64_t>(storage_); }
  const std::string& string() const { return std::get<std::string>(storage_); }
  const Array& array() const { return std::get<Array>(storage_); }
  const Object& object() const { return std::get<Object>(storage_); }
  Array& array() { return std::get<Array>(storage_); }
  Object& object() { return std::get<Object>(storage_); }

 private:
  Storage storage_;
};

struct Member {
  std::string key;
  Value value;
};

}  // namespace wasm_runner
