// MPI datatypes as the binding keeps them: a type map flattened into runs of bytes, so that
// packing a buffer (for the wire, which carries bytes) and unpacking it are loops over runs.
//
// Rules:
// - A run is (offset from the element's start, length); runs of one element are in type-map
//   order, neighbours merged. Element j of a buffer lies at j x extent.
// - size is the bytes an element carries (what a message of it holds); lb, ub and extent as
//   the MPI standard defines them (a resized type's are its own); true_lb and true_ub bound the
//   bytes really touched.
// - `element` is the predefined type every byte of the type map belongs to, when there is one
//   (a contiguous or vector of MPI_INT, MPI_DOUBLE_INT itself): reductions with predefined
//   operators need it. Mixed types have none.
// - A type map is capped at kMaxRuns runs (a vector of a million single integers is a million
//   runs); beyond it the constructor is refused (MPI_ERR_TYPE, saying why).
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "sw/mpi/reduce_op.h"

namespace hs::fw::mpi::api {

struct TypeMap {
  static constexpr size_t kMaxRuns = size_t{1} << 22;

  std::vector<std::pair<int64_t, uint64_t>> runs;
  uint64_t size = 0;
  int64_t lb = 0, ub = 0;
  int64_t true_lb = 0, true_ub = 0;
  std::optional<Datatype> element;  // the one predefined element type, if any
  uint64_t basic_count = 0;         // predefined elements an element holds (MPI_Get_elements)
  bool predefined = false;
  bool committed = false;
  std::string name;  // predefined ones: "MPI_INT"

  int64_t extent() const { return ub - lb; }
  int64_t true_extent() const { return true_ub - true_lb; }
  // count elements are one run of count x size bytes at offset 0: no packing needed.
  bool contiguous() const {
    return size > 0 && runs.size() == 1 && runs[0].first == 0 && runs[0].second == size &&
           lb == 0 && static_cast<uint64_t>(ub) == size;
  }
  uint64_t element_bytes() const { return element ? datatype_size(*element) : 0; }
};

// A predefined type: `bytes` wide, `extent` apart (pair types have holes), of element `e`.
TypeMap predefined_type(const std::string& name, uint64_t bytes, uint64_t extent,
                        std::optional<Datatype> e,
                        const std::vector<std::pair<int64_t, uint64_t>>& runs = {});

// The constructors of MPI; each throws std::invalid_argument with the reason when the result
// would exceed kMaxRuns or its arguments make no sense (a negative count is checked by the
// caller, which knows which argument it was).
TypeMap contiguous(int count, const TypeMap& old);
TypeMap hvector(int count, int blocklength, int64_t stride_bytes, const TypeMap& old);
TypeMap hindexed(const std::vector<int>& blocklengths, const std::vector<int64_t>& displs_bytes,
                 const TypeMap& old);
TypeMap create_struct(const std::vector<int>& blocklengths,
                      const std::vector<int64_t>& displs_bytes,
                      const std::vector<const TypeMap*>& types);
TypeMap resized(const TypeMap& old, int64_t lb, int64_t extent);

// Packs `count` elements of `t` from `src` into `dst` (count x size bytes); unpacks back.
// Returns the runs touched (the core's cost per run).
uint64_t pack(const TypeMap& t, const void* src, uint64_t count, void* dst);
uint64_t unpack(const TypeMap& t, const void* src, uint64_t count, void* dst);
// Unpacks only the first `bytes` of packed data (a short message).
uint64_t unpack_bytes(const TypeMap& t, const void* src, uint64_t bytes, void* dst);

}  // namespace hs::fw::mpi::api
