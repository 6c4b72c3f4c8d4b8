#include "sw/cell/program/dacs_element.h"

#include <fmt/format.h>
#include <algorithm>
#include <cstring>

#include "sw/cell/runtime/dacs_abi.h"

namespace hs::fw::dacs {

namespace {
constexpr uint64_t kControlSlots = 64;  // descriptors rotate through 64 slots of 64 bytes
constexpr uint32_t kMaxList = 4096;     // elements of a put or get list
constexpr int kMaxStrings = 4096;       // arguments of dacs_de_start

bool valid_order(DACS_ORDER_ATTR_T o) {
  return o == DACS_ORDER_ATTR_NONE || o == DACS_ORDER_ATTR_FENCE || o == DACS_ORDER_ATTR_BARRIER;
}
bool valid_swap(DACS_BYTE_SWAP_T s) {
  return s >= DACS_BYTE_SWAP_DISABLE && s <= DACS_BYTE_SWAP_DOUBLE_WORD;
}
uint64_t swap_unit(DACS_BYTE_SWAP_T s) {
  return s == DACS_BYTE_SWAP_HALF_WORD     ? 2
         : s == DACS_BYTE_SWAP_WORD        ? 4
         : s == DACS_BYTE_SWAP_DOUBLE_WORD ? 8
                                           : 1;
}
// The Cell's DMA rules: 1, 2, 4 or 8 bytes naturally aligned, or quadwords on quadword
// boundaries.
bool dma_aligned(uint64_t a, uint64_t b, uint64_t n) {
  if (n == 1 || n == 2 || n == 4 || n == 8) return a % n == 0 && b % n == 0;
  return n % 16 == 0 && a % 16 == 0 && b % 16 == 0;
}
}  // namespace

DacsElement::DacsElement(Side side, Pair& pair, user::ProgramInstance& program, Hal& hal,
                         const Path& path, Counters& counters)
    : side_(side), pair_(pair), program_(program), hal_(hal), path_(path), counters_(counters) {}

DacsElement::~DacsElement() {
  if (side_ == kHost) pair_.host_ended = true;
}

// ---- the path ----

slmpm::HostSlmpm& DacsElement::host_slmpm() {
  // Made at the first transfer, after the child has made its side of the rings.
  if (!host_slmpm_) {
    host_slmpm_ =
        std::make_unique<slmpm::HostSlmpm>(hal_, path_.host_slmpm, *path_.os, path_.cache);
  }
  return *host_slmpm_;
}

slmpm::AcceleratorSlmpm& DacsElement::acc_slmpm() {
  if (path_.acc_service) return *path_.acc_service;
  if (!acc_slmpm_) {
    acc_slmpm_ = std::make_unique<slmpm::AcceleratorSlmpm>(hal_, path_.acc_slmpm, nullptr,
                                                           path_.poll_cycles);
  }
  return *acc_slmpm_;
}

bool DacsElement::host_pin(uint64_t lo, uint64_t hi, os::Handle& handle) {
  std::string error;
  if (path_.cache) {
    auto r = path_.cache->register_range(hal_, lo, hi, error);
    if (!r) return false;
    handle = r->handle;
    return true;
  }
  auto h = path_.os->register_range(hal_, lo, hi);
  if (!h) return false;
  handle = *h;
  return true;
}

void DacsElement::host_unpin(uint64_t lo, uint64_t hi, os::Handle handle) {
  std::string error;
  if (path_.cache) {
    if (!path_.cache->deregister(hal_, lo, hi, handle, error)) hal_.fail(error);
  } else {
    path_.os->deregister(hal_, handle);
  }
}

void DacsElement::post(uint32_t bytes, std::function<void()> notice) {
  static const uint8_t zeros[64] = {};
  const uint64_t base = side_ == kHost ? path_.host_control : path_.child_control;
  const uint64_t seq = ++pair_.posted[peer()];
  hal_.store(base + 64 + (post_slot_++ % kControlSlots) * 64, zeros, std::min<uint32_t>(bytes, 64));
  hal_.store(base, &seq, sizeof seq);
  pair_.inbox[peer()].push_back({seq, std::move(notice)});
}

void DacsElement::deliver() {
  auto& inbox = pair_.inbox[side_];
  if (inbox.empty()) return;
  uint64_t landed = 0;
  hal_.load(side_ == kHost ? path_.host_inbox : path_.child_inbox, &landed, sizeof landed);
  while (!inbox.empty() && inbox.front().seq <= landed) {
    auto apply = std::move(inbox.front().apply);
    inbox.pop_front();
    if (apply) apply();
  }
}

void DacsElement::idle() {
  if (side_ == kChild) {
    if (acc_slmpm().poll()) return;
  }
  hal_.compute(path_.poll_cycles);
}

bool DacsElement::peer_gone() const {
  if (side_ == kHost)
    return pair_.proc != Pair::Proc::Running && pair_.proc != Pair::Proc::Starting;
  return pair_.host_ended;
}

void DacsElement::check_killed() {
  if (side_ == kChild && pair_.kill) {
    program_.terminate(user::ProgramInstance::End::Aborted, 137,
                       "killed by the host's dacs_de_kill");
  }
}

bool DacsElement::block_until(const std::function<bool()>& done) {
  for (;;) {
    check_killed();
    deliver();
    if (done()) return true;
    if (peer_gone()) return done();
    idle();
  }
}

std::optional<uint64_t> DacsElement::simulated(const void* p, uint64_t n) const {
  if (p == nullptr || n == 0) return std::nullopt;
  return program_.windows().to_simulated(p, n);
}

// ---- checks ----

DACS_ERR_T DacsElement::ready() const {
  return pair_.initialized[side_] ? DACS_SUCCESS : DACS_ERR_NOT_INITIALIZED;
}

DACS_ERR_T DacsElement::check_peer(de_id_t de, dacs_process_id_t pid) const {
  if (side_ == kHost) {
    if (de != pair_.child_de || !pair_.reserved) return DACS_ERR_INVALID_DE;
    if ((pair_.proc != Pair::Proc::Running && pair_.proc != Pair::Proc::Starting) ||
        pid != pair_.pid) {
      return DACS_ERR_INVALID_PID;
    }
    return DACS_SUCCESS;
  }
  if (de == DACS_DE_SELF) return DACS_ERR_INVALID_TARGET;
  if (de != DACS_DE_PARENT) return DACS_ERR_INVALID_DE;
  return pid == DACS_PID_PARENT ? DACS_SUCCESS : DACS_ERR_INVALID_PID;
}

DACS_ERR_T DacsElement::check_transfer(uint64_t local, uint64_t remote, uint64_t size,
                                       DACS_BYTE_SWAP_T swap) const {
  if (!valid_swap(swap)) return DACS_ERR_INVALID_ATTR;
  if (size == 0 || size > UINT32_MAX) return DACS_ERR_INVALID_SIZE;
  if (!dma_aligned(local, remote, size) || size % swap_unit(swap) != 0) {
    return DACS_ERR_NOT_ALIGNED;
  }
  return DACS_SUCCESS;
}

// ---- wait identifiers and the transfers under them ----

DACS_ERR_T DacsElement::queue(dacs_wid_t wid, DACS_ORDER_ATTR_T order,
                              std::function<bool(DACS_ERR_T&)> step) {
  Op op;
  op.step = std::move(step);
  op.order = order;
  op.seq = next_seq_++;
  wids_.at(wid).ops.push_back(std::move(op));
  step_wid(wids_.at(wid));  // starts it now unless its order holds it back
  return DACS_SUCCESS;
}

bool DacsElement::step_wid(Wid& w) {
  // The oldest transfer of this process still under way, for DACS_ORDER_ATTR_BARRIER.
  uint64_t oldest = UINT64_MAX;
  for (const auto& [id, other] : wids_) {
    for (const Op& o : other.ops) {
      if (!o.done) oldest = std::min(oldest, o.seq);
    }
  }
  bool all = true, earlier_done = true;
  for (Op& o : w.ops) {
    if (!o.done && !o.started) {
      const bool hold = (o.order == DACS_ORDER_ATTR_FENCE && !earlier_done) ||
                        (o.order == DACS_ORDER_ATTR_BARRIER && oldest < o.seq);
      if (!hold) o.started = true;
    }
    if (!o.done && o.started) o.done = o.step(o.result);
    if (!o.done) all = earlier_done = false;
  }
  return all;
}

std::function<bool(DACS_ERR_T&)> DacsElement::transfer(bool put, uint64_t local, uint64_t remote,
                                                       uint64_t n) {
  struct State {
    bool started = false;
    uint64_t token = 0;
  };
  auto st = std::make_shared<State>();
  return [this, st, put, local, remote, n](DACS_ERR_T& result) {
    if (side_ == kHost) {
      auto& s = host_slmpm();
      if (!st->started) {
        std::string error;
        const slmpm::AcceleratorId id{slmpm::AcceleratorId::Form::PcieId,
                                      static_cast<uint64_t>(pair_.accelerator)};
        const auto tag = put ? s.put(id, local, remote, static_cast<uint32_t>(n), error)
                             : s.get(id, remote, local, static_cast<uint32_t>(n), error);
        if (!tag) {
          result = DACS_ERR_NO_RESOURCE;
          return true;
        }
        st->started = true;
        st->token = *tag;
        ++(put && s.last_mode().protocol == slmpm::Protocol::SharedMemory ? counters_.host_smt
                                                                          : counters_.host_dma);
        (put ? counters_.bytes_to_child : counters_.bytes_to_host) += n;
      }
      return s.test(static_cast<uint32_t>(st->token));
    }
    auto& s = acc_slmpm();
    const uint64_t host = path_.acc_slmpm.host_window + remote;
    if (!st->started) {
      st->token = put ? s.local_dma(local, host, n) : s.local_dma(host, local, n);
      st->started = true;
      ++counters_.child_dma;
      (put ? counters_.bytes_to_host : counters_.bytes_to_child) += n;
    }
    s.poll();
    return s.local_done(st->token);
  };
}

DACS_ERR_T DacsElement::dacs_wid_reserve(dacs_wid_t* wid) {
  if (const DACS_ERR_T e = ready()) return e;
  if (wid == nullptr) return DACS_ERR_INVALID_ADDR;
  for (dacs_wid_t w = 1; w <= DACS_MAX_WIDS; ++w) {
    if (!wids_.count(w)) {
      wids_[w];
      *wid = w;
      return DACS_SUCCESS;
    }
  }
  return DACS_ERR_NO_WIDS;
}

DACS_ERR_T DacsElement::dacs_wid_release(dacs_wid_t* wid) {
  if (const DACS_ERR_T e = ready()) return e;
  if (wid == nullptr) return DACS_ERR_INVALID_ADDR;
  auto it = wids_.find(*wid);
  if (it == wids_.end()) return DACS_ERR_INVALID_WID;
  if (!it->second.ops.empty()) return DACS_ERR_WID_ACTIVE;
  wids_.erase(it);
  return DACS_SUCCESS;
}

DACS_ERR_T DacsElement::dacs_test(dacs_wid_t wid) {
  if (const DACS_ERR_T e = ready()) return e;
  auto it = wids_.find(wid);
  if (it == wids_.end()) return DACS_ERR_INVALID_WID;
  Wid& w = it->second;
  if (w.ops.empty()) return DACS_ERR_WID_NOT_ACTIVE;
  deliver();
  // A look costs a poll of the path (the child's SLMPM) or of the host's own memory.
  if (side_ != kChild || !acc_slmpm().poll()) hal_.compute(path_.poll_cycles);
  if (!step_wid(w)) return DACS_WID_BUSY;
  DACS_ERR_T result = DACS_WID_READY;
  for (const Op& o : w.ops) {
    if (o.result != DACS_SUCCESS && result == DACS_WID_READY) result = o.result;
  }
  w.ops.clear();
  return result;
}

DACS_ERR_T DacsElement::dacs_wait(dacs_wid_t wid) {
  for (;;) {
    const DACS_ERR_T r = dacs_test(wid);
    if (r != DACS_WID_BUSY) return r;
    check_killed();
    if (peer_gone()) {
      // One more look: what the peer finished before it ended counts.
      const DACS_ERR_T last = dacs_test(wid);
      if (last != DACS_WID_BUSY) return last;
      wids_.at(wid).ops.clear();
      return DACS_ERR_DE_TERM;
    }
    idle();
  }
}

// ---- runtime ----

DACS_ERR_T DacsElement::dacs_runtime_init(void*, void*) {
  if (pair_.initialized[side_]) return DACS_ERR_INITIALIZED;
  pair_.initialized[side_] = true;
  if (side_ == kChild) acc_slmpm();  // its side of the rings, before the host's first transfer
  return DACS_SUCCESS;
}

DACS_ERR_T DacsElement::dacs_runtime_exit() {
  if (const DACS_ERR_T e = ready()) return e;
  for (const auto& [id, w] : wids_) {
    if (!w.ops.empty()) return DACS_ERR_RESOURCE_BUSY;
  }
  if (side_ == kHost) {
    if (pair_.proc == Pair::Proc::Running || pair_.proc == Pair::Proc::Starting) {
      return DACS_ERR_RESOURCE_BUSY;
    }
    pair_.reserved = false;
  }
  pair_.initialized[side_] = false;
  return DACS_SUCCESS;
}

// ---- reservation and processes ----

DACS_ERR_T DacsElement::dacs_get_num_avail_children(DACS_DE_TYPE_T type, uint32_t* num) {
  if (const DACS_ERR_T e = ready()) return e;
  if (num == nullptr) return DACS_ERR_INVALID_ADDR;
  if (type != DACS_DE_CBE && type != DACS_DE_SYSTEMX) return DACS_ERR_INVALID_ATTR;
  *num = side_ == kHost && type == DACS_DE_CBE && !pair_.reserved ? 1 : 0;
  return DACS_SUCCESS;
}

DACS_ERR_T DacsElement::dacs_reserve_children(DACS_DE_TYPE_T type, uint32_t* num, de_id_t* list) {
  if (const DACS_ERR_T e = ready()) return e;
  if (num == nullptr || (list == nullptr && *num > 0)) return DACS_ERR_INVALID_ADDR;
  if (type != DACS_DE_CBE && type != DACS_DE_SYSTEMX) return DACS_ERR_INVALID_ATTR;
  if (*num == 0) return DACS_SUCCESS;
  if (side_ != kHost || type != DACS_DE_CBE || pair_.reserved) {
    *num = 0;
    return DACS_SUCCESS;
  }
  pair_.reserved = true;
  list[0] = pair_.child_de;
  *num = 1;
  return DACS_SUCCESS;
}

DACS_ERR_T DacsElement::dacs_release_de_list(uint32_t n, de_id_t* list) {
  if (const DACS_ERR_T e = ready()) return e;
  if (n > 0 && list == nullptr) return DACS_ERR_INVALID_ADDR;
  for (uint32_t i = 0; i < n; ++i) {
    if (side_ != kHost || list[i] != pair_.child_de || !pair_.reserved) return DACS_ERR_INVALID_DE;
  }
  if (n == 0) return DACS_SUCCESS;
  if (pair_.proc == Pair::Proc::Running || pair_.proc == Pair::Proc::Starting) {
    return DACS_ERR_RESOURCE_BUSY;
  }
  pair_.reserved = false;
  return DACS_SUCCESS;
}

DACS_ERR_T DacsElement::dacs_de_start(de_id_t de, void* prog, char const** argv, char const** envv,
                                      DACS_PROC_CREATION_FLAG_T flags, dacs_process_id_t* pid) {
  if (const DACS_ERR_T e = ready()) return e;
  if (side_ != kHost || de != pair_.child_de || !pair_.reserved) return DACS_ERR_INVALID_DE;
  if (flags != DACS_PROC_LOCAL_FILE && flags != DACS_PROC_REMOTE_FILE) return DACS_ERR_INVALID_ATTR;
  if (pid == nullptr) return DACS_ERR_INVALID_ADDR;
  if (prog == nullptr || !simulated(prog, 1)) return DACS_ERR_INVALID_PROG;
  if (pair_.proc == Pair::Proc::Running || pair_.proc == Pair::Proc::Starting) {
    return DACS_ERR_PROC_LIMIT;
  }
  std::vector<std::string> args;
  for (int i = 0; argv != nullptr && argv[i] != nullptr; ++i) {
    if (i == kMaxStrings) return DACS_ERR_INVALID_ARGV;
    args.emplace_back(argv[i]);
  }
  for (int i = 0; envv != nullptr && envv[i] != nullptr; ++i) {
    if (i == kMaxStrings || std::strchr(envv[i], '=') == nullptr) return DACS_ERR_INVALID_ENV;
  }
  const std::string path(static_cast<const char*>(prog));
  if (const DACS_ERR_T e = pair_.check_program ? pair_.check_program(path) : DACS_SUCCESS) return e;
  post(64);  // the start request: program, arguments
  pair_.program = path;
  pair_.args = std::move(args);
  pair_.proc = Pair::Proc::Starting;
  pair_.kill = false;
  pair_.pid = pair_.next_pid++;
  *pid = pair_.pid;
  return DACS_SUCCESS;
}

DACS_ERR_T DacsElement::dacs_de_test(de_id_t de, dacs_process_id_t pid, int32_t* exit_status) {
  if (const DACS_ERR_T e = ready()) return e;
  if (side_ != kHost || de != pair_.child_de || !pair_.reserved) return DACS_ERR_INVALID_DE;
  if (pair_.proc == Pair::Proc::None || pid != pair_.pid) return DACS_ERR_INVALID_PID;
  hal_.compute(path_.poll_cycles);  // a look at the child's state in the host's memory
  // Ended once its last notices (posted before it ended) have reached the host too.
  deliver();
  if (pair_.proc != Pair::Proc::Ended || !pair_.inbox[kHost].empty()) return DACS_STS_PROC_RUNNING;
  if (exit_status) *exit_status = pair_.exit_status;
  pair_.proc = Pair::Proc::None;  // reaped
  return pair_.end;
}

DACS_ERR_T DacsElement::dacs_de_wait(de_id_t de, dacs_process_id_t pid, int32_t* exit_status) {
  for (;;) {  // each look costs the host a poll of its memory
    const DACS_ERR_T r = dacs_de_test(de, pid, exit_status);
    if (r != DACS_STS_PROC_RUNNING) return r;
  }
}

DACS_ERR_T DacsElement::dacs_de_kill(de_id_t de, dacs_process_id_t pid) {
  if (const DACS_ERR_T e = ready()) return e;
  if (side_ != kHost || de != pair_.child_de || !pair_.reserved) return DACS_ERR_INVALID_DE;
  if ((pair_.proc != Pair::Proc::Running && pair_.proc != Pair::Proc::Starting) ||
      pid != pair_.pid) {
    return DACS_ERR_INVALID_PID;
  }
  post(8);
  pair_.kill = true;
  return DACS_SUCCESS;
}

// ---- remote memory ----

DACS_ERR_T DacsElement::dacs_remote_mem_create(void* addr, uint64_t size,
                                               DACS_MEMORY_ACCESS_MODE_T mode,
                                               dacs_remote_mem_t* mem) {
  if (const DACS_ERR_T e = ready()) return e;
  if (mem == nullptr) return DACS_ERR_INVALID_ADDR;
  if (size == 0) return DACS_ERR_INVALID_SIZE;
  if (mode != DACS_READ_ONLY && mode != DACS_WRITE_ONLY && mode != DACS_READ_WRITE) {
    return DACS_ERR_INVALID_ATTR;
  }
  const auto at = simulated(addr, size);
  if (!at) return DACS_ERR_INVALID_ADDR;
  Pair::Region r{side_, *at, size, reinterpret_cast<uint64_t>(addr), mode};
  // The host pins its region for its life, so the child's DMAs never touch unpinned memory.
  if (side_ == kHost && !host_pin(*at, *at + size, r.pin)) return DACS_ERR_NO_RESOURCE;
  const dacs_remote_mem_t h = pair_.next_region++;
  pair_.regions[h] = r;
  *mem = h;
  return DACS_SUCCESS;
}

DACS_ERR_T DacsElement::dacs_remote_mem_share(de_id_t de, dacs_process_id_t pid,
                                              dacs_remote_mem_t mem) {
  if (const DACS_ERR_T e = ready()) return e;
  if (const DACS_ERR_T e = check_peer(de, pid)) return e;
  auto it = pair_.regions.find(mem);
  if (it == pair_.regions.end()) return DACS_ERR_INVALID_HANDLE;
  if (it->second.owner != side_) return DACS_ERR_NOT_OWNER;
  if (it->second.offered || it->second.held) return DACS_ERR_RESOURCE_BUSY;
  it->second.offered = true;
  Pair* pair = &pair_;
  const Side to = peer();
  post(32, [pair, to, mem] { pair->offers[to].push_back(mem); });  // address, size, mode
  if (!block_until([&] { return pair_.regions.count(mem) && pair_.regions.at(mem).held; })) {
    return DACS_ERR_DE_TERM;
  }
  return DACS_SUCCESS;
}

DACS_ERR_T DacsElement::dacs_remote_mem_accept(de_id_t de, dacs_process_id_t pid,
                                               dacs_remote_mem_t* mem) {
  if (const DACS_ERR_T e = ready()) return e;
  if (mem == nullptr) return DACS_ERR_INVALID_ADDR;
  if (const DACS_ERR_T e = check_peer(de, pid)) return e;
  if (!block_until([&] { return !pair_.offers[side_].empty(); })) return DACS_ERR_DE_TERM;
  const dacs_remote_mem_t h = pair_.offers[side_].front();
  pair_.offers[side_].pop_front();
  pair_.regions.at(h).accepted = true;
  Pair* pair = &pair_;
  post(8, [pair, h] { pair->regions.at(h).held = true; });  // the answer the share waits for
  *mem = h;
  return DACS_SUCCESS;
}

DACS_ERR_T DacsElement::dacs_remote_mem_release(dacs_remote_mem_t* mem) {
  if (const DACS_ERR_T e = ready()) return e;
  if (mem == nullptr) return DACS_ERR_INVALID_ADDR;
  auto it = pair_.regions.find(*mem);
  if (it == pair_.regions.end() || it->second.owner == side_ || !it->second.accepted) {
    return DACS_ERR_INVALID_HANDLE;
  }
  it->second.accepted = false;
  Pair* pair = &pair_;
  const dacs_remote_mem_t h = *mem;
  post(8, [pair, h] {
    auto r = pair->regions.find(h);
    if (r != pair->regions.end()) r->second.held = r->second.offered = false;
  });
  *mem = 0;
  return DACS_SUCCESS;
}

DACS_ERR_T DacsElement::dacs_remote_mem_destroy(dacs_remote_mem_t* mem) {
  if (const DACS_ERR_T e = ready()) return e;
  if (mem == nullptr) return DACS_ERR_INVALID_ADDR;
  auto it = pair_.regions.find(*mem);
  if (it == pair_.regions.end()) return DACS_ERR_INVALID_HANDLE;
  if (it->second.owner != side_) return DACS_ERR_NOT_OWNER;
  if (it->second.held || it->second.offered) return DACS_ERR_RESOURCE_BUSY;
  if (side_ == kHost)
    host_unpin(it->second.addr, it->second.addr + it->second.size, it->second.pin);
  pair_.regions.erase(it);
  *mem = 0;
  return DACS_SUCCESS;
}

DACS_ERR_T DacsElement::dacs_remote_mem_query(dacs_remote_mem_t mem, DACS_REMOTE_MEM_ATTR_T attr,
                                              uint64_t* value) {
  if (const DACS_ERR_T e = ready()) return e;
  if (value == nullptr) return DACS_ERR_INVALID_ADDR;
  auto it = pair_.regions.find(mem);
  if (it == pair_.regions.end() || (it->second.owner != side_ && !it->second.accepted)) {
    return DACS_ERR_INVALID_HANDLE;
  }
  switch (attr) {
    case DACS_REMOTE_MEM_ADDR:
      *value = it->second.addr;
      return DACS_SUCCESS;
    case DACS_REMOTE_MEM_SIZE:
      *value = it->second.size;
      return DACS_SUCCESS;
    case DACS_REMOTE_MEM_PERM:
      *value = it->second.mode;
      return DACS_SUCCESS;
  }
  return DACS_ERR_INVALID_ATTR;
}

// ---- put and get ----

namespace {
struct Block {
  uint64_t local, remote, size;
};

// The blocks of a list transfer: both lists walked together, each block as long as both
// current elements allow.
DACS_ERR_T walk_lists(const dacs_dma_list_t* remote, uint32_t nr, const dacs_dma_list_t* local,
                      uint32_t nl, std::vector<Block>& out) {
  if (remote == nullptr || local == nullptr) return DACS_ERR_INVALID_ADDR;
  if (nr == 0 || nl == 0 || nr > kMaxList || nl > kMaxList) return DACS_ERR_INVALID_SIZE;
  uint64_t total_r = 0, total_l = 0;
  for (uint32_t i = 0; i < nr; ++i) total_r += remote[i].size;
  for (uint32_t i = 0; i < nl; ++i) total_l += local[i].size;
  if (total_r != total_l || total_r == 0) return DACS_ERR_INVALID_SIZE;
  uint32_t i = 0, j = 0;
  uint64_t used_r = 0, used_l = 0;
  while (i < nr && j < nl) {
    const uint64_t n = std::min(remote[i].size - used_r, local[j].size - used_l);
    if (n > 0) out.push_back({local[j].offset + used_l, remote[i].offset + used_r, n});
    used_r += n;
    used_l += n;
    if (used_r == remote[i].size) ++i, used_r = 0;
    if (used_l == local[j].size) ++j, used_l = 0;
  }
  return DACS_SUCCESS;
}
}  // namespace

DACS_ERR_T DacsElement::dacs_put(dacs_remote_mem_t mem, uint64_t offset, void* src, uint64_t size,
                                 dacs_wid_t wid, DACS_ORDER_ATTR_T order, DACS_BYTE_SWAP_T swap) {
  dacs_dma_list_t r{offset, size}, l{0, size};
  return dacs_put_list(mem, &r, 1, src, &l, 1, wid, order, swap);
}

DACS_ERR_T DacsElement::dacs_get(void* dst, dacs_remote_mem_t mem, uint64_t offset, uint64_t size,
                                 dacs_wid_t wid, DACS_ORDER_ATTR_T order, DACS_BYTE_SWAP_T swap) {
  dacs_dma_list_t r{offset, size}, l{0, size};
  return dacs_get_list(dst, &l, 1, mem, &r, 1, wid, order, swap);
}

DACS_ERR_T DacsElement::dacs_put_list(dacs_remote_mem_t mem, dacs_dma_list_t* dst_list,
                                      uint32_t dst_n, void* src, dacs_dma_list_t* src_list,
                                      uint32_t src_n, dacs_wid_t wid, DACS_ORDER_ATTR_T order,
                                      DACS_BYTE_SWAP_T swap) {
  return transfer_list(true, mem, dst_list, dst_n, src, src_list, src_n, wid, order, swap);
}

DACS_ERR_T DacsElement::dacs_get_list(void* dst, dacs_dma_list_t* dst_list, uint32_t dst_n,
                                      dacs_remote_mem_t mem, dacs_dma_list_t* src_list,
                                      uint32_t src_n, dacs_wid_t wid, DACS_ORDER_ATTR_T order,
                                      DACS_BYTE_SWAP_T swap) {
  return transfer_list(false, mem, src_list, src_n, dst, dst_list, dst_n, wid, order, swap);
}

DACS_ERR_T DacsElement::transfer_list(bool put, dacs_remote_mem_t mem,
                                      const dacs_dma_list_t* remote, uint32_t remote_n, void* local,
                                      const dacs_dma_list_t* local_list, uint32_t local_n,
                                      dacs_wid_t wid, DACS_ORDER_ATTR_T order,
                                      DACS_BYTE_SWAP_T swap) {
  if (const DACS_ERR_T e = ready()) return e;
  if (!wids_.count(wid)) return DACS_ERR_INVALID_WID;
  if (!valid_order(order) || !valid_swap(swap)) return DACS_ERR_INVALID_ATTR;
  auto it = pair_.regions.find(mem);
  if (it == pair_.regions.end()) return DACS_ERR_INVALID_HANDLE;
  const Pair::Region& region = it->second;
  if (region.owner == side_) return DACS_ERR_INVALID_TARGET;  // the owner does not put its own
  if (!region.accepted) return DACS_ERR_INVALID_HANDLE;
  if (region.mode == (put ? DACS_READ_ONLY : DACS_WRITE_ONLY)) return DACS_ERR_NO_PERM;
  std::vector<Block> blocks;
  if (const DACS_ERR_T e = walk_lists(remote, remote_n, local_list, local_n, blocks)) return e;
  std::vector<Block> checked;
  for (const Block& b : blocks) {
    if (b.remote + b.size > region.size || b.remote + b.size < b.remote) {
      return DACS_ERR_INVALID_SIZE;
    }
    const char* p = static_cast<const char*>(local) + b.local;
    const auto at = simulated(p, b.size);
    if (!at || (!put && !program_.windows().writable(p, b.size))) return DACS_ERR_INVALID_ADDR;
    if (const DACS_ERR_T e = check_transfer(*at, region.addr + b.remote, b.size, swap)) return e;
    checked.push_back({*at, region.addr + b.remote, b.size});
  }
  for (size_t i = 0; i < checked.size(); ++i) {
    queue(wid, i == 0 ? order : DACS_ORDER_ATTR_NONE,
          transfer(put, checked[i].local, checked[i].remote, checked[i].size));
  }
  return DACS_SUCCESS;
}

// ---- messages ----

DACS_ERR_T DacsElement::dacs_send(void* src, uint32_t size, de_id_t de, dacs_process_id_t pid,
                                  uint32_t stream, dacs_wid_t wid, DACS_BYTE_SWAP_T swap) {
  if (const DACS_ERR_T e = ready()) return e;
  if (const DACS_ERR_T e = check_peer(de, pid)) return e;
  if (!wids_.count(wid)) return DACS_ERR_INVALID_WID;
  if (stream > DACS_STREAM_UB) return DACS_ERR_INVALID_STREAM;
  const auto local = simulated(src, size);
  if (size == 0) return DACS_ERR_INVALID_SIZE;
  if (!local) return DACS_ERR_INVALID_ADDR;
  if (const DACS_ERR_T e = check_transfer(*local, *local, size, swap)) return e;
  struct State {
    std::optional<Pair::Receive> match;
    std::function<bool(DACS_ERR_T&)> move;
  };
  auto st = std::make_shared<State>();
  const Side to = peer();
  return queue(wid, DACS_ORDER_ATTR_NONE, [this, st, to, stream, size, at = *local](DACS_ERR_T& r) {
    if (!st->match) {
      auto& posted = pair_.receives[to];
      auto m = std::find_if(posted.begin(), posted.end(), [&](const Pair::Receive& x) {
        return x.stream == DACS_STREAM_ALL || x.stream == stream;
      });
      if (m == posted.end()) return false;
      st->match = *m;
      posted.erase(m);
      Pair* pair = &pair_;
      if (size > st->match->size) {
        // The receiver learns of the overflow.
        post(16, [pair, id = st->match->id, size] { pair->arrived[id] = {size, true}; });
        ++counters_.overflows;
        r = DACS_ERR_BUF_OVERFLOW;
        return true;
      }
      st->move = transfer(true, at, st->match->addr, size);
    }
    if (!st->move(r)) return false;
    Pair* pair = &pair_;
    post(16, [pair, id = st->match->id, size] { pair->arrived[id] = {size, false}; });  // done
    return true;
  });
}

DACS_ERR_T DacsElement::dacs_recv(void* dst, uint32_t size, de_id_t de, dacs_process_id_t pid,
                                  uint32_t stream, dacs_wid_t wid, DACS_BYTE_SWAP_T swap) {
  if (const DACS_ERR_T e = ready()) return e;
  if (const DACS_ERR_T e = check_peer(de, pid)) return e;
  if (!wids_.count(wid)) return DACS_ERR_INVALID_WID;
  if (stream > DACS_STREAM_UB && stream != DACS_STREAM_ALL) return DACS_ERR_INVALID_STREAM;
  if (size == 0) return DACS_ERR_INVALID_SIZE;
  const auto local = simulated(dst, size);
  if (!local || !program_.windows().writable(dst, size)) return DACS_ERR_INVALID_ADDR;
  if (const DACS_ERR_T e = check_transfer(*local, *local, size, swap)) return e;
  os::Handle pin = 0;
  // The host pins its receive buffer until the message is in: the child's DMA writes it.
  if (side_ == kHost && !host_pin(*local, *local + size, pin)) return DACS_ERR_NO_RESOURCE;
  const uint64_t id = pair_.next_receive++;
  Pair* pair = &pair_;
  const Pair::Receive posted{id, stream, *local, size};
  post(32, [pair, side = side_, posted] { pair->receives[side].push_back(posted); });
  return queue(wid, DACS_ORDER_ATTR_NONE, [this, id, pin, lo = *local, size](DACS_ERR_T& r) {
    auto it = pair_.arrived.find(id);
    if (it == pair_.arrived.end()) return false;
    if (it->second.overflow) r = DACS_ERR_BUF_OVERFLOW;
    pair_.arrived.erase(it);
    if (side_ == kHost) host_unpin(lo, lo + size, pin);
    return true;
  });
}

// ---- mailboxes ----

DACS_ERR_T DacsElement::dacs_mailbox_write(uint32_t* msg, de_id_t de, dacs_process_id_t pid) {
  if (const DACS_ERR_T e = ready()) return e;
  if (msg == nullptr) return DACS_ERR_INVALID_ADDR;
  if (const DACS_ERR_T e = check_peer(de, pid)) return e;
  const Side to = peer();
  if (!block_until(
          [&] { return pair_.words_written[to] - pair_.words_freed[to] < DACS_MAILBOX_DEPTH; })) {
    return DACS_ERR_DE_TERM;
  }
  ++pair_.words_written[to];
  Pair* pair = &pair_;
  post(8, [pair, to, word = *msg] { pair->mailbox[to].push_back(word); });
  return DACS_SUCCESS;
}

DACS_ERR_T DacsElement::dacs_mailbox_read(uint32_t* msg, de_id_t de, dacs_process_id_t pid) {
  if (const DACS_ERR_T e = ready()) return e;
  if (msg == nullptr) return DACS_ERR_INVALID_ADDR;
  if (const DACS_ERR_T e = check_peer(de, pid)) return e;
  auto& box = pair_.mailbox[side_];
  if (!block_until([&] { return !box.empty(); })) return DACS_ERR_DE_TERM;
  *msg = box.front();
  box.pop_front();
  Pair* pair = &pair_;
  post(8, [pair, side = side_] { ++pair->words_freed[side]; });  // the writer's room
  return DACS_SUCCESS;
}

DACS_ERR_T DacsElement::dacs_mailbox_test(DACS_TEST_MAILBOX_T rw, de_id_t de, dacs_process_id_t pid,
                                          int32_t* status) {
  if (const DACS_ERR_T e = ready()) return e;
  if (status == nullptr) return DACS_ERR_INVALID_ADDR;
  if (rw != DACS_TEST_MAILBOX_READ && rw != DACS_TEST_MAILBOX_WRITE) return DACS_ERR_INVALID_ATTR;
  if (const DACS_ERR_T e = check_peer(de, pid)) return e;
  if (side_ != kChild || !acc_slmpm().poll()) hal_.compute(path_.poll_cycles);
  deliver();
  const Side to = peer();
  *status = rw == DACS_TEST_MAILBOX_READ
                ? static_cast<int32_t>(pair_.mailbox[side_].size())
                : static_cast<int32_t>(DACS_MAILBOX_DEPTH -
                                       (pair_.words_written[to] - pair_.words_freed[to]));
  return DACS_SUCCESS;
}

// ---- groups and the barrier ----

DACS_ERR_T DacsElement::dacs_group_init(dacs_group_t* group, uint32_t flags) {
  if (const DACS_ERR_T e = ready()) return e;
  if (group == nullptr) return DACS_ERR_INVALID_ADDR;
  if (flags != 0) return DACS_ERR_INVALID_ATTR;
  if (side_ != kHost) return DACS_ERR_INVALID_TARGET;  // the parent owns the pair's groups
  const dacs_group_t g = pair_.next_group++;
  pair_.groups[g];
  *group = g;
  return DACS_SUCCESS;
}

DACS_ERR_T DacsElement::dacs_group_add_member(de_id_t de, dacs_process_id_t pid,
                                              dacs_group_t group) {
  if (const DACS_ERR_T e = ready()) return e;
  auto it = pair_.groups.find(group);
  if (it == pair_.groups.end()) return DACS_ERR_INVALID_HANDLE;
  if (side_ != kHost) return DACS_ERR_NOT_OWNER;
  Pair::Group& g = it->second;
  if (g.closed) return DACS_ERR_GROUP_CLOSED;
  if (de == DACS_DE_SELF && pid == DACS_PID_SELF) {
    if (g.member[kHost]) return DACS_ERR_GROUP_DUPLICATE;
    g.member[kHost] = true;
    return DACS_SUCCESS;
  }
  if (const DACS_ERR_T e = check_peer(de, pid)) return e;
  if (g.joined || g.member[kChild]) return DACS_ERR_GROUP_DUPLICATE;
  g.member[kChild] = true;  // the host's list of members
  Pair* pair = &pair_;
  post(16, [pair, group] { pair->groups.at(group).invited = true; });
  if (!block_until([&] { return pair_.groups.count(group) && pair_.groups.at(group).joined; })) {
    return DACS_ERR_DE_TERM;
  }
  return DACS_SUCCESS;
}

DACS_ERR_T DacsElement::dacs_group_close(dacs_group_t group) {
  if (const DACS_ERR_T e = ready()) return e;
  auto it = pair_.groups.find(group);
  if (it == pair_.groups.end()) return DACS_ERR_INVALID_HANDLE;
  if (side_ != kHost) return DACS_ERR_NOT_OWNER;
  if (it->second.closed) return DACS_ERR_GROUP_CLOSED;
  it->second.closed = true;
  if (it->second.member[kChild]) {
    Pair* pair = &pair_;
    post(8, [pair, group] { pair->groups.at(group).closed_seen = true; });  // the members
  }
  return DACS_SUCCESS;
}

DACS_ERR_T DacsElement::dacs_group_destroy(dacs_group_t* group) {
  if (const DACS_ERR_T e = ready()) return e;
  if (group == nullptr) return DACS_ERR_INVALID_ADDR;
  auto it = pair_.groups.find(*group);
  if (it == pair_.groups.end()) return DACS_ERR_INVALID_HANDLE;
  if (side_ != kHost) return DACS_ERR_NOT_OWNER;
  if (it->second.joined) return DACS_ERR_RESOURCE_BUSY;  // the child has not left
  pair_.groups.erase(it);
  *group = 0;
  return DACS_SUCCESS;
}

DACS_ERR_T DacsElement::dacs_group_accept(de_id_t de, dacs_process_id_t pid, dacs_group_t* group) {
  if (const DACS_ERR_T e = ready()) return e;
  if (group == nullptr) return DACS_ERR_INVALID_ADDR;
  if (side_ != kChild) return DACS_ERR_INVALID_TARGET;
  if (const DACS_ERR_T e = check_peer(de, pid)) return e;
  dacs_group_t found = 0;
  if (!block_until([&] {
        for (const auto& [id, g] : pair_.groups) {
          if (g.invited) found = id;
        }
        return found != 0;
      })) {
    return DACS_ERR_DE_TERM;
  }
  Pair::Group& g = pair_.groups.at(found);
  g.invited = false;
  Pair* pair = &pair_;
  post(8, [pair, found] { pair->groups.at(found).joined = true; });
  *group = found;
  return DACS_SUCCESS;
}

DACS_ERR_T DacsElement::dacs_group_leave(dacs_group_t* group) {
  if (const DACS_ERR_T e = ready()) return e;
  if (group == nullptr) return DACS_ERR_INVALID_ADDR;
  auto it = pair_.groups.find(*group);
  if (it == pair_.groups.end() || !it->second.member[side_]) return DACS_ERR_INVALID_HANDLE;
  if (side_ != kChild) return DACS_ERR_OWNER;  // the owner destroys it instead
  it->second.member[kChild] = false;
  Pair* pair = &pair_;
  post(8, [pair, g = *group] { pair->groups.at(g).joined = false; });
  *group = 0;
  return DACS_SUCCESS;
}

DACS_ERR_T DacsElement::dacs_barrier_wait(dacs_group_t group) {
  if (const DACS_ERR_T e = ready()) return e;
  auto it = pair_.groups.find(group);
  if (it == pair_.groups.end()) return DACS_ERR_INVALID_HANDLE;
  Pair::Group& g = it->second;
  if (!g.member[side_]) return DACS_ERR_INVALID_TARGET;
  if (side_ == kHost && !g.closed) return DACS_ERR_GROUP_OPEN;
  // A member waits for its owner to close the group.
  if (side_ == kChild && !block_until([&] {
        const auto at = pair_.groups.find(group);
        return at == pair_.groups.end() || at->second.closed_seen;
      })) {
    return DACS_ERR_DE_TERM;
  }
  if (!pair_.groups.count(group)) return DACS_ERR_INVALID_HANDLE;
  const Side other = peer();
  const uint64_t n = ++g.entered[side_];
  if (g.member[other]) {
    Pair* pair = &pair_;
    post(8, [pair, group, side = side_, n] {  // the arrival
      auto at = pair->groups.find(group);
      if (at != pair->groups.end()) at->second.arrived[side] = n;
    });
  }
  if (!block_until([&] {
        const auto at = pair_.groups.find(group);
        return at == pair_.groups.end() || !at->second.member[other] ||
               at->second.arrived[other] >= n;
      })) {
    return DACS_ERR_DE_TERM;
  }
  return DACS_SUCCESS;
}

// ---- the table ----

void DacsElement::provide_to(user::ProgramInstance& program) {
  program.provide_api(HS_DACS_API_NAME, HS_DACS_API_VERSION, table(), this);
}

const void* DacsElement::table() {
  static const hs_dacs_table table = [] {
    hs_dacs_table t{};
#define HS_DACS_FN(ret, name, params, args)                \
  t.name = [](void* self, HS_DACS_UNPAREN params) -> ret { \
    auto* e = static_cast<DacsElement*>(self);             \
    return e->program().call(#name, [&] {                  \
      e->check_killed();                                   \
      ++e->counters_.calls;                                \
      e->deliver();                                        \
      return e->name args;                                 \
    });                                                    \
  };
#define HS_DACS_FN0(ret, name)                 \
  t.name = [](void* self) -> ret {             \
    auto* e = static_cast<DacsElement*>(self); \
    return e->program().call(#name, [&] {      \
      e->check_killed();                       \
      ++e->counters_.calls;                    \
      e->deliver();                            \
      return e->name();                        \
    });                                        \
  };
#include "sw/cell/include/hybridsim_dacs_functions.h"
#undef HS_DACS_FN
#undef HS_DACS_FN0
    return t;
  }();
  return &table;
}

}  // namespace hs::fw::dacs
