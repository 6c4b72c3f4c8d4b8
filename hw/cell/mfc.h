// The SPE's Memory Flow Controller: the DMA engine between its local store and the EIB.
//
// Two command queues, one per issuer: the SPU's (16 entries, written through its channels)
// and the proxy queue (8 entries, written into the SPE's problem state by the PPE or any
// other master). A full SPU queue stalls the SPU's command write (its channel count is 0); a
// full proxy queue refuses the command with a status the writer reads and retries on. The
// opcodes, the size and alignment rules and the ordering rules are in mfc_command.h; a
// command that breaks a rule fails the run with an error naming the SPE, the command and the
// rule (a list element by its index).
//
// The DMA controller: `outstanding` transfers are in flight at once. Whenever one is free it
// takes the next piece of the oldest command its queue's ordering lets start (the queues
// alternate when both have work): a piece never crosses a 128-byte boundary of the effective
// address. A list command reads each element from the local store (one 8-byte read) when it
// reaches it; an element with the stall-and-notify bit stops the list once the element has
// landed until the SPU acknowledges (except on the last element, where the command simply
// completes). Each piece crosses the EIB and the local store's port as any access does, so
// bandwidth is whichever is tighter: the EIB and memory, or pieces in flight over their
// latency. A command completes when its last piece has landed; a tag group is complete when
// its queue holds none of its commands.
//
// What it tells the SPU (through MfcListener, which the SPE wires to its channels): the
// SPU's queue has a free entry, a tag-status request is satisfied, a list stalled; and the
// PPE: a proxy tag-group query is satisfied.
#pragma once
#include <tlm_utils/simple_initiator_socket.h>
#include <array>
#include <cstdint>
#include <functional>
#include <list>
#include <memory>
#include <string>
#include <systemc>
#include <tlm>
#include <vector>

#include "hw/cell/atomic_unit.h"
#include "hw/cell/mfc_command.h"
#include "tlm/payload/extensions.h"
#include "tlm/stats/statistics.h"

namespace hs::cell {

class MfcListener {
 public:
  virtual ~MfcListener() = default;
  virtual void channel_ready(unsigned channel) = 0;  // its count became non-zero
  virtual void raise_events(uint32_t events) = 0;    // SPU event bits (spe_interface.h)
  virtual void proxy_query_done() = 0;               // the proxy tag-group query is satisfied
};

class Mfc;

// What an observer (a checker) sees of each queue: every command queued (in issue order),
// started (its first piece goes out, or its turn came for one that moves nothing) and
// completed, and every tag-group status reported to the issuer (the tags it calls complete).
class MfcObserver {
 public:
  virtual ~MfcObserver() = default;
  virtual void queued(const Mfc& mfc, MfcIssuer queue, uint64_t id, uint32_t tag,
                      MfcOrder order) = 0;
  virtual void started(const Mfc& mfc, MfcIssuer queue, uint64_t id) = 0;
  virtual void completed(const Mfc& mfc, MfcIssuer queue, uint64_t id) = 0;
  virtual void tag_status(const Mfc& mfc, MfcIssuer queue, uint32_t complete) = 0;
};

class Mfc : public sc_core::sc_module {
 public:
  tlm_utils::simple_initiator_socket<Mfc> ea_port;  // to the EIB
  tlm_utils::simple_initiator_socket<Mfc> ls_port;  // to the SPE's local store

  // `spe_name` names the SPE in errors; `initiator_id` marks the MFC's bus accesses.
  Mfc(sc_core::sc_module_name name, const std::string& spe_name, double spu_clock_hz,
      Element element, LockLineReservations& reservations, int initiator_id,
      uint64_t local_store_bytes);
  // The MFC's address translation: an effective address (and the bytes from it) to the address
  // the EIB is given, as the MFC's MMU translates a process's virtual addresses with its page
  // table. Without one (firmware), an effective address is a real address. Applied to each
  // command's, each list element's and each atomic command's effective address; a translation
  // keeps an address's offset in its 4 KiB page, so the alignment rules read the same either
  // side.
  using EaTranslation = std::function<uint64_t(uint64_t ea, uint64_t bytes)>;
  void set_translation(EaTranslation t) { translate_ = std::move(t); }
  void set_listener(MfcListener* l) { listener_ = l; }
  void observe(MfcObserver* o) { observers_.push_back(o); }
  AtomicUnit& atomic_unit() { return *atomic_; }

  // A command as its issuer wrote it: the command word (classes above bit 16, opcode below),
  // the local-store address, the effective address (for a list: the elements' high word and
  // the list's local-store address), the size (for a list: the list's bytes) and the tag.
  struct Request {
    uint32_t command_word;
    uint32_t lsa;
    uint64_t ea;
    uint32_t size;
    uint32_t tag;
  };
  // The SPU's command (its channel write; the SPU waits for a free entry first). A command
  // that breaks a rule fails the run and is dropped.
  void spu_command(const Request& r);
  // A proxy command: spe::ps::kCmdEnqueued, kCmdQueueFull (not queued: retry) or kCmdInvalid
  // (breaks a rule: the run fails).
  uint32_t proxy_command(const Request& r);
  uint32_t free_entries(MfcIssuer issuer) const;
  bool queue_empty(MfcIssuer issuer) const;
  // Tag groups with nothing outstanding in the issuer's queue: bit t for tag t.
  uint32_t complete_tags(MfcIssuer issuer) const;

  // The SPU's tag-group status (channels MFC_WrTagMask, MFC_WrTagUpdate, MFC_RdTagStat).
  void set_tag_mask(uint32_t mask) { tag_mask_ = mask; }
  uint32_t tag_mask() const { return tag_mask_; }
  void request_tag_update(uint32_t mode);
  bool tag_status_ready() const { return tag_status_ready_; }
  uint32_t take_tag_status();
  // The proxy's tag-group query (Prxy_QueryMask, Prxy_QueryType: 0 none, 1 any, 2 all).
  void set_proxy_query_mask(uint32_t mask) { proxy_query_mask_ = mask; }
  uint32_t proxy_query_mask() const { return proxy_query_mask_; }
  void set_proxy_query_type(uint32_t type);
  uint32_t proxy_query_type() const { return proxy_query_type_; }
  // Prxy_TagStatus as the issuer reads it: the masked proxy tag groups with nothing
  // outstanding.
  uint32_t read_proxy_tag_status();
  // List stall-and-notify (MFC_RdListStallStat, MFC_WrListStallAck).
  bool list_stall_ready() const { return stall_status_ != 0; }
  uint32_t take_list_stall_status();
  void ack_list_stall(uint32_t tag);

  // Progress observers (a workload measuring its steady state): a piece's bytes once its
  // data has landed; a command's enqueue and completion times once its last piece has.
  using TransferWatch = std::function<void(uint32_t bytes, const sc_core::sc_time& at)>;
  using CommandWatch =
      std::function<void(const sc_core::sc_time& issued, const sc_core::sc_time& done)>;
  void watch_transfers(TransferWatch w) { transfer_watches_.push_back(std::move(w)); }
  void watch_commands(CommandWatch w) { command_watches_.push_back(std::move(w)); }

 private:
  struct Command {
    uint64_t id;
    MfcIssuer issuer;
    uint32_t opcode;
    MfcOpcode op;
    uint32_t lsa, size, tag;
    uint64_t ea;
    sc_core::sc_time issued;
    bool faulted = false;  // broke a rule mid-way: never completes (the run has failed)
    bool started = false;
    uint32_t in_flight = 0;  // pieces (and element fetches) under way
    // A plain command: bytes handed out so far. A list: the element being moved.
    uint32_t done_bytes = 0;
    uint32_t elem_index = 0;  // elements fetched so far
    uint32_t elem_lsa = 0, elem_size = 0;
    uint64_t elem_ea = 0;
    bool elem_stall = false;      // it has the stall-and-notify bit (and is not the last)
    sc_core::sc_time elem_ready;  // when the element's fetch lands
    uint32_t running_lsa = 0;     // the next element's local-store address (before its offset)
    bool stall_armed = false;     // a stall-and-notify element is fully handed out
    bool stall_told = false;      // ... has landed and the SPU was told
    uint32_t elements() const { return size / 8; }
  };
  struct Queue {
    MfcIssuer issuer;
    uint32_t capacity;
    std::list<Command> commands;  // issue order; stable addresses while pieces are in flight
    uint32_t startable = 0;       // bit i: the i-th command may start (mfc_command.h)
    std::array<uint32_t, spe::kTags> outstanding{};
    Occupancy* depth;
    int depth_track;
  };
  struct Piece {
    Command* cmd;
    uint32_t lsa, len;
    uint64_t ea;
    sc_core::sc_time not_before;  // its list element's fetch lands then
  };

  std::string check(const Request& r, MfcIssuer issuer, MfcOpcode& op) const;
  void fail(const Command& c, const std::string& rule) const;
  void fail_request(const Request& r, MfcIssuer issuer, const std::string& rule) const;
  void enqueue(Queue& q, const Request& r, const MfcOpcode& op);
  void update_startable(Queue& q);
  bool has_work(const Command& c) const;
  Command* choose();
  // Hands out `c`'s next piece (false if it has none now: list elements of size 0, or a
  // stall); list element reads add to `delay`.
  bool next_piece(Command& c, Piece& p, sc_core::sc_time& delay, tlm::tlm_generic_payload& gp);
  bool fetch_element(Command& c, sc_core::sc_time& delay, tlm::tlm_generic_payload& gp);
  void worker(tlm::tlm_generic_payload& gp);
  bool move(tlm_utils::simple_initiator_socket<Mfc>& port, tlm::tlm_command cmd, uint64_t addr,
            uint8_t* data, uint32_t len, const Command& c, tlm::tlm_generic_payload& gp,
            sc_core::sc_time& delay);
  // After a piece landed (or a command with no pieces became startable): stall notification
  // and completion.
  void settle(Command& c);
  void settle_all();
  void start(Command& c);
  void complete(Command& c);
  void evaluate_tag_update();
  void evaluate_proxy_query();
  Queue& queue_of(MfcIssuer issuer) { return issuer == MfcIssuer::Spu ? spu_queue_ : proxy_queue_; }
  const Queue& queue_of(MfcIssuer issuer) const {
    return issuer == MfcIssuer::Spu ? spu_queue_ : proxy_queue_;
  }

  std::string spe_name_;
  uint64_t ls_bytes_;
  EaTranslation translate_;
  MfcListener* listener_ = nullptr;
  std::vector<MfcObserver*> observers_;
  std::unique_ptr<AtomicUnit> atomic_;
  uint64_t next_id_ = 0;
  Queue spu_queue_, proxy_queue_;
  bool proxy_first_ = false;  // which queue the controller looks at first (they alternate)
  sc_core::sc_event work_;
  uint32_t tag_mask_ = 0;
  uint32_t tag_update_ = 0;  // pending request: 0 none, else 1 + mode
  bool tag_status_ready_ = false;
  uint32_t tag_status_ = 0;
  uint32_t proxy_query_mask_ = 0, proxy_query_type_ = 0;
  uint32_t stall_status_ = 0;  // tags whose lists stalled, not yet read
  std::vector<std::unique_ptr<TaggedPayload<InitiatorExt>>> worker_payloads_;
  std::vector<TransferWatch> transfer_watches_;
  std::vector<CommandWatch> command_watches_;

  StatGroup stats_;
  Counter& gets_;
  Counter& puts_;
  Counter& lists_;
  Counter& list_elements_;
  Counter& stalls_;
  Counter& sndsigs_;
  Counter& ordering_;
  Counter& proxy_commands_;
  Counter& proxy_full_;
  Counter& bytes_in_;
  Counter& bytes_out_;
  Counter& transfers_done_;
  Histogram& command_latency_;
  int track_;  // commands: async spans (the queues run several at once)
};

}  // namespace hs::cell
