#include "json_codec.h"

#include <yyjson.h>

#include "value_limits.h"

namespace wasm_runner {
namespace {

struct DocDeleter {
  void operator()(yyjson_doc* doc) const { yyjson_doc_free(doc); }
  void operator()(yyjson_mut_doc* doc) const { yyjson_mut_doc_free(doc); }
};

// yyjson 0.10.0's reader stores a container's length shifted into its 64-bit tag from a size_t, `ctn_len <<
// YYJSON_TAG_BIT` (yyjson.c, arr_end and obj_end), and size_t is 32 bits in wasm32: an array of 2^24 items or more,
// or an object of 2^24 members or more, reads as its length modulo 2^24 (16 777 217 zeros as `[0]`). Its subtree's
// end (uni.ofs, the offset to its next sibling) is right whatever the length, so the walk counts the slots up to it
// (an object's keys and values alike) instead of trusting yyjson_arr_size and yyjson_obj_size.
yyjson_val* first_child(yyjson_val* container) { return container + 1; }

size_t children(yyjson_val* container) {
  const auto* end = reinterpret_cast<const uint8_t*>(container) + container->uni.ofs;
  size_t slots = 0;
  for (yyjson_val* child = first_child(container); reinterpret_cast<const uint8_t*>(child) < end;
       child = unsafe_yyjson_get_next(child)) {
    ++slots;
  }
  return slots;
}

// yyjson reads without recursion; this walk recurses once per level, hence the depth it carries.
bool to_value(yyjson_val* json, Value& out, std::string& error, int depth) {
  switch (yyjson_get_type(json)) {
    case YYJSON_TYPE_NUM:
      // yyjson reads an integer past int64 (or uint64) as a real: every number lands in the tree as number_value
      // and integer_value keep it, whichever yyjson chose.
      if (yyjson_is_uint(json)) {
        const uint64_t number = yyjson_get_uint(json);
        out = number > uint64_t(MAX_SAFE_INTEGER) ? Value::number(double(number)) : Value(int64_t(number));
        return true;
      }
      if (yyjson_is_sint(json)) {
        out = integer_value(yyjson_get_sint(json));
        return true;
      }
      return number_value(yyjson_get_real(json), out, error);
    case YYJSON_TYPE_NULL:
      out = Value::null();
      return true;
    case YYJSON_TYPE_BOOL:
      out = Value::boolean(yyjson_get_bool(json));
      return true;
    case YYJSON_TYPE_STR:
      out = Value(std::string(yyjson_get_str(json), yyjson_get_len(json)));
      return true;
    case YYJSON_TYPE_ARR: {
      if (depth == MAX_DEPTH) {
        error = too_deep_error();
        return false;
      }
      Array items(children(json));
      yyjson_val* item = first_child(json);
      for (Value& slot : items) {
        if (!to_value(item, slot, error, depth + 1)) return false;
        item = unsafe_yyjson_get_next(item);
      }
      out = Value(std::move(items));
      return true;
    }
    case YYJSON_TYPE_OBJ: {
      if (depth == MAX_DEPTH) {
        error = too_deep_error();
        return false;
      }
      Object members(children(json) / 2);
      yyjson_val* key = first_child(json);
      for (Member& member : members) {
        yyjson_val* item = key + 1;  // a key is a string: its value is the next slot
        member.key.assign(yyjson_get_str(key), yyjson_get_len(key));
        if (!to_value(item, member.value, error, depth + 1)) return false;
        key = unsafe_yyjson_get_next(item);
      }
      out = Value(std::move(members));
      return true;
    }
    default:
      error = std::string("a ") + yyjson_get_type_desc(json) + ": JSON has no such value";
      return false;
  }
}

// Strings are referenced, not copied (yyjson_mut_strn): `value` outlives the document inside json_encode.
yyjson_mut_val* to_json(yyjson_mut_doc* doc, const Value& value) {
  if (value.is_integer()) return yyjson_mut_sint(doc, value.integer());
  if (value.is_double()) return yyjson_mut_real(doc, value.number());
  if (value.is_null()) return yyjson_mut_null(doc);
  if (value.is_boolean()) return yyjson_mut_bool(doc, value.boolean());
  if (value.is_string()) return yyjson_mut_strn(doc, value.string().data(), value.string().size());
  if (value.is_array()) {
    yyjson_mut_val* array = yyjson_mut_arr(doc);
    for (const Value& item : value.array()) {
      if (!yyjson_mut_arr_append(array, to_json(doc, item))) return nullptr;
    }
    return array;
  }
  yyjson_mut_val* object = yyjson_mut_obj(doc);
  for (const Member& member : value.object()) {
    yyjson_mut_val* key = yyjson_mut_strn(doc, member.key.data(), member.key.size());
    if (!yyjson_mut_obj_add(object, key, to_json(doc, member.value))) return nullptr;
  }
  return object;
}

}  // namespace

bool json_decode(const char* bytes, size_t size, Value& out, std::string& error) {
  yyjson_read_err read_error;
  std::unique_ptr<yyjson_doc, DocDeleter> doc(
      yyjson_read_opts(const_cast<char*>(bytes), size, YYJSON_READ_NOFLAG, nullptr, &read_error));
  if (!doc) {
    // yyjson names a failed allocation like a syntax error, with the byte it had reached: say what it is.
    const bool memory = read_error.code == YYJSON_READ_ERROR_MEMORY_ALLOCATION;
    error = std::string(memory ? "out of memory reading the JSON, at byte " : "invalid JSON at byte ") +
            std::to_string(read_error.pos) + ": " + read_error.msg;
    return false;
  }
  return to_value(yyjson_doc_get_root(doc.get()), out, error, 0);
}

bool json_encode(const Value& value, JsonBytes& out, std::string& error) {
  std::unique_ptr<yyjson_mut_doc, DocDeleter> doc(yyjson_mut_doc_new(nullptr));
  yyjson_mut_val* root = doc ? to_json(doc.get(), value) : nullptr;
  if (!root) {
    error = "out of memory building the JSON document";
    return false;
  }
  yyjson_mut_doc_set_root(doc.get(), root);
  yyjson_write_err write_error;
  size_t size = 0;
  char* bytes = yyjson_mut_write_opts(doc.get(), YYJSON_WRITE_NOFLAG, nullptr, &size, &write_error);
  if (!bytes) {
    error = std::string("yyjson could not write: ") + write_error.msg;
    return false;
  }
  out.data.reset(bytes);
  out.size = size;
  return true;
}

}  // namespace wasm_runner
