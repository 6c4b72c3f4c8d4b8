// Evaluating a Verilated SystemC model from C++ at a chosen moment.
//
// Verilator's SystemC model keeps eval() private: normally its own SC_METHOD runs it when an
// input signal changes, a delta cycle after the write. A co-simulation adapter that answers a
// call synchronously (a counter read, a decrement's result) must evaluate the model inside
// that call, with its pins bound to immediate-update channels (pin.h). A model class grants
// access once, in one .cpp, with
//   template struct hs::rtl::GrantEval<Vmodel, &Vmodel::eval>;
// (an explicit instantiation may name a private member), and callers then use
// hs::rtl::evaluate(model).
#pragma once

namespace hs::rtl {

template <class Model>
struct EvalMember {
  static inline void (Model::*member)() = nullptr;
};

template <class Model, void (Model::*Member)()>
struct GrantEval {
  static inline const bool granted = (EvalMember<Model>::member = Member, true);
};

template <class Model>
void evaluate(Model& model) {
  (model.*EvalMember<Model>::member)();
}

}  // namespace hs::rtl
