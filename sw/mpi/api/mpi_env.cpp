// The environment: initialisation and finalisation, aborting, the simulated clock, names and
// versions, error strings and error handlers.
#include <fmt/format.h>
#include <algorithm>
#include <cstring>

#include "sw/mpi/api/mpi_rank.h"
#include "sw/mpi/coll_algorithms.h"

namespace hs::fw::mpi::api {

namespace {

void copy_out(const std::string& s, char* out, int* len, size_t max) {
  const size_t n = std::min(s.size(), max - 1);
  std::memcpy(out, s.data(), n);
  out[n] = '\0';
  if (len) *len = static_cast<int>(n);
}

const char* error_text(int code) {
  switch (code) {
    case MPI_SUCCESS:
      return "no error";
    case MPI_ERR_BUFFER:
      return "invalid buffer pointer";
    case MPI_ERR_COUNT:
      return "invalid count argument";
    case MPI_ERR_TYPE:
      return "invalid datatype";
    case MPI_ERR_TAG:
      return "invalid tag";
    case MPI_ERR_COMM:
      return "invalid communicator";
    case MPI_ERR_RANK:
      return "invalid rank";
    case MPI_ERR_ROOT:
      return "invalid root";
    case MPI_ERR_GROUP:
      return "invalid group";
    case MPI_ERR_OP:
      return "invalid reduction operation";
    case MPI_ERR_TOPOLOGY:
      return "invalid topology";
    case MPI_ERR_DIMS:
      return "invalid dimension argument";
    case MPI_ERR_ARG:
      return "invalid argument";
    case MPI_ERR_TRUNCATE:
      return "message truncated";
    case MPI_ERR_OTHER:
      return "known error not in this list";
    case MPI_ERR_INTERN:
      return "internal MPI error";
    case MPI_ERR_IN_STATUS:
      return "error code is in status";
    case MPI_ERR_PENDING:
      return "pending request";
    case MPI_ERR_REQUEST:
      return "invalid request";
    case MPI_ERR_NO_MEM:
      return "out of memory";
    default:
      return nullptr;
  }
}

}  // namespace

Algorithms fitted_algorithms(const Algorithms& wanted, Comm& comm);

int MpiRank::Init(int* argc, char*** argv) {
  (void)argc, (void)argv;  // the program's own argv is already its own
  if (initialized_) {
    return raise(MPI_COMM_WORLD, {MPI_ERR_OTHER, "MPI_Init: MPI is already initialized"});
  }
  world_ = std::make_unique<Comm>(hal(), *job_.cfg, job_.shape, *job_.map, world_rank_, job_.trace);
  world_->init();
  world_->set_overflow_buffers([this](uint32_t bytes) { return heap_take(bytes); },
                               [this](uint64_t sim) { heap_give(sim); });
  auto world = std::make_unique<CommObj>();
  world->comm = world_.get();
  world->coll =
      std::make_unique<Collectives>(*world_, fitted_algorithms(*job_.algorithms, *world_));
  world->name = "MPI_COMM_WORLD";
  Collectives& coll = *world->coll;
  comms_[MPI_COMM_WORLD] = std::move(world);
  auto self = std::make_unique<CommObj>();
  self->owned = coll.alone();
  self->comm = self->owned.get();
  self->coll =
      std::make_unique<Collectives>(*self->comm, fitted_algorithms(*job_.algorithms, *self->comm));
  self->name = "MPI_COMM_SELF";
  comms_[MPI_COMM_SELF] = std::move(self);
  initialized_ = true;
  return MPI_SUCCESS;
}

int MpiRank::Init_thread(int* argc, char*** argv, int required, int* provided) {
  (void)required;
  const int rc = Init(argc, argv);
  // One modelled core runs the rank, and the program runtime refuses threads.
  if (provided) *provided = MPI_THREAD_SINGLE;
  return rc;
}

int MpiRank::Initialized(int* flag) {
  *flag = initialized_ ? 1 : 0;
  return MPI_SUCCESS;
}

int MpiRank::Finalized(int* flag) {
  *flag = finalized_ ? 1 : 0;
  return MPI_SUCCESS;
}

int MpiRank::Finalize() {
  if (const int rc = check_initialized("MPI_Finalize")) return rc;
  // What was freed or started in the background finishes first.
  block_until([&] { return background_.empty(); });
  std::vector<std::string> open;
  for (const auto& [h, r] : requests_) {
    if (r->freed) continue;
    open.push_back(fmt::format(
        "{} (peer {}, tag {}){}", r->what, r->peer, r->tag,
        r->site ? " from " + program_.describe_code_address(static_cast<const char*>(r->site) - 1)
                : ""));
  }
  if (!open.empty()) {
    std::string list;
    for (size_t i = 0; i < open.size() && i < 8; ++i) list += (i ? "; " : "") + open[i];
    return raise(MPI_COMM_WORLD,
                 {MPI_ERR_PENDING, fmt::format("MPI_Finalize: {} request(s) not completed: {}{}",
                                               open.size(), list, open.size() > 8 ? "; ..." : "")});
  }
  if (bsend_buffer_) block_until([&] { return bsend_used_.empty(); });
  comms_.at(MPI_COMM_WORLD)->coll->barrier();
  finalized_ = true;
  return MPI_SUCCESS;
}

int MpiRank::Abort(MPI_Comm comm, int errorcode) {
  const std::string site = program_.call_site();
  const std::string why =
      fmt::format("rank {} called MPI_Abort({}, {}){}", world_rank_, comm_name(comm), errorcode,
                  site.empty() ? "" : " at " + site);
  job_.fail(world_rank_, errorcode, why);
  program_.terminate(user::ProgramInstance::End::Aborted, errorcode, why);
}

double MpiRank::Wtime() {
  return static_cast<double>(hal().cycles()) / hal().clock_hz();
}

double MpiRank::Wtick() {
  return 1.0 / hal().clock_hz();
}

int MpiRank::Get_processor_name(char* name, int* resultlen) {
  // The node, by its torus coordinates (ranks on one node share it).
  copy_out(job_.shape.name(job_.map->place(world_rank_).node), name, resultlen,
           MPI_MAX_PROCESSOR_NAME);
  return MPI_SUCCESS;
}

int MpiRank::Get_version(int* version, int* subversion) {
  *version = MPI_VERSION;
  *subversion = MPI_SUBVERSION;
  return MPI_SUCCESS;
}

int MpiRank::Get_library_version(char* version, int* resultlen) {
  copy_out("hybridsim MPI on the simulated Blue Gene/P message layer (MPI 3.1 subset)", version,
           resultlen, MPI_MAX_LIBRARY_VERSION_STRING);
  return MPI_SUCCESS;
}

int MpiRank::Query_thread(int* provided) {
  *provided = MPI_THREAD_SINGLE;
  return MPI_SUCCESS;
}

int MpiRank::Is_thread_main(int* flag) {
  *flag = 1;
  return MPI_SUCCESS;
}

int MpiRank::Error_string(int errorcode, char* string, int* resultlen) {
  const char* t = error_text(errorcode);
  if (!t) {
    return raise(MPI_COMM_WORLD,
                 {MPI_ERR_ARG, fmt::format("MPI_Error_string: unknown error code {}", errorcode)});
  }
  copy_out(fmt::format("{} (MPI error {})", t, errorcode), string, resultlen, MPI_MAX_ERROR_STRING);
  return MPI_SUCCESS;
}

int MpiRank::Error_class(int errorcode, int* errorclass) {
  if (!error_text(errorcode)) {
    return raise(MPI_COMM_WORLD,
                 {MPI_ERR_ARG, fmt::format("MPI_Error_class: unknown error code {}", errorcode)});
  }
  *errorclass = errorcode;
  return MPI_SUCCESS;
}

int MpiRank::Comm_set_errhandler(MPI_Comm comm, MPI_Errhandler errhandler) {
  if (auto e = bad_comm(comm, "MPI_Comm_set_errhandler")) return raise(MPI_COMM_WORLD, *e);
  if (!errhandlers_.count(errhandler)) {
    return raise(comm, {MPI_ERR_ARG, "MPI_Comm_set_errhandler: invalid error handler"});
  }
  comm_of(comm)->errhandler = errhandler;
  return MPI_SUCCESS;
}

int MpiRank::Comm_get_errhandler(MPI_Comm comm, MPI_Errhandler* errhandler) {
  if (auto e = bad_comm(comm, "MPI_Comm_get_errhandler")) return raise(MPI_COMM_WORLD, *e);
  *errhandler = comm_of(comm)->errhandler;
  return MPI_SUCCESS;
}

int MpiRank::Comm_create_errhandler(MPI_Comm_errhandler_function* function,
                                    MPI_Errhandler* errhandler) {
  if (!function)
    return raise(MPI_COMM_WORLD, {MPI_ERR_ARG, "MPI_Comm_create_errhandler: null function"});
  const MPI_Errhandler h = static_cast<MPI_Errhandler>(0x54000000 | next_errhandler_++);
  errhandlers_[h] = ErrhandlerObj{function};
  *errhandler = h;
  return MPI_SUCCESS;
}

int MpiRank::Comm_call_errhandler(MPI_Comm comm, int errorcode) {
  if (auto e = bad_comm(comm, "MPI_Comm_call_errhandler")) return raise(MPI_COMM_WORLD, *e);
  raise(comm, {errorcode, fmt::format("MPI_Comm_call_errhandler: error {} raised by the "
                                      "program on {}",
                                      errorcode, comm_name(comm))});
  return MPI_SUCCESS;
}

int MpiRank::Errhandler_free(MPI_Errhandler* errhandler) {
  if (*errhandler != MPI_ERRORS_ARE_FATAL && *errhandler != MPI_ERRORS_RETURN) {
    errhandlers_.erase(*errhandler);
  }
  *errhandler = MPI_ERRHANDLER_NULL;
  return MPI_SUCCESS;
}

// The job's algorithms, with any that does not fit `comm` (a power-of-two algorithm on a
// communicator of three ranks, a deposit broadcast on ranks off one torus line) replaced by the
// first of its collective's that does, as the job's defaults are on the world.
Algorithms fitted_algorithms(const Algorithms& wanted, Comm& comm) {
  Algorithms a = wanted;
  const auto& shape = comm.messenger().shape();
  for (auto c : kAllCollectives) {
    std::string why;
    if (find_algorithm(c, a.of(c), shape, comm.map(), comm.group(), why)) continue;
    for (const auto& alt : algorithms(c)) {
      std::string unused;
      if (find_algorithm(c, alt.name, shape, comm.map(), comm.group(), unused)) {
        a.of(c) = alt.name;
        break;
      }
    }
  }
  return a;
}

}  // namespace hs::fw::mpi::api
