// The binding's core: predefined handles, errors, buffers (in place or staged), requests and
// progress. The functions of mpi.h are in mpi_env.cpp, mpi_p2p.cpp, mpi_coll.cpp,
// mpi_comm.cpp and mpi_types.cpp.
#include "sw/mpi/api/mpi_rank.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include "sw/mpi/api/mpi_abi.h"

namespace hs::fw::mpi::api {

namespace {

struct Predefined {
  MPI_Datatype handle;
  const char* name;
  uint64_t size, extent;
  std::optional<Datatype> element;
  std::vector<std::pair<int64_t, uint64_t>> runs = {};
};

std::optional<Datatype> int_of(size_t bytes, bool is_signed) {
  switch (bytes) {
    case 1:
      return is_signed ? Datatype::Int8 : Datatype::Uint8;
    case 2:
      return is_signed ? Datatype::Int16 : Datatype::Uint16;
    case 4:
      return is_signed ? Datatype::Int32 : Datatype::Uint32;
    default:
      return is_signed ? Datatype::Int64 : Datatype::Uint64;
  }
}

const std::vector<Predefined>& predefined() {
  static const std::vector<Predefined> all = {
      {MPI_CHAR, "MPI_CHAR", 1, 1, int_of(1, true)},
      {MPI_SIGNED_CHAR, "MPI_SIGNED_CHAR", 1, 1, int_of(1, true)},
      {MPI_UNSIGNED_CHAR, "MPI_UNSIGNED_CHAR", 1, 1, int_of(1, false)},
      {MPI_BYTE, "MPI_BYTE", 1, 1, Datatype::Byte},
      {MPI_WCHAR, "MPI_WCHAR", sizeof(wchar_t), sizeof(wchar_t), std::nullopt},
      {MPI_SHORT, "MPI_SHORT", sizeof(short), sizeof(short), int_of(sizeof(short), true)},
      {MPI_UNSIGNED_SHORT, "MPI_UNSIGNED_SHORT", sizeof(short), sizeof(short),
       int_of(sizeof(short), false)},
      {MPI_INT, "MPI_INT", sizeof(int), sizeof(int), int_of(sizeof(int), true)},
      {MPI_UNSIGNED, "MPI_UNSIGNED", sizeof(int), sizeof(int), int_of(sizeof(int), false)},
      {MPI_LONG, "MPI_LONG", sizeof(long), sizeof(long), int_of(sizeof(long), true)},
      {MPI_UNSIGNED_LONG, "MPI_UNSIGNED_LONG", sizeof(long), sizeof(long),
       int_of(sizeof(long), false)},
      {MPI_LONG_LONG_INT, "MPI_LONG_LONG_INT", sizeof(long long), sizeof(long long),
       int_of(sizeof(long long), true)},
      {MPI_UNSIGNED_LONG_LONG, "MPI_UNSIGNED_LONG_LONG", sizeof(long long), sizeof(long long),
       int_of(sizeof(long long), false)},
      {MPI_FLOAT, "MPI_FLOAT", 4, 4, Datatype::Float},
      {MPI_DOUBLE, "MPI_DOUBLE", 8, 8, Datatype::Double},
      {MPI_LONG_DOUBLE, "MPI_LONG_DOUBLE", 16, 16, Datatype::LongDouble},
      {MPI_INT8_T, "MPI_INT8_T", 1, 1, Datatype::Int8},
      {MPI_INT16_T, "MPI_INT16_T", 2, 2, Datatype::Int16},
      {MPI_INT32_T, "MPI_INT32_T", 4, 4, Datatype::Int32},
      {MPI_INT64_T, "MPI_INT64_T", 8, 8, Datatype::Int64},
      {MPI_UINT8_T, "MPI_UINT8_T", 1, 1, Datatype::Uint8},
      {MPI_UINT16_T, "MPI_UINT16_T", 2, 2, Datatype::Uint16},
      {MPI_UINT32_T, "MPI_UINT32_T", 4, 4, Datatype::Uint32},
      {MPI_UINT64_T, "MPI_UINT64_T", 8, 8, Datatype::Uint64},
      {MPI_C_BOOL, "MPI_C_BOOL", 1, 1, Datatype::Bool},
      {MPI_CXX_BOOL, "MPI_CXX_BOOL", 1, 1, Datatype::Bool},
      {MPI_C_FLOAT_COMPLEX, "MPI_C_FLOAT_COMPLEX", 8, 8, Datatype::ComplexFloat},
      {MPI_CXX_FLOAT_COMPLEX, "MPI_CXX_FLOAT_COMPLEX", 8, 8, Datatype::ComplexFloat},
      {MPI_C_DOUBLE_COMPLEX, "MPI_C_DOUBLE_COMPLEX", 16, 16, Datatype::ComplexDouble},
      {MPI_CXX_DOUBLE_COMPLEX, "MPI_CXX_DOUBLE_COMPLEX", 16, 16, Datatype::ComplexDouble},
      {MPI_C_LONG_DOUBLE_COMPLEX, "MPI_C_LONG_DOUBLE_COMPLEX", 32, 32, Datatype::ComplexLongDouble},
      {MPI_CXX_LONG_DOUBLE_COMPLEX, "MPI_CXX_LONG_DOUBLE_COMPLEX", 32, 32,
       Datatype::ComplexLongDouble},
      {MPI_AINT, "MPI_AINT", sizeof(MPI_Aint), sizeof(MPI_Aint), int_of(sizeof(MPI_Aint), true)},
      {MPI_OFFSET, "MPI_OFFSET", 8, 8, Datatype::Int64},
      {MPI_COUNT, "MPI_COUNT", 8, 8, Datatype::Int64},
      {MPI_PACKED, "MPI_PACKED", 1, 1, Datatype::Byte},
      // (value, int) pairs: C structs, so some have padding the wire does not carry.
      {MPI_FLOAT_INT, "MPI_FLOAT_INT", 8, 8, Datatype::FloatInt},
      {MPI_DOUBLE_INT, "MPI_DOUBLE_INT", 12, 16, Datatype::DoubleInt, {{0, 12}}},
      {MPI_LONG_INT, "MPI_LONG_INT", 12, 16, Datatype::LongInt, {{0, 12}}},
      {MPI_2INT, "MPI_2INT", 8, 8, Datatype::TwoInt},
      {MPI_SHORT_INT, "MPI_SHORT_INT", 6, 8, Datatype::ShortInt, {{0, 2}, {4, 4}}},
      {MPI_LONG_DOUBLE_INT, "MPI_LONG_DOUBLE_INT", 20, 32, Datatype::LongDoubleInt, {{0, 20}}},
  };
  return all;
}

}  // namespace

MpiRank::MpiRank(user::ProgramInstance& program, const MpiJobLink& job, int world_rank)
    : program_(program), job_(job), world_rank_(world_rank) {
  for (const auto& p : predefined()) {
    types_.emplace(p.handle, predefined_type(p.name, p.size, p.extent, p.element, p.runs));
  }
  for (MPI_Op op = MPI_MAX; op <= MPI_NO_OP; ++op) ops_[op] = OpObj{};
  errhandlers_[MPI_ERRORS_ARE_FATAL] = {};
  errhandlers_[MPI_ERRORS_RETURN] = {};
  groups_[MPI_GROUP_EMPTY] = std::make_unique<GroupObj>();
  program_.provide_api(HS_MPI_API_NAME, HS_MPI_API_VERSION, table(), this);
}

MpiRank::~MpiRank() = default;

RankCounts MpiRank::counts() const {
  return world_ ? world_->counts() : RankCounts{};
}

std::string MpiRank::current_call() const {
  if (!current_.name) return "";
  std::string args;
  const auto add = [&](const std::string& a) { args += (args.empty() ? "" : ", ") + a; };
  const auto rank = [](int r) {
    return r == MPI_ANY_SOURCE  ? std::string("MPI_ANY_SOURCE")
           : r == MPI_PROC_NULL ? std::string("MPI_PROC_NULL")
                                : std::to_string(r);
  };
  if (current_.peer != INT32_MIN) add("peer " + rank(current_.peer));
  if (current_.tag != INT32_MIN) {
    add("tag " +
        (current_.tag == MPI_ANY_TAG ? std::string("MPI_ANY_TAG") : std::to_string(current_.tag)));
  }
  if (current_.root != INT32_MIN) add("root " + std::to_string(current_.root));
  if (current_.comm != MPI_COMM_NULL) add(comm_name(current_.comm));
  const std::string site = program_.call_site();
  return fmt::format("{}({}){}", current_.name, args, site.empty() ? "" : " at " + site);
}

// ---- errors ----

std::string MpiRank::comm_name(MPI_Comm c) const {
  if (c == MPI_COMM_WORLD) return "MPI_COMM_WORLD";
  if (c == MPI_COMM_SELF) return "MPI_COMM_SELF";
  if (c == MPI_COMM_NULL) return "MPI_COMM_NULL";
  auto it = comms_.find(c);
  if (it != comms_.end() && !it->second->name.empty()) return it->second->name;
  return fmt::format("communicator {:#x}", static_cast<unsigned>(c));
}

std::string MpiRank::type_name(MPI_Datatype t) const {
  auto it = types_.find(t);
  if (it != types_.end() && !it->second.name.empty()) return it->second.name;
  return fmt::format("datatype {:#x}", static_cast<unsigned>(t));
}

int MpiRank::raise(MPI_Comm comm, const Error& e) {
  MPI_Errhandler h = MPI_ERRORS_ARE_FATAL;
  if (CommObj* c = comm_of(comm)) h = c->errhandler;
  if (h == MPI_ERRORS_RETURN) return e.code;
  auto user = errhandlers_.find(h);
  if (user != errhandlers_.end() && user->second.fn) {
    MPI_Comm cc = comm;
    int code = e.code;
    program_.run_program_code([&] { user->second.fn(&cc, &code); });
    return e.code;
  }
  const std::string site = program_.call_site();
  const std::string why = fmt::format("rank {}: {}{}", world_rank_, e.message,
                                      site.empty() ? "" : " (at " + site + ")");
  job_.fail(world_rank_, 1, why);
  program_.terminate(user::ProgramInstance::End::Aborted, 1, "MPI error: " + why);
}

int MpiRank::check_initialized(const char* call) {
  if (initialized_ && !finalized_) return MPI_SUCCESS;
  const Error e{MPI_ERR_OTHER, fmt::format("{} called {} MPI_Init", call,
                                           finalized_ ? "after MPI_Finalize" : "before")};
  return raise(MPI_COMM_NULL, e);
}

// ---- handles ----

MpiRank::CommObj* MpiRank::comm_of(MPI_Comm c) {
  auto it = comms_.find(c);
  return it == comms_.end() ? nullptr : it->second.get();
}

const TypeMap* MpiRank::type_of(MPI_Datatype t) const {
  auto it = types_.find(t);
  return it == types_.end() ? nullptr : &it->second;
}

MpiRank::GroupObj* MpiRank::group_of(MPI_Group g) {
  auto it = groups_.find(g);
  return it == groups_.end() ? nullptr : it->second.get();
}

std::optional<MpiRank::Error> MpiRank::bad_comm(MPI_Comm c, const char* call) {
  if (comm_of(c)) return std::nullopt;
  return Error{MPI_ERR_COMM, fmt::format("{}: invalid communicator ({})", call,
                                         c == MPI_COMM_NULL ? "MPI_COMM_NULL" : comm_name(c))};
}

std::optional<MpiRank::Error> MpiRank::bad_type(MPI_Datatype t, const char* call,
                                                bool need_commit) {
  const TypeMap* m = type_of(t);
  if (!m) {
    return Error{MPI_ERR_TYPE,
                 fmt::format("{}: invalid datatype ({})", call,
                             t == MPI_DATATYPE_NULL ? "MPI_DATATYPE_NULL" : type_name(t))};
  }
  if (need_commit && !m->committed) {
    return Error{MPI_ERR_TYPE,
                 fmt::format("{}: {} was not committed (MPI_Type_commit)", call, type_name(t))};
  }
  return std::nullopt;
}

std::optional<MpiRank::Error> MpiRank::bad_count(int count, const char* call, const char* what) {
  if (count >= 0) return std::nullopt;
  return Error{MPI_ERR_COUNT, fmt::format("{}: negative {} {}", call, what, count)};
}

std::optional<MpiRank::Error> MpiRank::bad_rank(MPI_Comm c, int rank, const char* call,
                                                const char* what, bool allow_any, bool allow_null) {
  const int size = comm_of(c)->comm->size();
  if (rank >= 0 && rank < size) return std::nullopt;
  if (allow_any && rank == MPI_ANY_SOURCE) return std::nullopt;
  if (allow_null && rank == MPI_PROC_NULL) return std::nullopt;
  return Error{MPI_ERR_RANK, fmt::format("{}: invalid {} rank {} ({} has {} ranks)", call, what,
                                         rank, comm_name(c), size)};
}

std::optional<MpiRank::Error> MpiRank::bad_tag(int tag, const char* call, bool allow_any) {
  if (tag >= 0 && tag <= kTagUpperBound) return std::nullopt;
  if (allow_any && tag == MPI_ANY_TAG) return std::nullopt;
  return Error{MPI_ERR_TAG, fmt::format("{}: invalid tag {} (tags are 0..{}, MPI_TAG_UB)", call,
                                        tag, kTagUpperBound)};
}

std::optional<MpiRank::Error> MpiRank::bad_buffer(const void* buf, int count, MPI_Datatype t,
                                                  const char* call) {
  const TypeMap* m = type_of(t);
  if (!buf && count > 0 && m && m->size > 0 && m->true_lb >= 0 && m->predefined) {
    return Error{MPI_ERR_BUFFER, fmt::format("{}: null buffer for {} elements", call, count)};
  }
  return std::nullopt;
}

MPI_Comm MpiRank::add_comm(std::unique_ptr<CommObj> c) {
  const MPI_Comm h = static_cast<MPI_Comm>(0x44000000 | next_comm_++);
  comms_[h] = std::move(c);
  return h;
}

MPI_Group MpiRank::add_group(std::vector<int> world) {
  if (world.empty()) return MPI_GROUP_EMPTY;
  const MPI_Group h = static_cast<MPI_Group>(0x48000000 | next_group_++);
  auto g = std::make_unique<GroupObj>();
  g->world = std::move(world);
  groups_[h] = std::move(g);
  return h;
}

MPI_Datatype MpiRank::add_type(TypeMap t) {
  const MPI_Datatype h = static_cast<MPI_Datatype>(0x4c000000 | next_type_++);
  types_.emplace(h, std::move(t));
  return h;
}

MPI_Request MpiRank::add_request(std::unique_ptr<Req> r) {
  const MPI_Request h = static_cast<MPI_Request>(0x6c000000 | (next_request_++ & 0xffffff));
  requests_[h] = std::move(r);
  return h;
}

// ---- buffers ----

uint64_t MpiRank::heap_take(uint64_t bytes) {
  void* p = program_.heap().allocate(std::max<uint64_t>(bytes, 1), 64);
  if (!p) {
    raise(MPI_COMM_WORLD,
          {MPI_ERR_NO_MEM,
           fmt::format("the layer needs {} B of the rank's heap for a message, and the heap is "
                       "full ({} B in use of {} B)",
                       bytes, program_.heap().in_use(), program_.heap().bytes())});
    return 0;
  }
  return *program_.windows().to_simulated(p, std::max<uint64_t>(bytes, 1));
}

void MpiRank::heap_give(uint64_t sim) {
  std::string why;
  program_.heap().release(program_.windows().to_host(sim, 1), why);
}

MpiRank::Staged MpiRank::stage(uint64_t bytes) {
  Staged s;
  s.sim = heap_take(bytes);
  s.host = program_.windows().to_host(s.sim, std::max<uint64_t>(bytes, 1));
  return s;
}

void MpiRank::release(Staged& s) {
  if (!s.host) return;
  std::string why;
  program_.heap().release(s.host, why);
  s = Staged{};
}

void MpiRank::charge_pack(uint64_t bytes, uint64_t runs) {
  const double cycles = static_cast<double>(bytes) / job_.pack_bytes_per_cycle +
                        static_cast<double>(runs * job_.pack_run_cycles);
  if (cycles > 0) hal().compute(static_cast<uint64_t>(std::ceil(cycles)));
}

uint64_t MpiRank::outgoing(const void* buf, int count, const TypeMap& type, Staged& staged) {
  const uint64_t bytes = static_cast<uint64_t>(count) * type.size;
  if (type.contiguous() ||
      (count <= 1 && type.runs.size() == 1 && type.runs[0].second == type.size)) {
    const char* at = static_cast<const char*>(buf) + (type.runs.empty() ? 0 : type.runs[0].first);
    if (bytes == 0) return program_.windows().base();
    if (auto sim = program_.windows().to_simulated(at, bytes)) return *sim;
  }
  staged = stage(bytes);
  charge_pack(bytes, pack(type, buf, static_cast<uint64_t>(count), staged.host));
  return staged.sim;
}

uint64_t MpiRank::incoming(void* buf, int count, const TypeMap& type, Staged& staged) {
  const uint64_t bytes = static_cast<uint64_t>(count) * type.size;
  if (type.contiguous() ||
      (count <= 1 && type.runs.size() == 1 && type.runs[0].second == type.size)) {
    char* at = static_cast<char*>(buf) + (type.runs.empty() ? 0 : type.runs[0].first);
    if (bytes == 0) return program_.windows().base();
    if (program_.windows().writable(at, bytes)) return *program_.windows().to_simulated(at, bytes);
  }
  staged = stage(bytes);
  return staged.sim;
}

void MpiRank::land(const Staged& staged, void* buf, uint64_t bytes, const TypeMap& type) {
  if (!staged.host) return;
  charge_pack(bytes, unpack_bytes(type, staged.host, bytes, buf));
}

// ---- requests and progress ----

void MpiRank::fill_status(MPI_Status* s, int source, int tag, uint64_t bytes, int error) const {
  if (s == MPI_STATUS_IGNORE || !s) return;
  s->MPI_SOURCE = source;
  s->MPI_TAG = tag;
  s->MPI_ERROR = error;
  s->hs_count_lo = static_cast<int>(bytes & 0x7fffffff);
  s->hs_count_hi = static_cast<int>(bytes >> 31);
  s->hs_cancelled = 0;
}

bool MpiRank::poll(Req& r) {
  if (r.complete) return true;
  switch (r.kind) {
    case Req::Done:
      r.complete = true;
      break;
    case Req::Send:
      if (r.layer->test(r.lower)) r.complete = true;
      break;
    case Req::Recv: {
      Status st;
      if (r.layer->test(r.lower, &st)) {
        r.complete = true;
        const TypeMap* t = type_of(r.type);
        if (r.staged.host && t) land(r.staged, r.user, st.bytes, *t);
        fill_status(&r.status, st.source, st.tag, st.bytes,
                    st.truncated ? MPI_ERR_TRUNCATE : MPI_SUCCESS);
      }
      break;
    }
    case Req::Coll:
      if (r.schedule->advance()) {
        r.complete = true;
        fill_status(&r.status, MPI_ANY_SOURCE, MPI_ANY_TAG, 0, MPI_SUCCESS);
      }
      break;
  }
  if (r.complete) finish_request(r);
  return r.complete;
}

void MpiRank::finish_request(Req& r) {
  release(r.staged);
  if (r.on_complete) std::exchange(r.on_complete, nullptr)();
  for (auto& t : r.temporaries) release(t);
  r.temporaries.clear();
  r.schedule.reset();
  if (r.bsend_at) {
    bsend_used_.erase(r.bsend_at - 1);
    r.bsend_at = 0;
  }
}

bool MpiRank::progress_background() {
  bool any = false;
  for (size_t i = 0; i < background_.size();) {
    auto it = requests_.find(background_[i]);
    if (it == requests_.end()) {
      background_.erase(background_.begin() + static_cast<long>(i));
      continue;
    }
    Req& r = *it->second;
    if (r.complete || poll(r)) {
      any = true;
      if (r.freed) requests_.erase(it);
      background_.erase(background_.begin() + static_cast<long>(i));
      continue;
    }
    ++i;
  }
  return any;
}

int MpiRank::complete_request(MPI_Request* handle, MPI_Status* status) {
  auto it = requests_.find(*handle);
  Req& r = *it->second;
  const int error = r.status.MPI_ERROR;
  if (status != MPI_STATUS_IGNORE && status) *status = r.status;
  const MPI_Comm comm = r.comm;
  requests_.erase(it);
  background_.erase(std::remove(background_.begin(), background_.end(), *handle),
                    background_.end());
  *handle = MPI_REQUEST_NULL;
  if (error == MPI_ERR_TRUNCATE) {
    return raise(comm, {MPI_ERR_TRUNCATE,
                        fmt::format("message truncated: the receive had room for fewer bytes "
                                    "than the message from rank {} (tag {}) carried",
                                    status && status != MPI_STATUS_IGNORE ? status->MPI_SOURCE : -1,
                                    status && status != MPI_STATUS_IGNORE ? status->MPI_TAG : -1)});
  }
  return error;
}

}  // namespace hs::fw::mpi::api
