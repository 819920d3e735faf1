// Each generator draws in the order the spec lists the keys, one statement per draw: C++ leaves the evaluation order
// of function arguments unspecified, so no draw is ever an argument next to another draw.
#include "payloads.h"

#include <functional>
#include <map>

#include "mulberry32.h"

namespace wasm_runner {
namespace {

// Appends members in call order, which is the order the encoders write them.
class ObjectBuilder {
 public:
  ObjectBuilder& add(const char* key, Value value) {
    members_.push_back(Member{key, std::move(value)});
    return *this;
  }
  Value build() { return Value(std::move(members_)); }

 private:
  Object members_;
};

template <typename Make>
Value times(size_t n, Make make) {
  Array items;
  items.reserve(n);
  for (size_t i = 0; i < n; ++i) items.push_back(make(i));
  return Value(std::move(items));
}

Value record(Draws& d, size_t i) {
  ObjectBuilder out;
  out.add("id", int64_t(i));
  out.add("name", d.text(12));
  std::string email = d.text(10);
  email += '@';
  email += d.text(8);
  email += ".example";
  out.add("email", std::move(email));
  out.add("score", d.integer(1000000));
  out.add("tags", times(5, [&](size_t) { return Value(d.text(8)); }));
  ObjectBuilder address;
  address.add("street", d.text(20));
  address.add("city", d.text(10));
  address.add("zip", d.text(5));
  address.add("country", d.text(2));
  out.add("address", address.build());
  out.add("history", times(10, [&](size_t) {
            ObjectBuilder entry;
            entry.add("ts", d.integer(2147483648u));
            entry.add("event", d.text(8));
            entry.add("amount", d.integer(100000));
            return entry.build();
          }));
  out.add("notes", d.text(1200));
  return out.build();
}

Value records(Draws& d, size_t size) {
  ObjectBuilder out;
  out.add("size", int64_t(size));
  out.add("records", times(size, [&](size_t i) { return record(d, i); }));
  return out.build();
}

Value objects(Draws& d, size_t size) {
  return times(size, [&](size_t) {
    ObjectBuilder object;
    object.add("name", d.text(5));
    object.add("number", d.integer(2147483648u));
    object.add("strings", times(100, [&](size_t) { return Value(d.text(10)); }));
    return object.build();
  });
}

Value flat(Draws& d, size_t n) {
  ObjectBuilder out;
  for (size_t k = 0; k < n; ++k) {
    const std::string key = "f" + std::to_string(k);
    out.add(key.c_str(), k % 2 == 0 ? Value(d.integer(1000000)) : Value(d.text(8)));
  }
  return out.build();
}

Value nested(Draws& d, int64_t depth) {
  ObjectBuilder out;
  out.add("level", depth);
  out.add("name", d.text(8));
  ObjectBuilder meta;
  meta.add("a", d.integer(1000));
  meta.add("b", d.text(4));
  out.add("meta", meta.build());
  if (depth > 1) out.add("child", nested(d, depth - 1));
  return out.build();
}

Value numbers(Draws& d, size_t n) {
  return times(n, [&](size_t) { return Value(d.integer(2147483648u)); });
}

Value item(Draws& d, size_t i) {
  ObjectBuilder out;
  out.add("id", int64_t(i));
  out.add("name", d.text(8));
  out.add("score", d.integer(1000000));
  out.add("tags", times(3, [&](size_t) { return Value(d.text(4)); }));
  return out.build();
}

Value items(Draws& d, size_t n) {
  return times(n, [&](size_t i) { return item(d, i); });
}

Value tree(Draws& d, int depth, size_t branching) {
  ObjectBuilder out;
  out.add("value", d.integer(1000000));
  out.add("children", depth > 1 ? times(branching, [&](size_t) { return tree(d, depth - 1, branching); })
                                : Value(Array{}));
  return out.build();
}

using TransferCase = std::function<Value(Draws&)>;

const std::map<std::string, TransferCase>& transfer_cases() {
  static const std::map<std::string, TransferCase> cases = {
      {"flat_small", [](Draws& d) { return flat(d, 10); }},
      {"flat_medium", [](Draws& d) { return flat(d, 100); }},
      {"flat_large", [](Draws& d) { return flat(d, 1000); }},
      {"nested_d2", [](Draws& d) { return nested(d, 2); }},
      {"nested_d3", [](Draws& d) { return nested(d, 3); }},
      {"nested_d4", [](Draws& d) { return nested(d, 4); }},
      {"numbers_100", [](Draws& d) { return numbers(d, 100); }},
      {"numbers_1000", [](Draws& d) { return numbers(d, 1000); }},
      {"numbers_10000", [](Draws& d) { return numbers(d, 10000); }},
      {"objects_10", [](Draws& d) { return items(d, 10); }},
      {"objects_100", [](Draws& d) { return items(d, 100); }},
      {"objects_500", [](Draws& d) { return items(d, 500); }},
      {"tree_d4_b3", [](Draws& d) { return tree(d, 4, 3); }},
      {"tree_d6_b4", [](Draws& d) { return tree(d, 6, 4); }},
  };
  return cases;
}

}  // namespace

bool generate_document(const std::string& document, uint32_t seed, uint32_t size, Value& out) {
  Draws d(seed);
  if (document == "records") {
    out = records(d, size);
  } else if (document == "objects") {
    out = objects(d, size);
  } else {
    return false;
  }
  return true;
}

bool generate_transfer_case(const std::string& name, uint32_t seed, Value& out) {
  const auto found = transfer_cases().find(name);
  if (found == transfer_cases().end()) return false;
  Draws d(seed);
  out = found->second(d);
  return true;
}

}  // namespace wasm_runner
