// Communicators, groups and Cartesian topologies. New communicators are made by the layer
// (Collectives::split_or_none and subset: an allgather on the parent that also agrees on the
// new communicator's slot); a Cartesian one is a communicator with its grid attached, ranks in
// row-major order (reorder is allowed to change nothing, and does not).
#include <fmt/format.h>
#include <algorithm>
#include <cstring>
#include <numeric>

#include "sw/mpi/api/mpi_rank.h"
#include "tlm/common/balanced_dims.h"

namespace hs::fw::mpi::api {

Algorithms fitted_algorithms(const Algorithms& wanted, Comm& comm);

int MpiRank::make_comm(CommObj& parent, std::unique_ptr<Comm> made, MPI_Comm* out) {
  if (!made) {
    *out = MPI_COMM_NULL;
    return MPI_SUCCESS;
  }
  auto c = std::make_unique<CommObj>();
  c->owned = std::move(made);
  c->comm = c->owned.get();
  c->coll = std::make_unique<Collectives>(*c->comm, fitted_algorithms(*job_.algorithms, *c->comm));
  c->errhandler = parent.errhandler;
  *out = add_comm(std::move(c));
  return MPI_SUCCESS;
}

int MpiRank::Comm_size(MPI_Comm comm, int* size) {
  if (const int rc = check_initialized("MPI_Comm_size")) return rc;
  if (auto e = bad_comm(comm, "MPI_Comm_size")) return raise(MPI_COMM_WORLD, *e);
  *size = comm_of(comm)->comm->size();
  return MPI_SUCCESS;
}

int MpiRank::Comm_rank(MPI_Comm comm, int* rank) {
  if (const int rc = check_initialized("MPI_Comm_rank")) return rc;
  if (auto e = bad_comm(comm, "MPI_Comm_rank")) return raise(MPI_COMM_WORLD, *e);
  *rank = comm_of(comm)->comm->rank();
  return MPI_SUCCESS;
}

int MpiRank::Comm_dup(MPI_Comm comm, MPI_Comm* newcomm) {
  if (const int rc = check_initialized("MPI_Comm_dup")) return rc;
  if (auto e = bad_comm(comm, "MPI_Comm_dup")) return raise(MPI_COMM_WORLD, *e);
  CommObj& c = *comm_of(comm);
  current_.comm = comm;
  std::vector<int> all(static_cast<size_t>(c.comm->size()));
  std::iota(all.begin(), all.end(), 0);
  const int rc = make_comm(c, c.coll->subset(all), newcomm);
  if (rc == MPI_SUCCESS && *newcomm != MPI_COMM_NULL) {
    CommObj& d = *comm_of(*newcomm);
    d.cart = c.cart;
    d.dims = c.dims;
    d.periods = c.periods;
  }
  return rc;
}

int MpiRank::Comm_split(MPI_Comm comm, int color, int key, MPI_Comm* newcomm) {
  if (const int rc = check_initialized("MPI_Comm_split")) return rc;
  if (auto e = bad_comm(comm, "MPI_Comm_split")) return raise(MPI_COMM_WORLD, *e);
  if (color < 0 && color != MPI_UNDEFINED) {
    return raise(comm, {MPI_ERR_ARG, fmt::format("MPI_Comm_split: colour {} (a colour is "
                                                 "non-negative, or MPI_UNDEFINED)",
                                                 color)});
  }
  CommObj& c = *comm_of(comm);
  current_.comm = comm;
  return make_comm(c, c.coll->split_or_none(color == MPI_UNDEFINED ? -1 : color, key), newcomm);
}

int MpiRank::Comm_create(MPI_Comm comm, MPI_Group group, MPI_Comm* newcomm) {
  if (const int rc = check_initialized("MPI_Comm_create")) return rc;
  if (auto e = bad_comm(comm, "MPI_Comm_create")) return raise(MPI_COMM_WORLD, *e);
  CommObj& c = *comm_of(comm);
  GroupObj* g = group_of(group);
  if (!g) return raise(comm, {MPI_ERR_GROUP, "MPI_Comm_create: invalid group"});
  std::vector<int> members;
  for (int w : g->world) {
    int at = -1;
    for (int r = 0; r < c.comm->size(); ++r) {
      if (c.comm->world_rank(r) == w) at = r;
    }
    if (at < 0) {
      return raise(comm, {MPI_ERR_GROUP,
                          fmt::format("MPI_Comm_create: world rank {} of the group is not in {}", w,
                                      comm_name(comm))});
    }
    members.push_back(at);
  }
  current_.comm = comm;
  return make_comm(c, c.coll->subset(members), newcomm);
}

int MpiRank::Comm_free(MPI_Comm* comm) {
  if (const int rc = check_initialized("MPI_Comm_free")) return rc;
  if (*comm == MPI_COMM_WORLD || *comm == MPI_COMM_SELF) {
    return raise(
        *comm, {MPI_ERR_COMM, fmt::format("MPI_Comm_free: {} cannot be freed", comm_name(*comm))});
  }
  if (auto e = bad_comm(*comm, "MPI_Comm_free")) return raise(MPI_COMM_WORLD, *e);
  comms_.erase(*comm);  // its slot is free again
  *comm = MPI_COMM_NULL;
  return MPI_SUCCESS;
}

int MpiRank::Comm_compare(MPI_Comm comm1, MPI_Comm comm2, int* result) {
  if (auto e = bad_comm(comm1, "MPI_Comm_compare")) return raise(MPI_COMM_WORLD, *e);
  if (auto e = bad_comm(comm2, "MPI_Comm_compare")) return raise(MPI_COMM_WORLD, *e);
  if (comm1 == comm2) {
    *result = MPI_IDENT;
    return MPI_SUCCESS;
  }
  const Comm& a = *comm_of(comm1)->comm;
  const Comm& b = *comm_of(comm2)->comm;
  std::vector<int> wa, wb;
  for (int r = 0; r < a.size(); ++r) wa.push_back(a.world_rank(r));
  for (int r = 0; r < b.size(); ++r) wb.push_back(b.world_rank(r));
  if (wa == wb) {
    *result = MPI_CONGRUENT;
    return MPI_SUCCESS;
  }
  std::sort(wa.begin(), wa.end());
  std::sort(wb.begin(), wb.end());
  *result = wa == wb ? MPI_SIMILAR : MPI_UNEQUAL;
  return MPI_SUCCESS;
}

int MpiRank::Comm_group(MPI_Comm comm, MPI_Group* group) {
  if (const int rc = check_initialized("MPI_Comm_group")) return rc;
  if (auto e = bad_comm(comm, "MPI_Comm_group")) return raise(MPI_COMM_WORLD, *e);
  const Comm& c = *comm_of(comm)->comm;
  std::vector<int> world;
  for (int r = 0; r < c.size(); ++r) world.push_back(c.world_rank(r));
  *group = add_group(std::move(world));
  return MPI_SUCCESS;
}

int MpiRank::Comm_test_inter(MPI_Comm comm, int* flag) {
  if (auto e = bad_comm(comm, "MPI_Comm_test_inter")) return raise(MPI_COMM_WORLD, *e);
  *flag = 0;
  return MPI_SUCCESS;
}

int MpiRank::Comm_set_name(MPI_Comm comm, const char* name) {
  if (auto e = bad_comm(comm, "MPI_Comm_set_name")) return raise(MPI_COMM_WORLD, *e);
  comm_of(comm)->name = std::string(name).substr(0, MPI_MAX_OBJECT_NAME - 1);
  return MPI_SUCCESS;
}

int MpiRank::Comm_get_name(MPI_Comm comm, char* name, int* resultlen) {
  if (auto e = bad_comm(comm, "MPI_Comm_get_name")) return raise(MPI_COMM_WORLD, *e);
  const std::string& n = comm_of(comm)->name;
  std::memcpy(name, n.c_str(), n.size() + 1);
  *resultlen = static_cast<int>(n.size());
  return MPI_SUCCESS;
}

int MpiRank::Comm_get_attr(MPI_Comm comm, int keyval, void* attribute_val, int* flag) {
  if (auto e = bad_comm(comm, "MPI_Comm_get_attr")) return raise(MPI_COMM_WORLD, *e);
  int* value = nullptr;
  switch (keyval) {
    case MPI_TAG_UB:
      attr_tag_ub_ = kTagUpperBound;
      value = &attr_tag_ub_;
      break;
    case MPI_HOST:
      attr_host_ = MPI_PROC_NULL;
      value = &attr_host_;
      break;
    case MPI_IO:
      attr_io_ = MPI_ANY_SOURCE;  // every rank may do input and output
      value = &attr_io_;
      break;
    case MPI_WTIME_IS_GLOBAL:
      attr_wtime_global_ = 1;  // one simulated clock for every core
      value = &attr_wtime_global_;
      break;
    case MPI_UNIVERSE_SIZE:
      attr_universe_ = job_.map->size();
      value = &attr_universe_;
      break;
    case MPI_APPNUM:
      attr_appnum_ = 0;
      value = &attr_appnum_;
      break;
    default:
      *flag = 0;
      return MPI_SUCCESS;
  }
  *static_cast<int**>(attribute_val) = value;
  *flag = 1;
  return MPI_SUCCESS;
}

// ---- groups ----

namespace {
int index_of(const std::vector<int>& v, int x) {
  const auto it = std::find(v.begin(), v.end(), x);
  return it == v.end() ? MPI_UNDEFINED : static_cast<int>(it - v.begin());
}
}  // namespace

int MpiRank::Group_size(MPI_Group group, int* size) {
  GroupObj* g = group_of(group);
  if (!g) return raise(MPI_COMM_WORLD, {MPI_ERR_GROUP, "MPI_Group_size: invalid group"});
  *size = static_cast<int>(g->world.size());
  return MPI_SUCCESS;
}

int MpiRank::Group_rank(MPI_Group group, int* rank) {
  GroupObj* g = group_of(group);
  if (!g) return raise(MPI_COMM_WORLD, {MPI_ERR_GROUP, "MPI_Group_rank: invalid group"});
  *rank = index_of(g->world, world_rank_);
  return MPI_SUCCESS;
}

int MpiRank::Group_incl(MPI_Group group, int n, const int ranks[], MPI_Group* newgroup) {
  GroupObj* g = group_of(group);
  if (!g) return raise(MPI_COMM_WORLD, {MPI_ERR_GROUP, "MPI_Group_incl: invalid group"});
  std::vector<int> w;
  for (int i = 0; i < n; ++i) {
    if (ranks[i] < 0 || ranks[i] >= static_cast<int>(g->world.size()) ||
        index_of(w, g->world[static_cast<size_t>(ranks[i])]) != MPI_UNDEFINED) {
      return raise(MPI_COMM_WORLD,
                   {MPI_ERR_RANK, fmt::format("MPI_Group_incl: rank {} is outside the group of {} "
                                              "or given twice",
                                              ranks[i], g->world.size())});
    }
    w.push_back(g->world[static_cast<size_t>(ranks[i])]);
  }
  *newgroup = add_group(std::move(w));
  return MPI_SUCCESS;
}

int MpiRank::Group_excl(MPI_Group group, int n, const int ranks[], MPI_Group* newgroup) {
  GroupObj* g = group_of(group);
  if (!g) return raise(MPI_COMM_WORLD, {MPI_ERR_GROUP, "MPI_Group_excl: invalid group"});
  std::vector<bool> out(g->world.size(), false);
  for (int i = 0; i < n; ++i) {
    if (ranks[i] < 0 || ranks[i] >= static_cast<int>(g->world.size()) ||
        out[static_cast<size_t>(ranks[i])]) {
      return raise(MPI_COMM_WORLD,
                   {MPI_ERR_RANK, fmt::format("MPI_Group_excl: rank {} is outside the group of {} "
                                              "or given twice",
                                              ranks[i], g->world.size())});
    }
    out[static_cast<size_t>(ranks[i])] = true;
  }
  std::vector<int> w;
  for (size_t i = 0; i < g->world.size(); ++i) {
    if (!out[i]) w.push_back(g->world[i]);
  }
  *newgroup = add_group(std::move(w));
  return MPI_SUCCESS;
}

namespace {
// The ranks a list of (first, last, stride) triplets names, in order.
bool expand_ranges(int n, int ranges[][3], int size, std::vector<int>& out) {
  for (int i = 0; i < n; ++i) {
    const int first = ranges[i][0], last = ranges[i][1], stride = ranges[i][2];
    if (stride == 0) return false;
    for (int r = first; stride > 0 ? r <= last : r >= last; r += stride) {
      if (r < 0 || r >= size) return false;
      out.push_back(r);
    }
  }
  return true;
}
}  // namespace

int MpiRank::Group_range_incl(MPI_Group group, int n, int ranges[][3], MPI_Group* newgroup) {
  GroupObj* g = group_of(group);
  if (!g) return raise(MPI_COMM_WORLD, {MPI_ERR_GROUP, "MPI_Group_range_incl: invalid group"});
  std::vector<int> ranks;
  if (!expand_ranges(n, ranges, static_cast<int>(g->world.size()), ranks)) {
    return raise(MPI_COMM_WORLD, {MPI_ERR_ARG, "MPI_Group_range_incl: a range is invalid"});
  }
  return Group_incl(group, static_cast<int>(ranks.size()), ranks.data(), newgroup);
}

int MpiRank::Group_range_excl(MPI_Group group, int n, int ranges[][3], MPI_Group* newgroup) {
  GroupObj* g = group_of(group);
  if (!g) return raise(MPI_COMM_WORLD, {MPI_ERR_GROUP, "MPI_Group_range_excl: invalid group"});
  std::vector<int> ranks;
  if (!expand_ranges(n, ranges, static_cast<int>(g->world.size()), ranks)) {
    return raise(MPI_COMM_WORLD, {MPI_ERR_ARG, "MPI_Group_range_excl: a range is invalid"});
  }
  return Group_excl(group, static_cast<int>(ranks.size()), ranks.data(), newgroup);
}

int MpiRank::Group_union(MPI_Group group1, MPI_Group group2, MPI_Group* newgroup) {
  GroupObj *a = group_of(group1), *b = group_of(group2);
  if (!a || !b) return raise(MPI_COMM_WORLD, {MPI_ERR_GROUP, "MPI_Group_union: invalid group"});
  std::vector<int> w = a->world;
  for (int x : b->world) {
    if (index_of(w, x) == MPI_UNDEFINED) w.push_back(x);
  }
  *newgroup = add_group(std::move(w));
  return MPI_SUCCESS;
}

int MpiRank::Group_intersection(MPI_Group group1, MPI_Group group2, MPI_Group* newgroup) {
  GroupObj *a = group_of(group1), *b = group_of(group2);
  if (!a || !b) {
    return raise(MPI_COMM_WORLD, {MPI_ERR_GROUP, "MPI_Group_intersection: invalid group"});
  }
  std::vector<int> w;
  for (int x : a->world) {
    if (index_of(b->world, x) != MPI_UNDEFINED) w.push_back(x);
  }
  *newgroup = add_group(std::move(w));
  return MPI_SUCCESS;
}

int MpiRank::Group_difference(MPI_Group group1, MPI_Group group2, MPI_Group* newgroup) {
  GroupObj *a = group_of(group1), *b = group_of(group2);
  if (!a || !b) {
    return raise(MPI_COMM_WORLD, {MPI_ERR_GROUP, "MPI_Group_difference: invalid group"});
  }
  std::vector<int> w;
  for (int x : a->world) {
    if (index_of(b->world, x) == MPI_UNDEFINED) w.push_back(x);
  }
  *newgroup = add_group(std::move(w));
  return MPI_SUCCESS;
}

int MpiRank::Group_translate_ranks(MPI_Group group1, int n, const int ranks1[], MPI_Group group2,
                                   int ranks2[]) {
  GroupObj *a = group_of(group1), *b = group_of(group2);
  if (!a || !b) {
    return raise(MPI_COMM_WORLD, {MPI_ERR_GROUP, "MPI_Group_translate_ranks: invalid group"});
  }
  for (int i = 0; i < n; ++i) {
    if (ranks1[i] == MPI_PROC_NULL) {
      ranks2[i] = MPI_PROC_NULL;
      continue;
    }
    if (ranks1[i] < 0 || ranks1[i] >= static_cast<int>(a->world.size())) {
      return raise(MPI_COMM_WORLD,
                   {MPI_ERR_RANK, fmt::format("MPI_Group_translate_ranks: rank {} is outside the "
                                              "first group of {}",
                                              ranks1[i], a->world.size())});
    }
    ranks2[i] = index_of(b->world, a->world[static_cast<size_t>(ranks1[i])]);
  }
  return MPI_SUCCESS;
}

int MpiRank::Group_compare(MPI_Group group1, MPI_Group group2, int* result) {
  GroupObj *a = group_of(group1), *b = group_of(group2);
  if (!a || !b) return raise(MPI_COMM_WORLD, {MPI_ERR_GROUP, "MPI_Group_compare: invalid group"});
  if (a->world == b->world) {
    *result = MPI_IDENT;
    return MPI_SUCCESS;
  }
  std::vector<int> x = a->world, y = b->world;
  std::sort(x.begin(), x.end());
  std::sort(y.begin(), y.end());
  *result = x == y ? MPI_SIMILAR : MPI_UNEQUAL;
  return MPI_SUCCESS;
}

int MpiRank::Group_free(MPI_Group* group) {
  if (*group != MPI_GROUP_EMPTY) {
    if (!group_of(*group))
      return raise(MPI_COMM_WORLD, {MPI_ERR_GROUP, "MPI_Group_free: invalid group"});
    groups_.erase(*group);
  }
  *group = MPI_GROUP_NULL;
  return MPI_SUCCESS;
}

// ---- Cartesian topologies ----

int MpiRank::Dims_create(int nnodes, int ndims, int dims[]) {
  if (nnodes <= 0 || ndims < 0) {
    return raise(MPI_COMM_WORLD, {MPI_ERR_DIMS, fmt::format("MPI_Dims_create: {} nodes in {} "
                                                            "dimensions",
                                                            nnodes, ndims)});
  }
  int fixed = 1, free = 0;
  for (int i = 0; i < ndims; ++i) {
    if (dims[i] < 0) {
      return raise(MPI_COMM_WORLD,
                   {MPI_ERR_DIMS, fmt::format("MPI_Dims_create: dims[{}] = {}", i, dims[i])});
    }
    if (dims[i] > 0) {
      fixed *= dims[i];
    } else {
      ++free;
    }
  }
  if (nnodes % fixed != 0) {
    return raise(MPI_COMM_WORLD,
                 {MPI_ERR_DIMS, fmt::format("MPI_Dims_create: the given dimensions ({} nodes) do "
                                            "not divide {}",
                                            fixed, nnodes)});
  }
  if (free == 0) {
    if (fixed != nnodes) {
      return raise(MPI_COMM_WORLD, {MPI_ERR_DIMS,
                                    "MPI_Dims_create: the dimensions do not multiply "
                                    "to the nodes"});
    }
    return MPI_SUCCESS;
  }
  // The rest split as evenly as it goes over the free dimensions.
  const std::vector<int> out = hs::balanced_dims(nnodes / fixed, free);
  size_t k = 0;
  for (int i = 0; i < ndims; ++i) {
    if (dims[i] == 0) dims[i] = out[k++];
  }
  return MPI_SUCCESS;
}

int MpiRank::Cart_create(MPI_Comm comm_old, int ndims, const int dims[], const int periods[],
                         int reorder, MPI_Comm* comm_cart) {
  (void)reorder;  // the ranks keep their order: allowed, and the mapping is the job's own
  if (const int rc = check_initialized("MPI_Cart_create")) return rc;
  if (auto e = bad_comm(comm_old, "MPI_Cart_create")) return raise(MPI_COMM_WORLD, *e);
  CommObj& c = *comm_of(comm_old);
  int64_t size = 1;
  for (int i = 0; i < ndims; ++i) {
    if (dims[i] <= 0) {
      return raise(comm_old,
                   {MPI_ERR_DIMS, fmt::format("MPI_Cart_create: dims[{}] = {}", i, dims[i])});
    }
    size *= dims[i];
  }
  if (ndims < 0 || size > c.comm->size()) {
    return raise(comm_old,
                 {MPI_ERR_DIMS, fmt::format("MPI_Cart_create: a grid of {} ranks on {} of {}", size,
                                            comm_name(comm_old), c.comm->size())});
  }
  current_.comm = comm_old;
  const int me = c.comm->rank();
  const int rc = make_comm(c, c.coll->split_or_none(me < size ? 0 : -1, me), comm_cart);
  if (rc == MPI_SUCCESS && *comm_cart != MPI_COMM_NULL) {
    CommObj& cart = *comm_of(*comm_cart);
    cart.cart = true;
    cart.dims.assign(dims, dims + ndims);
    cart.periods.assign(periods, periods + ndims);
  }
  return rc;
}

namespace {
// Row-major: the last dimension varies fastest.
std::vector<int> coords_of(const std::vector<int>& dims, int rank) {
  std::vector<int> c(dims.size());
  for (size_t i = dims.size(); i-- > 0;) {
    c[i] = rank % dims[i];
    rank /= dims[i];
  }
  return c;
}
}  // namespace

int MpiRank::Cart_coords(MPI_Comm comm, int rank, int maxdims, int coords[]) {
  if (auto e = bad_comm(comm, "MPI_Cart_coords")) return raise(MPI_COMM_WORLD, *e);
  CommObj& c = *comm_of(comm);
  if (!c.cart)
    return raise(comm, {MPI_ERR_TOPOLOGY, "MPI_Cart_coords: not a Cartesian communicator"});
  if (auto e = bad_rank(comm, rank, "MPI_Cart_coords", "", false, false)) return raise(comm, *e);
  const auto v = coords_of(c.dims, rank);
  for (int i = 0; i < maxdims && i < static_cast<int>(v.size()); ++i)
    coords[i] = v[static_cast<size_t>(i)];
  return MPI_SUCCESS;
}

int MpiRank::Cart_rank(MPI_Comm comm, const int coords[], int* rank) {
  if (auto e = bad_comm(comm, "MPI_Cart_rank")) return raise(MPI_COMM_WORLD, *e);
  CommObj& c = *comm_of(comm);
  if (!c.cart)
    return raise(comm, {MPI_ERR_TOPOLOGY, "MPI_Cart_rank: not a Cartesian communicator"});
  int r = 0;
  for (size_t i = 0; i < c.dims.size(); ++i) {
    int x = coords[i];
    if (c.periods[i]) {
      x = ((x % c.dims[i]) + c.dims[i]) % c.dims[i];
    } else if (x < 0 || x >= c.dims[i]) {
      return raise(comm, {MPI_ERR_ARG, fmt::format("MPI_Cart_rank: coordinate {} of dimension {} "
                                                   "is outside 0..{} (not periodic)",
                                                   x, i, c.dims[i] - 1)});
    }
    r = r * c.dims[i] + x;
  }
  *rank = r;
  return MPI_SUCCESS;
}

int MpiRank::Cart_shift(MPI_Comm comm, int direction, int disp, int* rank_source, int* rank_dest) {
  if (auto e = bad_comm(comm, "MPI_Cart_shift")) return raise(MPI_COMM_WORLD, *e);
  CommObj& c = *comm_of(comm);
  if (!c.cart)
    return raise(comm, {MPI_ERR_TOPOLOGY, "MPI_Cart_shift: not a Cartesian communicator"});
  if (direction < 0 || direction >= static_cast<int>(c.dims.size())) {
    return raise(comm, {MPI_ERR_ARG, fmt::format("MPI_Cart_shift: direction {} of a {}-dimensional "
                                                 "grid",
                                                 direction, c.dims.size())});
  }
  const auto me = coords_of(c.dims, c.comm->rank());
  const auto neighbour = [&](int d) {
    auto x = me;
    const auto k = static_cast<size_t>(direction);
    x[k] += d;
    if (c.periods[k]) {
      x[k] = ((x[k] % c.dims[k]) + c.dims[k]) % c.dims[k];
    } else if (x[k] < 0 || x[k] >= c.dims[k]) {
      return MPI_PROC_NULL;
    }
    int r = 0;
    for (size_t i = 0; i < c.dims.size(); ++i) r = r * c.dims[i] + x[i];
    return r;
  };
  *rank_source = neighbour(-disp);
  *rank_dest = neighbour(disp);
  return MPI_SUCCESS;
}

int MpiRank::Cart_sub(MPI_Comm comm, const int remain_dims[], MPI_Comm* newcomm) {
  if (const int rc = check_initialized("MPI_Cart_sub")) return rc;
  if (auto e = bad_comm(comm, "MPI_Cart_sub")) return raise(MPI_COMM_WORLD, *e);
  CommObj& c = *comm_of(comm);
  if (!c.cart) return raise(comm, {MPI_ERR_TOPOLOGY, "MPI_Cart_sub: not a Cartesian communicator"});
  const auto me = coords_of(c.dims, c.comm->rank());
  // Ranks agreeing on every dropped dimension share a sub-grid; row-major order is rank order.
  int color = 0;
  std::vector<int> dims, periods;
  for (size_t i = 0; i < c.dims.size(); ++i) {
    if (remain_dims[i]) {
      dims.push_back(c.dims[i]);
      periods.push_back(c.periods[i]);
    } else {
      color = color * c.dims[i] + me[i];
    }
  }
  current_.comm = comm;
  const int rc = make_comm(c, c.coll->split_or_none(color, c.comm->rank()), newcomm);
  if (rc == MPI_SUCCESS && *newcomm != MPI_COMM_NULL) {
    CommObj& sub = *comm_of(*newcomm);
    sub.cart = true;
    sub.dims = dims;
    sub.periods = periods;
  }
  return rc;
}

int MpiRank::Cart_get(MPI_Comm comm, int maxdims, int dims[], int periods[], int coords[]) {
  if (auto e = bad_comm(comm, "MPI_Cart_get")) return raise(MPI_COMM_WORLD, *e);
  CommObj& c = *comm_of(comm);
  if (!c.cart) return raise(comm, {MPI_ERR_TOPOLOGY, "MPI_Cart_get: not a Cartesian communicator"});
  const auto me = coords_of(c.dims, c.comm->rank());
  for (int i = 0; i < maxdims && i < static_cast<int>(c.dims.size()); ++i) {
    const auto k = static_cast<size_t>(i);
    dims[i] = c.dims[k];
    periods[i] = c.periods[k];
    coords[i] = me[k];
  }
  return MPI_SUCCESS;
}

int MpiRank::Cartdim_get(MPI_Comm comm, int* ndims) {
  if (auto e = bad_comm(comm, "MPI_Cartdim_get")) return raise(MPI_COMM_WORLD, *e);
  CommObj& c = *comm_of(comm);
  if (!c.cart)
    return raise(comm, {MPI_ERR_TOPOLOGY, "MPI_Cartdim_get: not a Cartesian communicator"});
  *ndims = static_cast<int>(c.dims.size());
  return MPI_SUCCESS;
}

int MpiRank::Topo_test(MPI_Comm comm, int* status) {
  if (auto e = bad_comm(comm, "MPI_Topo_test")) return raise(MPI_COMM_WORLD, *e);
  *status = comm_of(comm)->cart ? MPI_CART : MPI_UNDEFINED;
  return MPI_SUCCESS;
}

}  // namespace hs::fw::mpi::api
