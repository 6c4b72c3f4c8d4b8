// Datatypes (their constructors, sizes and extents, packing), addresses, and reduction
// operators (the program's own with MPI_Op_create, local reductions).
#include <fmt/format.h>
#include <algorithm>
#include <cmath>
#include <cstring>
#include <stdexcept>

#include "sw/mpi/api/mpi_rank.h"

namespace hs::fw::mpi::api {

namespace {
// A constructor's result, or the reason it was refused.
struct Made {
  std::optional<TypeMap> type;
  std::string why;
};
template <class F>
Made construct(F f) {
  try {
    return {f(), ""};
  } catch (const std::invalid_argument& e) {
    return {std::nullopt, e.what()};
  }
}
}  // namespace

#define HS_TYPE_CHECK(call, old) \
  if (auto e = bad_type(old, call, false)) return raise(MPI_COMM_WORLD, *e)

#define HS_TYPE_MADE(call, made, out)                                                        \
  do {                                                                                       \
    if (!(made).type) {                                                                      \
      return raise(MPI_COMM_WORLD, {MPI_ERR_TYPE, fmt::format("{}: {}", call, (made).why)}); \
    }                                                                                        \
    *(out) = add_type(std::move(*(made).type));                                              \
    return MPI_SUCCESS;                                                                      \
  } while (0)

int MpiRank::Type_contiguous(int count, MPI_Datatype oldtype, MPI_Datatype* newtype) {
  HS_TYPE_CHECK("MPI_Type_contiguous", oldtype);
  if (auto e = bad_count(count, "MPI_Type_contiguous")) return raise(MPI_COMM_WORLD, *e);
  Made m = construct([&] { return contiguous(count, *type_of(oldtype)); });
  HS_TYPE_MADE("MPI_Type_contiguous", m, newtype);
}

int MpiRank::Type_vector(int count, int blocklength, int stride, MPI_Datatype oldtype,
                         MPI_Datatype* newtype) {
  HS_TYPE_CHECK("MPI_Type_vector", oldtype);
  if (auto e = bad_count(count, "MPI_Type_vector")) return raise(MPI_COMM_WORLD, *e);
  if (auto e = bad_count(blocklength, "MPI_Type_vector", "block length")) {
    return raise(MPI_COMM_WORLD, *e);
  }
  const TypeMap& old = *type_of(oldtype);
  Made m = construct([&] { return hvector(count, blocklength, stride * old.extent(), old); });
  HS_TYPE_MADE("MPI_Type_vector", m, newtype);
}

int MpiRank::Type_create_hvector(int count, int blocklength, MPI_Aint stride, MPI_Datatype oldtype,
                                 MPI_Datatype* newtype) {
  HS_TYPE_CHECK("MPI_Type_create_hvector", oldtype);
  if (auto e = bad_count(count, "MPI_Type_create_hvector")) return raise(MPI_COMM_WORLD, *e);
  if (auto e = bad_count(blocklength, "MPI_Type_create_hvector", "block length")) {
    return raise(MPI_COMM_WORLD, *e);
  }
  Made m = construct([&] { return hvector(count, blocklength, stride, *type_of(oldtype)); });
  HS_TYPE_MADE("MPI_Type_create_hvector", m, newtype);
}

int MpiRank::Type_hvector(int count, int blocklength, MPI_Aint stride, MPI_Datatype oldtype,
                          MPI_Datatype* newtype) {
  return Type_create_hvector(count, blocklength, stride, oldtype, newtype);
}

int MpiRank::Type_indexed(int count, const int blocklengths[], const int displacements[],
                          MPI_Datatype oldtype, MPI_Datatype* newtype) {
  HS_TYPE_CHECK("MPI_Type_indexed", oldtype);
  if (auto e = bad_count(count, "MPI_Type_indexed")) return raise(MPI_COMM_WORLD, *e);
  const TypeMap& old = *type_of(oldtype);
  std::vector<int> lens(blocklengths, blocklengths + count);
  std::vector<int64_t> displs;
  for (int i = 0; i < count; ++i) displs.push_back(displacements[i] * old.extent());
  Made m = construct([&] { return hindexed(lens, displs, old); });
  HS_TYPE_MADE("MPI_Type_indexed", m, newtype);
}

int MpiRank::Type_create_hindexed(int count, const int blocklengths[],
                                  const MPI_Aint displacements[], MPI_Datatype oldtype,
                                  MPI_Datatype* newtype) {
  HS_TYPE_CHECK("MPI_Type_create_hindexed", oldtype);
  if (auto e = bad_count(count, "MPI_Type_create_hindexed")) return raise(MPI_COMM_WORLD, *e);
  std::vector<int> lens(blocklengths, blocklengths + count);
  std::vector<int64_t> displs(displacements, displacements + count);
  Made m = construct([&] { return hindexed(lens, displs, *type_of(oldtype)); });
  HS_TYPE_MADE("MPI_Type_create_hindexed", m, newtype);
}

int MpiRank::Type_hindexed(int count, int blocklengths[], MPI_Aint displacements[],
                           MPI_Datatype oldtype, MPI_Datatype* newtype) {
  return Type_create_hindexed(count, blocklengths, displacements, oldtype, newtype);
}

int MpiRank::Type_create_indexed_block(int count, int blocklength, const int displacements[],
                                       MPI_Datatype oldtype, MPI_Datatype* newtype) {
  HS_TYPE_CHECK("MPI_Type_create_indexed_block", oldtype);
  if (auto e = bad_count(count, "MPI_Type_create_indexed_block")) return raise(MPI_COMM_WORLD, *e);
  const TypeMap& old = *type_of(oldtype);
  std::vector<int> lens(static_cast<size_t>(count), blocklength);
  std::vector<int64_t> displs;
  for (int i = 0; i < count; ++i) displs.push_back(displacements[i] * old.extent());
  Made m = construct([&] { return hindexed(lens, displs, old); });
  HS_TYPE_MADE("MPI_Type_create_indexed_block", m, newtype);
}

int MpiRank::Type_create_hindexed_block(int count, int blocklength, const MPI_Aint displacements[],
                                        MPI_Datatype oldtype, MPI_Datatype* newtype) {
  HS_TYPE_CHECK("MPI_Type_create_hindexed_block", oldtype);
  if (auto e = bad_count(count, "MPI_Type_create_hindexed_block")) {
    return raise(MPI_COMM_WORLD, *e);
  }
  std::vector<int> lens(static_cast<size_t>(count), blocklength);
  std::vector<int64_t> displs(displacements, displacements + count);
  Made m = construct([&] { return hindexed(lens, displs, *type_of(oldtype)); });
  HS_TYPE_MADE("MPI_Type_create_hindexed_block", m, newtype);
}

int MpiRank::Type_create_struct(int count, const int blocklengths[], const MPI_Aint displacements[],
                                const MPI_Datatype types[], MPI_Datatype* newtype) {
  if (auto e = bad_count(count, "MPI_Type_create_struct")) return raise(MPI_COMM_WORLD, *e);
  std::vector<const TypeMap*> maps;
  for (int i = 0; i < count; ++i) {
    if (auto e = bad_type(types[i], "MPI_Type_create_struct", false)) {
      return raise(MPI_COMM_WORLD, *e);
    }
    maps.push_back(type_of(types[i]));
  }
  std::vector<int> lens(blocklengths, blocklengths + count);
  std::vector<int64_t> displs(displacements, displacements + count);
  Made m = construct([&] { return create_struct(lens, displs, maps); });
  HS_TYPE_MADE("MPI_Type_create_struct", m, newtype);
}

int MpiRank::Type_struct(int count, int blocklengths[], MPI_Aint displacements[],
                         MPI_Datatype types[], MPI_Datatype* newtype) {
  return Type_create_struct(count, blocklengths, displacements, types, newtype);
}

int MpiRank::Type_create_resized(MPI_Datatype oldtype, MPI_Aint lb, MPI_Aint extent,
                                 MPI_Datatype* newtype) {
  HS_TYPE_CHECK("MPI_Type_create_resized", oldtype);
  *newtype = add_type(resized(*type_of(oldtype), lb, extent));
  return MPI_SUCCESS;
}

int MpiRank::Type_dup(MPI_Datatype oldtype, MPI_Datatype* newtype) {
  HS_TYPE_CHECK("MPI_Type_dup", oldtype);
  TypeMap t = *type_of(oldtype);
  t.predefined = false;
  t.name.clear();
  *newtype = add_type(std::move(t));
  return MPI_SUCCESS;
}

int MpiRank::Type_commit(MPI_Datatype* datatype) {
  if (auto e = bad_type(*datatype, "MPI_Type_commit", false)) return raise(MPI_COMM_WORLD, *e);
  types_.at(*datatype).committed = true;
  return MPI_SUCCESS;
}

int MpiRank::Type_free(MPI_Datatype* datatype) {
  if (auto e = bad_type(*datatype, "MPI_Type_free", false)) return raise(MPI_COMM_WORLD, *e);
  if (types_.at(*datatype).predefined) {
    return raise(MPI_COMM_WORLD, {MPI_ERR_TYPE, fmt::format("MPI_Type_free: {} is predefined",
                                                            type_name(*datatype))});
  }
  types_.erase(*datatype);
  *datatype = MPI_DATATYPE_NULL;
  return MPI_SUCCESS;
}

int MpiRank::Type_size(MPI_Datatype datatype, int* size) {
  if (auto e = bad_type(datatype, "MPI_Type_size", false)) return raise(MPI_COMM_WORLD, *e);
  *size = static_cast<int>(type_of(datatype)->size);
  return MPI_SUCCESS;
}

int MpiRank::Type_get_extent(MPI_Datatype datatype, MPI_Aint* lb, MPI_Aint* extent) {
  if (auto e = bad_type(datatype, "MPI_Type_get_extent", false)) return raise(MPI_COMM_WORLD, *e);
  *lb = type_of(datatype)->lb;
  *extent = type_of(datatype)->extent();
  return MPI_SUCCESS;
}

int MpiRank::Type_extent(MPI_Datatype datatype, MPI_Aint* extent) {
  MPI_Aint lb;
  return Type_get_extent(datatype, &lb, extent);
}

int MpiRank::Type_get_true_extent(MPI_Datatype datatype, MPI_Aint* true_lb, MPI_Aint* true_extent) {
  if (auto e = bad_type(datatype, "MPI_Type_get_true_extent", false)) {
    return raise(MPI_COMM_WORLD, *e);
  }
  *true_lb = type_of(datatype)->true_lb;
  *true_extent = type_of(datatype)->true_extent();
  return MPI_SUCCESS;
}

int MpiRank::Get_address(const void* location, MPI_Aint* address) {
  *address = reinterpret_cast<MPI_Aint>(location);
  return MPI_SUCCESS;
}

int MpiRank::Address(void* location, MPI_Aint* address) {
  return Get_address(location, address);
}

int MpiRank::Pack(const void* inbuf, int incount, MPI_Datatype datatype, void* outbuf, int outsize,
                  int* position, MPI_Comm comm) {
  if (auto e = bad_type(datatype, "MPI_Pack")) return raise(comm, *e);
  if (auto e = bad_count(incount, "MPI_Pack")) return raise(comm, *e);
  const TypeMap& t = *type_of(datatype);
  const uint64_t bytes = static_cast<uint64_t>(incount) * t.size;
  if (*position < 0 || static_cast<uint64_t>(*position) + bytes > static_cast<uint64_t>(outsize)) {
    return raise(comm, {MPI_ERR_TRUNCATE,
                        fmt::format("MPI_Pack: {} B at position {} exceed the buffer's {} B", bytes,
                                    *position, outsize)});
  }
  charge_pack(bytes, pack(t, inbuf, static_cast<uint64_t>(incount),
                          static_cast<char*>(outbuf) + *position));
  *position += static_cast<int>(bytes);
  return MPI_SUCCESS;
}

int MpiRank::Unpack(const void* inbuf, int insize, int* position, void* outbuf, int outcount,
                    MPI_Datatype datatype, MPI_Comm comm) {
  if (auto e = bad_type(datatype, "MPI_Unpack")) return raise(comm, *e);
  if (auto e = bad_count(outcount, "MPI_Unpack")) return raise(comm, *e);
  const TypeMap& t = *type_of(datatype);
  const uint64_t bytes = static_cast<uint64_t>(outcount) * t.size;
  if (*position < 0 || static_cast<uint64_t>(*position) + bytes > static_cast<uint64_t>(insize)) {
    return raise(comm, {MPI_ERR_TRUNCATE,
                        fmt::format("MPI_Unpack: {} B at position {} exceed the buffer's {} B",
                                    bytes, *position, insize)});
  }
  charge_pack(bytes, unpack(t, static_cast<const char*>(inbuf) + *position,
                            static_cast<uint64_t>(outcount), outbuf));
  *position += static_cast<int>(bytes);
  return MPI_SUCCESS;
}

int MpiRank::Pack_size(int incount, MPI_Datatype datatype, MPI_Comm comm, int* size) {
  if (auto e = bad_type(datatype, "MPI_Pack_size", false)) return raise(comm, *e);
  *size = static_cast<int>(static_cast<uint64_t>(std::max(incount, 0)) * type_of(datatype)->size);
  return MPI_SUCCESS;
}

// ---- operators ----

int MpiRank::Op_create(MPI_User_function* function, int commute, MPI_Op* op) {
  if (!function) return raise(MPI_COMM_WORLD, {MPI_ERR_ARG, "MPI_Op_create: null function"});
  const MPI_Op h = static_cast<MPI_Op>(0x58000000 | next_op_++);
  ops_[h] = OpObj{function, commute != 0};
  *op = h;
  return MPI_SUCCESS;
}

int MpiRank::Op_free(MPI_Op* op) {
  auto it = ops_.find(*op);
  if (it == ops_.end() || !it->second.fn) {
    return raise(MPI_COMM_WORLD, {MPI_ERR_OP, "MPI_Op_free: not an operation MPI_Op_create made"});
  }
  ops_.erase(it);
  *op = MPI_OP_NULL;
  return MPI_SUCCESS;
}

int MpiRank::Op_commutative(MPI_Op op, int* commute) {
  auto it = ops_.find(op);
  if (it == ops_.end())
    return raise(MPI_COMM_WORLD, {MPI_ERR_OP, "MPI_Op_commutative: invalid operation"});
  *commute = it->second.commute ? 1 : 0;
  return MPI_SUCCESS;
}

int MpiRank::Reduce_local(const void* inbuf, void* inoutbuf, int count, MPI_Datatype datatype,
                          MPI_Op op) {
  if (auto e = bad_type(datatype, "MPI_Reduce_local")) return raise(MPI_COMM_WORLD, *e);
  if (auto e = bad_count(count, "MPI_Reduce_local")) return raise(MPI_COMM_WORLD, *e);
  CollectiveCall call;
  std::unique_ptr<UserOp> user;
  if (auto e = reduction_of(op, datatype, "MPI_Reduce_local", call, user)) {
    return raise(MPI_COMM_WORLD, *e);
  }
  const TypeMap& t = *type_of(datatype);
  const uint64_t bytes = static_cast<uint64_t>(count) * t.size;
  std::vector<uint8_t> a(bytes), b(bytes);
  pack(t, inbuf, static_cast<uint64_t>(count), a.data());
  pack(t, inoutbuf, static_cast<uint64_t>(count), b.data());
  if (user) {
    user->apply(a.data(), b.data(), static_cast<size_t>(count));
  } else {
    combine(call.op, call.type, b.data(), a.data(), bytes);
    hal().compute(static_cast<uint64_t>(
        std::ceil(static_cast<double>(bytes) * job_.cfg->reduce_cycles_per_byte)));
  }
  unpack(t, b.data(), static_cast<uint64_t>(count), inoutbuf);
  return MPI_SUCCESS;
}

}  // namespace hs::fw::mpi::api
