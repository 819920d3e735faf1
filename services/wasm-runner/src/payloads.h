// The payload spec's documents (../../payloads/SPEC.md, "Documents"), generated into a Value tree.
#pragma once

#include <cstdint>
#include <string>

#include "value.h"

namespace wasm_runner {

// Generates `records` or `objects` with `size` elements. Returns false for an unknown document name.
[[nodiscard]] bool generate_document(const std::string& document, uint32_t seed, uint32_t size, Value& out);

// Generates the transfer case named `name` (flat_small, ..., tree_d6_b4). Returns false for an unknown name.
[[nodiscard]] bool generate_transfer_case(const std::string& name, uint32_t seed, Value& out);

}  // namespace wasm_runner
