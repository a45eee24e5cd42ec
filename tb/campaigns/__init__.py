"""What is run with the lock-step environment (tb.env) on the backends
(tb.sims), each with its report:

    regress             `sfpu regress`: random programs in lock-step, sharded and merged
    coverage            functional coverage, sampled on the model side of each cycle
    faults              bugs injected into the model, which the scoreboard must catch
    mutants             bugs put into the RTL's netlist behind a select input
    mutate              `sfpu mutate`: the mutation score of those mutants
    equivalent_mutants  the survivors that cannot change anything, with the reason
    bench               `sfpu bench`: how fast each part runs
"""
