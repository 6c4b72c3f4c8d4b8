// Point-to-point: the send modes, receives, the wait and test families, probes, counts and
// the buffered sends' attached buffer.
#include <fmt/format.h>
#include <algorithm>
#include <cstring>

#include "sw/mpi/api/mpi_rank.h"

namespace hs::fw::mpi::api {

namespace {
constexpr uint64_t kMaxMessage = UINT32_MAX;
}  // namespace

// What a send and a receive share: the argument checks (in MPI's order), the call's record for
// a deadlock report, and the request. MPI_PROC_NULL's request is complete already: `open`
// stays null and *request is set.
int MpiRank::open_message(const void* buf, int count, MPI_Datatype type, int peer, int tag,
                          MPI_Comm comm, const char* call, bool receive, MPI_Request* request,
                          std::unique_ptr<Req>& open) {
  if (const int rc = check_initialized(call)) return rc;
  if (auto e = bad_comm(comm, call)) return raise(MPI_COMM_WORLD, *e);
  std::optional<Error> e = bad_type(type, call);
  if (!e) e = bad_count(count, call);
  if (!e) e = bad_tag(tag, call, receive);
  if (!e) e = bad_rank(comm, peer, call, receive ? "source" : "destination", receive, true);
  if (!e) e = bad_buffer(buf, count, type, call);
  if (!e && static_cast<uint64_t>(count) * type_of(type)->size > kMaxMessage) {
    e = Error{MPI_ERR_COUNT, fmt::format("{}: {} of {} B is over the layer's 4 GiB", call,
                                         receive ? "a receive" : "a message",
                                         static_cast<uint64_t>(count) * type_of(type)->size)};
  }
  if (e) return raise(comm, *e);
  current_.peer = peer;
  current_.tag = tag;
  current_.comm = comm;
  auto r = std::make_unique<Req>();
  r->comm = comm;
  r->what = call;
  r->peer = peer;
  r->tag = tag;
  r->site = program_.runtime_call_site();
  if (peer == MPI_PROC_NULL) {
    r->kind = Req::Done;
    r->complete = true;
    fill_status(&r->status, MPI_PROC_NULL, MPI_ANY_TAG, 0, MPI_SUCCESS);
    *request = add_request(std::move(r));
    return MPI_SUCCESS;
  }
  r->kind = receive ? Req::Recv : Req::Send;
  r->layer = comm_of(comm)->comm;
  open = std::move(r);
  return MPI_SUCCESS;
}

int MpiRank::start_send(const void* buf, int count, MPI_Datatype type, int dest, int tag,
                        MPI_Comm comm, const char* call, SendMode mode, bool buffered,
                        MPI_Request* request) {
  std::unique_ptr<Req> r;
  if (const int rc = open_message(buf, count, type, dest, tag, comm, call, false, request, r)) {
    return rc;
  }
  if (!r) return MPI_SUCCESS;
  const TypeMap* t = type_of(type);
  const uint64_t bytes = static_cast<uint64_t>(count) * t->size;
  if (buffered) {
    // Into the attached buffer (first fit), sent from there; the program's request is done.
    const uint64_t need = bytes + MPI_BSEND_OVERHEAD;
    uint64_t at = 0;
    for (const auto& [off, len] : bsend_used_) {
      if (off >= at + need) break;
      at = std::max(at, off + len);
    }
    if (!bsend_buffer_ || at + need > static_cast<uint64_t>(bsend_size_)) {
      return raise(
          comm, {MPI_ERR_BUFFER,
                 bsend_buffer_ ? fmt::format("{}: {} B does not fit the attached buffer ({} B, {} "
                                             "in use)",
                                             call, need, bsend_size_, bsend_used_.size())
                               : fmt::format("{}: no buffer attached (MPI_Buffer_attach)", call)});
    }
    char* place = bsend_buffer_ + at;
    const auto sim = program_.windows().to_simulated(place, std::max<uint64_t>(bytes, 1));
    if (!sim) {
      return raise(comm,
                   {MPI_ERR_BUFFER,
                    fmt::format("{}: the attached buffer is not in the program's memory", call)});
    }
    charge_pack(bytes, pack(*t, buf, static_cast<uint64_t>(count), place));
    bsend_used_[at] = need;
    r->bsend_at = at + 1;
    r->lower = r->layer->isend(*sim, static_cast<uint32_t>(bytes), dest, tag, kPointToPoint, mode);
    r->freed = true;
    const MPI_Request bg = add_request(std::move(r));
    background_.push_back(bg);
    auto done = std::make_unique<Req>();
    done->kind = Req::Done;
    done->complete = true;
    done->comm = comm;
    *request = add_request(std::move(done));
    return MPI_SUCCESS;
  }
  const uint64_t sim = outgoing(buf, count, *t, r->staged);
  r->lower = r->layer->isend(sim, static_cast<uint32_t>(bytes), dest, tag, kPointToPoint, mode);
  *request = add_request(std::move(r));
  return MPI_SUCCESS;
}

int MpiRank::start_recv(void* buf, int count, MPI_Datatype type, int source, int tag, MPI_Comm comm,
                        const char* call, MPI_Request* request) {
  std::unique_ptr<Req> r;
  if (const int rc = open_message(buf, count, type, source, tag, comm, call, true, request, r)) {
    return rc;
  }
  if (!r) return MPI_SUCCESS;
  const TypeMap* t = type_of(type);
  const uint64_t bytes = static_cast<uint64_t>(count) * t->size;
  r->user = buf;
  r->count = count;
  r->type = type;
  const uint64_t sim = incoming(buf, count, *t, r->staged);
  r->lower = r->layer->irecv(sim, static_cast<uint32_t>(bytes),
                             source == MPI_ANY_SOURCE ? kAnySource : source,
                             tag == MPI_ANY_TAG ? kAnyTag : tag, kPointToPoint);
  *request = add_request(std::move(r));
  return MPI_SUCCESS;
}

int MpiRank::wait_one(MPI_Request* request, MPI_Status* status) {
  if (*request == MPI_REQUEST_NULL) {
    fill_status(status, MPI_ANY_SOURCE, MPI_ANY_TAG, 0, MPI_SUCCESS);
    return MPI_SUCCESS;
  }
  auto it = requests_.find(*request);
  if (it == requests_.end()) {
    return raise(MPI_COMM_WORLD,
                 {MPI_ERR_REQUEST, fmt::format("{}: invalid request {:#x}",
                                               current_.name ? current_.name : "MPI_Wait",
                                               static_cast<unsigned>(*request))});
  }
  Req& r = *it->second;
  current_.peer = r.peer;
  current_.tag = r.tag;
  current_.comm = r.comm;
  if (!r.complete && (r.kind == Req::Send || r.kind == Req::Recv) && !background_active()) {
    // The message layer's own wait: the same steps as any firmware's.
    const Status st = r.layer->wait(r.lower);
    r.complete = true;
    if (r.kind == Req::Recv) {
      const TypeMap* t = type_of(r.type);
      if (r.staged.host && t) land(r.staged, r.user, st.bytes, *t);
      fill_status(&r.status, st.source, st.tag, st.bytes,
                  st.truncated ? MPI_ERR_TRUNCATE : MPI_SUCCESS);
    }
    finish_request(r);
  } else {
    block_until([&] { return poll(r); });
  }
  return complete_request(request, status);
}

// The blocking sends: the non-blocking one, waited for.
int MpiRank::send_and_wait(const void* buf, int count, MPI_Datatype type, int dest, int tag,
                           MPI_Comm comm, const char* call, SendMode mode, bool buffered) {
  MPI_Request r;
  if (const int rc = start_send(buf, count, type, dest, tag, comm, call, mode, buffered, &r)) {
    return rc;
  }
  return wait_one(&r, MPI_STATUS_IGNORE);
}

int MpiRank::Send(const void* buf, int count, MPI_Datatype datatype, int dest, int tag,
                  MPI_Comm comm) {
  return send_and_wait(buf, count, datatype, dest, tag, comm, "MPI_Send", SendMode::Standard,
                       false);
}

int MpiRank::Ssend(const void* buf, int count, MPI_Datatype datatype, int dest, int tag,
                   MPI_Comm comm) {
  return send_and_wait(buf, count, datatype, dest, tag, comm, "MPI_Ssend", SendMode::Synchronous,
                       false);
}

int MpiRank::Rsend(const void* buf, int count, MPI_Datatype datatype, int dest, int tag,
                   MPI_Comm comm) {
  return send_and_wait(buf, count, datatype, dest, tag, comm, "MPI_Rsend", SendMode::Standard,
                       false);
}

int MpiRank::Bsend(const void* buf, int count, MPI_Datatype datatype, int dest, int tag,
                   MPI_Comm comm) {
  return send_and_wait(buf, count, datatype, dest, tag, comm, "MPI_Bsend", SendMode::Standard,
                       true);
}

int MpiRank::Recv(void* buf, int count, MPI_Datatype datatype, int source, int tag, MPI_Comm comm,
                  MPI_Status* status) {
  MPI_Request r;
  if (const int rc = start_recv(buf, count, datatype, source, tag, comm, "MPI_Recv", &r)) return rc;
  return wait_one(&r, status);
}

int MpiRank::Isend(const void* buf, int count, MPI_Datatype datatype, int dest, int tag,
                   MPI_Comm comm, MPI_Request* request) {
  return start_send(buf, count, datatype, dest, tag, comm, "MPI_Isend", SendMode::Standard, false,
                    request);
}

int MpiRank::Issend(const void* buf, int count, MPI_Datatype datatype, int dest, int tag,
                    MPI_Comm comm, MPI_Request* request) {
  return start_send(buf, count, datatype, dest, tag, comm, "MPI_Issend", SendMode::Synchronous,
                    false, request);
}

int MpiRank::Irsend(const void* buf, int count, MPI_Datatype datatype, int dest, int tag,
                    MPI_Comm comm, MPI_Request* request) {
  return start_send(buf, count, datatype, dest, tag, comm, "MPI_Irsend", SendMode::Standard, false,
                    request);
}

int MpiRank::Ibsend(const void* buf, int count, MPI_Datatype datatype, int dest, int tag,
                    MPI_Comm comm, MPI_Request* request) {
  return start_send(buf, count, datatype, dest, tag, comm, "MPI_Ibsend", SendMode::Standard, true,
                    request);
}

int MpiRank::Irecv(void* buf, int count, MPI_Datatype datatype, int source, int tag, MPI_Comm comm,
                   MPI_Request* request) {
  return start_recv(buf, count, datatype, source, tag, comm, "MPI_Irecv", request);
}

int MpiRank::Sendrecv(const void* sendbuf, int sendcount, MPI_Datatype sendtype, int dest,
                      int sendtag, void* recvbuf, int recvcount, MPI_Datatype recvtype, int source,
                      int recvtag, MPI_Comm comm, MPI_Status* status) {
  MPI_Request rr, sr;
  if (const int rc =
          start_recv(recvbuf, recvcount, recvtype, source, recvtag, comm, "MPI_Sendrecv", &rr)) {
    return rc;
  }
  if (const int rc = start_send(sendbuf, sendcount, sendtype, dest, sendtag, comm, "MPI_Sendrecv",
                                SendMode::Standard, false, &sr)) {
    return rc;
  }
  const int rc = wait_one(&rr, status);
  const int sc = wait_one(&sr, MPI_STATUS_IGNORE);
  return rc ? rc : sc;
}

int MpiRank::Sendrecv_replace(void* buf, int count, MPI_Datatype datatype, int dest, int sendtag,
                              int source, int recvtag, MPI_Comm comm, MPI_Status* status) {
  const TypeMap* t = type_of(datatype);
  if (!t || count < 0) {
    return Sendrecv(buf, count, datatype, dest, sendtag, buf, count, datatype, source, recvtag,
                    comm, status);
  }
  // The outgoing message is packed aside first, so the receive may land over it.
  Staged out = stage(static_cast<uint64_t>(count) * t->size);
  charge_pack(static_cast<uint64_t>(count) * t->size,
              pack(*t, buf, static_cast<uint64_t>(count), out.host));
  const TypeMap bytes = contiguous(1, types_.at(MPI_BYTE));
  (void)bytes;
  const int rc =
      Sendrecv(out.host, static_cast<int>(count * static_cast<int64_t>(t->size)), MPI_BYTE, dest,
               sendtag, buf, count, datatype, source, recvtag, comm, status);
  release(out);
  return rc;
}

int MpiRank::Wait(MPI_Request* request, MPI_Status* status) {
  if (const int rc = check_initialized("MPI_Wait")) return rc;
  return wait_one(request, status);
}

int MpiRank::Test(MPI_Request* request, int* flag, MPI_Status* status) {
  if (const int rc = check_initialized("MPI_Test")) return rc;
  hal().compute(job_.poll_cycles);
  if (*request == MPI_REQUEST_NULL) {
    *flag = 1;
    fill_status(status, MPI_ANY_SOURCE, MPI_ANY_TAG, 0, MPI_SUCCESS);
    return MPI_SUCCESS;
  }
  auto it = requests_.find(*request);
  if (it == requests_.end()) {
    return raise(MPI_COMM_WORLD, {MPI_ERR_REQUEST, "MPI_Test: invalid request"});
  }
  progress_background();
  *flag = poll(*it->second) ? 1 : 0;
  if (!*flag) return MPI_SUCCESS;
  return complete_request(request, status);
}

int MpiRank::Waitall(int count, MPI_Request requests[], MPI_Status* statuses) {
  if (const int rc = check_initialized("MPI_Waitall")) return rc;
  if (auto e = bad_count(count, "MPI_Waitall")) return raise(MPI_COMM_WORLD, *e);
  int result = MPI_SUCCESS;
  for (int i = 0; i < count; ++i) {
    MPI_Status* s = statuses == MPI_STATUSES_IGNORE ? MPI_STATUS_IGNORE : &statuses[i];
    const int rc = wait_one(&requests[i], s);
    if (rc != MPI_SUCCESS) {
      result = MPI_ERR_IN_STATUS;
      if (s != MPI_STATUS_IGNORE) s->MPI_ERROR = rc;
    }
  }
  return result;
}

int MpiRank::Testall(int count, MPI_Request requests[], int* flag, MPI_Status* statuses) {
  if (const int rc = check_initialized("MPI_Testall")) return rc;
  hal().compute(job_.poll_cycles);
  progress_background();
  bool all = true;
  for (int i = 0; i < count; ++i) {
    if (requests[i] == MPI_REQUEST_NULL) continue;
    auto it = requests_.find(requests[i]);
    if (it == requests_.end()) {
      return raise(MPI_COMM_WORLD, {MPI_ERR_REQUEST, "MPI_Testall: invalid request"});
    }
    all = poll(*it->second) && all;
  }
  *flag = all ? 1 : 0;
  if (!all) return MPI_SUCCESS;
  return Waitall(count, requests, statuses);
}

// The wait and test families' scan: the requests that are live (`active`: any not null and
// known), and of those the ones that have completed (each tested once; with `first_only`, up to
// the first).
std::vector<int> MpiRank::scan_requests(int count, const MPI_Request requests[], bool& active,
                                        bool first_only) {
  std::vector<int> done;
  active = false;
  for (int i = 0; i < count; ++i) {
    if (requests[i] == MPI_REQUEST_NULL) continue;
    auto it = requests_.find(requests[i]);
    if (it == requests_.end()) continue;
    active = true;
    if (poll(*it->second)) {
      done.push_back(i);
      if (first_only) break;
    }
  }
  return done;
}

// Waitsome's and Testsome's completion of the requests found done.
int MpiRank::complete_some(const std::vector<int>& done, MPI_Request requests[], int* outcount,
                           int indices[], MPI_Status* statuses) {
  *outcount = static_cast<int>(done.size());
  int result = MPI_SUCCESS;
  for (size_t k = 0; k < done.size(); ++k) {
    indices[k] = done[k];
    MPI_Status* s = statuses == MPI_STATUSES_IGNORE ? MPI_STATUS_IGNORE : &statuses[k];
    if (complete_request(&requests[done[k]], s) != MPI_SUCCESS) result = MPI_ERR_IN_STATUS;
  }
  return result;
}

int MpiRank::Waitany(int count, MPI_Request requests[], int* index, MPI_Status* status) {
  if (const int rc = check_initialized("MPI_Waitany")) return rc;
  int found = MPI_UNDEFINED;
  block_until([&] {
    bool active = false;
    const std::vector<int> done = scan_requests(count, requests, active, true);
    if (!done.empty()) found = done.front();
    return !done.empty() || !active;
  });
  *index = found;
  if (found == MPI_UNDEFINED) {
    fill_status(status, MPI_ANY_SOURCE, MPI_ANY_TAG, 0, MPI_SUCCESS);
    return MPI_SUCCESS;
  }
  return complete_request(&requests[found], status);
}

int MpiRank::Testany(int count, MPI_Request requests[], int* index, int* flag, MPI_Status* status) {
  if (const int rc = check_initialized("MPI_Testany")) return rc;
  hal().compute(job_.poll_cycles);
  progress_background();
  bool active = false;
  const std::vector<int> done = scan_requests(count, requests, active, true);
  if (!done.empty()) {
    *index = done.front();
    *flag = 1;
    return complete_request(&requests[done.front()], status);
  }
  *index = MPI_UNDEFINED;
  *flag = active ? 0 : 1;
  if (!active) fill_status(status, MPI_ANY_SOURCE, MPI_ANY_TAG, 0, MPI_SUCCESS);
  return MPI_SUCCESS;
}

int MpiRank::Waitsome(int incount, MPI_Request requests[], int* outcount, int indices[],
                      MPI_Status* statuses) {
  if (const int rc = check_initialized("MPI_Waitsome")) return rc;
  std::vector<int> done;
  bool active = false;
  block_until([&] {
    done = scan_requests(incount, requests, active, false);
    return !done.empty() || !active;
  });
  if (done.empty()) {
    *outcount = MPI_UNDEFINED;
    return MPI_SUCCESS;
  }
  return complete_some(done, requests, outcount, indices, statuses);
}

int MpiRank::Testsome(int incount, MPI_Request requests[], int* outcount, int indices[],
                      MPI_Status* statuses) {
  if (const int rc = check_initialized("MPI_Testsome")) return rc;
  hal().compute(job_.poll_cycles);
  progress_background();
  bool active = false;
  const std::vector<int> done = scan_requests(incount, requests, active, false);
  if (!active) {
    *outcount = MPI_UNDEFINED;
    return MPI_SUCCESS;
  }
  return complete_some(done, requests, outcount, indices, statuses);
}

int MpiRank::Request_free(MPI_Request* request) {
  if (*request == MPI_REQUEST_NULL) return MPI_SUCCESS;
  auto it = requests_.find(*request);
  if (it == requests_.end()) {
    return raise(MPI_COMM_WORLD, {MPI_ERR_REQUEST, "MPI_Request_free: invalid request"});
  }
  Req& r = *it->second;
  if (r.complete) {
    requests_.erase(it);
  } else {
    r.freed = true;  // it completes in the background, unseen
    if (std::find(background_.begin(), background_.end(), *request) == background_.end()) {
      background_.push_back(*request);
    }
  }
  *request = MPI_REQUEST_NULL;
  return MPI_SUCCESS;
}

int MpiRank::Request_get_status(MPI_Request request, int* flag, MPI_Status* status) {
  if (request == MPI_REQUEST_NULL) {
    *flag = 1;
    fill_status(status, MPI_ANY_SOURCE, MPI_ANY_TAG, 0, MPI_SUCCESS);
    return MPI_SUCCESS;
  }
  hal().compute(job_.poll_cycles);
  auto it = requests_.find(request);
  if (it == requests_.end()) {
    return raise(MPI_COMM_WORLD, {MPI_ERR_REQUEST, "MPI_Request_get_status: invalid request"});
  }
  progress_background();
  *flag = poll(*it->second) ? 1 : 0;
  if (*flag && status != MPI_STATUS_IGNORE && status) *status = it->second->status;
  return MPI_SUCCESS;
}

int MpiRank::Test_cancelled(const MPI_Status* status, int* flag) {
  *flag = status && status != MPI_STATUS_IGNORE ? status->hs_cancelled : 0;
  return MPI_SUCCESS;
}

int MpiRank::check_probe(int source, int tag, MPI_Comm comm, const char* call) {
  if (const int rc = check_initialized(call)) return rc;
  if (auto e = bad_comm(comm, call)) return raise(MPI_COMM_WORLD, *e);
  std::optional<Error> e = bad_tag(tag, call, true);
  if (!e) e = bad_rank(comm, source, call, "source", true, true);
  return e ? raise(comm, *e) : MPI_SUCCESS;
}

int MpiRank::Iprobe(int source, int tag, MPI_Comm comm, int* flag, MPI_Status* status) {
  if (const int rc = check_probe(source, tag, comm, "MPI_Iprobe")) return rc;
  hal().compute(job_.poll_cycles);
  if (source == MPI_PROC_NULL) {
    *flag = 1;
    fill_status(status, MPI_PROC_NULL, MPI_ANY_TAG, 0, MPI_SUCCESS);
    return MPI_SUCCESS;
  }
  progress_background();
  Status st;
  const bool found = comm_of(comm)->comm->iprobe(source == MPI_ANY_SOURCE ? kAnySource : source,
                                                 tag == MPI_ANY_TAG ? kAnyTag : tag, st);
  *flag = found ? 1 : 0;
  if (found) fill_status(status, st.source, st.tag, st.message_bytes, MPI_SUCCESS);
  return MPI_SUCCESS;
}

int MpiRank::Probe(int source, int tag, MPI_Comm comm, MPI_Status* status) {
  if (const int rc = check_probe(source, tag, comm, "MPI_Probe")) return rc;
  current_.peer = source;
  current_.tag = tag;
  current_.comm = comm;
  if (source == MPI_PROC_NULL) {
    fill_status(status, MPI_PROC_NULL, MPI_ANY_TAG, 0, MPI_SUCCESS);
    return MPI_SUCCESS;
  }
  Comm& c = *comm_of(comm)->comm;
  Status st;
  block_until([&] {
    return c.iprobe(source == MPI_ANY_SOURCE ? kAnySource : source,
                    tag == MPI_ANY_TAG ? kAnyTag : tag, st);
  });
  fill_status(status, st.source, st.tag, st.message_bytes, MPI_SUCCESS);
  return MPI_SUCCESS;
}

int MpiRank::Get_count(const MPI_Status* status, MPI_Datatype datatype, int* count) {
  if (auto e = bad_type(datatype, "MPI_Get_count", false)) return raise(MPI_COMM_WORLD, *e);
  const uint64_t bytes = static_cast<uint64_t>(static_cast<uint32_t>(status->hs_count_lo)) |
                         static_cast<uint64_t>(status->hs_count_hi) << 31;
  const uint64_t size = type_of(datatype)->size;
  if (size == 0) {
    *count = bytes == 0 ? 0 : MPI_UNDEFINED;
  } else {
    *count = bytes % size ? MPI_UNDEFINED : static_cast<int>(bytes / size);
  }
  return MPI_SUCCESS;
}

int MpiRank::Get_elements(const MPI_Status* status, MPI_Datatype datatype, int* count) {
  if (auto e = bad_type(datatype, "MPI_Get_elements", false)) return raise(MPI_COMM_WORLD, *e);
  const TypeMap* t = type_of(datatype);
  const uint64_t bytes = static_cast<uint64_t>(static_cast<uint32_t>(status->hs_count_lo)) |
                         static_cast<uint64_t>(status->hs_count_hi) << 31;
  if (t->size == 0) {
    *count = 0;
    return MPI_SUCCESS;
  }
  // Whole elements' predefined parts, then those of a partial one (by their size, when the
  // type is of one kind).
  uint64_t n = bytes / t->size * t->basic_count;
  const uint64_t rest = bytes % t->size;
  if (rest) {
    const uint64_t each = t->basic_count ? t->size / t->basic_count : 0;
    if (!each || rest % each) {
      *count = MPI_UNDEFINED;
      return MPI_SUCCESS;
    }
    n += rest / each;
  }
  *count = static_cast<int>(n);
  return MPI_SUCCESS;
}

int MpiRank::Buffer_attach(void* buffer, int size) {
  if (bsend_buffer_) {
    return raise(MPI_COMM_WORLD,
                 {MPI_ERR_BUFFER, "MPI_Buffer_attach: a buffer is already attached"});
  }
  if (size < 0) return raise(MPI_COMM_WORLD, {MPI_ERR_ARG, "MPI_Buffer_attach: negative size"});
  bsend_buffer_ = static_cast<char*>(buffer);
  bsend_size_ = size;
  return MPI_SUCCESS;
}

int MpiRank::Buffer_detach(void* buffer_addr, int* size) {
  // Waits for the buffered sends still using it.
  if (initialized_) block_until([&] { return bsend_used_.empty(); });
  *static_cast<void**>(buffer_addr) = bsend_buffer_;
  *size = bsend_size_;
  bsend_buffer_ = nullptr;
  bsend_size_ = 0;
  return MPI_SUCCESS;
}

}  // namespace hs::fw::mpi::api
