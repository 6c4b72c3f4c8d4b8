// A DaCS element: the binding of a program's dacs.h calls (sw/cell/include/dacs.h) to the
// SLMPM firmware, for the host program on its Opteron core (the host element) and for the PPE
// program it starts on its Cell (the accelerator element, its child). Both call the same API;
// each sees the other as its only peer (DACS_DE_PARENT from the child, the reserved DE from
// the host).
//
// Rules:
// - One host program drives one Cell: the accelerator its core is paired with (on the TriBlade,
//   core c's; Roadrunner ran one host process per Opteron core, each with its Cell).
//   dacs_reserve_children grants at most that one DE of type DACS_DE_CBE, and dacs_de_start
//   runs one PPE program on it at a time (DACS_PROC_LOCAL_FILE or _REMOTE_FILE: its path).
// - Data moves as the SLMPM moves it, so the protocols' savings show in the program's time:
//   * the host's put to, get from, and send to its child are the host SLMPM's put and get
//     (sw/slmpm/slmpm.h): each picks its mode (below the DMA threshold by shared-memory
//     transfer through the mirrored rings, above it by the accelerator's DMA engine, the host
//     buffer registered through the registration cache);
//   * the child's put to, get from, and send to its parent are requests on its DMA engine
//     (the accelerator owns it: AcceleratorSlmpm::local_dma) into host memory that the host
//     pinned through the registration cache when it created the region or posted the receive;
//   * a send lands directly in the buffer of the matching receive (posted earlier or later);
//     a receive buffer smaller than the message fails both waits with DACS_ERR_BUF_OVERFLOW
//     and moves no data.
// - Control (a share's handle, an accept, a posted receive, a mailbox word, a barrier arrival)
//   is a posted write of its descriptor into the peer's memory across the path, then of its
//   sequence number, which the peer polls locally (Pair::Notice): no remote reads, as the
//   mirrored counters' rule asks, and everything posted before it has landed when the peer
//   acts on it. A process's end reaches the host after its last notices.
// - The accelerator's SLMPM service (on the PPE core's Hal, outliving each PPE program) runs
//   inside the PPE program's DaCS calls (DaCS on the PPE has no service thread here): a host
//   transfer into or out of the Cell's memory progresses while the PPE program is in a DaCS call (a
//   blocking one polls it), so a host that waits for its put while its child computes waits until
//   the child calls DaCS again.
// - Byte swapping: the flag is checked (value, and the size a multiple of its unit) but moves
//   no bytes, since both programs run in the simulator's byte order. Alignment follows the
//   Cell's DMA rules: 1, 2, 4 or 8 bytes naturally aligned, or a multiple of 16 bytes on
//   16-byte boundaries, at both ends.
// - Misuse returns the documented DACS_ERR_* code; a blocking call whose peer has ended returns
//   DACS_ERR_DE_TERM. Every call is a span named after it on its core's (or thread's) track.
#pragma once
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "sw/cell/include/dacs.h"
#include "sw/hal/hal.h"
#include "sw/os/os_model.h"
#include "sw/slmpm/registration_cache.h"
#include "sw/slmpm/slmpm.h"
#include "sw/user/program_instance.h"

namespace hs::fw::dacs {

enum Side { kHost = 0, kChild = 1 };

// What the two elements of one host-Cell pair have posted to each other. Both run as fibers of
// one simulation, so neither needs a lock.
struct Pair {
  int accelerator = 0;
  de_id_t child_de = 0;
  bool initialized[2] = {false, false};
  bool reserved = false;
  // The child's process: started by the host, ended by its program.
  enum class Proc { None, Starting, Running, Ended };
  Proc proc = Proc::None;
  dacs_process_id_t pid = 0;
  uint64_t next_pid = 1;
  int exit_status = 0;
  DACS_ERR_T end = DACS_STS_PROC_FINISHED;
  bool kill = false;
  bool host_ended = false;
  std::string program;            // its path
  std::vector<std::string> args;  // argv[1...]
  // Checks a PPE program before it starts: DACS_SUCCESS or why not.
  std::function<DACS_ERR_T(const std::string& path)> check_program;

  struct Region {
    Side owner;
    uint64_t addr, size;  // in the owner's memory
    uint64_t pointer;     // the owner's program's address of it
    DACS_MEMORY_ACCESS_MODE_T mode;
    bool offered = false;   // the owner has shared it
    bool accepted = false;  // the peer's view: it has accepted (and not released) it
    bool held = false;      // the owner's view of the same, as the peer's notices arrive
    os::Handle pin = 0;     // the host's registration, for the region's life (host regions)
  };
  std::map<dacs_remote_mem_t, Region> regions;
  dacs_remote_mem_t next_region = 1;
  std::deque<dacs_remote_mem_t> offers[2];  // shares waiting for the side's accept

  struct Receive {
    uint64_t id;
    uint32_t stream;
    uint64_t addr;  // in the receiver's memory
    uint32_t size;
  };
  std::deque<Receive> receives[2];  // posted by that side, not yet matched
  struct Arrived {
    uint32_t bytes;
    bool overflow;
  };
  std::map<uint64_t, Arrived> arrived;  // by receive id
  uint64_t next_receive = 1;

  std::deque<uint32_t> mailbox[2];     // words that have reached that side, unread
  uint64_t words_written[2] = {0, 0};  // words written to that side
  uint64_t words_freed[2] = {0, 0};    // of those, the reads its writer has heard of

  struct Group {
    bool closed = false;       // the host's view
    bool closed_seen = false;  // the child's
    bool member[2] = {false, false};
    bool invited = false;          // the child's view: it is invited
    bool joined = false;           // the host's view: the child has accepted (and not left)
    uint64_t arrived[2] = {0, 0};  // barrier arrivals of each side, as the other has heard
    uint64_t entered[2] = {0, 0};  // barrier arrivals of each side, its own count
  };
  std::map<dacs_group_t, Group> groups;
  dacs_group_t next_group = 1;

  // Notices to each side: what a posted descriptor tells it, applied once the descriptor's
  // sequence number has landed in that side's memory (posted writes keep their order, so
  // everything written before it, a transfer's data included, has landed too).
  struct Notice {
    uint64_t seq;
    std::function<void()> apply;
  };
  std::deque<Notice> inbox[2];
  uint64_t posted[2] = {0, 0};  // notices posted to each side
};

// How an element reaches the path: the host's SLMPM and registration, or the accelerator's.
struct Path {
  // Host.
  slmpm::HostSlmpmConfig host_slmpm;
  os::OsModel* os = nullptr;
  slmpm::RegistrationCache* cache = nullptr;
  uint64_t host_control = 0;  // the child's control area as the host writes it
  uint64_t host_inbox = 0;    // the host's control area in its own memory
  // Accelerator: its SLMPM service, which outlives each PPE program (the rings' counters go on
  // from one process to the next); null: the element makes its own.
  slmpm::AcceleratorSlmpmConfig acc_slmpm;
  slmpm::AcceleratorSlmpm* acc_service = nullptr;
  uint64_t child_control = 0;  // the host's control area as the child writes it
  uint64_t child_inbox = 0;    // the child's control area in its own memory
  uint64_t poll_cycles = 50;
};

// Transfers and their modes, for the report.
struct Counters {
  uint64_t calls = 0, host_smt = 0, host_dma = 0, child_dma = 0, bytes_to_child = 0,
           bytes_to_host = 0, overflows = 0;
};

class DacsElement {
 public:
  DacsElement(Side side, Pair& pair, user::ProgramInstance& program, Hal& hal, const Path& path,
              Counters& counters);
  ~DacsElement();
  static const void* table();
  void provide_to(user::ProgramInstance& program);
  user::ProgramInstance& program() { return program_; }
  // Whether a kill asked for the child's end (the binding then ends it).
  void check_killed();

#define HS_DACS_FN(ret, name, params, args) ret name params;
#define HS_DACS_FN0(ret, name) ret name();
#include "sw/cell/include/hybridsim_dacs_functions.h"
#undef HS_DACS_FN
#undef HS_DACS_FN0

 private:
  // A transfer under a wait identifier: step() moves it on, returns true once it has ended
  // (with `result`).
  struct Op {
    std::function<bool(DACS_ERR_T& result)> step;
    DACS_ORDER_ATTR_T order = DACS_ORDER_ATTR_NONE;
    uint64_t seq = 0;
    bool started = false, done = false;
    DACS_ERR_T result = DACS_SUCCESS;
  };
  struct Wid {
    std::deque<Op> ops;
  };

  Side peer() const {
    return side_ == kHost ? kChild : kHost;
  }
  DACS_ERR_T ready() const;
  DACS_ERR_T check_peer(de_id_t de, dacs_process_id_t pid) const;
  bool peer_gone() const;
  // Waits (polling the path) until `done`; false if the peer ended first.
  bool block_until(const std::function<bool()>& done);
  void idle();
  // A descriptor of `bytes` posted into the peer's control area, then its sequence number;
  // `notice` runs on the peer's side once that has landed (deliver()).
  void post(uint32_t bytes, std::function<void()> notice = nullptr);
  // Applies the notices whose sequence numbers have landed in this side's memory.
  void deliver();
  std::optional<uint64_t> simulated(const void* p, uint64_t n) const;
  DACS_ERR_T check_transfer(uint64_t local, uint64_t remote, uint64_t size,
                            DACS_BYTE_SWAP_T swap) const;
  DACS_ERR_T queue(dacs_wid_t wid, DACS_ORDER_ATTR_T order, std::function<bool(DACS_ERR_T&)> step);
  // One block moved between local memory and a region of the peer's.
  std::function<bool(DACS_ERR_T&)> transfer(bool put, uint64_t local, uint64_t remote, uint64_t n);
  bool step_wid(Wid& w);
  // Put (true) or get of the blocks two lists describe, checked whole before any starts.
  DACS_ERR_T transfer_list(bool put, dacs_remote_mem_t mem, const dacs_dma_list_t* remote,
                           uint32_t remote_n, void* local, const dacs_dma_list_t* local_list,
                           uint32_t local_n, dacs_wid_t wid, DACS_ORDER_ATTR_T order,
                           DACS_BYTE_SWAP_T swap);
  slmpm::HostSlmpm& host_slmpm();
  slmpm::AcceleratorSlmpm& acc_slmpm();
  bool host_pin(uint64_t lo, uint64_t hi, os::Handle& handle);
  void host_unpin(uint64_t lo, uint64_t hi, os::Handle handle);

  Side side_;
  Pair& pair_;
  user::ProgramInstance& program_;
  Hal& hal_;
  Path path_;
  Counters& counters_;
  std::unique_ptr<slmpm::HostSlmpm> host_slmpm_;
  std::unique_ptr<slmpm::AcceleratorSlmpm> acc_slmpm_;
  std::map<dacs_wid_t, Wid> wids_;
  uint64_t next_seq_ = 1;
  uint64_t post_slot_ = 0;
};

}  // namespace hs::fw::dacs
