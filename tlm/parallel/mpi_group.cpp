// The MPI process group (built only when CMake finds MPI: HYBRIDSIM_HAVE_MPI), on MPI's C
// interface (the deprecated C++ bindings would need their own library).
#define OMPI_SKIP_MPICXX 1
#define MPICH_SKIP_MPICXX 1
#include <mpi.h>

#include <fmt/format.h>

#include <cstdio>
#include <cstdlib>

#include "tlm/parallel/process_group.h"

// A sanitized build keeps LeakSanitizer on under mpirun (sanitizer_defaults.cpp says how).
#if defined(__SANITIZE_ADDRESS__)
#include <sanitizer/lsan_interface.h>
#define HYBRIDSIM_LSAN 1
#endif

namespace hs {

namespace {

class MpiGroup : public ProcessGroup {
 public:
  MpiGroup() {
    int ready = 0;
    MPI_Initialized(&ready);
    if (!ready) {
#ifdef HYBRIDSIM_LSAN
      // What MPI_Init allocates on this thread is Open MPI's, partly from plug-ins it unloads
      // again before it returns, whose frames then have no names to suppress them by.
      __lsan_disable();
#endif
      MPI_Init(nullptr, nullptr);
#ifdef HYBRIDSIM_LSAN
      __lsan_enable();
#endif
    }
    // Errors come back as codes, which end the run with a message naming this partition.
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
    MPI_Comm_size(MPI_COMM_WORLD, &size_);
  }
  ~MpiGroup() override {
    int done = 0;
    MPI_Finalized(&done);
    if (done) return;
#ifdef HYBRIDSIM_LSAN
    // The process's one leak check, while Open MPI's plug-ins are loaded: MPI_Finalize unloads
    // them, and what they keep would then be reported with no module to name it by.
    __lsan_do_leak_check();
#endif
    MPI_Finalize();
  }
  int rank() const override {
    return rank_;
  }
  int size() const override {
    return size_;
  }

  std::vector<Bytes> exchange(const std::vector<int>& peers,
                              const std::vector<Bytes>& out) override {
    const size_t n = peers.size();
    // Sizes first, then the bytes: receivers size their buffers exactly.
    std::vector<uint64_t> send_sizes(n), recv_sizes(n);
    std::vector<MPI_Request> req(2 * n);
    for (size_t i = 0; i < n; ++i) {
      send_sizes[i] = out[i].size();
      check(MPI_Irecv(&recv_sizes[i], 1, MPI_UINT64_T, peers[i], kSizeTag, MPI_COMM_WORLD, &req[i]),
            "receive a message size");
      check(MPI_Isend(&send_sizes[i], 1, MPI_UINT64_T, peers[i], kSizeTag, MPI_COMM_WORLD,
                      &req[n + i]),
            "send a message size");
    }
    check(MPI_Waitall(static_cast<int>(2 * n), req.data(), MPI_STATUSES_IGNORE),
          "exchange message sizes");
    std::vector<Bytes> in(n);
    req.clear();
    for (size_t i = 0; i < n; ++i) {
      in[i].resize(recv_sizes[i]);
      if (recv_sizes[i] > 0) {
        req.emplace_back();
        check(MPI_Irecv(in[i].data(), count(recv_sizes[i]), MPI_BYTE, peers[i], kDataTag,
                        MPI_COMM_WORLD, &req.back()),
              "receive cut traffic");
      }
      if (!out[i].empty()) {
        req.emplace_back();
        check(MPI_Isend(out[i].data(), count(out[i].size()), MPI_BYTE, peers[i], kDataTag,
                        MPI_COMM_WORLD, &req.back()),
              "send cut traffic");
      }
    }
    check(MPI_Waitall(static_cast<int>(req.size()), req.data(), MPI_STATUSES_IGNORE),
          "exchange cut traffic");
    return in;
  }

  void vote(Vote& v) override {
    // One reduction of three kinds: minima, maxima negated into minima, sums after them.
    std::vector<uint64_t> mins(v.min.size() + v.max.size());
    for (size_t i = 0; i < v.min.size(); ++i) mins[i] = v.min[i];
    for (size_t i = 0; i < v.max.size(); ++i) mins[v.min.size() + i] = ~v.max[i];
    if (!mins.empty()) {
      check(MPI_Allreduce(MPI_IN_PLACE, mins.data(), static_cast<int>(mins.size()), MPI_UINT64_T,
                          MPI_MIN, MPI_COMM_WORLD),
            "vote on the next window");
    }
    if (!v.sum.empty()) {
      check(MPI_Allreduce(MPI_IN_PLACE, v.sum.data(), static_cast<int>(v.sum.size()), MPI_UINT64_T,
                          MPI_SUM, MPI_COMM_WORLD),
            "vote on the next window");
    }
    for (size_t i = 0; i < v.min.size(); ++i) v.min[i] = mins[i];
    for (size_t i = 0; i < v.max.size(); ++i) v.max[i] = ~mins[v.min.size() + i];
  }

  std::vector<Bytes> gather(const Bytes& mine) override {
    const uint64_t size = mine.size();
    std::vector<uint64_t> sizes(rank_ == 0 ? static_cast<size_t>(size_) : 0);
    check(MPI_Gather(&size, 1, MPI_UINT64_T, sizes.data(), 1, MPI_UINT64_T, 0, MPI_COMM_WORLD),
          "gather the partitions' results");
    std::vector<Bytes> out;
    if (rank_ == 0) {
      out.resize(static_cast<size_t>(size_));
      out[0] = mine;
    }
    // Point to point: a gather's counts are ints, and a partition's results may be large.
    if (rank_ == 0) {
      for (int r = 1; r < size_; ++r) {
        out[static_cast<size_t>(r)].resize(sizes[static_cast<size_t>(r)]);
        receive_large(out[static_cast<size_t>(r)], r);
      }
    } else {
      send_large(mine, 0);
    }
    return out;
  }

  Bytes broadcast(const Bytes& from_root) override {
    uint64_t size = from_root.size();
    check(MPI_Bcast(&size, 1, MPI_UINT64_T, 0, MPI_COMM_WORLD), "broadcast");
    Bytes b = rank_ == 0 ? from_root : Bytes(size);
    if (size > 0) {
      check(MPI_Bcast(b.data(), count(size), MPI_BYTE, 0, MPI_COMM_WORLD), "broadcast");
    }
    return b;
  }

  [[noreturn]] void abort(const std::string& why) override {
    std::fprintf(stderr, "hybridsim: partition %d of %d: %s\n", rank_, size_, why.c_str());
    std::fflush(stderr);
    MPI_Abort(MPI_COMM_WORLD, 1);
    std::_Exit(1);
  }

 private:
  static constexpr int kSizeTag = 1, kDataTag = 2, kLargeTag = 3;
  static constexpr uint64_t kChunk = uint64_t{1} << 30;

  int count(uint64_t n) {
    if (n > kChunk) abort(fmt::format("a message of {} B is larger than one MPI call takes", n));
    return static_cast<int>(n);
  }
  void send_large(const Bytes& b, int to) {
    for (uint64_t at = 0; at < b.size(); at += kChunk) {
      const uint64_t n = std::min<uint64_t>(kChunk, b.size() - at);
      check(MPI_Send(b.data() + at, static_cast<int>(n), MPI_BYTE, to, kLargeTag, MPI_COMM_WORLD),
            "send results");
    }
  }
  void receive_large(Bytes& b, int from) {
    for (uint64_t at = 0; at < b.size(); at += kChunk) {
      const uint64_t n = std::min<uint64_t>(kChunk, b.size() - at);
      check(MPI_Recv(b.data() + at, static_cast<int>(n), MPI_BYTE, from, kLargeTag, MPI_COMM_WORLD,
                     MPI_STATUS_IGNORE),
            "receive results");
    }
  }
  void check(int code, const char* what) {
    if (code == MPI_SUCCESS) return;
    char text[MPI_MAX_ERROR_STRING];
    int len = 0;
    MPI_Error_string(code, text, &len);
    abort(fmt::format("MPI error while trying to {}: {}", what, std::string(text, len)));
  }

  int rank_ = 0, size_ = 1;
};

}  // namespace

std::unique_ptr<ProcessGroup> make_mpi_group() {
  return std::make_unique<MpiGroup>();
}

}  // namespace hs
