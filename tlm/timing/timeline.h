// The order of the simulation's timed wake-ups, fixed by who acted.
//
// SystemC releases the timed notifications of one instant in the order its event heap happens
// to hold them, and that order depends on everything else in the heap: an unrelated event, an
// elaboration in another order, or the same machine split over several processes could change
// which of two same-time actions of one node runs first, and with it the results. Components
// wake through the timeline instead, which keeps every timed wake-up in the order of
//     (time, origin, the origin's own sequence number)
// where the origin is a number fixed by the posting component's identity (its hierarchical
// name, or a router's coordinates) and the sequence counts that component's own posts. Two
// wake-ups at one time are so ordered by their components' identities and histories alone.
//
// Rules:
// - One timeline per SystemC kernel (per process). Its dispatcher is one method process that
//   runs at each time something is due.
// - Lanes (EventHeap: the torus network's actions) keep heaps of their own; the dispatcher
//   runs every lane's due actions merged in the one order. Actions a lane posts for the current
//   instant while the timeline dispatches run after everything already due, in the order
//   posted (the lane's "now" queue).
// - Alarms wake processes: ringing one in some delay posts the ringing in the order of the
//   component that owns it; when it comes, its event is notified at once, so the processes
//   waiting on it run in that delta cycle, in that order. Ringing again or cancelling drops a
//   ringing still to come; a dropped ringing never wakes the dispatcher (a run does not last
//   longer for it). A zero delay is a delta notification, not an entry (the kernel's delta
//   cycles keep their order by themselves).
// - passed(order) says whether an entry with that order would have run by now: what a
//   component that keeps some entries unposted (the network's lazy token returns) asks.
// - hold_until(t) keeps the dispatcher waking at t without an entry: a run whose last entry
//   was left unposted still ends at the time it would have.
// - A test hook, HYBRIDSIM_TEST_NOISE=SEED in the environment, adds events that do nothing at
//   every time the dispatcher wakes: the kernel's own timed notifications (waking a process
//   that does nothing) and ringings from an origin of their own. They never extend a run (they
//   fall where the model's own events do) and must change no result: a test runs every torus
//   scenario with them and compares the reports.
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <systemc>
#include <vector>

#include "tlm/kernel/now.h"
#include "tlm/timing/ordered_heap.h"

namespace hs {

// An entry's place in the order: time, then the posting component, then that component's
// count of its posts. Kept as (at, tie, origin) with tie = the origin's top 24 bits and the
// count's low 40, and compared in that order: heaps compare two words, and the whole origin
// only in the rare case of a tie (two components whose numbers share their top 24 bits
// posting their same count at one time). Origins are hashes, so their top bits tell them apart
// but for one pair in 16 million; either way the order is a function of (time, origin, count)
// alone, the same in every run and every process.
struct Order {
  uint64_t at = 0;      // picoseconds
  uint64_t tie = 0;     // origin >> 40 << 40 | seq
  uint64_t origin = 0;  // the posting component's identity
  static Order of(uint64_t at, uint64_t origin, uint64_t seq) {
    return Order{at, (origin & ~kSeqMask) | (seq & kSeqMask), origin};
  }
  bool operator<(const Order& o) const {
    // (at, tie) compared as one 128-bit number, free of branches (which entry comes first is a
    // coin toss the branch predictor loses, and heaps ask it several times per entry); the
    // whole origin only for a full tie.
    __extension__ using Wide = unsigned __int128;
    const Wide a = Wide{at} << 64 | tie, b = Wide{o.at} << 64 | o.tie;
    if (__builtin_expect(a == b, 0)) return origin < o.origin;
    return a < b;
  }
  static constexpr uint64_t kSeqMask = (uint64_t{1} << 40) - 1;
};

// A number for a component's hierarchical name: the same in every run and every process.
uint64_t origin_id(const std::string& name);

// The hierarchical name a child called `basename` of the module being built now would get,
// made unique among its siblings: an identity for parts that are not SystemC objects.
std::string child_name(const char* basename);

// A component's identity in the order and its count of posts.
class Origin {
 public:
  Origin() = default;
  explicit Origin(uint64_t id) : id_(id) {}
  explicit Origin(const std::string& name) : id_(origin_id(name)) {}
  Order next(uint64_t at) { return Order::of(at, id_, seq_++); }
  uint64_t id() const { return id_; }
  uint64_t posts() const { return seq_; }

 private:
  uint64_t id_ = 0, seq_ = 0;
};

// One kind of action kept in its own heap (EventHeap), run by the timeline in the one order.
class TimelineLane {
 public:
  virtual ~TimelineLane() = default;
  virtual const Order* top() const = 0;  // the earliest pending entry, or null
  // Runs the earliest entries while they are due by `now` and come before `limit`, setting
  // `current` to each one's order as it runs; returns how many ran.
  virtual uint64_t run_due(uint64_t now, const Order& limit, Order& current) = 0;
  // Runs the actions posted for this instant (those they post too), setting `current` to the
  // order each was posted with as it runs; returns how many ran.
  virtual uint64_t run_now_queue(Order& current) = 0;
};

class Alarm;

// Where the activation a process runs now stands among one instant's activations outside the
// timeline's dispatch, for a process that knows it (a core's firmware, a TimedQueue's arrivals,
// a torus DMA's injection engine): what a partitioned run merges in the sequential run's order
// (the transaction trace). Keys come from what woke the activation (WakeKey below).
class ActivationPlace {
 public:
  // Appends the activation's key and returns true, or appends nothing and returns false when
  // the activation's place is not known: keys of one delta cycle compare (lexicographically,
  // shorter first on a common start) as the sequential kernel runs the activations, and equal
  // keys name activations whose order is not known.
  virtual bool append_place(std::vector<uint64_t>& key) const = 0;

 protected:
  ~ActivationPlace() = default;
};

// The place of the process that first delta-notified an event in a delta cycle: noted (when
// activations are kept) right before event.notify(SC_ZERO_TIME), so the processes the
// notification wakes in the next delta cycle know their place (WakeKey::delta).
class DeltaNote {
 public:
  // A notification of a delta event already pending does nothing in the kernel, so only the
  // first of a delta cycle counts, unless `moved`: the event was cancelled first (it takes
  // the new notification's place in the kernel's list).
  void note(bool moved = false);
  // Whether the noted notification came in the delta cycle before this one: it woke the
  // processes that run now.
  bool woke_now() const { return delta_ + 1 == sc_core::sc_delta_count(); }
  // {the notifier's phase (Timeline::place), its place in that phase...}
  const std::vector<uint64_t>& place() const { return place_; }

 private:
  uint64_t delta_ = UINT64_MAX - 1;  // sc_delta_count() when noted
  std::vector<uint64_t> place_;
};

// Activation keys, from what woke the activation. The kernel's order within an instant
// (SystemC 2.3.4, checked with small programs: the dispatcher is a method process):
// - In the dispatch's delta cycle, the processes an alarm's ringing woke (an immediate
//   notification): threads first, then methods (the kernel queues the methods a running
//   method wakes behind the threads already due), each in ringing order.
// - In a later delta cycle, the processes a delta notification woke: methods first, then
//   threads, each in the reverse order of the notifications (the kernel triggers a delta
//   cycle's notifications last first): by the notifier's place, complemented. A notifier of no
//   known place is taken to run after the known ones: the processes it woke come first, their
//   order unknown. What one activation notifies shares its key (its partition's order holds).
// A process woken by both comes where the first trigger puts it; next_trigger() overrides a
// method's static sensitivity, so the processes that use these keys know which one woke them.
struct WakeKey {
  static void ringing(std::vector<uint64_t>& key, bool thread, const Order& ringing) {
    key.insert(key.end(), {thread ? 0u : 1u, ringing.tie, ringing.origin});
  }
  // Each word of the notifier's place complemented behind a 0, ended by a 1: complemented
  // places compare the other way round, a longer place (later) included.
  static void delta(std::vector<uint64_t>& key, bool thread, const DeltaNote& note) {
    key.push_back(thread ? 3u : 2u);
    for (const uint64_t w : note.place()) key.insert(key.end(), {0u, ~w});
    key.push_back(1u);
  }
};

class Timeline {
 public:
  // The timeline of the current kernel; its dispatcher is spawned on first use (during
  // elaboration, by the first component that needs it).
  static Timeline& instance();

  void add_lane(TimelineLane* lane);
  void remove_lane(TimelineLane* lane);
  // A lane's earliest entry is now `at`: the dispatcher wakes by then.
  void lane_changed(uint64_t at);
  bool dispatching() const { return dispatching_; }
  // Whether an entry of this order would have run by now (see the rules above).
  bool passed(const Order& o) const {
    const uint64_t now = hs::now().value();
    if (o.at != now) return o.at < now;
    // Every entry due at this time runs in its first dispatch, before the "now" queues.
    if (first_round_done_at_ == now || in_now_queue_) return true;
    return dispatching_ && !(current_ < o);
  }
  void hold_until(uint64_t at);
  // When the dispatcher last ran an entry (or woke for a hold): the time of the run's last
  // timed activity.
  uint64_t last_activity_ps() const { return last_activity_; }
  uint64_t entries_run() const { return run_; }
  // Where the kernel's run stands in the order, for what a partitioned run merges in the
  // sequential run's order (the transaction trace): 0 while an entry due now runs (`entry`:
  // its order), 1 while a lane's "now" queue runs (`entry`: the order its action was posted
  // with; `path`: its place in the queue, see keep_now_paths), 2 anywhere else (elaboration,
  // processes an alarm woke, delta cycles). Builds no timeline if there is none.
  static int position(Order& entry, const std::vector<uint64_t>** path = nullptr);
  // Asks every lane to give each action it puts in its "now" queue its place in that queue's
  // order, which no single partition sees whole: the entry at its root (tie and origin of the
  // entry of the instant's first round that posted it, or posted the action that did), then
  // its position among each poster's posts. A queue runs in the order of (length, path). The
  // partitioned trace asks before the model is built; nothing else pays for it.
  static void keep_now_paths() { paths_kept_ = true; }
  static bool now_paths_kept() { return paths_kept_; }
  // Asks the processes that know their activations' places (ActivationPlace) to say so:
  // what keeps their places registers them, and add_activation_place's owners record what
  // the places need. Asked before the model is built (a partitioned trace, a partitioned user
  // program's output); nothing else pays for it.
  static void keep_activations() { activations_kept_ = true; }
  static bool activations_kept() { return activations_kept_; }
  // `process` (a SystemC process object) tells its activations' places by `place` (null:
  // no longer); and the place of the running process, null if it has none.
  static void set_activation_place(const sc_core::sc_object* process, const ActivationPlace* place);
  static const ActivationPlace* activation_place();
  // The place of the code running now in the instant's delta cycle, as the partitioned trace
  // merges it: appends its order and returns its phase: 1 an entry due now ({tie, origin}),
  // 2 a "now" queue's action ({length, path}), 3 an activation that knows its place (its
  // key), 4 anything else (nothing appended).
  static uint8_t place(std::vector<uint64_t>& order);
  // An entry (`first_round`: of the first round) or a queued action with `path` starts.
  void run_path(const Order& first_round) {
    path_.assign({first_round.tie, first_round.origin});
    path_posts_ = 0;
  }
  void run_path(std::vector<uint64_t> path) {
    path_ = std::move(path);
    path_posts_ = 0;
  }
  // The path of an action the running one posts to a "now" queue.
  std::vector<uint64_t> next_path() {
    std::vector<uint64_t> p = path_;
    p.push_back(path_posts_++);
    return p;
  }

 private:
  friend class Alarm;
  struct Ringing {
    Order key;
    Alarm* alarm;
    uint64_t ticket;
  };
  Timeline();
  void ring(const Order& key, Alarm* alarm, uint64_t ticket);
  // A ringing due at `at` was dropped: the dispatcher does not wake for it alone.
  void dropped(uint64_t at);
  // Removes dropped ringings from the top of the heap.
  void purge();
  uint64_t next_due();
  void dispatch();
  void wake(uint64_t at);
  struct Noise;
  void add_noise(uint64_t at);

  std::vector<TimelineLane*> lanes_;
  OrderedHeap<Ringing> rings_;
  sc_core::sc_event wake_;
  uint64_t wake_at_ = UINT64_MAX, horizon_ = 0, last_activity_ = 0, run_ = 0;
  // The dispatch in progress: the entry being run (heap entries), whether the lanes' "now"
  // queues are being run, and the time whose first dispatch has finished.
  Order current_;
  bool dispatching_ = false, in_now_queue_ = false;
  uint64_t first_round_done_at_ = UINT64_MAX;
  Noise* noise_ = nullptr;  // the test hook's events, when on
  static inline bool paths_kept_ = false, activations_kept_ = false;
  std::vector<uint64_t> path_;  // of the entry or queued action running (keep_now_paths)
  uint64_t path_posts_ = 0;
};

// A wake-up for a process: next_trigger(alarm.event()) or wait(alarm.event()) after ring_in.
class Alarm {
 public:
  // `owner`: the component whose place in the order its ringings take (shared by the alarms
  // of one component, which must outlive them).
  explicit Alarm(Origin& owner)
      : owner_(owner), wake_(Timeline::activations_kept() ? std::make_unique<Wake>() : nullptr) {}
  Alarm(const Alarm&) = delete;
  Alarm& operator=(const Alarm&) = delete;

  // Rings `delay` from now (a zero delay: in the next delta cycle), dropping a ringing still
  // to come.
  void ring_in(const sc_core::sc_time& delay);
  void ring_at(const sc_core::sc_time& at) { ring_in(at - hs::now()); }
  // Rings at once: the processes waiting run in this evaluation phase.
  void ring_now() {
    cancel();
    event_.notify();
  }
  void cancel();
  const sc_core::sc_event& event() const { return event_; }
  // The key of an activation of a process that only this alarm wakes (WakeKey), or false
  // (activations not kept, or the alarm did not wake it).
  bool append_wake(std::vector<uint64_t>& key, bool thread) const;

 private:
  friend class Timeline;
  // Made only when activations are kept: its last ringing's order (at: when it rang), and the
  // place of who rang it last with a zero delay.
  struct Wake {
    Order rang{UINT64_MAX, 0, 0};
    DeltaNote rung_now;
  };
  Origin& owner_;
  sc_core::sc_event event_;
  std::unique_ptr<Wake> wake_;
  uint64_t armed_ = 0;                // the ticket of the ringing that counts
  uint64_t ringing_at_ = UINT64_MAX;  // when that ringing comes (none: UINT64_MAX)
};

// The place of a process that only `alarm` wakes (a TimedQueue's arrivals): registered for
// `process` while it lives, when activations are kept (make it only then).
class AlarmWakePlace final : public ActivationPlace {
 public:
  AlarmWakePlace(const Alarm& alarm, const sc_core::sc_process_handle& process);
  ~AlarmWakePlace();
  AlarmWakePlace(const AlarmWakePlace&) = delete;
  AlarmWakePlace& operator=(const AlarmWakePlace&) = delete;
  bool append_place(std::vector<uint64_t>& key) const override {
    return alarm_.append_wake(key, thread_);
  }

 private:
  const Alarm& alarm_;
  const sc_core::sc_object* process_;
  bool thread_;
};

}  // namespace hs
