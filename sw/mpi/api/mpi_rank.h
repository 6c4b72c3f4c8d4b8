// The MPI binding: mpi.h's functions for one rank, on the message layer (sw/mpi/) of its own
// core and DMA share, for a user program instance (sw/user/program_instance.h). Firmware: it
// reaches the hardware only through the rank's HAL (via the message layer).
//
// Rules:
// - Buffers are the program's host pointers. Contiguous data in the program's memory windows
//   (heap, globals, stack) moves in place: the DMA engine reads and writes the program's own
//   bytes. Anything else (a derived datatype with holes, memory outside the windows such as
//   thread-local variables, MPI_IN_PLACE's rearrangements) is staged through a buffer of the
//   rank's heap, packed and unpacked by the core at mpi.pack_bytes_per_cycle plus
//   mpi.pack_run_cycles per contiguous piece.
// - Handles are integers (mpi.h); each rank has its own communicators, groups, datatypes,
//   operators and requests. Predefined ones are the same numbers on every rank.
// - Errors are MPI's: each check names the call, the rank and the argument, and goes to the
//   communicator's error handler: MPI_ERRORS_ARE_FATAL (the default) ends the job, naming the
//   call and where the program made it; MPI_ERRORS_RETURN returns the error class.
// - Progress: non-blocking collectives (sw/mpi/schedule.h) and freed requests advance in every
//   call that tests or waits, and blocking calls keep them advancing while they wait. Polling
//   calls (MPI_Test*, MPI_Iprobe) cost mpi.poll_cycles of the core besides the layer's own
//   accesses, so a loop of them lets simulated time pass.
// - The job (MpiJobLink) is told of fatal errors, MPI_Abort and the end of every rank; what a
//   rank is doing now (its call, with arguments) is kept for a deadlock's report.
#pragma once
#include <climits>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "mpi.h"
#include "sw/mpi/api/datatype.h"
#include "sw/mpi/collectives.h"
#include "sw/mpi/schedule.h"
#include "sw/user/program_instance.h"

namespace hs::fw::mpi::api {

// What the binding needs of its job, shared by the job's ranks.
struct MpiJobLink {
  const MpiConfig* cfg = nullptr;
  const Algorithms* algorithms = nullptr;
  const RankMap* map = nullptr;
  hs::torus::TorusShape shape;
  MpiTrace* trace = nullptr;
  uint64_t poll_cycles = 100;       // each MPI_Test*, MPI_Iprobe
  double pack_bytes_per_cycle = 8;  // the core packing and unpacking staged buffers
  uint64_t pack_run_cycles = 4;     // per contiguous piece
  // A fatal error or MPI_Abort: the job fails with `why`; `status` is the exit status the
  // launcher reports.
  std::function<void(int world_rank, int status, const std::string& why)> fail;
};

class MpiRank {
 public:
  MpiRank(user::ProgramInstance& program, const MpiJobLink& job, int world_rank);
  ~MpiRank();
  MpiRank(const MpiRank&) = delete;
  MpiRank& operator=(const MpiRank&) = delete;

  // The table the program's forwarders call (sw/mpi/api/mpi_abi.h), for provide_api.
  static const void* table();

  user::ProgramInstance& program() { return program_; }
  bool initialized() const { return initialized_; }
  bool finalized() const { return finalized_; }
  // The call the rank is in now, with its arguments and where the program made it
  // ("MPI_Recv(source 2, tag 7, MPI_COMM_WORLD) at ring.c:42"), or "" outside MPI.
  std::string current_call() const;
  // What the rank sent and received, for reports.
  RankCounts counts() const;

  // ---- mpi.h, one method per function (mpi_env.cpp, mpi_p2p.cpp, mpi_coll.cpp,
  //      mpi_comm.cpp, mpi_types.cpp) ----
#define HS_MPI_FN(ret, name, params, args) ret name params;
#define HS_MPI_FN0(ret, name) ret name();
#include "hybridsim_mpi_functions.h"
#undef HS_MPI_FN
#undef HS_MPI_FN0

 private:
  // ---- objects behind handles ----
  struct CommObj {
    Comm* comm = nullptr;  // the world's, or owned
    std::unique_ptr<Comm> owned;
    std::unique_ptr<Collectives> coll;
    MPI_Errhandler errhandler = MPI_ERRORS_ARE_FATAL;
    std::string name;
    bool cart = false;
    std::vector<int> dims, periods;
  };
  struct GroupObj {
    std::vector<int> world;  // world ranks, in group order
  };
  struct OpObj {
    MPI_User_function* fn = nullptr;
    bool commute = true;
  };
  struct ErrhandlerObj {
    MPI_Comm_errhandler_function* fn = nullptr;
  };
  // A staged buffer: a heap block the wire sees instead of the program's own bytes.
  struct Staged {
    void* host = nullptr;
    uint64_t sim = 0;
  };
  struct Req {
    enum Kind { Send, Recv, Coll, Done } kind = Done;
    MPI_Comm comm = MPI_COMM_NULL;
    Request lower;
    Comm* layer = nullptr;
    Staged staged;  // send: free when done; recv: unpack into `user`, then free
    void* user = nullptr;
    int count = 0;
    MPI_Datatype type = MPI_DATATYPE_NULL;
    std::unique_ptr<Schedule> schedule;
    std::unique_ptr<UserOp> user_op;    // a non-blocking reduction's user operator
    std::function<void()> on_complete;  // a collective's unpacking of staged results
    std::vector<Staged> temporaries;    // freed at completion
    MPI_Status status{};
    bool complete = false;
    bool freed = false;     // MPI_Request_free: completes unseen
    uint64_t bsend_at = 0;  // a buffered send's place in the attached buffer (+1; 0: none)
    const char* what = "";
    int peer = 0, tag = 0;
    const void* site = nullptr;
  };

  // ---- errors ----
  struct Error {
    int code;
    std::string message;
  };
  // Hands an error to `comm`'s handler: fatal ends the job (never returns); else its code.
  int raise(MPI_Comm comm, const Error& e);
  int check_initialized(const char* call);
  std::string comm_name(MPI_Comm c) const;
  std::string type_name(MPI_Datatype t) const;

  // ---- handles ----
  CommObj* comm_of(MPI_Comm c);
  const TypeMap* type_of(MPI_Datatype t) const;
  GroupObj* group_of(MPI_Group g);
  std::optional<Error> bad_comm(MPI_Comm c, const char* call);
  std::optional<Error> bad_type(MPI_Datatype t, const char* call, bool need_commit = true);
  std::optional<Error> bad_count(int count, const char* call, const char* what = "count");
  std::optional<Error> bad_rank(MPI_Comm c, int rank, const char* call, const char* what,
                                bool allow_any, bool allow_null);
  std::optional<Error> bad_tag(int tag, const char* call, bool allow_any);
  std::optional<Error> bad_buffer(const void* buf, int count, MPI_Datatype t, const char* call);
  MPI_Comm add_comm(std::unique_ptr<CommObj> c);
  MPI_Group add_group(std::vector<int> world);
  MPI_Datatype add_type(TypeMap t);
  MPI_Request add_request(std::unique_ptr<Req> r);

  // ---- buffers ----
  // The simulated address of `count` elements of `type` at `buf`, to send: in place, or a
  // staged copy (recorded in `staged`, to free once sent).
  uint64_t outgoing(const void* buf, int count, const TypeMap& type, Staged& staged);
  // To receive into: in place, or a staged block unpacked into `buf` by land().
  uint64_t incoming(void* buf, int count, const TypeMap& type, Staged& staged);
  void land(const Staged& staged, void* buf, uint64_t bytes, const TypeMap& type);
  Staged stage(uint64_t bytes);
  void release(Staged& s);
  void charge_pack(uint64_t bytes, uint64_t runs);
  uint64_t heap_take(uint64_t bytes);
  void heap_give(uint64_t sim);

  // ---- requests and progress ----
  // Advances every non-blocking collective and freed request; true if any completed.
  bool progress_background();
  // Whether `r` has completed (testing it once); fills its status.
  bool poll(Req& r);
  void finish_request(Req& r);
  // Blocks until `done()` holds, keeping the background moving.
  template <class Done>
  void block_until(Done done);
  int complete_request(MPI_Request* handle, MPI_Status* status);
  void fill_status(MPI_Status* s, int source, int tag, uint64_t bytes, int error) const;
  bool background_active() const {
    return !background_.empty();
  }

  // ---- point-to-point and collectives ----
  int start_send(const void* buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm,
                 const char* call, SendMode mode, bool buffered, MPI_Request* request);
  int start_recv(void* buf, int count, MPI_Datatype type, int source, int tag, MPI_Comm comm,
                 const char* call, MPI_Request* request);
  int open_message(const void* buf, int count, MPI_Datatype type, int peer, int tag, MPI_Comm comm,
                   const char* call, bool receive, MPI_Request* request,
                   std::unique_ptr<Req>& open);
  int send_and_wait(const void* buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm,
                    const char* call, SendMode mode, bool buffered);
  int check_probe(int source, int tag, MPI_Comm comm, const char* call);
  std::vector<int> scan_requests(int count, const MPI_Request requests[], bool& active,
                                 bool first_only);
  int complete_some(const std::vector<int>& done, MPI_Request requests[], int* outcount,
                    int indices[], MPI_Status* statuses);
  // A collective, blocking (request null) or not: the call described whole; `finish` unpacks
  // staged results once it is over.
  int collective(CommObj& c, CollectiveCall call, std::function<void()> finish,
                 std::vector<Staged> temporaries, MPI_Request* request,
                 std::unique_ptr<UserOp> user = nullptr);
  int barrier_impl(MPI_Comm comm, const char* name, MPI_Request* request);
  int bcast_impl(void* buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm,
                 const char* name, MPI_Request* request);
  int wait_one(MPI_Request* request, MPI_Status* status);
  std::optional<Error> reduction_of(MPI_Op op, MPI_Datatype type, const char* call,
                                    CollectiveCall& into, std::unique_ptr<UserOp>& user);
  int make_comm(CommObj& parent, std::unique_ptr<Comm> made, MPI_Comm* out);
  // The shared part of the rooted, all-gathering and reducing collectives (mpi_coll.cpp).
  struct CollArgs;
  // One side of a collective's P blocks in the layer's terms: its simulated address and the
  // blocks' byte counts and displacements (in place), or a staged compact copy.
  struct BlockSide {
    uint64_t sim = 0;
    std::vector<uint32_t> counts, displs;
    Staged staged;
  };
  BlockSide blocks(const void* buf, const std::vector<int>& counts, const std::vector<int>& displs,
                   const TypeMap& t, bool out);
  void land_blocks(const BlockSide& b, void* buf, const std::vector<int>& displs, const TypeMap& t);
  std::optional<Error> bad_root(MPI_Comm comm, int root, const char* call);
  int gather_like(const CollArgs& a);
  int scatter_like(const CollArgs& a);
  int reduce_like(const CollArgs& a);
  int alltoall_like(const CollArgs& a);

  user::ProgramInstance& program_;
  const MpiJobLink& job_;
  int world_rank_;
  Hal& hal() {
    return program_.hal();
  }
  std::unique_ptr<Comm> world_;
  bool initialized_ = false, finalized_ = false;
  std::map<MPI_Comm, std::unique_ptr<CommObj>> comms_;
  std::map<MPI_Group, std::unique_ptr<GroupObj>> groups_;
  std::map<MPI_Datatype, TypeMap> types_;
  std::map<MPI_Op, OpObj> ops_;
  std::map<MPI_Errhandler, ErrhandlerObj> errhandlers_;
  std::map<MPI_Request, std::unique_ptr<Req>> requests_;
  std::vector<MPI_Request> background_;  // non-blocking collectives and freed requests
  int next_comm_ = 2, next_group_ = 1, next_type_ = 0x1000, next_op_ = 0x100, next_request_ = 1,
      next_errhandler_ = 2;
  // Predefined attributes' values (MPI_Comm_get_attr hands out pointers to them).
  int attr_tag_ub_ = 0, attr_host_ = 0, attr_io_ = 0, attr_wtime_global_ = 0, attr_universe_ = 0,
      attr_appnum_ = 0;
  // MPI_Buffer_attach's buffer and the buffered sends in it.
  char* bsend_buffer_ = nullptr;
  int bsend_size_ = 0;
  std::map<uint64_t, uint64_t> bsend_used_;  // offset -> bytes
  // The call under way, for current_call(): its name and the arguments that say what it
  // waits for (INT32_MIN: not given).
  struct CurrentCall {
    const char* name = nullptr;
    int peer = INT32_MIN, tag = INT32_MIN, root = INT32_MIN;
    MPI_Comm comm = MPI_COMM_NULL;
  };
  CurrentCall current_;

 public:
  // Set by the table around each call (mpi_table.cpp).
  void begin_call(const char* name) {
    current_ = CurrentCall{name};
  }
  void end_call() {
    current_.name = nullptr;
  }
};

template <class Done>
void MpiRank::block_until(Done done) {
  while (true) {
    if (done()) return;
    progress_background();
    if (done()) return;
    world_->idle();
  }
}

}  // namespace hs::fw::mpi::api
