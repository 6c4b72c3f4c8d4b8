// Collectives, blocking and not, over the layer's collectives (sw/mpi/collectives.h) and
// schedules (sw/mpi/schedule.h): each call's buffers are turned into the layer's byte blocks
// (in place, or staged and unpacked when it is over), MPI_IN_PLACE into the buffer it stands
// for, and the operator into the layer's (or the program's own function).
#include <fmt/format.h>
#include <algorithm>
#include <cstring>
#include <numeric>

#include "sw/mpi/api/mpi_rank.h"

namespace hs::fw::mpi::api {

struct MpiRank::CollArgs {
  const char* call = "";
  Collective kind = Collective::Barrier;
  MPI_Comm comm = MPI_COMM_NULL;
  const void* sendbuf = nullptr;
  int scount = 0;
  MPI_Datatype stype = MPI_DATATYPE_NULL;
  const int* scounts = nullptr;
  const int* sdispls = nullptr;
  void* recvbuf = nullptr;
  int rcount = 0;
  MPI_Datatype rtype = MPI_DATATYPE_NULL;
  const int* rcounts = nullptr;
  const int* rdispls = nullptr;
  MPI_Op op = MPI_OP_NULL;
  int root = 0;
  MPI_Request* request = nullptr;

  // A reduction's: `count` elements (or the receive `counts` of Reduce_scatter) of `type`.
  static CollArgs reduction(const char* call, Collective kind, MPI_Comm comm, const void* sendbuf,
                            void* recvbuf, int count, const int* counts, MPI_Datatype type,
                            MPI_Op op, int root, MPI_Request* request) {
    CollArgs a;
    a.call = call;
    a.kind = kind;
    a.comm = comm;
    a.sendbuf = sendbuf;
    a.recvbuf = recvbuf;
    a.rcount = count;
    a.rcounts = counts;
    a.rtype = type;
    a.op = op;
    a.root = root;
    a.request = request;
    return a;
  }
};

namespace {

Op predefined_op(MPI_Op op, bool& ok) {
  ok = true;
  switch (op) {
    case MPI_MAX:
      return Op::Max;
    case MPI_MIN:
      return Op::Min;
    case MPI_SUM:
      return Op::Sum;
    case MPI_PROD:
      return Op::Prod;
    case MPI_LAND:
      return Op::Land;
    case MPI_BAND:
      return Op::Band;
    case MPI_LOR:
      return Op::Lor;
    case MPI_BOR:
      return Op::Bor;
    case MPI_LXOR:
      return Op::Lxor;
    case MPI_BXOR:
      return Op::Bxor;
    case MPI_MINLOC:
      return Op::Minloc;
    case MPI_MAXLOC:
      return Op::Maxloc;
    default:
      ok = false;
      return Op::Sum;
  }
}

const char* op_label(MPI_Op op) {
  static const char* names[] = {"",         "MPI_MAX",    "MPI_MIN",    "MPI_SUM",     "MPI_PROD",
                                "MPI_LAND", "MPI_BAND",   "MPI_LOR",    "MPI_BOR",     "MPI_LXOR",
                                "MPI_BXOR", "MPI_MINLOC", "MPI_MAXLOC", "MPI_REPLACE", "MPI_NO_OP"};
  const int i = op - MPI_MAX + 1;
  return i >= 1 && i <= 14 ? names[i] : "a user operation";
}

}  // namespace

std::optional<MpiRank::Error> MpiRank::reduction_of(MPI_Op op, MPI_Datatype type, const char* call,
                                                    CollectiveCall& into,
                                                    std::unique_ptr<UserOp>& user) {
  auto it = ops_.find(op);
  if (it == ops_.end()) {
    return Error{MPI_ERR_OP, fmt::format("{}: invalid reduction operation", call)};
  }
  const TypeMap& t = *type_of(type);
  if (!it->second.fn) {
    bool ok = false;
    const Op o = predefined_op(op, ok);
    if (!ok) {
      return Error{MPI_ERR_OP,
                   fmt::format("{}: {} is not a reduction operation", call, op_label(op))};
    }
    if (!t.element || !op_allowed(o, *t.element)) {
      return Error{MPI_ERR_OP,
                   fmt::format("{}: {} is not defined on {}", call, op_label(op), type_name(type))};
    }
    into.op = o;
    into.type = *t.element;
    return std::nullopt;
  }
  // The program's own function, called on elements as the program lays them out.
  MPI_User_function* fn = it->second.fn;
  user = std::make_unique<UserOp>();
  user->commutative = it->second.commute;
  user->element_bytes = t.size == 0 ? 1 : t.size;
  user->apply = [this, fn, type, &t](const uint8_t* in, uint8_t* inout, size_t count) {
    int len = static_cast<int>(count);
    MPI_Datatype dt = type;
    if (t.contiguous()) {
      program_.run_program_code([&] { fn(const_cast<uint8_t*>(in), inout, &len, &dt); });
      return;
    }
    const uint64_t span = count * static_cast<uint64_t>(t.extent());
    std::vector<char> a(span + 64), b(span + 64);
    char* ua = a.data() - t.lb;
    char* ub = b.data() - t.lb;
    unpack(t, in, count, ua);
    unpack(t, inout, count, ub);
    program_.run_program_code([&] { fn(ua, ub, &len, &dt); });
    pack(t, ub, count, inout);
  };
  into.op = Op::User;
  into.type = t.element.value_or(Datatype::Byte);
  into.user = user.get();
  return std::nullopt;
}

int MpiRank::collective(CommObj& c, CollectiveCall call, std::function<void()> finish,
                        std::vector<Staged> temporaries, MPI_Request* request,
                        std::unique_ptr<UserOp> user) {
  if (!request) {
    c.coll->run_call(std::move(call));
    if (finish) finish();
    for (auto& t : temporaries) release(t);
    return MPI_SUCCESS;
  }
  auto r = std::make_unique<Req>();
  r->kind = Req::Coll;
  r->what = current_.name ? current_.name : "a non-blocking collective";
  r->comm = MPI_COMM_NULL;
  r->site = program_.runtime_call_site();
  r->schedule = std::make_unique<Schedule>(
      *c.comm, std::move(call), [this](uint64_t bytes) { return heap_take(bytes); },
      [this](uint64_t sim) { heap_give(sim); });
  build_schedule(*r->schedule);
  r->on_complete = std::move(finish);
  r->temporaries = std::move(temporaries);
  r->user_op = std::move(user);  // the call points at it: it lives as long as the request
  Req& req = *r;
  const MPI_Request h = add_request(std::move(r));
  background_.push_back(h);
  poll(req);  // its first steps go out now
  *request = h;
  return MPI_SUCCESS;
}

// The common checks of every collective.
#define HS_COLL_CHECKS(a, comm_obj)                                            \
  if (const int rc = check_initialized((a).call)) return rc;                   \
  if (auto e = bad_comm((a).comm, (a).call)) return raise(MPI_COMM_WORLD, *e); \
  CommObj& comm_obj = *comm_of((a).comm);                                      \
  current_.comm = (a).comm

int MpiRank::barrier_impl(MPI_Comm comm, const char* name, MPI_Request* request) {
  CollArgs a;
  a.call = name;
  a.comm = comm;
  HS_COLL_CHECKS(a, c);
  CollectiveCall call;
  call.kind = Collective::Barrier;
  return collective(c, call, nullptr, {}, request);
}

int MpiRank::Barrier(MPI_Comm comm) {
  return barrier_impl(comm, "MPI_Barrier", nullptr);
}

int MpiRank::Ibarrier(MPI_Comm comm, MPI_Request* request) {
  return barrier_impl(comm, "MPI_Ibarrier", request);
}

namespace {
bool is_in_place(const void* p) {
  return p == MPI_IN_PLACE;
}
}  // namespace

int MpiRank::bcast_impl(void* buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm,
                        const char* name, MPI_Request* request) {
  CollArgs a;
  a.call = name;
  a.comm = comm;
  HS_COLL_CHECKS(a, c);
  std::optional<Error> e = bad_type(datatype, name);
  if (!e) e = bad_count(count, name);
  if (!e && (root < 0 || root >= c.comm->size())) {
    e = Error{MPI_ERR_ROOT, fmt::format("{}: invalid root {} ({} has {} ranks)", name, root,
                                        comm_name(comm), c.comm->size())};
  }
  if (e) return raise(comm, *e);
  current_.root = root;
  const TypeMap& t = *type_of(datatype);
  Staged st;
  const uint64_t sim =
      c.comm->rank() == root ? outgoing(buffer, count, t, st) : incoming(buffer, count, t, st);
  CollectiveCall call;
  call.kind = Collective::Bcast;
  call.recv = sim;
  call.bytes = static_cast<uint32_t>(static_cast<uint64_t>(count) * t.size);
  call.root = root;
  const bool receiver = c.comm->rank() != root;
  auto finish = [this, st, buffer, bytes = call.bytes, t, receiver]() mutable {
    if (receiver) land(st, buffer, bytes, t);
  };
  return collective(c, call, finish, {st}, request);
}

int MpiRank::Bcast(void* buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm) {
  return bcast_impl(buffer, count, datatype, root, comm, "MPI_Bcast", nullptr);
}

int MpiRank::Ibcast(void* buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm,
                    MPI_Request* request) {
  return bcast_impl(buffer, count, datatype, root, comm, "MPI_Ibcast", request);
}

// ---- reductions: Reduce, Allreduce, Reduce_scatter(_block), Scan, Exscan ----

int MpiRank::reduce_like(const CollArgs& a) {
  HS_COLL_CHECKS(a, c);
  const int p = c.comm->size(), me = c.comm->rank();
  const bool rooted = a.kind == Collective::Reduce;
  std::optional<Error> e = bad_type(a.rtype, a.call);
  if (!e) e = bad_count(a.rcount, a.call);
  if (!e && rooted && (a.root < 0 || a.root >= p)) {
    e = Error{MPI_ERR_ROOT, fmt::format("{}: invalid root {} ({} has {} ranks)", a.call, a.root,
                                        comm_name(a.comm), p)};
  }
  if (!e && a.kind == Collective::ReduceScatter) {
    for (int i = 0; i < p && !e; ++i) e = bad_count(a.rcounts[i], a.call, "receive count");
  }
  if (e) return raise(a.comm, *e);
  if (rooted) current_.root = a.root;
  const TypeMap& t = *type_of(a.rtype);
  CollectiveCall call;
  call.kind = a.kind;
  call.root = a.root;
  std::unique_ptr<UserOp> user;
  if (auto err = reduction_of(a.op, a.rtype, a.call, call, user)) return raise(a.comm, *err);
  // Elements in, elements out.
  int in_count = a.rcount, out_count = a.rcount;
  if (a.kind == Collective::ReduceScatterBlock) in_count = a.rcount * p;
  if (a.kind == Collective::ReduceScatter) {
    in_count = 0;
    for (int i = 0; i < p; ++i) {
      in_count += a.rcounts[i];
      call.recv_counts.push_back(
          static_cast<uint32_t>(a.rcounts[i] * static_cast<int64_t>(t.size)));
    }
    out_count = a.rcounts[me];
  }
  const bool in_place = is_in_place(a.sendbuf);
  const bool has_output = !rooted || me == a.root;
  std::vector<Staged> temps;
  Staged in_st, out_st;
  // MPI_IN_PLACE: the input is the receive buffer (which the result then overwrites).
  const void* input = in_place ? a.recvbuf : a.sendbuf;
  call.send = outgoing(input, in_count, t, in_st);
  if (in_place && !in_st.host && has_output) {
    // In place on both sides: the layer reads and writes the same bytes.
    call.recv = call.send;
  } else if (has_output) {
    call.recv = incoming(a.recvbuf, out_count, t, out_st);
  }
  call.bytes = static_cast<uint32_t>(static_cast<uint64_t>(out_count) * t.size);
  temps.push_back(in_st);
  const uint64_t out_bytes = static_cast<uint64_t>(out_count) * t.size;
  const bool lands = has_output && !(a.kind == Collective::Exscan && me == 0);
  auto finish = [this, out_st, recv = a.recvbuf, out_bytes, t, lands]() mutable {
    if (lands) land(out_st, recv, out_bytes, t);
    release(out_st);
  };
  return collective(c, call, finish, temps, a.request, std::move(user));
}

int MpiRank::Reduce(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
                    int root, MPI_Comm comm) {
  return reduce_like(CollArgs::reduction("MPI_Reduce", Collective::Reduce, comm, sendbuf, recvbuf,
                                         count, nullptr, datatype, op, root, nullptr));
}

int MpiRank::Allreduce(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype,
                       MPI_Op op, MPI_Comm comm) {
  return reduce_like(CollArgs::reduction("MPI_Allreduce", Collective::Allreduce, comm, sendbuf,
                                         recvbuf, count, nullptr, datatype, op, 0, nullptr));
}

int MpiRank::Reduce_scatter(const void* sendbuf, void* recvbuf, const int recvcounts[],
                            MPI_Datatype datatype, MPI_Op op, MPI_Comm comm) {
  return reduce_like(CollArgs::reduction("MPI_Reduce_scatter", Collective::ReduceScatter, comm,
                                         sendbuf, recvbuf, 0, recvcounts, datatype, op, 0,
                                         nullptr));
}

int MpiRank::Reduce_scatter_block(const void* sendbuf, void* recvbuf, int recvcount,
                                  MPI_Datatype datatype, MPI_Op op, MPI_Comm comm) {
  return reduce_like(CollArgs::reduction("MPI_Reduce_scatter_block", Collective::ReduceScatterBlock,
                                         comm, sendbuf, recvbuf, recvcount, nullptr, datatype, op,
                                         0, nullptr));
}

int MpiRank::Scan(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
                  MPI_Comm comm) {
  return reduce_like(CollArgs::reduction("MPI_Scan", Collective::Scan, comm, sendbuf, recvbuf,
                                         count, nullptr, datatype, op, 0, nullptr));
}

int MpiRank::Exscan(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
                    MPI_Comm comm) {
  return reduce_like(CollArgs::reduction("MPI_Exscan", Collective::Exscan, comm, sendbuf, recvbuf,
                                         count, nullptr, datatype, op, 0, nullptr));
}

}  // namespace hs::fw::mpi::api

namespace hs::fw::mpi::api {

// ---- blocks: the P blocks of a gather's, scatter's or alltoall's buffer ----

MpiRank::BlockSide MpiRank::blocks(const void* buf, const std::vector<int>& counts,
                                   const std::vector<int>& displs, const TypeMap& t, bool out) {
  BlockSide b;
  const size_t p = counts.size();
  b.counts.resize(p);
  b.displs.resize(p);
  if (t.contiguous()) {
    // In place when every block lies in one of the program's windows.
    int64_t lo = INT64_MAX, hi = INT64_MIN;
    for (size_t i = 0; i < p; ++i) {
      if (counts[i] <= 0) continue;
      lo = std::min<int64_t>(lo, static_cast<int64_t>(displs[i]) * static_cast<int64_t>(t.size));
      hi = std::max<int64_t>(
          hi, (static_cast<int64_t>(displs[i]) + counts[i]) * static_cast<int64_t>(t.size));
    }
    if (lo > hi) lo = hi = 0;
    const char* start = static_cast<const char*>(buf) + lo;
    const uint64_t span = static_cast<uint64_t>(hi - lo);
    const bool ok = span == 0 ? program_.windows().to_simulated(start, 1).has_value()
                    : out     ? program_.windows().to_simulated(start, span).has_value()
                              : program_.windows().writable(start, span);
    if (ok) {
      b.sim = *program_.windows().to_simulated(start, std::max<uint64_t>(span, 1));
      for (size_t i = 0; i < p; ++i) {
        b.counts[i] = static_cast<uint32_t>(static_cast<uint64_t>(std::max(counts[i], 0)) * t.size);
        // An empty block's displacement may lie anywhere: it moves nothing.
        b.displs[i] =
            counts[i] <= 0
                ? 0
                : static_cast<uint32_t>(
                      static_cast<int64_t>(displs[i]) * static_cast<int64_t>(t.size) - lo);
      }
      return b;
    }
  }
  // Staged, compact: block after block.
  uint64_t total = 0;
  for (size_t i = 0; i < p; ++i) {
    b.counts[i] = static_cast<uint32_t>(static_cast<uint64_t>(std::max(counts[i], 0)) * t.size);
    b.displs[i] = static_cast<uint32_t>(total);
    total += b.counts[i];
  }
  b.staged = stage(total);
  b.sim = b.staged.sim;
  if (out) {
    uint64_t runs = 0;
    for (size_t i = 0; i < p; ++i) {
      runs += pack(t, static_cast<const char*>(buf) + static_cast<int64_t>(displs[i]) * t.extent(),
                   static_cast<uint64_t>(std::max(counts[i], 0)),
                   static_cast<char*>(b.staged.host) + b.displs[i]);
    }
    charge_pack(total, runs);
  }
  return b;
}

void MpiRank::land_blocks(const BlockSide& b, void* buf, const std::vector<int>& displs,
                          const TypeMap& t) {
  if (!b.staged.host) return;
  uint64_t runs = 0, total = 0;
  for (size_t i = 0; i < b.counts.size(); ++i) {
    runs += unpack_bytes(t, static_cast<const char*>(b.staged.host) + b.displs[i], b.counts[i],
                         static_cast<char*>(buf) + static_cast<int64_t>(displs[i]) * t.extent());
    total += b.counts[i];
  }
  charge_pack(total, runs);
}

namespace {
std::vector<int> uniform(int p, int n, bool displs) {
  std::vector<int> v(static_cast<size_t>(p));
  for (int i = 0; i < p; ++i) v[static_cast<size_t>(i)] = displs ? i * n : n;
  return v;
}
std::vector<int> list(const int* a, int p) {
  return std::vector<int>(a, a + p);
}
}  // namespace

std::optional<MpiRank::Error> MpiRank::bad_root(MPI_Comm comm, int root, const char* call) {
  const int p = comm_of(comm)->comm->size();
  if (root >= 0 && root < p) return std::nullopt;
  return Error{MPI_ERR_ROOT, fmt::format("{}: invalid root {} ({} has {} ranks)", call, root,
                                         comm_name(comm), p)};
}

// ---- Gather, Gatherv, Allgather, Allgatherv ----

int MpiRank::gather_like(const CollArgs& a) {
  HS_COLL_CHECKS(a, c);
  const int p = c.comm->size(), me = c.comm->rank();
  const bool all = a.kind == Collective::Allgather || a.kind == Collective::Allgatherv;
  const bool v = a.kind == Collective::Gatherv || a.kind == Collective::Allgatherv;
  std::optional<Error> e;
  if (!all) e = bad_root(a.comm, a.root, a.call);
  const bool receiver = all || me == a.root;
  const bool in_place = receiver && is_in_place(a.sendbuf);
  if (!e && !in_place) e = bad_type(a.stype, a.call);
  if (!e && !in_place) e = bad_count(a.scount, a.call, "send count");
  if (!e && receiver) e = bad_type(a.rtype, a.call);
  if (!e && receiver && !v) e = bad_count(a.rcount, a.call, "receive count");
  if (!e && receiver && v) {
    for (int i = 0; i < p && !e; ++i) e = bad_count(a.rcounts[i], a.call, "receive count");
  }
  if (e) return raise(a.comm, *e);
  if (!all) current_.root = a.root;
  CollectiveCall call;
  call.kind = a.kind;
  call.root = a.root;
  std::vector<Staged> temps;
  std::function<void()> finish;
  std::vector<int> counts, displs;
  if (receiver) {
    counts = v ? list(a.rcounts, p) : uniform(p, a.rcount, false);
    displs = v ? list(a.rdispls, p) : uniform(p, a.rcount, true);
  }
  // This rank's own block.
  Staged in_st;
  if (in_place) {
    const TypeMap& rt = *type_of(a.rtype);
    const char* mine = static_cast<const char*>(a.recvbuf) +
                       static_cast<int64_t>(displs[static_cast<size_t>(me)]) * rt.extent();
    call.send = outgoing(mine, counts[static_cast<size_t>(me)], rt, in_st);
    call.bytes =
        static_cast<uint32_t>(static_cast<uint64_t>(counts[static_cast<size_t>(me)]) * rt.size);
  } else {
    const TypeMap& st = *type_of(a.stype);
    call.send = outgoing(a.sendbuf, a.scount, st, in_st);
    call.bytes = static_cast<uint32_t>(static_cast<uint64_t>(a.scount) * st.size);
  }
  temps.push_back(in_st);
  if (receiver) {
    const TypeMap& rt = *type_of(a.rtype);
    if (!v && static_cast<uint64_t>(a.rcount) * rt.size != call.bytes) {
      return raise(a.comm,
                   {MPI_ERR_TRUNCATE,
                    fmt::format("{}: each block received is {} B, this rank's own is {} B", a.call,
                                static_cast<uint64_t>(a.rcount) * rt.size, call.bytes)});
    }
    BlockSide out = blocks(a.recvbuf, counts, displs, rt, false);
    call.recv = out.sim;
    if (v) {
      call.recv_counts = out.counts;
      call.recv_displs = out.displs;
    }
    finish = [this, out, recv = a.recvbuf, displs, rt]() mutable {
      land_blocks(out, recv, displs, rt);
      release(out.staged);
    };
  }
  return collective(c, call, finish, temps, a.request);
}

int MpiRank::Gather(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                    int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm) {
  return gather_like({"MPI_Gather", Collective::Gather, comm, sendbuf, sendcount, sendtype, nullptr,
                      nullptr, recvbuf, recvcount, recvtype, nullptr, nullptr, MPI_OP_NULL, root,
                      nullptr});
}

int MpiRank::Gatherv(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                     const int recvcounts[], const int displs[], MPI_Datatype recvtype, int root,
                     MPI_Comm comm) {
  return gather_like({"MPI_Gatherv", Collective::Gatherv, comm, sendbuf, sendcount, sendtype,
                      nullptr, nullptr, recvbuf, 0, recvtype, recvcounts, displs, MPI_OP_NULL, root,
                      nullptr});
}

int MpiRank::Allgather(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                       int recvcount, MPI_Datatype recvtype, MPI_Comm comm) {
  return gather_like({"MPI_Allgather", Collective::Allgather, comm, sendbuf, sendcount, sendtype,
                      nullptr, nullptr, recvbuf, recvcount, recvtype, nullptr, nullptr, MPI_OP_NULL,
                      0, nullptr});
}

int MpiRank::Allgatherv(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                        const int recvcounts[], const int displs[], MPI_Datatype recvtype,
                        MPI_Comm comm) {
  return gather_like({"MPI_Allgatherv", Collective::Allgatherv, comm, sendbuf, sendcount, sendtype,
                      nullptr, nullptr, recvbuf, 0, recvtype, recvcounts, displs, MPI_OP_NULL, 0,
                      nullptr});
}

// ---- Scatter, Scatterv ----

int MpiRank::scatter_like(const CollArgs& a) {
  HS_COLL_CHECKS(a, c);
  const int p = c.comm->size(), me = c.comm->rank();
  const bool v = a.kind == Collective::Scatterv;
  std::optional<Error> e = bad_root(a.comm, a.root, a.call);
  const bool root = me == a.root;
  const bool in_place = root && is_in_place(a.recvbuf);
  if (!e && root) e = bad_type(a.stype, a.call);
  if (!e && root && !v) e = bad_count(a.scount, a.call, "send count");
  if (!e && root && v) {
    for (int i = 0; i < p && !e; ++i) e = bad_count(a.scounts[i], a.call, "send count");
  }
  if (!e && !in_place) e = bad_type(a.rtype, a.call);
  if (!e && !in_place) e = bad_count(a.rcount, a.call, "receive count");
  if (e) return raise(a.comm, *e);
  current_.root = a.root;
  CollectiveCall call;
  call.kind = a.kind;
  call.root = a.root;
  std::vector<Staged> temps;
  std::vector<int> counts, displs;
  if (root) {
    const TypeMap& st = *type_of(a.stype);
    counts = v ? list(a.scounts, p) : uniform(p, a.scount, false);
    displs = v ? list(a.sdispls, p) : uniform(p, a.scount, true);
    BlockSide in = blocks(a.sendbuf, counts, displs, st, true);
    call.send = in.sim;
    if (v) {
      call.send_counts = in.counts;
      call.send_displs = in.displs;
    }
    temps.push_back(in.staged);
    if (in_place) {
      // The root's own block stays where it is: the layer "receives" it onto itself.
      call.bytes = in.counts[static_cast<size_t>(me)];
      call.recv = in.sim + in.displs[static_cast<size_t>(me)];
      return collective(c, call, nullptr, temps, a.request);
    }
  }
  const TypeMap& rt = *type_of(a.rtype);
  Staged out;
  call.recv = incoming(a.recvbuf, a.rcount, rt, out);
  call.bytes = static_cast<uint32_t>(static_cast<uint64_t>(a.rcount) * rt.size);
  if (root && !v && call.bytes != static_cast<uint64_t>(a.scount) * type_of(a.stype)->size) {
    return raise(a.comm, {MPI_ERR_TRUNCATE,
                          fmt::format("{}: each block sent is {} B, the root receives {} B", a.call,
                                      static_cast<uint64_t>(a.scount) * type_of(a.stype)->size,
                                      call.bytes)});
  }
  auto finish = [this, out, recv = a.recvbuf, bytes = call.bytes, rt]() mutable {
    land(out, recv, bytes, rt);
    release(out);
  };
  return collective(c, call, finish, temps, a.request);
}

int MpiRank::Scatter(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                     int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm) {
  return scatter_like({"MPI_Scatter", Collective::Scatter, comm, sendbuf, sendcount, sendtype,
                       nullptr, nullptr, recvbuf, recvcount, recvtype, nullptr, nullptr,
                       MPI_OP_NULL, root, nullptr});
}

int MpiRank::Scatterv(const void* sendbuf, const int sendcounts[], const int displs[],
                      MPI_Datatype sendtype, void* recvbuf, int recvcount, MPI_Datatype recvtype,
                      int root, MPI_Comm comm) {
  return scatter_like({"MPI_Scatterv", Collective::Scatterv, comm, sendbuf, 0, sendtype, sendcounts,
                       displs, recvbuf, recvcount, recvtype, nullptr, nullptr, MPI_OP_NULL, root,
                       nullptr});
}

// ---- Alltoall, Alltoallv ----

int MpiRank::alltoall_like(const CollArgs& a) {
  HS_COLL_CHECKS(a, c);
  const int p = c.comm->size();
  const bool v = a.kind == Collective::Alltoallv;
  const bool in_place = is_in_place(a.sendbuf);
  std::optional<Error> e = bad_type(a.rtype, a.call);
  if (!e && !in_place) e = bad_type(a.stype, a.call);
  for (int i = 0; i < p && !e; ++i) {
    e = bad_count(v ? a.rcounts[i] : a.rcount, a.call, "receive count");
    if (!e && !in_place) e = bad_count(v ? a.scounts[i] : a.scount, a.call, "send count");
  }
  if (e) return raise(a.comm, *e);
  const TypeMap& rt = *type_of(a.rtype);
  std::vector<int> rcounts = v ? list(a.rcounts, p) : uniform(p, a.rcount, false);
  std::vector<int> rdispls = v ? list(a.rdispls, p) : uniform(p, a.rcount, true);
  CollectiveCall call;
  call.kind = a.kind;
  std::vector<Staged> temps;
  BlockSide in;
  if (in_place) {
    // The input is the receive buffer as it was: a copy, since the results overwrite it.
    std::vector<int> compact(rdispls.size());
    int at = 0;
    for (size_t i = 0; i < compact.size(); ++i) {
      compact[i] = at;
      at += rcounts[i];
    }
    in = blocks(a.recvbuf, rcounts, rdispls, rt, true);
    if (!in.staged.host) {
      Staged copy = stage(static_cast<uint64_t>(at) * rt.size);
      uint64_t runs = 0;
      for (size_t i = 0; i < compact.size(); ++i) {
        runs += pack(
            rt,
            static_cast<const char*>(a.recvbuf) + static_cast<int64_t>(rdispls[i]) * rt.extent(),
            static_cast<uint64_t>(rcounts[i]),
            static_cast<char*>(copy.host) + static_cast<uint64_t>(compact[i]) * rt.size);
        in.counts[i] = static_cast<uint32_t>(static_cast<uint64_t>(rcounts[i]) * rt.size);
        in.displs[i] = static_cast<uint32_t>(static_cast<uint64_t>(compact[i]) * rt.size);
      }
      charge_pack(static_cast<uint64_t>(at) * rt.size, runs);
      in.staged = copy;
      in.sim = copy.sim;
    }
  } else {
    const TypeMap& st = *type_of(a.stype);
    in = blocks(a.sendbuf, v ? list(a.scounts, p) : uniform(p, a.scount, false),
                v ? list(a.sdispls, p) : uniform(p, a.scount, true), st, true);
  }
  temps.push_back(in.staged);
  BlockSide out = blocks(a.recvbuf, rcounts, rdispls, rt, false);
  call.send = in.sim;
  call.recv = out.sim;
  call.bytes = v ? 0 : static_cast<uint32_t>(static_cast<uint64_t>(a.rcount) * rt.size);
  if (v) {
    call.send_counts = in.counts;
    call.send_displs = in.displs;
    call.recv_counts = out.counts;
    call.recv_displs = out.displs;
  } else if (!in_place && static_cast<uint64_t>(a.scount) * type_of(a.stype)->size != call.bytes) {
    return raise(a.comm, {MPI_ERR_TRUNCATE,
                          fmt::format("{}: each block sent is {} B, each received {} B", a.call,
                                      static_cast<uint64_t>(a.scount) * type_of(a.stype)->size,
                                      call.bytes)});
  }
  auto finish = [this, out, recv = a.recvbuf, rdispls, rt]() mutable {
    land_blocks(out, recv, rdispls, rt);
    release(out.staged);
  };
  return collective(c, call, finish, temps, a.request);
}

int MpiRank::Alltoall(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                      int recvcount, MPI_Datatype recvtype, MPI_Comm comm) {
  return alltoall_like({"MPI_Alltoall", Collective::Alltoall, comm, sendbuf, sendcount, sendtype,
                        nullptr, nullptr, recvbuf, recvcount, recvtype, nullptr, nullptr,
                        MPI_OP_NULL, 0, nullptr});
}

int MpiRank::Alltoallv(const void* sendbuf, const int sendcounts[], const int sdispls[],
                       MPI_Datatype sendtype, void* recvbuf, const int recvcounts[],
                       const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm) {
  return alltoall_like({"MPI_Alltoallv", Collective::Alltoallv, comm, sendbuf, 0, sendtype,
                        sendcounts, sdispls, recvbuf, 0, recvtype, recvcounts, rdispls, MPI_OP_NULL,
                        0, nullptr});
}

// ---- the non-blocking forms: the same, with a request ----

int MpiRank::Ireduce(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype,
                     MPI_Op op, int root, MPI_Comm comm, MPI_Request* request) {
  return reduce_like(CollArgs::reduction("MPI_Ireduce", Collective::Reduce, comm, sendbuf, recvbuf,
                                         count, nullptr, datatype, op, root, request));
}

int MpiRank::Iallreduce(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype,
                        MPI_Op op, MPI_Comm comm, MPI_Request* request) {
  return reduce_like(CollArgs::reduction("MPI_Iallreduce", Collective::Allreduce, comm, sendbuf,
                                         recvbuf, count, nullptr, datatype, op, 0, request));
}

int MpiRank::Ireduce_scatter(const void* sendbuf, void* recvbuf, const int recvcounts[],
                             MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                             MPI_Request* request) {
  return reduce_like(CollArgs::reduction("MPI_Ireduce_scatter", Collective::ReduceScatter, comm,
                                         sendbuf, recvbuf, 0, recvcounts, datatype, op, 0,
                                         request));
}

int MpiRank::Ireduce_scatter_block(const void* sendbuf, void* recvbuf, int recvcount,
                                   MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                                   MPI_Request* request) {
  return reduce_like(CollArgs::reduction("MPI_Ireduce_scatter_block",
                                         Collective::ReduceScatterBlock, comm, sendbuf, recvbuf,
                                         recvcount, nullptr, datatype, op, 0, request));
}

int MpiRank::Iscan(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
                   MPI_Comm comm, MPI_Request* request) {
  return reduce_like(CollArgs::reduction("MPI_Iscan", Collective::Scan, comm, sendbuf, recvbuf,
                                         count, nullptr, datatype, op, 0, request));
}

int MpiRank::Iexscan(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype,
                     MPI_Op op, MPI_Comm comm, MPI_Request* request) {
  return reduce_like(CollArgs::reduction("MPI_Iexscan", Collective::Exscan, comm, sendbuf, recvbuf,
                                         count, nullptr, datatype, op, 0, request));
}

int MpiRank::Igather(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                     int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm,
                     MPI_Request* request) {
  return gather_like({"MPI_Igather", Collective::Gather, comm, sendbuf, sendcount, sendtype,
                      nullptr, nullptr, recvbuf, recvcount, recvtype, nullptr, nullptr, MPI_OP_NULL,
                      root, request});
}

int MpiRank::Igatherv(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                      const int recvcounts[], const int displs[], MPI_Datatype recvtype, int root,
                      MPI_Comm comm, MPI_Request* request) {
  return gather_like({"MPI_Igatherv", Collective::Gatherv, comm, sendbuf, sendcount, sendtype,
                      nullptr, nullptr, recvbuf, 0, recvtype, recvcounts, displs, MPI_OP_NULL, root,
                      request});
}

int MpiRank::Iscatter(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                      int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm,
                      MPI_Request* request) {
  return scatter_like({"MPI_Iscatter", Collective::Scatter, comm, sendbuf, sendcount, sendtype,
                       nullptr, nullptr, recvbuf, recvcount, recvtype, nullptr, nullptr,
                       MPI_OP_NULL, root, request});
}

int MpiRank::Iscatterv(const void* sendbuf, const int sendcounts[], const int displs[],
                       MPI_Datatype sendtype, void* recvbuf, int recvcount, MPI_Datatype recvtype,
                       int root, MPI_Comm comm, MPI_Request* request) {
  return scatter_like({"MPI_Iscatterv", Collective::Scatterv, comm, sendbuf, 0, sendtype,
                       sendcounts, displs, recvbuf, recvcount, recvtype, nullptr, nullptr,
                       MPI_OP_NULL, root, request});
}

int MpiRank::Iallgather(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                        int recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Request* request) {
  return gather_like({"MPI_Iallgather", Collective::Allgather, comm, sendbuf, sendcount, sendtype,
                      nullptr, nullptr, recvbuf, recvcount, recvtype, nullptr, nullptr, MPI_OP_NULL,
                      0, request});
}

int MpiRank::Iallgatherv(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                         const int recvcounts[], const int displs[], MPI_Datatype recvtype,
                         MPI_Comm comm, MPI_Request* request) {
  return gather_like({"MPI_Iallgatherv", Collective::Allgatherv, comm, sendbuf, sendcount, sendtype,
                      nullptr, nullptr, recvbuf, 0, recvtype, recvcounts, displs, MPI_OP_NULL, 0,
                      request});
}

int MpiRank::Ialltoall(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                       int recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Request* request) {
  return alltoall_like({"MPI_Ialltoall", Collective::Alltoall, comm, sendbuf, sendcount, sendtype,
                        nullptr, nullptr, recvbuf, recvcount, recvtype, nullptr, nullptr,
                        MPI_OP_NULL, 0, request});
}

int MpiRank::Ialltoallv(const void* sendbuf, const int sendcounts[], const int sdispls[],
                        MPI_Datatype sendtype, void* recvbuf, const int recvcounts[],
                        const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm,
                        MPI_Request* request) {
  return alltoall_like({"MPI_Ialltoallv", Collective::Alltoallv, comm, sendbuf, 0, sendtype,
                        sendcounts, sdispls, recvbuf, 0, recvtype, recvcounts, rdispls, MPI_OP_NULL,
                        0, request});
}

}  // namespace hs::fw::mpi::api
