#include "sw/mpi/reduce_op.h"

#include <algorithm>
#include <cstring>
#include <stdexcept>

namespace hs::fw::mpi {

Datatype parse_datatype(const std::string& name) {
  if (name == "int64") return Datatype::Int64;
  if (name == "double") return Datatype::Double;
  throw std::invalid_argument("datatype '" + name + "' (int64, double)");
}

Op parse_op(const std::string& name) {
  if (name == "sum") return Op::Sum;
  if (name == "max") return Op::Max;
  if (name == "min") return Op::Min;
  throw std::invalid_argument("reduction '" + name + "' (sum, max, min)");
}

const char* datatype_name(Datatype t) {
  return t == Datatype::Int64 ? "int64" : "double";
}

const char* op_name(Op op) {
  return op == Op::Sum ? "sum" : op == Op::Max ? "max" : "min";
}

size_t datatype_size(Datatype) {
  return 8;
}

namespace {
template <class T>
void apply(Op op, uint8_t* acc, const uint8_t* in, size_t bytes) {
  for (size_t i = 0; i + sizeof(T) <= bytes; i += sizeof(T)) {
    T a, b;
    std::memcpy(&a, acc + i, sizeof a);
    std::memcpy(&b, in + i, sizeof b);
    // Integer sums wrap as the hardware's would, without signed overflow.
    if constexpr (std::is_integral_v<T>) {
      if (op == Op::Sum) {
        a = static_cast<T>(static_cast<uint64_t>(a) + static_cast<uint64_t>(b));
      }
    } else {
      if (op == Op::Sum) a = a + b;
    }
    if (op == Op::Max) a = std::max(a, b);
    if (op == Op::Min) a = std::min(a, b);
    std::memcpy(acc + i, &a, sizeof a);
  }
}
}  // namespace

void combine(Op op, Datatype type, uint8_t* acc, const uint8_t* in, size_t bytes) {
  if (type == Datatype::Int64) {
    apply<int64_t>(op, acc, in, bytes);
  } else {
    apply<double>(op, acc, in, bytes);
  }
}

}  // namespace hs::fw::mpi
