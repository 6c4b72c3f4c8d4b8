// The x86 host: sockets x cores running firmware, DRAM, the northbridge and the MSI interrupt
// controllers. The links to the accelerators attach at a socket's northbridge through
// attach_io() and connect_io(), never by reaching into it. Two layouts:
//
// - Shared (the direct topology): one northbridge crossbar, `bus`, joins every core, the DRAM,
//   the MSI controller, the host's DMA engine and the I/O links: a root complex with every
//   accelerator's link on it.
// - PerSocket (the TriBlade's LS21): each socket has its own northbridge crossbar
//   (`xbar<s>`, the Opteron's), its own memory controller and DRAM (socket s owns the range
//   after socket s-1's: `dram`, `dram1`), the MSI doorbells of its own cores, and its own I/O
//   links; a coherent HyperTransport link (`cht`) joins the two sockets, so a core or a device
//   reaches the other socket's memory, doorbells and I/O through it. The host's DMA engine sits
//   on socket 0.
//
// Every northbridge is a crossbar (tlm/bus/crossbar.h): ports of finite bandwidth, and the
// root complex's rule on peer-to-peer traffic between I/O links.
#pragma once
#include <memory>
#include <string>
#include <systemc>
#include <vector>

#include "hw/cpu/core.h"
#include "hw/cpu/interrupt_controller.h"
#include "hw/dma/dma_engine.h"
#include "hw/ht/ht_link.h"
#include "tlm/bus/crossbar.h"
#include "tlm/memory/memory.h"

namespace hs::host {

class Host : public sc_core::sc_module {
 public:
  enum class Layout { Shared, PerSocket };

  // `dma_engine`: whether the host has a descriptor DMA engine (dma_interface.h).
  Host(sc_core::sc_module_name name, bool dma_engine, Layout layout);

  std::vector<Core*> cores() const;
  int sockets() const { return sockets_; }
  int cores_per_socket() const { return per_socket_; }
  Layout layout() const { return layout_; }
  // The socket whose northbridge serves host core `core`.
  int socket_of(int core) const { return core / per_socket_; }

  // An I/O link's requester at socket `socket`: the accelerator window [base, base + size)
  // reaches `target` from that socket's northbridge (`translate`: with the window's base taken
  // off), and from every other socket's through the coherent link. Returns the port, for
  // alias_io() (another window on the same link).
  int attach_io(int socket, TargetSocket& target, uint64_t base, uint64_t size,
                const std::string& window_name, bool translate);
  void alias_io(int socket, int port, uint64_t base, uint64_t size, const std::string& window_name,
                bool translate);
  // An I/O link's inbound side (what the device sends the host) at socket `socket`.
  template <class Socket>
  void connect_io(int socket, Socket& master, const std::string& port_name) {
    northbridge(socket).connect(master, port_name, true);
  }
  Crossbar& northbridge(int socket) { return *xbars_[layout_ == Layout::Shared ? 0 : socket]; }

  std::unique_ptr<Memory> dram;  // socket 0's (the Shared layout's only one)
  std::vector<std::unique_ptr<Core>> core_list;
  std::unique_ptr<dma::DmaEngine> dma;  // null when the node places no engine here
  // Socket 1's DRAM and the coherent link (PerSocket only).
  std::unique_ptr<Memory> dram1;
  std::unique_ptr<ht::HtLink> cht;
  std::vector<std::unique_ptr<InterruptController>> irq;  // one per northbridge

 private:
  Layout layout_;
  int sockets_, per_socket_;
  std::vector<std::unique_ptr<Crossbar>> xbars_;
  std::vector<int> cht_port_;  // each northbridge's port into the coherent link
};

}  // namespace hs::host
