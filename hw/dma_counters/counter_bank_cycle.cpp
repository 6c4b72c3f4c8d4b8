#include "hw/dma_counters/counter_bank_cycle.h"

namespace hs::counters {

CounterPins CounterPins::read(uint32_t offset, bool wide) {
  CounterPins p;
  p.reg_valid = true;
  p.reg_wide = wide;
  p.reg_addr = offset;
  return p;
}

CounterPins CounterPins::write(uint32_t offset, uint64_t value, bool wide) {
  CounterPins p = read(offset, wide);
  p.reg_write = true;
  p.reg_wdata = value;
  return p;
}

CounterPins CounterPins::decrement(uint32_t counter, uint32_t bytes, bool check, uint64_t addr,
                                   uint32_t len) {
  CounterPins p;
  p.dec_valid = true;
  p.dec_id = counter;
  p.dec_bytes = bytes;
  p.dec_check = check;
  p.dec_addr = addr;
  p.dec_len = len;
  return p;
}

bool CounterOutputs::operator==(const CounterOutputs& o) const {
  return reg_err == o.reg_err && rd_valid == o.rd_valid && rd_data == o.rd_data &&
         dec_hit_zero == o.dec_hit_zero && dec_underflow == o.dec_underflow &&
         dec_out_of_bounds == o.dec_out_of_bounds && status == o.status &&
         irq_level == o.irq_level && irq == o.irq;
}

bool CounterView::operator==(const CounterView& o) const {
  return value == o.value && base == o.base && max == o.max && hit_zero == o.hit_zero &&
         enabled == o.enabled && underflow == o.underflow && out_of_bounds == o.out_of_bounds;
}

CounterBankCycleModel::CounterBankCycleModel(const BankShape& shape, const CounterTiming& timing)
    : state_(shape),
      timing_(timing),
      read_pipe_(std::max<uint32_t>(timing.read_latency, 1)),
      irq_pipe_(timing.hit_zero_latency, 0) {}

void CounterBankCycleModel::reset() {
  *this = CounterBankCycleModel(state_.shape(), timing_);
}

uint32_t CounterBankCycleModel::status_bits() const {
  const uint32_t per = state_.shape().per_group / kSubgroup;
  uint32_t bits = 0;
  for (uint32_t g = 0; g < state_.shape().groups; ++g) bits |= state_.group_status(g) << (g * per);
  return bits;
}

uint32_t CounterBankCycleModel::irq_bits() const {
  uint32_t bits = 0;
  for (uint32_t g = 0; g < state_.shape().groups; ++g) bits |= uint32_t{state_.irq(g)} << g;
  return bits;
}

const CounterOutputs& CounterBankCycleModel::edge(const CounterPins& in, uint64_t) {
  const unsigned width = in.reg_wide ? 8 : 4;
  const bool is_reg = in.reg_valid && state_.is_register(in.reg_addr, width, in.reg_write);
  // Reads and the interrupt pipeline sample the state before the edge.
  CounterOutputs stage;
  if (is_reg && !in.reg_write) {
    stage.rd_valid = state_.read(in.reg_addr, width, stage.rd_data);
  }
  const uint32_t level_before = irq_bits();
  // The write lands first, then the decrement applies to its result.
  if (is_reg && in.reg_write) state_.write(in.reg_addr, in.reg_wdata, width);
  DecrementResult r;
  if (in.dec_valid && in.dec_id < state_.shape().counters()) {
    r = state_.decrement(in.dec_id, in.dec_bytes, in.dec_check && state_.shape().reception,
                         in.dec_addr, in.dec_len);
  }
  read_pipe_.push_front(stage);
  read_pipe_.pop_back();
  out_.reg_err = in.reg_valid && !is_reg;
  out_.rd_valid = read_pipe_.back().rd_valid;
  out_.rd_data = read_pipe_.back().rd_data;
  out_.dec_hit_zero = r.hit_zero;
  out_.dec_underflow = r.underflow;
  out_.dec_out_of_bounds = r.out_of_bounds;
  out_.status = status_bits();
  out_.irq_level = irq_bits();
  if (irq_pipe_.empty()) {
    out_.irq = out_.irq_level;
  } else {
    irq_pipe_.push_front(level_before);
    irq_pipe_.pop_back();
    out_.irq = irq_pipe_.back();
  }
  return out_;
}

CounterView CounterBankCycleModel::lookup(uint32_t c) {
  CounterView v;
  if (c >= state_.shape().counters()) return v;
  v.value = state_.value(c);
  v.base = static_cast<uint32_t>(state_.base_address(c) >> 4);
  v.max = state_.shape().reception ? static_cast<uint32_t>(state_.max_address(c) >> 4) : 0;
  v.hit_zero = state_.hit_zero(c);
  v.enabled = state_.enabled(c);
  v.underflow = state_.underflow(c);
  v.out_of_bounds = state_.out_of_bounds(c);
  return v;
}

}  // namespace hs::counters
