#include "testbench/checkers/ami_checker.h"

#include <fmt/format.h>

#include <cstdlib>
#include <stdexcept>
#include <tuple>
#include <type_traits>
#include <utility>

#include "hw/torus/node/torus_machine.h"
#include "tlm/check/checker.h"
#include "tlm/kernel/now.h"

namespace hs::checkers {

namespace ami = fw::ami;

using namespace ami_rules;

double AmiChecker::now_ns() const {
  const sc_core::sc_time t = replay_at_ ? sc_core::sc_time::from_value(*replay_at_) : hs::now();
  return t.to_seconds() * 1e9;
}

// A test hook, HYBRIDSIM_TEST_AMI_PUT_TWICE=K in the environment: each node reports the K-th
// direct put it receives twice, as an engine that wrote the bytes twice would show it, so the
// checker finds "no receive-buffer byte is committed twice" broken mid-run (in the sequential
// run and in the partition that runs the node alike) and a test can prove where the run stops.
namespace {
uint64_t put_reported_twice() {
  static const char* spec = std::getenv("HYBRIDSIM_TEST_AMI_PUT_TWICE");
  return spec ? std::strtoull(spec, nullptr, 10) : 0;
}
}  // namespace

void AmiChecker::watch(torus::TorusMachine& m, ami::AmiTrace& trace) {
  const uint64_t twice = put_reported_twice();
  for (torus::ComputeNode* node : m.built_nodes()) {  // a parallel run: this partition's
    node->dma->observe_reception(
        [&trace, twice, puts = uint64_t{0}](const torus::dma::ReceptionEvent& e) mutable {
          if (e.packet->kind != torus::PacketKind::DirectPut) return;
          trace.rdma_landed(e.node, e.addr, e.packet->payload_bytes);
          if (++puts == twice) trace.rdma_landed(e.node, e.addr, e.packet->payload_bytes);
        });
  }
}

// A rule evaluated as a named check; the checker also counts its own violations.
#define AMI_CHECK(cond, rule, message)       \
  do {                                       \
    const bool ami_ok_ = (cond);             \
    if (!ami_ok_) ++violations_;             \
    HS_CHECK(ami_ok_, rule, "ami", message); \
  } while (0)

AmiChecker::AmiChecker() {
  namespace r = ami_rules;
  for (const char* rule :
       {r::kFifoBound, r::kListedOnce, r::kCalledOnceIfListed, r::kCalledAfterCounter,
        r::kPendingCount, r::kNoEagerAfterStop, r::kEagerInOrder, r::kStopOnce, r::kStopEagerBytes,
        r::kCtsCarriesE, r::kFinalGet, r::kPutCoversRest, r::kNoByteTwice, r::kAllBytesOnce,
        r::kSendDoneOnce, r::kSendDoneAfterAck, r::kTempSpace}) {
    CheckRegistry::instance().check(rule);
  }
}

AmiMessageRecord& AmiChecker::rec(int src, int dest, uint32_t msg) {
  AmiMessageRecord& r = msgs_[{src, dest, msg}];
  r.src = src;
  r.dest = dest;
  r.msg = msg;
  return r;
}

void AmiChecker::injected(int ep, uint64_t seq, int occupancy, int slots) {
  AMI_CHECK(occupancy <= slots, kFifoBound,
            fmt::format("endpoint {}: descriptor {} makes {} in an {}-slot injection FIFO", ep, seq,
                        occupancy, slots));
}

void AmiChecker::listed(int ep, uint64_t seq) {
  const bool first = eps_[ep].listed.insert(seq).second;
  AMI_CHECK(first, kListedOnce,
            fmt::format("endpoint {}: callback of descriptor {} listed twice", ep, seq));
}

void AmiChecker::called(int ep, uint64_t seq, uint64_t tc) {
  Endpoint& e = eps_[ep];
  AMI_CHECK(e.listed.erase(seq) == 1, kCalledOnceIfListed,
            fmt::format("endpoint {}: callback of descriptor {} called but not listed (or twice)",
                        ep, seq));
  AMI_CHECK(tc > seq, kCalledAfterCounter,
            fmt::format("endpoint {}: callback of descriptor {} called with the transfer counter "
                        "at {}",
                        ep, seq, tc));
}

void AmiChecker::pending(int ep, int count) {
  const Endpoint& e = eps_[ep];
  AMI_CHECK(count == static_cast<int>(e.listed.size()), kPendingCount,
            fmt::format("endpoint {}: pending-callback counter {} but {} listed and not called", ep,
                        count, e.listed.size()));
}

void AmiChecker::send_posted(int ep, int dest, uint32_t msg, uint32_t size, ami::Protocol p) {
  AmiMessageRecord& r = rec(ep, dest, msg);
  r.size = size;
  r.protocol = p;
  r.bottom_lo = size;
}

void AmiChecker::eager_posted(int ep, int dest, uint32_t msg, uint32_t lo, uint32_t hi) {
  AmiMessageRecord& r = rec(ep, dest, msg);
  AMI_CHECK(r.eager_at_stop < 0, kNoEagerAfterStop,
            fmt::format("endpoint {} posted eager bytes {}..{} of message {} after processing "
                        "its STOP",
                        ep, lo, hi, msg));
  uint32_t& end = eager_end_[{ep, dest, msg}];
  AMI_CHECK(
      lo == end, kEagerInOrder,
      fmt::format("message {} from {}: eager bytes {}..{} do not follow {}", msg, ep, lo, hi, end));
  end = hi;
  r.eager_posted += hi - lo;
}

void AmiChecker::stop_processed(int ep, int dest, uint32_t msg, uint32_t eager) {
  AmiMessageRecord& r = rec(ep, dest, msg);
  AMI_CHECK(r.eager_at_stop < 0, kStopOnce,
            fmt::format("endpoint {} processed the STOP of message {} twice", ep, msg));
  AMI_CHECK(eager == r.eager_posted, kStopEagerBytes,
            fmt::format("message {} from {}: E = {} but {} eager bytes were posted", msg, ep, eager,
                        r.eager_posted));
  r.eager_at_stop = eager;
  r.stop_processed_ns = now_ns();
}

void AmiChecker::put_posted(int ep, int dest, uint32_t msg, uint32_t lo, uint32_t hi) {
  AmiMessageRecord& r = rec(ep, dest, msg);
  AMI_CHECK(lo == r.eager_at_stop && hi == r.size, kPutCoversRest,
            fmt::format("message {} from {}: PUT covers {}..{}, not [E = {}, {})", msg, ep, lo, hi,
                        r.eager_at_stop, r.size));
  r.put_lo = lo;
  r.put_hi = hi;
}

void AmiChecker::ack_received(int ep, int dest, uint32_t msg) {
  rec(ep, dest, msg).acked = true;
}

void AmiChecker::send_done(int ep, int dest, uint32_t msg) {
  AmiMessageRecord& r = rec(ep, dest, msg);
  AMI_CHECK(!r.send_done, kSendDoneOnce,
            fmt::format("message {} from {}: SEND done twice", msg, ep));
  AMI_CHECK(r.acked || r.protocol == ami::Protocol::Eager, kSendDoneAfterAck,
            fmt::format("message {} from {}: SEND done before the receiver's ACK", msg, ep));
  r.send_done = true;
}

void AmiChecker::message_arrived(int ep, int src, uint32_t msg, uint32_t size, ami::Protocol p) {
  AmiMessageRecord& r = rec(src, ep, msg);
  r.size = size;
  r.protocol = p;
  if (r.bottom_lo == 0) r.bottom_lo = size;
}

void AmiChecker::commit(AmiMessageRecord& r, const Key& k, uint32_t lo, uint32_t hi, bool rdma) {
  const uint64_t twice = committed_[k].add(lo, hi);
  AMI_CHECK(twice == 0, kNoByteTwice,
            fmt::format("message {} from {} to {}: {} bytes of {}..{} committed twice", r.msg,
                        r.src, r.dest, twice, lo, hi));
  (rdma ? r.committed_by_rdma : r.committed_by_copy) += hi - lo;
}

void AmiChecker::committed(int ep, int src, uint32_t msg, uint32_t lo, uint32_t hi) {
  AmiMessageRecord& r = rec(src, ep, msg);
  commit(r, {src, ep, msg}, lo, hi, false);
  r.last_eager_ns = now_ns();
}

void AmiChecker::discarded(int ep, int src, uint32_t msg, uint32_t lo, uint32_t hi) {
  rec(src, ep, msg).discarded += hi - lo;
}

void AmiChecker::stop_sent(int ep, int src, uint32_t msg, ami::StopCause c) {
  AmiMessageRecord& r = rec(src, ep, msg);
  r.stop = c;
  r.stop_ns = now_ns();
}

void AmiChecker::cts_received(int ep, int src, uint32_t msg, uint32_t eager) {
  AmiMessageRecord& r = rec(src, ep, msg);
  AMI_CHECK(eager == r.eager_at_stop, kCtsCarriesE,
            fmt::format("message {} from {}: CTS says E = {}; the sender had posted {}", msg, src,
                        eager, r.eager_at_stop));
  r.cts = eager;
}

void AmiChecker::rdma_target(int ep, int src, uint32_t msg, uint64_t buf, uint32_t size) {
  targets_[ep].push_back({buf, size, {src, ep, msg}});
}

void AmiChecker::get_posted(int ep, int src, uint32_t msg, uint32_t lo, uint32_t hi,
                            ami::GetKind k) {
  if (k == ami::GetKind::User) return;
  AmiMessageRecord& r = rec(src, ep, msg);
  ++r.gets;
  if (k == ami::GetKind::Bottom) {
    r.bottom_lo = std::min(r.bottom_lo, lo);
    if (r.first_bottom_ns < 0) r.first_bottom_ns = now_ns();
  }
  if (k == ami::GetKind::Final) {
    AMI_CHECK(r.cts >= 0 && lo == r.cts && hi == r.bottom_lo, kFinalGet,
              fmt::format("message {} from {}: final GET {}..{}, not [E = {}, bottom = {})", msg,
                          src, lo, hi, r.cts, r.bottom_lo));
    r.final_lo = lo;
    r.final_hi = hi;
  }
}

void AmiChecker::rdma_landed(int ep, uint64_t addr, uint32_t bytes) {
  auto it = targets_.find(ep);
  if (it == targets_.end()) return;
  for (const Target& t : it->second) {
    if (addr >= t.buf && addr + bytes <= t.buf + t.size) {
      AmiMessageRecord& r = msgs_[t.key];
      commit(r, t.key, static_cast<uint32_t>(addr - t.buf),
             static_cast<uint32_t>(addr - t.buf + bytes), true);
      if (r.first_rdma_ns < 0) r.first_rdma_ns = now_ns();
      return;
    }
  }
}

void AmiChecker::temp_usage(int ep, uint64_t used, uint64_t capacity) {
  peak_temp_ = std::max(peak_temp_, used);
  AMI_CHECK(used <= capacity, kTempSpace,
            fmt::format("endpoint {}: {} B of temporary space in use; {} B configured", ep, used,
                        capacity));
}

void AmiChecker::receive_done(int ep, int src, uint32_t msg) {
  const Key k{src, ep, msg};
  AmiMessageRecord& r = rec(src, ep, msg);
  const auto& c = committed_[k];
  AMI_CHECK(c.total() == r.size && c.contains(0, r.size), kAllBytesOnce,
            fmt::format("message {} from {} completed with {} of {} bytes committed", msg, src,
                        c.total(), r.size));
  r.receive_done = true;
  r.done_ns = now_ns();
  auto& ts = targets_[ep];
  for (auto t = ts.begin(); t != ts.end(); ++t) {
    if (t->key == k) {
      ts.erase(t);
      break;
    }
  }
}

// The trace port's calls, numbered as a log writes them: each event is its call's number, then
// its arguments as the call takes them.
namespace {
using ami::AmiTrace;
constexpr auto kCalls = std::make_tuple(
    &AmiTrace::injected, &AmiTrace::listed, &AmiTrace::called, &AmiTrace::pending,
    &AmiTrace::send_posted, &AmiTrace::eager_posted, &AmiTrace::stop_processed,
    &AmiTrace::put_posted, &AmiTrace::ack_received, &AmiTrace::send_done,
    &AmiTrace::message_arrived, &AmiTrace::committed, &AmiTrace::discarded, &AmiTrace::stop_sent,
    &AmiTrace::cts_received, &AmiTrace::rdma_target, &AmiTrace::get_posted, &AmiTrace::rdma_landed,
    &AmiTrace::temp_usage, &AmiTrace::receive_done);
enum Call : size_t {
  kInjected,
  kListed,
  kCalled,
  kPending,
  kSendPosted,
  kEagerPosted,
  kStopProcessed,
  kPutPosted,
  kAckReceived,
  kSendDone,
  kMessageArrived,
  kCommitted,
  kDiscarded,
  kStopSent,
  kCtsReceived,
  kRdmaTarget,
  kGetPosted,
  kRdmaLanded,
  kTempUsage,
  kReceiveDone,
  kCallCount
};
static_assert(std::tuple_size_v<decltype(kCalls)> == kCallCount, "one number per call");

// Reads one call's arguments, in order (a braced list evaluates left to right), and makes it.
template <class... A>
void play(AmiTrace& t, void (AmiTrace::*call)(A...), ByteReader& r) {
  std::tuple<A...> args{r.get<A>()...};
  std::apply([&](A... a) { (t.*call)(a...); }, args);
}

template <size_t... I>
void play_call(size_t n, AmiTrace& t, ByteReader& r, std::index_sequence<I...>) {
  if (n >= sizeof...(I)) throw std::runtime_error("an AMI trace log names no call");
  ((n == I ? play(t, std::get<I>(kCalls), r) : void()), ...);
}
}  // namespace

// Each call the partition's endpoints make: its number, then its arguments.
class AmiTraceLog::Recorder : public AmiTrace {
 public:
  explicit Recorder(PartitionLog& log) : log_(log) {}
  void injected(int ep, uint64_t seq, int occupancy, int slots) override {
    log<kInjected>(ep, seq, occupancy, slots);
  }
  void listed(int ep, uint64_t seq) override { log<kListed>(ep, seq); }
  void called(int ep, uint64_t seq, uint64_t tc) override { log<kCalled>(ep, seq, tc); }
  void pending(int ep, int count) override { log<kPending>(ep, count); }
  void send_posted(int ep, int dest, uint32_t msg, uint32_t size, ami::Protocol p) override {
    log<kSendPosted>(ep, dest, msg, size, p);
  }
  void eager_posted(int ep, int dest, uint32_t msg, uint32_t lo, uint32_t hi) override {
    log<kEagerPosted>(ep, dest, msg, lo, hi);
  }
  void stop_processed(int ep, int dest, uint32_t msg, uint32_t eager) override {
    log<kStopProcessed>(ep, dest, msg, eager);
  }
  void put_posted(int ep, int dest, uint32_t msg, uint32_t lo, uint32_t hi) override {
    log<kPutPosted>(ep, dest, msg, lo, hi);
  }
  void ack_received(int ep, int dest, uint32_t msg) override { log<kAckReceived>(ep, dest, msg); }
  void send_done(int ep, int dest, uint32_t msg) override { log<kSendDone>(ep, dest, msg); }
  void message_arrived(int ep, int src, uint32_t msg, uint32_t size, ami::Protocol p) override {
    log<kMessageArrived>(ep, src, msg, size, p);
  }
  void committed(int ep, int src, uint32_t msg, uint32_t lo, uint32_t hi) override {
    log<kCommitted>(ep, src, msg, lo, hi);
  }
  void discarded(int ep, int src, uint32_t msg, uint32_t lo, uint32_t hi) override {
    log<kDiscarded>(ep, src, msg, lo, hi);
  }
  void stop_sent(int ep, int src, uint32_t msg, ami::StopCause c) override {
    log<kStopSent>(ep, src, msg, c);
  }
  void cts_received(int ep, int src, uint32_t msg, uint32_t eager) override {
    log<kCtsReceived>(ep, src, msg, eager);
  }
  void rdma_target(int ep, int src, uint32_t msg, uint64_t buf, uint32_t size) override {
    log<kRdmaTarget>(ep, src, msg, buf, size);
  }
  void get_posted(int ep, int src, uint32_t msg, uint32_t lo, uint32_t hi,
                  ami::GetKind k) override {
    log<kGetPosted>(ep, src, msg, lo, hi, k);
  }
  void rdma_landed(int ep, uint64_t addr, uint32_t bytes) override {
    log<kRdmaLanded>(ep, addr, bytes);
  }
  void temp_usage(int ep, uint64_t used, uint64_t capacity) override {
    log<kTempUsage>(ep, used, capacity);
  }
  void receive_done(int ep, int src, uint32_t msg) override { log<kReceiveDone>(ep, src, msg); }

 private:
  template <size_t call, class... A>
  void log(A... args) {
    static_assert(std::is_same_v<std::remove_const_t<std::tuple_element_t<call, decltype(kCalls)>>,
                                 void (AmiTrace::*)(A...)>,
                  "the arguments of the call numbered");
    log_.add([&](ByteWriter& w) {
      w.put(static_cast<uint8_t>(call));
      (w.put(args), ...);
    });
  }
  PartitionLog& log_;
};

AmiTraceLog::AmiTraceLog() : recorder_(std::make_unique<Recorder>(log_)) {}
AmiTraceLog::~AmiTraceLog() = default;

AmiTrace& AmiTraceLog::trace() {
  return *recorder_;
}

void AmiTraceLog::replay(const std::vector<Bytes>& by_partition, AmiChecker& checker) {
  log_.replay(by_partition, [&](uint64_t at, ByteReader& r) {
    checker.replaying_at(at);
    play_call(r.get<uint8_t>(), checker, r, std::make_index_sequence<kCallCount>());
  });
  checker.replaying_at(std::nullopt);
}

}  // namespace hs::checkers
