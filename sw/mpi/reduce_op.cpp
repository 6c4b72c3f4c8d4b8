#include "sw/mpi/reduce_op.h"

#include <algorithm>
#include <complex>
#include <cstring>
#include <stdexcept>
#include <type_traits>

namespace hs::fw::mpi {

namespace {

struct TypeInfo {
  Datatype type;
  const char* name;
  size_t size;
};
constexpr TypeInfo kTypes[] = {
    {Datatype::Int64, "int64", 8},
    {Datatype::Double, "double", 8},
    {Datatype::Int8, "int8", 1},
    {Datatype::Uint8, "uint8", 1},
    {Datatype::Int16, "int16", 2},
    {Datatype::Uint16, "uint16", 2},
    {Datatype::Int32, "int32", 4},
    {Datatype::Uint32, "uint32", 4},
    {Datatype::Uint64, "uint64", 8},
    {Datatype::Float, "float", 4},
    {Datatype::LongDouble, "long_double", 16},
    {Datatype::Bool, "bool", 1},
    {Datatype::ComplexFloat, "complex_float", 8},
    {Datatype::ComplexDouble, "complex_double", 16},
    {Datatype::ComplexLongDouble, "complex_long_double", 32},
    {Datatype::Byte, "byte", 1},
    {Datatype::FloatInt, "float_int", 8},
    {Datatype::DoubleInt, "double_int", 12},
    {Datatype::LongInt, "long_int", 12},
    {Datatype::TwoInt, "2int", 8},
    {Datatype::ShortInt, "short_int", 6},
    {Datatype::LongDoubleInt, "long_double_int", 20},
};
constexpr const char* kOps[] = {"sum",  "max", "min",  "prod",   "land",   "lor", "lxor",
                                "band", "bor", "bxor", "maxloc", "minloc", "user"};

const TypeInfo& info(Datatype t) {
  for (const auto& i : kTypes) {
    if (i.type == t) return i;
  }
  return kTypes[0];
}

enum class Group { Integer, Float, Complex, Logical, Byte, Pair };
Group group_of(Datatype t) {
  switch (t) {
    case Datatype::Float:
    case Datatype::Double:
    case Datatype::LongDouble:
      return Group::Float;
    case Datatype::ComplexFloat:
    case Datatype::ComplexDouble:
    case Datatype::ComplexLongDouble:
      return Group::Complex;
    case Datatype::Bool:
      return Group::Logical;
    case Datatype::Byte:
      return Group::Byte;
    case Datatype::FloatInt:
    case Datatype::DoubleInt:
    case Datatype::LongInt:
    case Datatype::TwoInt:
    case Datatype::ShortInt:
    case Datatype::LongDoubleInt:
      return Group::Pair;
    default:
      return Group::Integer;
  }
}

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

template <class T>
void apply_scalar(Op op, uint8_t* acc, const uint8_t* in, size_t bytes) {
  for (size_t i = 0; i + sizeof(T) <= bytes; i += sizeof(T)) {
    T a, b;
    std::memcpy(&a, acc + i, sizeof a);
    std::memcpy(&b, in + i, sizeof b);
    if constexpr (std::is_integral_v<T>) {
      switch (op) {
        case Op::Sum:
          a = wrap_add(a, b);
          break;
        case Op::Prod:
          a = wrap_mul(a, b);
          break;
        case Op::Max:
          a = std::max(a, b);
          break;
        case Op::Min:
          a = std::min(a, b);
          break;
        case Op::Land:
          a = static_cast<T>(a && b);
          break;
        case Op::Lor:
          a = static_cast<T>(a || b);
          break;
        case Op::Lxor:
          a = static_cast<T>(!a != !b);
          break;
        case Op::Band:
          a = static_cast<T>(a & b);
          break;
        case Op::Bor:
          a = static_cast<T>(a | b);
          break;
        case Op::Bxor:
          a = static_cast<T>(a ^ b);
          break;
        default:
          break;
      }
    } else {
      switch (op) {
        case Op::Sum:
          a = a + b;
          break;
        case Op::Prod:
          a = a * b;
          break;
        case Op::Max:
          a = std::max(a, b);
          break;
        case Op::Min:
          a = std::min(a, b);
          break;
        default:
          break;
      }
    }
    std::memcpy(acc + i, &a, sizeof a);
  }
}

template <class T>
void apply_complex(Op op, uint8_t* acc, const uint8_t* in, size_t bytes) {
  using C = std::complex<T>;
  for (size_t i = 0; i + sizeof(C) <= bytes; i += sizeof(C)) {
    C a, b;
    std::memcpy(&a, acc + i, sizeof a);
    std::memcpy(&b, in + i, sizeof b);
    a = op == Op::Prod ? a * b : a + b;
    std::memcpy(acc + i, &a, sizeof a);
  }
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
  switch (type) {
    case Datatype::Int64:
      return apply_scalar<int64_t>(op, acc, in, bytes);
    case Datatype::Double:
      return apply_scalar<double>(op, acc, in, bytes);
    case Datatype::Int8:
      return apply_scalar<int8_t>(op, acc, in, bytes);
    case Datatype::Uint8:
    case Datatype::Byte:
      return apply_scalar<uint8_t>(op, acc, in, bytes);
    case Datatype::Bool:
      return apply_scalar<uint8_t>(op, acc, in, bytes);
    case Datatype::Int16:
      return apply_scalar<int16_t>(op, acc, in, bytes);
    case Datatype::Uint16:
      return apply_scalar<uint16_t>(op, acc, in, bytes);
    case Datatype::Int32:
      return apply_scalar<int32_t>(op, acc, in, bytes);
    case Datatype::Uint32:
      return apply_scalar<uint32_t>(op, acc, in, bytes);
    case Datatype::Uint64:
      return apply_scalar<uint64_t>(op, acc, in, bytes);
    case Datatype::Float:
      return apply_scalar<float>(op, acc, in, bytes);
    case Datatype::LongDouble:
      return apply_scalar<long double>(op, acc, in, bytes);
    case Datatype::ComplexFloat:
      return apply_complex<float>(op, acc, in, bytes);
    case Datatype::ComplexDouble:
      return apply_complex<double>(op, acc, in, bytes);
    case Datatype::ComplexLongDouble:
      return apply_complex<long double>(op, acc, in, bytes);
    case Datatype::FloatInt:
      return apply_pair<float, 4>(op, acc, in, bytes);
    case Datatype::DoubleInt:
      return apply_pair<double, 8>(op, acc, in, bytes);
    case Datatype::LongInt:
      return apply_pair<int64_t, 8>(op, acc, in, bytes);
    case Datatype::TwoInt:
      return apply_pair<int32_t, 4>(op, acc, in, bytes);
    case Datatype::ShortInt:
      return apply_pair<int16_t, 2>(op, acc, in, bytes);
    case Datatype::LongDoubleInt:
      return apply_pair<long double, 16>(op, acc, in, bytes);
  }
}

}  // namespace hs::fw::mpi
