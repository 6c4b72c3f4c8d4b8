// Reduction operators and element types, applied to data the core has loaded; the caller
// charges the arithmetic in core cycles per byte.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>

namespace hs::fw::mpi {

enum class Datatype { Int64, Double };
enum class Op { Sum, Max, Min };

Datatype parse_datatype(const std::string& name);  // throws std::invalid_argument
Op parse_op(const std::string& name);              // throws std::invalid_argument
const char* datatype_name(Datatype t);
const char* op_name(Op op);
size_t datatype_size(Datatype t);

// acc[i] = acc[i] op in[i] over `bytes` bytes of elements.
void combine(Op op, Datatype type, uint8_t* acc, const uint8_t* in, size_t bytes);

}  // namespace hs::fw::mpi
