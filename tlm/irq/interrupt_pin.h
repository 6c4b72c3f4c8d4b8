// Interrupt wiring, one kind for every component: a source drives an IrqOut pin, and what the
// pin is bound to is an IrqIn (a core's interrupt input, or glue that renumbers lines on the
// way). A device never calls a core: it raises its pin, and the wiring decides who hears it.
// An interrupt that travels as a bus write (an MSI) reaches an interrupt controller, which
// raises its own pin towards the core: the write is the message, the pin the wire.
//
// Rules:
// - A pin carries lines 0..31. raise(line) asserts the line at every input bound to the pin
//   in the instant it is called: wires have no delay (a device that takes time to signal
//   raises later).
// - withdraw(lines): the source retracts lines it raised and no longer asserts (a latch cleared
//   by a register write); an interrupt still pending on them is not taken.
// - An input that takes lines tells every pin bound to it (IrqIn::taken): a source that latches
//   what it raised until the core takes it (an interrupt controller) clears its latch there.
// - A pin may drive several inputs (a node's DMA interrupt to each of its cores) and an input
//   may be driven by several pins. Pins are bound during elaboration; a pin raised unbound is a
//   model error (std::logic_error naming it), never a lost interrupt.
#pragma once
#include <cstdint>
#include <functional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace hs {

class IrqOut;

// What a pin drives. Only pins call raise_irq / withdraw_irq (they are private), so every
// interrupt in the model passes through a pin.
class IrqIn {
 public:
  virtual ~IrqIn() = default;

 protected:
  // The receiver took `lines`: every pin bound to it hears of it.
  void taken(uint32_t lines) const;

 private:
  friend class IrqOut;
  virtual void raise_irq(unsigned line) = 0;
  virtual void withdraw_irq(uint32_t lines) = 0;
  std::vector<IrqOut*> drivers_;
};

class IrqOut {
 public:
  explicit IrqOut(std::string name) : name_(std::move(name)) {}
  IrqOut(const IrqOut&) = delete;
  IrqOut& operator=(const IrqOut&) = delete;

  void bind(IrqIn& in) {
    inputs_.push_back(&in);
    in.drivers_.push_back(this);
  }
  bool bound() const { return !inputs_.empty(); }
  const std::string& name() const { return name_; }

  void raise(unsigned line) const {
    if (inputs_.empty()) throw std::logic_error("interrupt pin " + name_ + " raised unbound");
    for (IrqIn* in : inputs_) in->raise_irq(line);
  }
  void withdraw(uint32_t lines) const {
    for (IrqIn* in : inputs_) in->withdraw_irq(lines);
  }
  // The source hears here which of its lines an input took.
  void on_taken(std::function<void(uint32_t lines)> fn) { on_taken_ = std::move(fn); }

 private:
  friend class IrqIn;
  std::string name_;
  std::vector<IrqIn*> inputs_;
  std::function<void(uint32_t)> on_taken_;
};

inline void IrqIn::taken(uint32_t lines) const {
  for (IrqOut* pin : drivers_) {
    if (pin->on_taken_) pin->on_taken_(lines);
  }
}

// Glue between a pin and another pin: line k in becomes line map(k) out, as a device's
// internal sources are wired to its own interrupt outputs (a counter group to its line).
class IrqRenumber : public IrqIn {
 public:
  IrqRenumber(IrqOut& out, std::function<unsigned(unsigned)> map)
      : out_(out), map_(std::move(map)) {}

 private:
  void raise_irq(unsigned line) override { out_.raise(map_(line)); }
  void withdraw_irq(uint32_t lines) override {
    for (unsigned l = 0; l < 32; ++l) {
      if (lines & (1u << l)) out_.withdraw(1u << (map_(l) & 31));
    }
  }
  IrqOut& out_;
  std::function<unsigned(unsigned)> map_;
};

}  // namespace hs
