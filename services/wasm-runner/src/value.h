// A generic JSON value: objects, arrays, integers and strings (all the payload spec has), and null, booleans and
// doubles (users' documents, PUT /documents).
// Every transfer approach decodes its wire format into this tree and encodes it back, so the tree is where the
// "processing" happens and the approaches (json, embind, msgpack, msgpackr, typed) stay interchangeable.
//
// A tagged union rather than std::variant: libc++'s variant dispatches construction, assignment and destruction
// through tables of function pointers, an indirect call per node in WASM; a switch on the tag inlines instead. Every
// approach builds and drops this tree, so all gain alike (measured in WASM: numbers_10000's 10000 integers built in
// half the time and dropped in a quarter; objects_500, where strings and allocations dominate, 6% faster).
#pragma once

#include <cstdint>
#include <new>
#include <string>
#include <utility>
#include <vector>

namespace wasm_runner {

class Value;
struct Member;

using Array = std::vector<Value>;
// A vector, not a map: the spec writes an object's keys in the order they were listed, and so must every encoder.
using Object = std::vector<Member>;

class Value {
 public:
  // int64_t holds every integer a JS number carries exactly (value_limits.h); the spec's own stay below 2^31.
  Value() noexcept : type_(Type::kInteger), integer_(0) {}
  Value(int64_t integer) noexcept : type_(Type::kInteger), integer_(integer) {}
  Value(std::string text) noexcept : type_(Type::kString), string_(std::move(text)) {}
  Value(Array items) noexcept : type_(Type::kArray), array_(std::move(items)) {}
  Value(Object members) noexcept : type_(Type::kObject), object_(std::move(members)) {}
  // Named, not constructors: a Value(bool) or Value(double) would make every Value(some integer) ambiguous.
  static Value null() noexcept { return Value(Type::kNull); }
  static Value boolean(bool truth) noexcept {
    Value value(Type::kBool);
    value.boolean_ = truth;
    return value;
  }
  // Only a number that is not an integer within 2^53 - 1 (value_limits.h's number_value decides): those are integers.
  static Value number(double number) noexcept {
    Value value(Type::kDouble);
    value.double_ = number;
    return value;
  }

  Value(Value&& other) noexcept : type_(Type::kInteger), integer_(0) { take(std::move(other)); }
  Value& operator=(Value&& other) noexcept {
    if (this != &other) {
      destroy();
      take(std::move(other));
    }
    return *this;
  }
  // Trees are moved, never copied: a copy would be an accident costing a whole tree.
  Value(const Value&) = delete;
  Value& operator=(const Value&) = delete;
  ~Value() { destroy(); }

  bool is_integer() const { return type_ == Type::kInteger; }
  bool is_string() const { return type_ == Type::kString; }
  bool is_array() const { return type_ == Type::kArray; }
  bool is_object() const { return type_ == Type::kObject; }
  bool is_null() const { return type_ == Type::kNull; }
  bool is_boolean() const { return type_ == Type::kBool; }
  bool is_double() const { return type_ == Type::kDouble; }

  // Callers check the type first (every reader and writer does).
  int64_t integer() const { return integer_; }
  bool boolean() const { return boolean_; }
  double number() const { return double_; }
  const std::string& string() const { return string_; }
  const Array& array() const { return array_; }
  const Object& object() const { return object_; }
  Array& array() { return array_; }
  Object& object() { return object_; }

  // Turn this value into an empty one of a type and return it to fill in place: readers build each node where it
  // will live instead of building it aside and moving it in.
  std::string& make_string() { return *new (reset(Type::kString)) std::string(); }
  Array& make_array() { return *new (reset(Type::kArray)) Array(); }
  Object& make_object() { return *new (reset(Type::kObject)) Object(); }

 private:
  enum class Type : uint8_t { kInteger, kString, kArray, kObject, kNull, kBool, kDouble };

  explicit Value(Type scalar) noexcept : type_(scalar), integer_(0) {}

  // Destroys the current contents and returns the storage for a new one of `type`.
  void* reset(Type type) {
    destroy();
    type_ = type;
    return &string_;  // every member of the union starts at the same address
  }

  void take(Value&& other) noexcept {
    type_ = other.type_;
    switch (type_) {
      case Type::kInteger:
      case Type::kNull:
        integer_ = other.integer_;
        break;
      case Type::kBool:
        boolean_ = other.boolean_;
        break;
      case Type::kDouble:
        double_ = other.double_;
        break;
      case Type::kString:
        new (&string_) std::string(std::move(other.string_));
        break;
      case Type::kArray:
        new (&array_) Array(std::move(other.array_));
        break;
      case Type::kObject:
        new (&object_) Object(std::move(other.object_));
        break;
    }
  }

  void destroy() noexcept {
    switch (type_) {
      case Type::kInteger:
      case Type::kNull:
      case Type::kBool:
      case Type::kDouble:
        break;
      case Type::kString:
        string_.~basic_string();
        break;
      case Type::kArray:
        array_.~Array();
        break;
      case Type::kObject:
        object_.~Object();
        break;
    }
    type_ = Type::kInteger;
  }

  Type type_;
  union {
    int64_t integer_;
    bool boolean_;
    double double_;
    std::string string_;
    Array array_;
    Object object_;
  };
};

struct Member {
  std::string key;
  Value value;
};

// A copy of a tree, made on purpose (Value's copy constructor is deleted so that none is made by accident): `create`
// on a user's document hands out a copy of the tree C++ keeps for it, as it hands out a newly generated case.
inline Value clone(const Value& value) {
  if (value.is_string()) return Value(value.string());
  if (value.is_array()) {
    Array items;
    items.reserve(value.array().size());
    for (const Value& item : value.array()) items.push_back(clone(item));
    return Value(std::move(items));
  }
  if (value.is_object()) {
    Object members;
    members.reserve(value.object().size());
    for (const Member& member : value.object()) members.push_back(Member{member.key, clone(member.value)});
    return Value(std::move(members));
  }
  if (value.is_null()) return Value::null();
  if (value.is_boolean()) return Value::boolean(value.boolean());
  if (value.is_double()) return Value::number(value.number());
  return Value(value.integer());
}

}  // namespace wasm_runner
