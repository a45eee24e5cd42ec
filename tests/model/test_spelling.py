"""`did_you_mean`: the close spelling a one-line error offers (model/spelling.py)."""

from tensix_sfpu.model.spelling import did_you_mean


def test_the_closest_name_case_ignored():
    assert did_you_mean("Expp", ["Log", "Exp", "Exp2"]) == " (did you mean Exp?)"
    assert did_you_mean("exp", ["Log", "Exp"]) == " (did you mean Exp?)"


def test_nothing_close_is_nothing():
    assert did_you_mean("Nope", ["Exp", "Log"]) == ""
    assert did_you_mean("Nope", []) == ""


def test_a_prefix_every_name_shares_does_not_make_every_name_close():
    names = ["ckernel_sfpu_abs.h", "ckernel_sfpu_exp.h", "ckernel_sfpu_relu.h"]
    # Whole, "ckernel_sfpu_mod.h" shares 15 of 18 characters with each (difflib's ratio 0.83, above
    # its 0.6); past the prefix, "mod.h" shares only ".h" with any (0.4 or less).
    assert did_you_mean("ckernel_sfpu_mod.h", names) == ""
    assert did_you_mean("ckernel_sfpu_exx.h", names) == " (did you mean ckernel_sfpu_exp.h?)"
