#include "embind_codec.h"

#include <cmath>

#include "utf8.h"
#include "value_limits.h"

using emscripten::val;

namespace wasm_runner {
namespace {

// Looked up once: val::isArray() would look the global Array up by name on every call.
const val& array_class() {
  static const val cls = val::global("Array");
  return cls;
}

const val& object_class() {
  static const val cls = val::global("Object");
  return cls;
}

const val& object_type() {
  static const val name("object");
  return name;
}

bool refuse(const std::string& what, std::string& error) {
  error = "embind: " + what + ": JSON has no such value";
  return false;
}

bool read(const val& js, Value& out, std::string& error, int depth) {
  if (js.isNumber()) {
    if (!number_value(js.as<double>(), out, error)) {
      error = "embind: " + error;
      return false;
    }
    return true;
  }
  if (js.isString()) {
    std::string text = js.as<std::string>();
    if (utf8_error(text.data(), text.size(), "a string (a lone surrogate?)", error)) {
      error = "embind: " + error;
      return false;
    }
    out = Value(std::move(text));
    return true;
  }
  if (js.isNull()) {
    out = Value::null();
    return true;
  }
  if (js.isTrue() || js.isFalse()) {
    out = Value::boolean(js.isTrue());
    return true;
  }
  if (js.isUndefined()) return refuse("an undefined", error);
  const bool is_array = js.instanceof(array_class());
  if (!is_array && !js.typeOf().strictlyEquals(object_type())) {
    return refuse("a " + js.typeOf().as<std::string>(), error);
  }
  if (depth == MAX_DEPTH) {
    error = "embind: " + too_deep_error();
    return false;
  }
  if (is_array) {
    Array items(js["length"].as<uint32_t>());
    for (size_t i = 0; i < items.size(); ++i) {
      if (!read(js[i], items[i], error, depth + 1)) return false;
    }
    out = Value(std::move(items));
    return true;
  }
  const val keys = object_class().call<val>("keys", js);
  Object members(keys["length"].as<uint32_t>());
  for (size_t i = 0; i < members.size(); ++i) {
    const val key = keys[i];
    members[i].key = key.as<std::string>();
    if (!read(js[key], members[i].value, error, depth + 1)) return false;
  }
  out = Value(std::move(members));
  return true;
}

}  // namespace

bool embind_decode(const val& value, Value& out, std::string& error) { return read(value, out, error, 0); }

val embind_encode(const Value& value) {
  if (value.is_integer()) return val(double(value.integer()));
  if (value.is_double()) return val(value.number());
  if (value.is_null()) return val::null();
  if (value.is_boolean()) return val(value.boolean());
  if (value.is_string()) return val(value.string());
  if (value.is_array()) {
    val items = val::array();
    const Array& array = value.array();
    for (size_t i = 0; i < array.size(); ++i) items.set(i, embind_encode(array[i]));
    return items;
  }
  val object = val::object();
  for (const Member& member : value.object()) {
    if (member.key == "__proto__") {
      // set() assigns, and assigning __proto__ sets the prototype: define an own property, as JSON.parse makes.
      val descriptor = val::object();
      descriptor.set("value", embind_encode(member.value));
      descriptor.set("enumerable", true);
      descriptor.set("writable", true);
      descriptor.set("configurable", true);
      object_class().call<void>("defineProperty", object, val(member.key), descriptor);
    } else {
      object.set(member.key, embind_encode(member.value));
    }
  }
  return object;
}

}  // namespace wasm_runner
