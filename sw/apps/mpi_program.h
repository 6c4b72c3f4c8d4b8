// A message-passing program as data (the `program` workload's input, parsed by
// testbench/runner/program/): groups of ranks, each with a body of statements whose operands
// are integer expressions over the rank's variables. One rank's walk over it (RankWalk)
// evaluates every operand, keeps its requests and buffers, and hands each operation, resolved,
// to an Actions object: the interpreter (sw/apps/mpi_program_rank.h) performs them through
// sw/mpi, the checker before the run records them. Both walk the same code, so what the
// checker accepted is what the ranks run.
//
// Rules the walk relies on: the parser resolved every variable to a slot (Program::slots) and
// checked statement shapes; a mistake found while walking (a value out of range for this rank,
// an unknown request) throws ProgramError at the statement's position.
#pragma once
#include <array>
#include <cstdint>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

#include "sw/mpi/reduce_op.h"
#include "sw/mpi/trace.h"

namespace hs::fw::program {

struct Pos {
  int line = 0, col = 0;
};

struct ProgramError : std::runtime_error {
  ProgramError(Pos p, const std::string& message) : std::runtime_error(message), pos(p) {}
  Pos pos;
};

// Limits: a message fits the application half of a rank's window; tags are MPI's.
constexpr int64_t kMaxMessageBytes = int64_t{16} << 20;
constexpr int64_t kMaxComputeCycles = int64_t{1} << 40;
constexpr int64_t kMaxLoopCount = 1'000'000;
constexpr int kMaxOutstanding = 1024;  // requests a rank has not waited for
constexpr int kMaxTag = 0x7FFF;

// The variables every rank has, in slot order (slot i of Env::values).
enum class Builtin { Rank, Size, X, Y, Z, T, DimX, DimY, DimZ, RanksPerNode, Count };
const char* builtin_name(Builtin b);
constexpr int kBuiltinSlots = static_cast<int>(Builtin::Count);

enum class Func { Coord, Min, Max, Abs };

struct Expr {
  enum Kind { Number, Variable, Unary, Binary, Call } kind = Number;
  Pos pos;
  int64_t value = 0;  // Number
  int slot = 0;       // Variable: a builtin (below kBuiltinSlots), a loop index or a `let`
  std::string op;     // Unary: "-" "!"; Binary: + - * / % == != < <= > >= && ||
  Func func = Func::Min;
  std::vector<Expr> args;
};

enum class Op {
  Compute,
  Send,
  Recv,
  Sendrecv,
  Isend,
  Irecv,
  Wait,
  Waitall,
  Barrier,
  Bcast,
  Reduce,
  Allreduce,
  Allgather,
  Alltoall,
  Loop,
  If,
  Let
};

// A statement. Operands by op (`args`):
//   compute CYCLES | send DEST BYTES [TAG] | recv SRC BYTES [TAG] | isend/irecv like send/recv
//   sendrecv DEST SBYTES SRC RBYTES [TAG] | bcast ROOT BYTES | reduce ROOT BYTES
//   allreduce/allgather/alltoall BYTES | loop COUNT | if COND | let VALUE
struct Stmt {
  Op op = Op::Compute;
  Pos pos;
  std::vector<Expr> args;
  bool any_source = false, any_tag = false;  // recv/irecv/sendrecv: `any` for SRC / TAG
  bool has_tag = false;                      // TAG given (else 0)
  std::string request;                       // isend/irecv/wait: the request's name
  std::vector<std::string> requests;         // waitall: names (empty: every one outstanding)
  mpi::Op reduce_op = mpi::Op::Sum;
  mpi::Datatype type = mpi::Datatype::Double;
  int slot = -1;  // loop index / let
  std::vector<Stmt> body, else_body;
  std::string label;  // "FILE:LINE keyword": its span on the rank's timeline, and where a
                      // rank that never finishes is stuck
};

struct Selector {
  enum Kind { All, Even, Odd, Condition, List } kind = All;
  Pos pos;
  Expr condition;
  std::vector<std::pair<Expr, Expr>> ranges;  // List: lo..hi (hi = lo for one rank)
};

struct Group {
  Selector ranks;
  std::vector<Stmt> body;
};

struct Program {
  std::vector<Group> groups;
  int slots = kBuiltinSlots;  // builtins, then every loop index and `let`
};

// Where the ranks are: torus dimensions, ranks per node and each rank's x, y, z, t.
struct Layout {
  std::array<int, 3> dims{1, 1, 1};
  int ranks_per_node = 1;
  std::vector<std::array<int, 4>> place;  // per rank
  std::vector<int> rank_at;               // (node * ranks_per_node + t) -> rank
  int size() const { return static_cast<int>(place.size()); }
  // The rank at (x, y, z, t), each coordinate taken modulo its dimension.
  int rank_of(int64_t x, int64_t y, int64_t z, int64_t t) const;
};

// Integer evaluation with overflow, division by zero and unknown-function checks.
class Env {
 public:
  Env(const Program& p, const Layout& layout, int rank);
  int64_t eval(const Expr& e) const;
  void set(int slot, int64_t v) { values_[static_cast<size_t>(slot)] = v; }
  const Layout& layout() const { return layout_; }

 private:
  const Layout& layout_;
  std::vector<int64_t> values_;
};

// First-fit allocation of a rank's application memory (offsets from its window).
class BufferPool {
 public:
  explicit BufferPool(uint64_t capacity) : capacity_(capacity) { free_[0] = capacity; }
  // Throws ProgramError at `pos` when no free range holds `bytes`.
  uint64_t take(uint64_t bytes, Pos pos);
  void give(uint64_t offset);

 private:
  uint64_t capacity_;
  std::map<uint64_t, uint64_t> free_;  // offset -> length
  std::map<uint64_t, uint64_t> used_;
};

constexpr int kAny = -1;  // a receive's `any` source or tag

// One message operation, resolved for this rank: peer (destination, or source / kAny), bytes,
// tag (or kAny) and the buffer's offset in the rank's application memory.
struct Transfer {
  int peer = 0;
  uint32_t bytes = 0;
  int tag = 0;
  uint64_t buf = 0;
  Pos pos;
};

struct CollectiveOp {
  mpi::Collective kind = mpi::Collective::Barrier;
  int root = 0;
  uint32_t bytes = 0;
  mpi::Op op = mpi::Op::Sum;
  mpi::Datatype type = mpi::Datatype::Double;
  uint64_t send = 0, recv = 0;  // offsets; recv holds size() blocks for allgather/alltoall
  Pos pos;
};

// What a walk does at each operation. Handles identify non-blocking requests.
class Actions {
 public:
  virtual ~Actions() = default;
  virtual void compute(uint64_t cycles) = 0;
  virtual void send(const Transfer& t) = 0;
  virtual void recv(const Transfer& t) = 0;
  virtual void sendrecv(const Transfer& s, const Transfer& r) = 0;
  virtual int isend(const Transfer& t) = 0;
  virtual int irecv(const Transfer& t) = 0;
  // Completes the requests (handle, what it was), in the order given.
  virtual void wait(const std::vector<std::pair<int, Transfer>>& requests) = 0;
  virtual void collective(const CollectiveOp& c) = 0;
  // Each iteration of the rank's first loop directly in a group's body (or in an `if` there):
  // the timed iterations.
  virtual void iteration_begin() {}
  virtual void iteration_end() {}
  // Around each operation statement (not loop, if or let), nested inside the iterations.
  virtual void statement_begin(const Stmt&) {}
  virtual void statement_end() {}
};

// One rank's walk over the program: every group selecting the rank, in file order.
class RankWalk {
 public:
  // `budget`: statements left to run over all walks sharing it (nullptr: unlimited); the
  // walk throws ProgramError when it runs out.
  RankWalk(const Program& p, const Layout& layout, int rank, Actions& actions,
           uint64_t* budget = nullptr);
  void run();
  // Whether `sel` selects this rank.
  bool selects(const Selector& sel);

 private:
  struct Outstanding {
    int handle;
    Transfer transfer;
    bool send;
  };
  void block(const std::vector<Stmt>& body, bool top);
  void statement(const Stmt& s, bool top);
  int64_t operand(const Expr& e, int64_t lo, int64_t hi, const char* what, Pos pos);
  Transfer transfer(const Stmt& s, size_t peer_arg, size_t bytes_arg, bool receive);
  void start(const Stmt& s, bool send);
  void finish(const std::vector<std::string>& names, Pos pos);
  void collective(const Stmt& s, mpi::Collective kind);

  const Program& program_;
  Env env_;
  int rank_;
  Actions& actions_;
  uint64_t* budget_;
  BufferPool pool_;
  std::map<std::string, Outstanding> outstanding_;
  std::vector<std::string> order_;  // outstanding names, oldest first
  bool timed_loop_seen_ = false;
};

// The payload byte i of the k-th message from `src` to `dst` with `tag` (what the sender
// writes and the receiver checks).
uint8_t payload_byte(int src, int dst, int tag, uint32_t k, uint32_t i);

}  // namespace hs::fw::program
