// A bank of DMA byte counters: GROUPS x PER_GROUP counters, the completion path of every DMA
// transfer. It implements the register map of hw/dma_counters/counter_registers.h and the rules
// of hs::counters::CounterBankState; the lockstep test compares the two on every cycle.
//
// Cycle behaviour (one rising edge samples both ports):
// - Register port: one 4- or 8-byte access per cycle. A write lands at the edge. A read samples
//   the state before the edge and its data appears on rd_data READ_LATENCY edges later (rd_valid
//   marks it). reg_err, registered at the edge, says the access was not a register.
// - Decrement port: one decrement per cycle (counter, bytes, and for reception banks an optional
//   bounds check of [dec_addr, dec_addr + dec_len) against [base, max]). Results are registered:
//   dec_hit_zero / dec_underflow / dec_out_of_bounds describe the decrement of the last edge.
// - A register write and a decrement in the same cycle: the write lands first and the decrement
//   applies to its result (also for BASE/MAX feeding the bounds check, and CLEAR_HIT_ZERO /
//   CLEAR_ERRORS, which clear before the decrement can set).
// - Underflow (bytes > value) sets the sticky underflow bit and leaves 0 without hit-zero. A
//   decrement of 0 bytes changes nothing. Writing VALUE never sets hit-zero; DECREMENT does.
// - Disabled counters count and set hit-zero but never reach STATUS or the interrupt.
// - irq_level = IRQ_ENABLE and any STATUS bit; irq is irq_level delayed HIT_ZERO_LATENCY edges.
// - Lookup port: the DMA engine's combinational view of one counter (lk_id).
// - Synchronous active-low reset: values all ones, everything else zero.
module dma_counter_bank #(
    parameter int GROUPS = 4,
    parameter int PER_GROUP = 64,  // a multiple of 8 (subgroups), at most 64
    parameter int RECEPTION = 1,  // 1: has MAX registers and bounds checks
    parameter int READ_LATENCY = 2,  // edges from a read request to rd_valid, at least 1
    parameter int HIT_ZERO_LATENCY = 2,  // edges from irq_level to irq
    parameter int ADDR_W = 48  // width of the bounds-checked address
) (
    input logic clk,
    input logic rst_n,

    input  logic        reg_valid,
    input  logic        reg_write,
    input  logic        reg_wide,   // 8-byte access (else 4-byte)
    input  logic [13:0] reg_addr,
    input  logic [63:0] reg_wdata,
    output logic        reg_err,
    output logic        rd_valid,
    output logic [63:0] rd_data,

    input  logic              dec_valid,
    input  logic [15:0]       dec_id,
    input  logic [31:0]       dec_bytes,
    input  logic              dec_check,
    input  logic [ADDR_W-1:0] dec_addr,
    input  logic [15:0]       dec_len,
    output logic              dec_hit_zero,
    output logic              dec_underflow,
    output logic              dec_out_of_bounds,

    input  logic [15:0] lk_id,
    output logic [31:0] lk_value,
    output logic [31:0] lk_base,
    output logic [31:0] lk_max,
    output logic [ 3:0] lk_flags,  // {bounds, underflow, enabled, hit_zero}

    output logic [GROUPS*(PER_GROUP/8)-1:0] status,
    output logic [            GROUPS-1:0] irq_level,
    output logic [            GROUPS-1:0] irq
);
  localparam int N = GROUPS * PER_GROUP;
  localparam int CW = $clog2(N);
  localparam int SUB = PER_GROUP / 8;

  // Register offsets (counter_registers.h).
  localparam logic [4:0] R_VALUE = 5'h00, R_INCREMENT = 5'h04, R_BASE = 5'h08, R_MAX = 5'h0C,
      R_DECREMENT = 5'h10;
  localparam logic [6:0] G_ENABLED = 7'h00, G_ENABLE = 7'h08, G_DISABLE = 7'h10,
      G_HIT_ZERO = 7'h18, G_CLEAR_HIT_ZERO = 7'h20, G_STATUS = 7'h28, G_IRQ_ENABLE = 7'h2C,
      G_UNDERFLOW = 7'h30, G_BOUNDS = 7'h38, G_CLEAR_ERRORS = 7'h40;

  // ------------------------------------------------------------------------------------------
  // State
  logic [31:0] value_q[N];
  logic [31:0] base_q[N];
  logic [31:0] max_q[N];
  logic [N-1:0] enabled_q, hit_zero_q, underflow_q, bounds_q;
  logic [GROUPS-1:0] irq_enable_q;

  // ------------------------------------------------------------------------------------------
  // Register decode
  logic in_counters;
  logic [8:0] rc_full;
  logic [6:0] rg_full;
  logic [CW-1:0] rc;
  int rg;
  logic [4:0] creg;
  logic [6:0] greg;
  logic reg_ok;
  assign in_counters = reg_addr < 14'h3000;
  assign rc_full = reg_addr[13:5];
  assign rg_full = reg_addr[13:7] - 7'h60;
  assign rc = rc_full[CW-1:0];
  assign rg = in_counters ? 0 : int'(rg_full);
  assign creg = reg_addr[4:0];
  assign greg = reg_addr[6:0];

  always_comb begin
    reg_ok = 1'b0;
    if (in_counters) begin
      if (int'(rc_full) < N && !reg_wide) begin
        unique case (creg)
          R_VALUE, R_BASE: reg_ok = 1'b1;
          R_INCREMENT, R_DECREMENT: reg_ok = reg_write;
          R_MAX: reg_ok = RECEPTION != 0;
          default: reg_ok = 1'b0;
        endcase
      end
    end else if (int'(rg_full) < GROUPS) begin
      unique case (greg)
        G_ENABLED, G_HIT_ZERO, G_UNDERFLOW: reg_ok = !reg_write && reg_wide;
        G_BOUNDS: reg_ok = !reg_write && reg_wide && RECEPTION != 0;
        G_ENABLE, G_DISABLE, G_CLEAR_HIT_ZERO, G_CLEAR_ERRORS: reg_ok = reg_write && reg_wide;
        G_STATUS: reg_ok = !reg_write && !reg_wide;
        G_IRQ_ENABLE: reg_ok = !reg_wide;
        default: reg_ok = 1'b0;
      endcase
    end
  end

  // Mask bits above PER_GROUP are ignored, as in CounterBankState (unused when PER_GROUP < 64).
  /* verilator lint_off UNUSEDSIGNAL */
  logic [63:0] wdata_seen;
  assign wdata_seen = reg_wdata;
  /* verilator lint_on UNUSEDSIGNAL */

  logic wr;
  logic w_value, w_increment, w_decrement, w_base, w_max;
  logic w_enable, w_disable, w_clear_hit_zero, w_clear_errors, w_irq_enable;
  logic [31:0] wdata32;
  assign wr = reg_valid && reg_write && reg_ok;
  assign wdata32 = reg_wdata[31:0];
  assign w_value = wr && in_counters && creg == R_VALUE;
  assign w_increment = wr && in_counters && creg == R_INCREMENT;
  assign w_decrement = wr && in_counters && creg == R_DECREMENT;
  assign w_base = wr && in_counters && creg == R_BASE;
  assign w_max = wr && in_counters && creg == R_MAX;
  assign w_enable = wr && !in_counters && greg == G_ENABLE;
  assign w_disable = wr && !in_counters && greg == G_DISABLE;
  assign w_clear_hit_zero = wr && !in_counters && greg == G_CLEAR_HIT_ZERO;
  assign w_clear_errors = wr && !in_counters && greg == G_CLEAR_ERRORS;
  assign w_irq_enable = wr && !in_counters && greg == G_IRQ_ENABLE;

  // ------------------------------------------------------------------------------------------
  // Status and interrupt level (from registered state)
  logic [N-1:0] live;
  assign live = hit_zero_q & enabled_q;
  always_comb begin
    for (int g = 0; g < GROUPS; g++) begin
      for (int s = 0; s < SUB; s++) status[g*SUB+s] = |live[g*PER_GROUP+s*8+:8];
      irq_level[g] = irq_enable_q[g] && |status[g*SUB+:SUB];
    end
  end

  // ------------------------------------------------------------------------------------------
  // The register write, first: its effect on the value of counter rc
  logic [31:0] v_write;
  logic write_hit, write_under, write_touches_value;
  assign write_touches_value = w_value || w_increment || w_decrement;
  always_comb begin
    v_write = value_q[rc];
    write_hit = 1'b0;
    write_under = 1'b0;
    if (w_value) v_write = wdata32;
    else if (w_increment) v_write = value_q[rc] + wdata32;
    else if (w_decrement) begin
      if (wdata32 > value_q[rc]) begin
        v_write = '0;
        write_under = 1'b1;
      end else if (wdata32 != 0) begin
        v_write = value_q[rc] - wdata32;
        write_hit = v_write == 0;
      end
    end
  end

  // Then the decrement port, seeing the write's result
  logic [CW-1:0] dc;
  logic dv, same;
  logic [31:0] v_in, base_in, max_in, v_dec;
  logic oob, dec_hit, dec_under;
  logic [ADDR_W:0] lo, hi, last;
  assign dc = dec_id[CW-1:0];
  assign dv = dec_valid && int'(dec_id) < N;
  assign same = rc == dc;
  assign v_in = (write_touches_value && same) ? v_write : value_q[dc];
  assign base_in = (w_base && same) ? wdata32 : base_q[dc];
  assign max_in = (w_max && same) ? wdata32 : max_q[dc];
  assign lo = (ADDR_W + 1)'({base_in, 4'h0});
  assign hi = (ADDR_W + 1)'({max_in, 4'hF});
  assign last = {1'b0, dec_addr} + (ADDR_W + 1)'(dec_len) - 1'b1;
  assign oob = dv && RECEPTION != 0 && dec_check &&
      (dec_len == 0 || {1'b0, dec_addr} < lo || last > hi);
  always_comb begin
    v_dec = v_in;
    dec_hit = 1'b0;
    dec_under = 1'b0;
    if (dv && !oob) begin
      if (dec_bytes > v_in) begin
        v_dec = '0;
        dec_under = 1'b1;
      end else if (dec_bytes != 0) begin
        v_dec = v_in - dec_bytes;
        dec_hit = v_dec == 0;
      end
    end
  end

  // Per-counter bit updates: the write's clears first, then the sets of both ports
  logic [N-1:0] group_mask_bits, enable_set, enable_clr, hz_clr, err_clr, hz_set, uf_set, oob_set;
  always_comb begin
    group_mask_bits = '0;
    group_mask_bits[rg*PER_GROUP+:PER_GROUP] = reg_wdata[PER_GROUP-1:0];
    enable_set = w_enable ? group_mask_bits : '0;
    enable_clr = w_disable ? group_mask_bits : '0;
    hz_clr = w_clear_hit_zero ? group_mask_bits : '0;
    err_clr = w_clear_errors ? group_mask_bits : '0;
    hz_set = '0;
    uf_set = '0;
    oob_set = '0;
    if (write_hit) hz_set[rc] = 1'b1;
    if (write_under) uf_set[rc] = 1'b1;
    if (dec_hit) hz_set[dc] = 1'b1;
    if (dec_under) uf_set[dc] = 1'b1;
    if (oob) oob_set[dc] = 1'b1;
  end

  always_ff @(posedge clk) begin
    if (!rst_n) begin
      value_q <= '{default: '1};
      base_q <= '{default: '0};
      max_q <= '{default: '0};
      enabled_q <= '0;
      hit_zero_q <= '0;
      underflow_q <= '0;
      bounds_q <= '0;
      irq_enable_q <= '0;
    end else begin
      if (write_touches_value) value_q[rc] <= v_write;
      if (dv && !oob) value_q[dc] <= v_dec;  // after the write: it wins when rc == dc
      if (w_base) base_q[rc] <= wdata32;
      if (w_max) max_q[rc] <= wdata32;
      enabled_q <= (enabled_q | enable_set) & ~enable_clr;
      hit_zero_q <= (hit_zero_q & ~hz_clr) | hz_set;
      underflow_q <= (underflow_q & ~err_clr) | uf_set;
      bounds_q <= (bounds_q & ~err_clr) | oob_set;
      if (w_irq_enable) irq_enable_q[rg] <= reg_wdata[0];
    end
  end

  // Registered results of this edge's accesses
  always_ff @(posedge clk) begin
    if (!rst_n) begin
      reg_err <= 1'b0;
      dec_hit_zero <= 1'b0;
      dec_underflow <= 1'b0;
      dec_out_of_bounds <= 1'b0;
    end else begin
      reg_err <= reg_valid && !reg_ok;
      dec_hit_zero <= dec_hit;
      dec_underflow <= dec_under;
      dec_out_of_bounds <= oob;
    end
  end

  // ------------------------------------------------------------------------------------------
  // Read data: sampled before the edge, delivered READ_LATENCY edges later
  logic [63:0] read_mux;
  always_comb begin
    read_mux = '0;
    if (in_counters) begin
      unique case (creg)
        R_VALUE: read_mux = {32'h0, value_q[rc]};
        R_BASE: read_mux = {32'h0, base_q[rc]};
        R_MAX: read_mux = {32'h0, max_q[rc]};
        default: read_mux = '0;
      endcase
    end else begin
      unique case (greg)
        G_ENABLED: read_mux = 64'(enabled_q[rg*PER_GROUP+:PER_GROUP]);
        G_HIT_ZERO: read_mux = 64'(hit_zero_q[rg*PER_GROUP+:PER_GROUP]);
        G_UNDERFLOW: read_mux = 64'(underflow_q[rg*PER_GROUP+:PER_GROUP]);
        G_BOUNDS: read_mux = 64'(bounds_q[rg*PER_GROUP+:PER_GROUP]);
        G_STATUS: read_mux = 64'(status[rg*SUB+:SUB]);
        G_IRQ_ENABLE: read_mux = 64'(irq_enable_q[rg]);
        default: read_mux = '0;
      endcase
    end
  end

  logic [READ_LATENCY-1:0] rd_valid_pipe;
  logic [63:0] rd_data_pipe[READ_LATENCY];
  always_ff @(posedge clk) begin
    if (!rst_n) begin
      rd_valid_pipe <= '0;
      rd_data_pipe <= '{default: '0};
    end else begin
      rd_valid_pipe[0] <= reg_valid && !reg_write && reg_ok;
      rd_data_pipe[0]  <= (reg_valid && !reg_write && reg_ok) ? read_mux : '0;
      for (int i = 1; i < READ_LATENCY; i++) begin
        rd_valid_pipe[i] <= rd_valid_pipe[i-1];
        rd_data_pipe[i]  <= rd_data_pipe[i-1];
      end
    end
  end
  assign rd_valid = rd_valid_pipe[READ_LATENCY-1];
  assign rd_data  = rd_data_pipe[READ_LATENCY-1];

  // ------------------------------------------------------------------------------------------
  // Interrupt lines: irq_level delayed HIT_ZERO_LATENCY edges
  generate
    if (HIT_ZERO_LATENCY == 0) begin : g_irq_direct
      assign irq = irq_level;
    end else begin : g_irq_delay
      logic [GROUPS-1:0] irq_pipe[HIT_ZERO_LATENCY];
      always_ff @(posedge clk) begin
        if (!rst_n) begin
          irq_pipe <= '{default: '0};
        end else begin
          irq_pipe[0] <= irq_level;
          for (int i = 1; i < HIT_ZERO_LATENCY; i++) irq_pipe[i] <= irq_pipe[i-1];
        end
      end
      assign irq = irq_pipe[HIT_ZERO_LATENCY-1];
    end
  endgenerate

  // ------------------------------------------------------------------------------------------
  // Lookup port
  logic [CW-1:0] lk;
  logic lk_ok;
  assign lk = lk_id[CW-1:0];
  assign lk_ok = int'(lk_id) < N;
  assign lk_value = lk_ok ? value_q[lk] : '0;
  assign lk_base = lk_ok ? base_q[lk] : '0;
  assign lk_max = lk_ok ? max_q[lk] : '0;
  assign lk_flags = lk_ok ? {bounds_q[lk], underflow_q[lk], enabled_q[lk], hit_zero_q[lk]} : '0;
endmodule
