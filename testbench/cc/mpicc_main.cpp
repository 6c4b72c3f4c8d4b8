// hybridsim-mpicc and hybridsim-mpicxx: compile and link MPI programs for `hybridsim mpirun`
// (testbench/cc/program_cc.h says what they add to the compiler's command line).
#include <string>
#include <vector>

#include "testbench/cc/program_cc.h"

int main(int argc, char** argv) {
  const hs::cc::Layout layout = hs::cc::this_layout();
  const bool cxx = HYBRIDSIM_CC_CXX;
  const hs::cc::Flavour f = layout.flavour(cxx ? "hybridsim-mpicxx" : "hybridsim-mpicc", "mpi", cxx,
                                           {"mpirun", "-n", "1"});
  const std::vector<std::string> args(argv + 1, argv + argc);
  return hs::cc::execute(f, hs::cc::plan(f, layout, args));
}
