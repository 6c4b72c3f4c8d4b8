// The counter bank with its ports packed into a few buses, the top level that is verilated for
// co-simulation. Every Verilated port is a SystemC port to bind when the simulation starts, and
// a machine has 1024 banks; packing cuts 27 ports to 13 per bank. The bank itself
// (dma_counter_bank.sv, its signals named as in the waveforms) is unchanged.
module dma_counter_bank_cosim #(
    parameter int GROUPS = 4,
    parameter int PER_GROUP = 64,
    parameter int RECEPTION = 1,
    parameter int READ_LATENCY = 2,
    parameter int HIT_ZERO_LATENCY = 2,
    parameter int ADDR_W = 48
) (
    input logic clk,
    input logic rst_n,
    input logic [16:0] reg_ctl,  // {reg_valid, reg_write, reg_wide, reg_addr[13:0]}
    input logic [63:0] reg_wdata,
    input logic [33:0] dec_ctl,  // {dec_valid, dec_check, dec_id[15:0], dec_len[15:0]}
    input logic [31:0] dec_bytes,
    input logic [ADDR_W-1:0] dec_addr,
    input logic [15:0] lk_id,
    // {irq, irq_level, lk_flags[3:0], dec_out_of_bounds, dec_underflow, dec_hit_zero, rd_valid,
    //  reg_err}
    output logic [2*GROUPS+8:0] flags,
    output logic [63:0] rd_data,
    output logic [63:0] lk_value_base,  // {lk_base, lk_value}
    output logic [31:0] lk_max,
    output logic [GROUPS*(PER_GROUP/8)-1:0] status
);
  logic reg_err, rd_valid, dec_hit_zero, dec_underflow, dec_out_of_bounds;
  logic [3:0] lk_flags;
  logic [GROUPS-1:0] irq_level, irq;
  logic [31:0] lk_value, lk_base;

  dma_counter_bank #(
      .GROUPS(GROUPS),
      .PER_GROUP(PER_GROUP),
      .RECEPTION(RECEPTION),
      .READ_LATENCY(READ_LATENCY),
      .HIT_ZERO_LATENCY(HIT_ZERO_LATENCY),
      .ADDR_W(ADDR_W)
  ) bank (
      .clk(clk),
      .rst_n(rst_n),
      .reg_valid(reg_ctl[16]),
      .reg_write(reg_ctl[15]),
      .reg_wide(reg_ctl[14]),
      .reg_addr(reg_ctl[13:0]),
      .reg_wdata(reg_wdata),
      .reg_err(reg_err),
      .rd_valid(rd_valid),
      .rd_data(rd_data),
      .dec_valid(dec_ctl[33]),
      .dec_check(dec_ctl[32]),
      .dec_id(dec_ctl[31:16]),
      .dec_len(dec_ctl[15:0]),
      .dec_bytes(dec_bytes),
      .dec_addr(dec_addr),
      .dec_hit_zero(dec_hit_zero),
      .dec_underflow(dec_underflow),
      .dec_out_of_bounds(dec_out_of_bounds),
      .lk_id(lk_id),
      .lk_value(lk_value),
      .lk_base(lk_base),
      .lk_max(lk_max),
      .lk_flags(lk_flags),
      .status(status),
      .irq_level(irq_level),
      .irq(irq)
  );

  assign flags = {irq, irq_level, lk_flags, dec_out_of_bounds, dec_underflow, dec_hit_zero,
                  rd_valid, reg_err};
  assign lk_value_base = {lk_base, lk_value};
endmodule
