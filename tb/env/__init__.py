"""The lock-step verification environment of the `Sfpu` top, in the style of
cocotb's examples, one part a module:

    driver           InstructionDriver: the words and directives onto the ports
    monitor          TraceMonitor: the trace port read back as the model's records
    scoreboard       Scoreboard: the golden model stepped alongside, Mismatch at the first difference
    sfpu_env         SfpuEnv: the parts tied together, one program at a time, in blocks or cycle by cycle
    harness          SfpuHarness: the `Sfpu` inside the block-mode harness the simulators run
    rtl_jobs         the simulator's side of `sfpu run` on the RTL: jobs run in lock-step, the state read back
    cocotb_api       the cocotb names the tests use, from cocotb or from amaranth_cocotb
    amaranth_cocotb  cocotb's test API on Amaranth's built-in simulator

The cocotb tests that use it (the test module tb.sims.runner runs on every backend) are an entry
point: tb/cli/cocotb_tests.py.
"""
