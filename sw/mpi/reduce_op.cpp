#include "sw/mpi/reduce_op.h"

#include <algorithm>
#include <complex>
#include <cstring>
#include <stdexcept>
#include <type_traits>

namespace hs::fw::mpi {

namespace {

enum class Group { Integer, Float, Complex, Logical, Byte, Pair };

// Integer arithmetic wraps as the hardware's does, without signed overflow.
template <class T>
T wrap_add(T a, T b) {
  using U = std::make_unsigned_t<T>;
  return static_cast<T>(static_cast<U>(static_cast<U>(a) + static_cast<U>(b)));
}
template <class T>
T wrap_mul(T a, T b) {
  using U = std::conditional_t<(sizeof(T) < sizeof(unsigned)), unsigned, std::make_unsigned_t<T>>;
  return static_cast<T>(static_cast<U>(static_cast<U>(a) * static_cast<U>(b)));
}

// One element of an integer or floating-point type: the arithmetic operations on both, the
// logical and bitwise ones on integers (op_allowed() keeps the others away).
template <class T>
T combine_one(Op op, T a, T b) {
  switch (op) {
    case Op::Sum:
      if constexpr (std::is_integral_v<T>) {
        return wrap_add(a, b);
      } else {
        return a + b;
      }
    case Op::Prod:
      if constexpr (std::is_integral_v<T>) {
        return wrap_mul(a, b);
      } else {
        return a * b;
      }
    case Op::Max:
      return std::max(a, b);
    case Op::Min:
      return std::min(a, b);
    default:
      break;
  }
  if constexpr (std::is_integral_v<T>) {
    switch (op) {
      case Op::Land:
        return static_cast<T>(a && b);
      case Op::Lor:
        return static_cast<T>(a || b);
      case Op::Lxor:
        return static_cast<T>(!a != !b);
      case Op::Band:
        return static_cast<T>(a & b);
      case Op::Bor:
        return static_cast<T>(a | b);
      case Op::Bxor:
        return static_cast<T>(a ^ b);
      default:
        break;
    }
  }
  return a;
}

// Element by element over `bytes`, each loaded and stored by copy (the blocks need not be
// aligned): acc = f(acc, in).
template <class E, class F>
void each_element(uint8_t* acc, const uint8_t* in, size_t bytes, F f) {
  for (size_t i = 0; i + sizeof(E) <= bytes; i += sizeof(E)) {
    E a, b;
    std::memcpy(&a, acc + i, sizeof a);
    std::memcpy(&b, in + i, sizeof b);
    a = f(a, b);
    std::memcpy(acc + i, &a, sizeof a);
  }
}

template <class T>
void apply_scalar(Op op, uint8_t* acc, const uint8_t* in, size_t bytes) {
  each_element<T>(acc, in, bytes, [op](T a, T b) { return combine_one(op, a, b); });
}

template <class T>
void apply_complex(Op op, uint8_t* acc, const uint8_t* in, size_t bytes) {
  using C = std::complex<T>;
  each_element<C>(acc, in, bytes, [op](C a, C b) { return op == Op::Prod ? a * b : a + b; });
}

// (value, index) pairs, packed: the value of `V` then a 4-byte int. MAXLOC keeps the larger
// value, MINLOC the smaller; on a tie, the smaller index.
template <class V, size_t VB>
void apply_pair(Op op, uint8_t* acc, const uint8_t* in, size_t bytes) {
  constexpr size_t kSize = VB + 4;
  for (size_t i = 0; i + kSize <= bytes; i += kSize) {
    V av{}, bv{};
    int32_t ai, bi;
    std::memcpy(&av, acc + i, VB);
    std::memcpy(&bv, in + i, VB);
    std::memcpy(&ai, acc + i + VB, 4);
    std::memcpy(&bi, in + i + VB, 4);
    const bool take =
        op == Op::Maxloc ? (bv > av || (bv == av && bi < ai)) : (bv < av || (bv == av && bi < ai));
    if (take) std::memcpy(acc + i, in + i, kSize);
  }
}

using CombineFn = void (*)(Op, uint8_t*, const uint8_t*, size_t);

// Every type the layer reduces: its name, element size, the operations it takes (by group) and
// how its elements combine.
struct TypeInfo {
  Datatype type;
  const char* name;
  size_t size;
  Group group;
  CombineFn combine;
};
constexpr TypeInfo kTypes[] = {
    {Datatype::Int64, "int64", 8, Group::Integer, apply_scalar<int64_t>},
    {Datatype::Double, "double", 8, Group::Float, apply_scalar<double>},
    {Datatype::Int8, "int8", 1, Group::Integer, apply_scalar<int8_t>},
    {Datatype::Uint8, "uint8", 1, Group::Integer, apply_scalar<uint8_t>},
    {Datatype::Int16, "int16", 2, Group::Integer, apply_scalar<int16_t>},
    {Datatype::Uint16, "uint16", 2, Group::Integer, apply_scalar<uint16_t>},
    {Datatype::Int32, "int32", 4, Group::Integer, apply_scalar<int32_t>},
    {Datatype::Uint32, "uint32", 4, Group::Integer, apply_scalar<uint32_t>},
    {Datatype::Uint64, "uint64", 8, Group::Integer, apply_scalar<uint64_t>},
    {Datatype::Float, "float", 4, Group::Float, apply_scalar<float>},
    {Datatype::LongDouble, "long_double", 16, Group::Float, apply_scalar<long double>},
    {Datatype::Bool, "bool", 1, Group::Logical, apply_scalar<uint8_t>},
    {Datatype::ComplexFloat, "complex_float", 8, Group::Complex, apply_complex<float>},
    {Datatype::ComplexDouble, "complex_double", 16, Group::Complex, apply_complex<double>},
    {Datatype::ComplexLongDouble, "complex_long_double", 32, Group::Complex,
     apply_complex<long double>},
    {Datatype::Byte, "byte", 1, Group::Byte, apply_scalar<uint8_t>},
    {Datatype::FloatInt, "float_int", 8, Group::Pair, apply_pair<float, 4>},
    {Datatype::DoubleInt, "double_int", 12, Group::Pair, apply_pair<double, 8>},
    {Datatype::LongInt, "long_int", 12, Group::Pair, apply_pair<int64_t, 8>},
    {Datatype::TwoInt, "2int", 8, Group::Pair, apply_pair<int32_t, 4>},
    {Datatype::ShortInt, "short_int", 6, Group::Pair, apply_pair<int16_t, 2>},
    {Datatype::LongDoubleInt, "long_double_int", 20, Group::Pair, apply_pair<long double, 16>},
};
constexpr const char* kOps[] = {"sum",  "max", "min",  "prod",   "land",   "lor", "lxor",
                                "band", "bor", "bxor", "maxloc", "minloc", "user"};

const TypeInfo& info(Datatype t) {
  for (const auto& i : kTypes) {
    if (i.type == t) return i;
  }
  return kTypes[0];
}

Group group_of(Datatype t) {
  return info(t).group;
}

}  // namespace

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
  return info(t).name;
}

const char* op_name(Op op) {
  return kOps[static_cast<int>(op)];
}

size_t datatype_size(Datatype t) {
  return info(t).size;
}

bool op_allowed(Op op, Datatype type) {
  const Group g = group_of(type);
  switch (op) {
    case Op::Max:
    case Op::Min:
      return g == Group::Integer || g == Group::Float;
    case Op::Sum:
    case Op::Prod:
      return g == Group::Integer || g == Group::Float || g == Group::Complex;
    case Op::Land:
    case Op::Lor:
    case Op::Lxor:
      return g == Group::Integer || g == Group::Logical;
    case Op::Band:
    case Op::Bor:
    case Op::Bxor:
      return g == Group::Integer || g == Group::Byte;
    case Op::Maxloc:
    case Op::Minloc:
      return g == Group::Pair;
    case Op::User:
      return true;
  }
  return false;
}

bool rounding_matters(Op op, Datatype type) {
  const Group g = group_of(type);
  return (op == Op::Sum || op == Op::Prod) && (g == Group::Float || g == Group::Complex);
}

void combine(Op op, Datatype type, uint8_t* acc, const uint8_t* in, size_t bytes) {
  info(type).combine(op, acc, in, bytes);
}

}  // namespace hs::fw::mpi
