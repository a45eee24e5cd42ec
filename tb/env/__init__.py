"""The lock-step verification environment of the `Sfpu` top, in the style of
cocotb's examples, one part a module:

    driver      InstructionDriver: the words and directives onto the ports
    monitor     TraceMonitor: the trace port read back as the model's records
    scoreboard  Scoreboard: the golden model stepped alongside, Mismatch at the first difference
    sfpu_env    SfpuEnv: the parts tied together, one program at a time, in blocks or cycle by cycle
"""
