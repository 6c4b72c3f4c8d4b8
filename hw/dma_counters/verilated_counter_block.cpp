#include "hw/dma_counters/verilated_counter_block.h"

#include <fmt/format.h>

#include "Vdma_counter_bank_inj.h"
#include "Vdma_counter_bank_rec.h"
#include "hw/rtl_cosim/pin.h"
#include "hw/rtl_cosim/verilated_eval.h"
#include "tlm/common/errors.h"
#include "tlm/trace/signal_trace.h"
#include "verilated_vcd_c.h"

template struct hs::rtl::GrantEval<Vdma_counter_bank_inj, &Vdma_counter_bank_inj::eval>;
template struct hs::rtl::GrantEval<Vdma_counter_bank_rec, &Vdma_counter_bank_rec::eval>;

namespace hs::counters {

BankShape rtl_bank_shape(bool reception) {
  return {HYBRIDSIM_RTL_COUNTER_GROUPS, HYBRIDSIM_RTL_COUNTERS_PER_GROUP, reception};
}

CounterTiming rtl_timing() {
  return {HYBRIDSIM_RTL_READ_LATENCY, HYBRIDSIM_RTL_HIT_ZERO_LATENCY};
}

void check_rtl_matches(const std::string& prefix, const BankShape& shape,
                       const CounterTiming& timing) {
  const BankShape rs = rtl_bank_shape(shape.reception);
  const CounterTiming rt = rtl_timing();
  auto refuse = [&](const char* param, uint32_t asked, uint32_t verilated) {
    throw InputError(fmt::format(
        "{}.counters=rtl: {}.{}={} but the RTL counter block was verilated with {} (change it "
        "in rtl/CMakeLists.txt and rebuild, or use {}.counters=tlm)",
        prefix, prefix, param, asked, verilated, prefix));
  };
  if (shape.groups != rs.groups) refuse("counter_groups", shape.groups, rs.groups);
  if (shape.per_group != rs.per_group) {
    refuse("counters_per_group", shape.per_group, rs.per_group);
  }
  if (timing.read_latency != rt.read_latency) {
    refuse("counter_read_latency", timing.read_latency, rt.read_latency);
  }
  if (timing.hit_zero_latency != rt.hit_zero_latency) {
    refuse("hit_zero_latency", timing.hit_zero_latency, rt.hit_zero_latency);
  }
}

namespace {

template <class Model>
class Block final : public VerilatedCounterBlock {
 public:
  Block(const char* name, bool reception) : shape_(rtl_bank_shape(reception)), model_(name) {
    model_.clk(clk_);
    model_.rst_n(rst_n_);
    model_.reg_ctl(reg_ctl_);
    model_.reg_wdata(reg_wdata_);
    model_.dec_ctl(dec_ctl_);
    model_.dec_bytes(dec_bytes_);
    model_.dec_addr(dec_addr_);
    model_.lk_id(lk_id_);
    model_.flags(flags_);
    model_.rd_data(rd_data_);
    model_.lk_value_base(lk_value_base_);
    model_.lk_max(lk_max_);
    model_.status(status_);
  }
  ~Block() override { close_trace(); }

  const BankShape& shape() const override { return shape_; }

  void reset() override {
    drive(CounterPins{});
    rst_n_.set(false);
    clock_edge(last_time_);
    rst_n_.set(true);
  }

  const CounterOutputs& edge(const CounterPins& in, uint64_t time_ps) override {
    drive(in);
    clock_edge(time_ps);
    const uint32_t f = flags_.get();
    const uint32_t groups = shape_.groups;
    out_.reg_err = f & 1;
    out_.rd_valid = f >> 1 & 1;
    out_.rd_data = rd_data_.get();
    out_.dec_hit_zero = f >> 2 & 1;
    out_.dec_underflow = f >> 3 & 1;
    out_.dec_out_of_bounds = f >> 4 & 1;
    out_.status = status_.get();
    out_.irq_level = f >> 9 & ((1u << groups) - 1);
    out_.irq = f >> (9 + groups) & ((1u << groups) - 1);
    return out_;
  }

  CounterView lookup(uint32_t counter) override {
    if (lk_id_.get() != counter) {
      lk_id_.set(counter);
      eval();
    }
    CounterView v;
    v.value = static_cast<uint32_t>(lk_value_base_.get());
    v.base = static_cast<uint32_t>(lk_value_base_.get() >> 32);
    v.max = lk_max_.get();
    const uint32_t f = flags_.get() >> 5;
    v.hit_zero = f & 1;
    v.enabled = f & 2;
    v.underflow = f & 4;
    v.out_of_bounds = f & 8;
    return v;
  }

  void open_trace(uint64_t half_period_ps) override {
    Verilated::traceEverOn(true);
    vcd_ = std::make_unique<VerilatedVcdC>();
    model_.trace(vcd_.get(), 99);
    // Its pins (two scopes down: the block's name, then the top module) go into the save file.
    trace_path_ = SignalTrace::instance().add_part([this] { close_trace(); }, 2);
    vcd_->open(trace_path_.c_str());
    if (!vcd_->isOpen()) throw InputError("--vcd: cannot write the RTL waveform " + trace_path_);
    half_period_ = half_period_ps;
  }
  void close_trace() override {
    if (!vcd_) return;
    vcd_->close();
    vcd_.reset();
    SignalTrace::instance().part_finished(trace_path_);
  }
  uint64_t evaluations() const override { return evaluations_; }

 private:
  void eval() {
    rtl::evaluate(model_);
    ++evaluations_;
  }
  void drive(const CounterPins& in) {
    reg_ctl_.set(uint32_t{in.reg_valid} << 16 | uint32_t{in.reg_write} << 15 |
                 uint32_t{in.reg_wide} << 14 | (in.reg_addr & 0x3FFF));
    reg_wdata_.set(in.reg_wdata);
    // Addresses beyond the block's 48 bits lie outside every window, and so do lengths beyond
    // its 16: saturate them, which keeps them out.
    const uint64_t len = in.dec_len > 0xFFFF ? 0xFFFF : in.dec_len;
    dec_ctl_.set(uint64_t{in.dec_valid} << 33 | uint64_t{in.dec_check} << 32 |
                 uint64_t{in.dec_id & 0xFFFF} << 16 | len);
    dec_bytes_.set(in.dec_bytes);
    dec_addr_.set(in.dec_addr >> 48 ? (uint64_t{1} << 48) - 1 : in.dec_addr);
  }
  // Inputs change with the clock low (half a period before the edge), then the clock rises.
  void clock_edge(uint64_t time_ps) {
    clk_.set(false);
    eval();
    // At time zero the clock's low half would share the rising edge's time: only the edge shows.
    if (time_ps > half_period_) dump(time_ps - half_period_);
    clk_.set(true);
    eval();
    dump(time_ps);
    last_time_ = std::max(last_time_, time_ps);
  }
  // Verilator keeps one sample per time (it warns of, and drops, a second one): an edge at
  // the time of the last sample (edges at time zero: reset, then the first request) shows
  // only its result.
  void dump(uint64_t time_ps) {
    if (!vcd_ || (dumped_ && time_ps <= last_dump_)) return;
    vcd_->dump(time_ps);
    dumped_ = true;
    last_dump_ = time_ps;
  }

  BankShape shape_;
  rtl::Pin<bool> clk_, rst_n_;
  rtl::Pin<uint32_t> reg_ctl_, dec_bytes_, lk_id_, flags_, lk_max_, status_;
  rtl::Pin<uint64_t> reg_wdata_, dec_ctl_, dec_addr_, rd_data_, lk_value_base_;
  Model model_;
  std::unique_ptr<VerilatedVcdC> vcd_;
  std::string trace_path_;
  bool dumped_ = false;
  uint64_t half_period_ = 0, last_time_ = 0, last_dump_ = 0, evaluations_ = 0;
  CounterOutputs out_;
};

}  // namespace

std::unique_ptr<VerilatedCounterBlock> VerilatedCounterBlock::create(const char* name,
                                                                     bool reception) {
  if (reception) return std::make_unique<Block<Vdma_counter_bank_rec>>(name, reception);
  return std::make_unique<Block<Vdma_counter_bank_inj>>(name, reception);
}

}  // namespace hs::counters
