#include "sw/apps/mpi_program_rank.h"

#include <fmt/format.h>
#include <cstring>
#include <map>
#include <optional>
#include <utility>

namespace hs::fw::program {

namespace {

// A message of 8 bytes or more starts with the sender's count k of messages to that
// destination with that tag, then the sender's rank; shorter ones carry payload with k = 0.
constexpr uint32_t kHeader = 8;

class Interpreter : public Actions {
 public:
  Interpreter(mpi::Comm& comm, mpi::Collectives& coll, RankResult& out)
      : comm_(comm), coll_(coll), hal_(comm.hal()), base_(comm.window()), out_(out) {}

  void compute(uint64_t cycles) override {
    if (iteration_) {
      iteration_->compute(cycles);
    } else {
      hal_.compute(cycles);
    }
    out_.compute_cycles += cycles;
  }
  void send(const Transfer& t) override {
    fill(t);
    comm_.send(base_ + t.buf, t.bytes, t.peer, t.tag);
  }
  void recv(const Transfer& t) override {
    check(t, comm_.recv(base_ + t.buf, t.bytes, src(t), tag(t)));
  }
  void sendrecv(const Transfer& s, const Transfer& r) override {
    fill(s);
    // One tag for both halves, as the statement has.
    check(r, comm_.sendrecv(base_ + s.buf, s.bytes, s.peer, base_ + r.buf, r.bytes, src(r), s.tag));
  }
  int isend(const Transfer& t) override {
    fill(t);
    return keep(comm_.isend(base_ + t.buf, t.bytes, t.peer, t.tag), true);
  }
  int irecv(const Transfer& t) override {
    return keep(comm_.irecv(base_ + t.buf, t.bytes, src(t), tag(t)), false);
  }
  void wait(const std::vector<std::pair<int, Transfer>>& requests) override {
    for (const auto& [handle, t] : requests) {
      auto it = requests_.find(handle);
      const mpi::Status st = comm_.wait(it->second.first);
      if (!it->second.second) check(t, st);
      requests_.erase(it);
    }
  }
  void collective(const CollectiveOp& c) override {
    using mpi::Collective;
    const int me = comm_.rank(), size = comm_.size();
    const uint64_t send = base_ + c.send, recv = base_ + c.recv;
    switch (c.kind) {
      case Collective::Barrier:
        coll_.barrier();
        break;
      case Collective::Bcast:
        if (me == c.root) write_pattern(recv, c.bytes, me, -1, calls_);
        coll_.bcast(recv, c.bytes, c.root);
        break;
      case Collective::Reduce:
      case Collective::Allreduce:
        write_elements(send, c.bytes, c.type);
        if (c.kind == Collective::Reduce) {
          coll_.reduce(send, recv, c.bytes, c.type, c.op, c.root);
        } else {
          coll_.allreduce(send, recv, c.bytes, c.type, c.op);
        }
        break;
      case Collective::Allgather:
        write_pattern(send, c.bytes, me, -1, calls_);
        coll_.allgather(send, recv, c.bytes);
        break;
      case Collective::Alltoall:
        for (int j = 0; j < size; ++j) {
          write_pattern(send + uint64_t{c.bytes} * static_cast<uint64_t>(j), c.bytes, me, j,
                        calls_);
        }
        coll_.alltoall(send, recv, c.bytes);
        break;
      default:
        break;  // not statements of the language
    }
    ++calls_;
  }
  void iteration_begin() override { iteration_.emplace(comm_, "program iteration"); }
  void statement_begin(const Stmt& s) override { statement_.emplace(hal_, s.label.c_str()); }
  void statement_end() override { statement_.reset(); }
  void iteration_end() override {
    iteration_->finish(true, out_.timing);
    iteration_.reset();  // ends its phase
  }

 private:
  static int src(const Transfer& t) { return t.peer == kAny ? mpi::kAnySource : t.peer; }
  static int tag(const Transfer& t) { return t.tag == kAny ? mpi::kAnyTag : t.tag; }
  int keep(mpi::Request r, bool send) {
    requests_[next_] = {r, send};
    return next_++;
  }
  // The message's payload, written as the application's output before it is sent.
  void fill(const Transfer& t) {
    const uint32_t k = t.bytes >= kHeader ? sent_[{t.peer, t.tag}]++ : 0;
    std::vector<uint8_t> data(t.bytes);
    for (uint32_t i = 0; i < t.bytes; ++i)
      data[i] = payload_byte(comm_.rank(), t.peer, t.tag, k, i);
    if (t.bytes >= kHeader) {
      const uint32_t header[2] = {k, static_cast<uint32_t>(comm_.rank())};
      std::memcpy(data.data(), header, kHeader);
    }
    hal_.store(base_ + t.buf, data.data(), data.size());
  }
  // A received message against what its sender wrote.
  void check(const Transfer& t, const mpi::Status& st) {
    std::vector<uint8_t> data(st.bytes);
    hal_.load(base_ + t.buf, data.data(), data.size());
    uint32_t k = 0, first = 0;
    if (st.bytes >= kHeader) {
      uint32_t header[2];
      std::memcpy(header, data.data(), kHeader);
      if (header[1] != static_cast<uint32_t>(st.source)) {
        hal_.fail(fmt::format("rank {}: a message from rank {} (tag {}) says it is from rank {}",
                              comm_.rank(), st.source, st.tag, header[1]));
      }
      k = header[0];
      first = kHeader;
    }
    for (uint32_t i = first; i < st.bytes; ++i) {
      if (data[i] != payload_byte(st.source, comm_.rank(), st.tag, k, i)) {
        hal_.fail(
            fmt::format("rank {}: byte {} of message {} from rank {} (tag {}) differs from "
                        "what its sender wrote",
                        comm_.rank(), i, k, st.source, st.tag));
      }
    }
    out_.payload_bytes_checked += st.bytes;
  }
  void write_pattern(uint64_t addr, uint32_t bytes, int src, int dst, uint64_t call) {
    std::vector<uint8_t> data(bytes);
    for (uint32_t i = 0; i < bytes; ++i) {
      data[i] = payload_byte(src, dst, 0, static_cast<uint32_t>(call), i);
    }
    hal_.store(addr, data.data(), data.size());
  }
  // Small whole numbers, so sums are exact in either type.
  void write_elements(uint64_t addr, uint32_t bytes, mpi::Datatype type) {
    std::vector<uint8_t> data(bytes);
    for (uint32_t i = 0; i + 8 <= bytes; i += 8) {
      const int64_t v = comm_.rank() * 1000 + static_cast<int64_t>(calls_ % 100) * 10 + i / 8;
      const double d = static_cast<double>(v);
      std::memcpy(&data[i], type == mpi::Datatype::Double ? static_cast<const void*>(&d) : &v, 8);
    }
    hal_.store(addr, data.data(), data.size());
  }

  mpi::Comm& comm_;
  mpi::Collectives& coll_;
  Hal& hal_;
  uint64_t base_;
  RankResult& out_;
  std::map<int, std::pair<mpi::Request, bool>> requests_;  // handle -> (request, is a send)
  int next_ = 0;
  std::map<std::pair<int, int>, uint32_t> sent_;  // (destination, tag) -> messages so far
  uint64_t calls_ = 0;                            // collectives so far
  std::optional<motifs::Iteration> iteration_;    // the timed iteration under way, if any
  std::optional<Phase> statement_;                // the statement under way, on the timeline
};

}  // namespace

void run_rank(mpi::Comm& comm, mpi::Collectives& coll, const Program& p, const Layout& layout,
              RankResult& out) {
  Hal& hal = comm.hal();
  Interpreter interpreter(comm, coll, out);
  const uint64_t t0 = hal.cycles();
  try {
    RankWalk(p, layout, comm.rank(), interpreter).run();
  } catch (const ProgramError& e) {
    hal.fail(fmt::format("rank {}: program line {} column {}: {}", comm.rank(), e.pos.line,
                         e.pos.col, e.what()));
  }
  out.total_cycles = hal.cycles() - t0;
}

}  // namespace hs::fw::program
