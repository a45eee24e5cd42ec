"""The lock-step verification environment of the `Sfpu` top, in the style of
cocotb's examples, one part a module:

    driver           InstructionDriver: the words and directives onto the ports
    monitor          TraceMonitor: the trace port read back as the model's records
    scoreboard       Scoreboard: the golden model stepped alongside, Mismatch at the first difference
    sfpu_env         SfpuEnv: the parts tied together, one program at a time, in blocks or cycle by cycle
    harness          SfpuHarness: the `Sfpu` inside the block-mode harness the simulators run
    cocotb_sfpu      the cocotb tests (the test module tb.sims.runner runs on every backend)
    cocotb_api       the cocotb names the tests use, from cocotb or from amaranth_cocotb
    amaranth_cocotb  cocotb's test API on Amaranth's built-in simulator
"""
