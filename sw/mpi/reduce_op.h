// Reduction operators and element types, applied to data the core has loaded; the caller
// charges the arithmetic in core cycles per byte.
//
// Element types are MPI's predefined ones as they lie packed in a message: integers of each
// width, floating point (long double as the x86-64 80-bit format in 16 bytes), C bool,
// complex numbers, bytes, and MPI's (value, int) pairs for MAXLOC and MINLOC (packed: a
// double and an int take 12 bytes). Which operator applies to which type follows the MPI
// standard's table (op_allowed). A user operator (Op::User) is a function the caller gives
// (UserOp); it combines in order: inout = in op inout, as MPI_User_function does.
#pragma once
#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>

namespace hs::fw::mpi {

enum class Datatype {
  Int64,
  Double,
  Int8,
  Uint8,
  Int16,
  Uint16,
  Int32,
  Uint32,
  Uint64,
  Float,
  LongDouble,
  Bool,
  ComplexFloat,
  ComplexDouble,
  ComplexLongDouble,
  Byte,
  FloatInt,
  DoubleInt,
  LongInt,
  TwoInt,
  ShortInt,
  LongDoubleInt,
};
enum class Op { Sum, Max, Min, Prod, Land, Lor, Lxor, Band, Bor, Bxor, Maxloc, Minloc, User };

// A user's reduction: combines `count` elements of `in` into `inout` (inout = in op inout).
// Elements are `element_bytes` each, packed.
struct UserOp {
  std::function<void(const uint8_t* in, uint8_t* inout, size_t count)> apply;
  bool commutative = true;
  size_t element_bytes = 1;
};

// The types and operators of workloads' parameters and the program language: int64 and
// double; sum, max and min. Throw std::invalid_argument.
Datatype parse_datatype(const std::string& name);
Op parse_op(const std::string& name);
const char* datatype_name(Datatype t);
const char* op_name(Op op);
size_t datatype_size(Datatype t);  // bytes of one packed element
// Whether MPI defines `op` on `type` (User: any type).
bool op_allowed(Op op, Datatype type);
// Whether results may differ in their last bits with the order of combination (floating point
// sums and products), so a checker compares them to rounding.
bool rounding_matters(Op op, Datatype type);

// acc[i] = acc[i] op in[i] over `bytes` bytes of elements (predefined operators, which are
// all commutative).
void combine(Op op, Datatype type, uint8_t* acc, const uint8_t* in, size_t bytes);

}  // namespace hs::fw::mpi
