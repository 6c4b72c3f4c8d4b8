#include "tlm/timing/timeline.h"

#include <algorithm>
#include <cstdlib>
#include <memory>
#include <unordered_map>
// sc_spawn, which <systemc> declares only with SC_INCLUDE_DYNAMIC_PROCESSES.
#include <sysc/kernel/sc_dynamic_processes.h>

#include "tlm/common/random_stream.h"

namespace hs {

uint64_t origin_id(const std::string& name) {
  uint64_t h = 1469598103934665603ull;  // FNV-1a, then mixed so near names spread apart
  for (unsigned char c : name) h = (h ^ c) * 1099511628211ull;
  return splitmix64(h);
}

std::string child_name(const char* basename) {
  const sc_core::sc_module* parent = sc_core::sc_get_curr_simcontext()->hierarchy_curr();
  const std::string unique = sc_core::sc_gen_unique_name(basename);
  return parent ? std::string(parent->name()) + "." + unique : unique;
}

// The test hook's events (see the header): a few kernel events waking a process that does
// nothing, and an alarm nobody waits on, rung from an origin drawn at random.
struct Timeline::Noise {
  explicit Noise(uint64_t seed) : rng(seed), owner(0), alarm(owner) {
    sc_core::sc_spawn_options opts;
    opts.spawn_method();
    for (auto& e : events) opts.set_sensitivity(&e);
    opts.dont_initialize();
    sc_core::sc_spawn([] {}, sc_core::sc_gen_unique_name("timeline_noise"), &opts);
  }
  RandomStream rng;
  sc_core::sc_event events[3];
  Origin owner;
  Alarm alarm;
};

namespace {
Timeline* built = nullptr;
}  // namespace

Timeline& Timeline::instance() {
  static Timeline* timeline = built = new Timeline();  // never destroyed: processes outlive statics
  return *timeline;
}

int Timeline::position(Order& entry, const std::vector<uint64_t>** path) {
  if (!built || !built->dispatching_) return 2;
  entry = built->current_;
  if (path) *path = &built->path_;
  return built->in_now_queue_ ? 1 : 0;
}

namespace {
std::unordered_map<const sc_core::sc_object*, const ActivationPlace*>& activation_places() {
  static std::unordered_map<const sc_core::sc_object*, const ActivationPlace*> places;
  return places;
}
}  // namespace

void Timeline::set_activation_place(const sc_core::sc_object* process,
                                    const ActivationPlace* place) {
  if (place) {
    activation_places()[process] = place;
  } else {
    activation_places().erase(process);
  }
}

const ActivationPlace* Timeline::activation_place() {
  if (activation_places().empty()) return nullptr;
  const auto it =
      activation_places().find(sc_core::sc_get_current_process_handle().get_process_object());
  return it == activation_places().end() ? nullptr : it->second;
}

uint8_t Timeline::place(std::vector<uint64_t>& order) {
  Order entry;
  const std::vector<uint64_t>* path = nullptr;
  switch (position(entry, &path)) {
    case 0:
      order.insert(order.end(), {entry.tie, entry.origin});
      return 1;
    case 1:
      order.push_back(path->size());
      order.insert(order.end(), path->begin(), path->end());
      return 2;
    default:
      if (const ActivationPlace* a = activation_place(); a && a->append_place(order)) return 3;
      return 4;
  }
}

void DeltaNote::note(bool moved) {
  const uint64_t delta = sc_core::sc_delta_count();
  if (delta == delta_ && !moved) return;
  delta_ = delta;
  place_.clear();
  place_.push_back(0);
  place_[0] = Timeline::place(place_);
}

bool Alarm::append_wake(std::vector<uint64_t>& key, bool thread) const {
  if (!wake_) return false;
  if (wake_->rung_now.woke_now()) {
    WakeKey::delta(key, thread, wake_->rung_now);
    return true;
  }
  if (wake_->rang.at != hs::now().value()) return false;
  WakeKey::ringing(key, thread, wake_->rang);
  return true;
}

AlarmWakePlace::AlarmWakePlace(const Alarm& alarm, const sc_core::sc_process_handle& process)
    : alarm_(alarm),
      process_(process.get_process_object()),
      thread_(process.proc_kind() != sc_core::SC_METHOD_PROC_) {
  Timeline::set_activation_place(process_, this);
}

AlarmWakePlace::~AlarmWakePlace() {
  Timeline::set_activation_place(process_, nullptr);
}

Timeline::Timeline() {
  sc_core::sc_spawn_options opts;
  opts.spawn_method();
  opts.set_sensitivity(&wake_);
  opts.dont_initialize();
  sc_core::sc_spawn([this] { dispatch(); }, sc_core::sc_gen_unique_name("timeline"), &opts);
  if (const char* seed = std::getenv("HYBRIDSIM_TEST_NOISE")) {
    noise_ = new Noise(std::strtoull(seed, nullptr, 10));
  }
}

void Timeline::add_noise(uint64_t at) {
  // Only ever at the next wake-up: noise moved with it never outlasts the model's own events.
  for (auto& e : noise_->events) e.cancel();
  ++noise_->alarm.armed_;
  if (at == UINT64_MAX) return;
  const sc_core::sc_time delay = sc_core::sc_time::from_value(at - hs::now().value());
  const uint64_t r = noise_->rng();
  for (int i = 0; i < 3; ++i) {
    if (r >> i & 1) noise_->events[i].notify(delay);
  }
  if (at > hs::now().value() && (r >> 3 & 1)) {
    rings_.push(Ringing{Order::of(at, noise_->rng(), 0), &noise_->alarm, noise_->alarm.armed_});
  }
}

void Timeline::add_lane(TimelineLane* lane) {
  lanes_.push_back(lane);
}

void Timeline::remove_lane(TimelineLane* lane) {
  lanes_.erase(std::remove(lanes_.begin(), lanes_.end(), lane), lanes_.end());
}

void Timeline::lane_changed(uint64_t at) {
  if (!dispatching_ && at < wake_at_) wake(at);
}

void Timeline::hold_until(uint64_t at) {
  if (at <= horizon_) return;
  horizon_ = at;
  if (!dispatching_ && at < wake_at_) wake(at);
}

void Timeline::wake(uint64_t at) {
  wake_at_ = at;
  wake_.notify(sc_core::sc_time::from_value(at - hs::now().value()));
  if (noise_) add_noise(at);
}

void Timeline::ring(const Order& key, Alarm* alarm, uint64_t ticket) {
  rings_.push(Ringing{key, alarm, ticket});
  lane_changed(key.at);
}

void Timeline::dispatch() {
  const uint64_t now = hs::now().value();
  static constexpr Order kNone{UINT64_MAX, UINT64_MAX, UINT64_MAX};  // after every entry
  dispatching_ = true;
  for (;;) {
    // Everything due, in order: the earliest of the ringings' and the lanes' tops runs, and a
    // lane runs its own entries in one go until another source's top comes first.
    TimelineLane* lane = nullptr;
    const Order* best = rings_.empty() || rings_.top().key.at > now ? nullptr : &rings_.top().key;
    const Order* second = nullptr;
    for (TimelineLane* l : lanes_) {
      const Order* t = l->top();
      if (!t || t->at > now) continue;
      if (!best || *t < *best) {
        second = best;
        best = t;
        lane = l;
      } else if (!second || *t < *second) {
        second = t;
      }
    }
    if (!best) break;
    if (lane) {
      // Entries other sources post meanwhile lie in the future: `second` stays the limit.
      run_ += lane->run_due(now, second ? *second : kNone, current_);
      continue;
    }
    current_ = rings_.top().key;
    ++run_;
    const Ringing r = rings_.pop();
    if (r.alarm->armed_ == r.ticket) {
      r.alarm->ringing_at_ = UINT64_MAX;
      if (r.alarm->wake_) r.alarm->wake_->rang = current_;
      r.alarm->event_.notify();
    }
  }
  // Then what was posted for this instant meanwhile, lane by lane, until none is left.
  in_now_queue_ = true;
  for (bool ran = true; ran;) {
    ran = false;
    for (TimelineLane* l : lanes_) {
      const uint64_t n = l->run_now_queue(current_);
      run_ += n;
      ran = ran || n > 0;
    }
  }
  in_now_queue_ = false;
  dispatching_ = false;
  first_round_done_at_ = now;
  last_activity_ = now;
  wake_at_ = UINT64_MAX;
  const uint64_t next = next_due();
  if (next != UINT64_MAX) {
    wake(next);
  } else if (noise_) {
    add_noise(UINT64_MAX);
  }
}

void Timeline::purge() {
  while (!rings_.empty() && rings_.top().alarm->armed_ != rings_.top().ticket) rings_.pop();
}

uint64_t Timeline::next_due() {
  purge();
  uint64_t next = rings_.empty() ? UINT64_MAX : rings_.top().key.at;
  for (TimelineLane* l : lanes_) {
    if (const Order* t = l->top()) next = std::min(next, t->at);
  }
  if (next == UINT64_MAX && horizon_ > hs::now().value()) next = horizon_;
  return next;
}

void Timeline::dropped(uint64_t at) {
  if (dispatching_ || at != wake_at_) return;
  // The dispatcher was to wake for it: wake for what is left instead (if anything).
  wake_.cancel();
  wake_at_ = UINT64_MAX;
  const uint64_t next = next_due();
  if (next != UINT64_MAX) {
    wake(next);
  } else if (noise_) {
    add_noise(UINT64_MAX);
  }
}

void Alarm::ring_in(const sc_core::sc_time& delay) {
  cancel();
  if (delay == sc_core::SC_ZERO_TIME) {
    if (wake_) wake_->rung_now.note(true);
    event_.notify(sc_core::SC_ZERO_TIME);
    return;
  }
  ringing_at_ = hs::now().value() + delay.value();
  Timeline::instance().ring(owner_.next(ringing_at_), this, armed_);
}

void Alarm::cancel() {
  ++armed_;
  event_.cancel();
  if (ringing_at_ == UINT64_MAX) return;
  const uint64_t at = ringing_at_;
  ringing_at_ = UINT64_MAX;
  Timeline::instance().dropped(at);
}

}  // namespace hs
