"""The corpus run's pieces that need no kernel tree: entry points and their
template arguments, the budget rows, ULP distances and finding a tree."""

from pathlib import Path

import numpy as np

from tensix_sfpu.tb.llk import accuracy
from tensix_sfpu.tb.llk.corpus import call_expr, variants
from tensix_sfpu.tb.llk.entries import Function, Param, entries
from tensix_sfpu.tb.llk.frontend import Request, compile_call
from tensix_sfpu.tb.llk.sources import find_tree

FIXTURES = Path(__file__).resolve().parent / "llk_fixtures"


def test_entries_say_whether_their_own_body_issues_tti():
    found = {e.name: e.function.issues_tti for e in entries(FIXTURES / "ckernel_sfpu_fixture_add_one.h")}
    assert found["calculate_fixture_add_one"] is True
    assert found["calculate_fixture_sfpi"] is False


def test_a_default_naming_an_earlier_parameter_takes_its_value():
    f = Function("calculate_x", [Param("DataFormat", "format", None),
                                 Param("DataFormat", "output_format", "format")], [], 1)
    assert call_expr(f, {"format": "DataFormat::Int32"}) == "calculate_x<DataFormat::Int32, DataFormat::Int32>()"


def test_variants_try_each_bool_and_the_values_the_header_names():
    f = Function("calculate_x", [Param("bool", "APPROXIMATION_MODE", None), Param("SfpuType", "OP", None)], [], 1)
    tried = variants(f, {"SfpuType": ["SfpuType::eq", "SfpuType::ne"]})
    assert tried[0] == {"APPROXIMATION_MODE": "false", "OP": "SfpuType::eq"}
    assert {"APPROXIMATION_MODE": "true", "OP": "SfpuType::ne"} in tried and len(tried) == 4


def test_the_init_named_for_the_entrys_own_stem_comes_first(tmp_path):
    header = tmp_path / "ckernel_sfpu_x.h"
    header.write_text("inline void init_reduce_max_min_int32() {}\ninline void init_reduce() {}\n"
                      "inline void init_reduce_max_min() {}\ninline void calculate_reduce() {}\n"
                      "inline void calculate_reduce_max_min() {}\n")
    first = {e.name: e.inits[0].name for e in entries(header)}
    assert first == {"calculate_reduce": "init_reduce", "calculate_reduce_max_min": "init_reduce_max_min"}


def test_an_enum_value_the_entry_names_is_tried_first_and_sizes_are_one_tile():
    f = Function("calculate_reduce_max_min", [Param("PoolType", "pool_type", None)],
                 [Param("std::uint32_t", "block_height", None), Param("int", "k", None)], 1)
    tried = variants(f, {"PoolType": ["PoolType::SUM", "PoolType::AVG", "PoolType::MAX"]})
    assert tried[0] == {"pool_type": "PoolType::MAX"}
    assert call_expr(f, tried[0]) == "calculate_reduce_max_min<PoolType::MAX>(1, 10)"


def test_unnamed_and_template_typed_parameters_get_values_of_their_type(tmp_path):
    # `const std::uint32_t /*exponent_size_8*/` has no name; `T threshold` takes the type chosen for T.
    header = tmp_path / "ckernel_sfpu_x.h"
    header.write_text("template <bool A, int N = 8>\ninline void calculate_sign(const std::uint32_t /*e*/) {}\n"
                      "template <bool A, int N, typename T>\ninline void calculate_threshold(T t, T v) {}\n"
                      "template <int N = 8, class Config = ConfigDsV4>\ninline void calculate_glu(const uint i) {}\n")
    found = {e.name: e.function for e in entries(header)}
    assert found["calculate_sign"].params == [Param("const std::uint32_t", "", None)]
    assert call_expr(found["calculate_sign"]) == "calculate_sign<false, 8>(0)"
    assert call_expr(found["calculate_threshold"]) == \
        "calculate_threshold<false, 0, float>(static_cast<float>(0), static_cast<float>(0))"
    assert call_expr(found["calculate_glu"]) == "calculate_glu<8, ConfigDsV4>(0)"      # a default wins


def test_a_template_parameter_list_with_nested_angle_brackets_is_read(tmp_path):
    header = tmp_path / "ckernel_sfpu_x.h"
    header.write_text("template <bool A, SfpuType OP, std::enable_if_t<is_cmp_v<OP>, int> = 0>\n"
                      "inline void calculate_cmp(const uint in0) {}\n")
    f = entries(header)[0].function
    assert [p.name for p in f.template] == ["A", "OP", ""] and f.template[2].default == "0"
    assert call_expr(f, {"OP": "SfpuType::eq"}) == "calculate_cmp<false, SfpuType::eq, 0>(0)"


def test_a_helper_filling_the_callers_vectors_is_not_an_init(tmp_path):
    header = tmp_path / "ckernel_sfpu_x.h"
    header.write_text("inline void _calculate_comp_init_flag_(bool c, sfpi::vFloat& f1, float i) {}\n"
                      "inline void comp_init(const sfpi::vFloat& unused) {}\n"
                      "inline void _calculate_comp_() {}\n")
    assert [f.name for f in entries(header)[0].inits] == ["comp_init"]


def test_a_kernel_reads_what_the_init_left_in_the_stand_in_l1():
    listing = compile_call(Request(FIXTURES / "ckernel_sfpu_fixture_add_one.h",
                                   "calculate_fixture_l1_count(llk_l1_address())", "llk_l1[4] = 3",
                                   arch="wormhole", vector_mode="none"))
    assert listing.text.count("TTI_SFPNOP;") == 3


def test_budget_rows_and_the_hardware_figure_of_their_comment():
    rows = accuracy.read_budget(FIXTURES / "accuracy_budget.yaml")
    helpers = accuracy.Helpers(rows, None, None, None, "")
    row = accuracy.budget_row(helpers, "Exp", True)
    assert (row.max_ulp, row.hw_max_ulp) == (500, 450)
    assert accuracy.budget_row(helpers, "Exp", False).max_ulp == 2
    assert accuracy.budget_row(helpers, "Floor", None).hw_max_ulp == 0
    assert accuracy.budget_row(helpers, "Log", None) is None


def test_ulp_distance_counts_fp32_steps_with_denormals_flushed():
    one = np.float32(1.0)
    next_up = np.nextafter(one, np.float32(2.0))
    golden = np.array([one, one, 0.0, -0.0, 1e-40, np.nan], dtype=np.float32)
    result = np.array([one, next_up, -0.0, np.float32(np.finfo(np.float32).tiny), 0.0, one], dtype=np.float32)
    # 1 step from 1.0 to its neighbour; +0 and -0 coincide; the smallest normal is the first step
    # above the flushed denormal band; a NaN cannot be measured (-1).
    assert accuracy.ulp_distance(golden, result).tolist() == [0, 1, 0, 1, 0, -1]


def test_find_tree_finds_the_kernel_folders_of_a_wheel_layout(tmp_path):
    llk = tmp_path / "tt-llk" / "tt_llk_wormhole_b0" / "common" / "inc" / "sfpu"
    metal = tmp_path / "hw" / "ckernels" / "wormhole_b0" / "metal" / "llk_api" / "llk_sfpu"
    llk.mkdir(parents=True)
    metal.mkdir(parents=True)
    tree = find_tree(tmp_path, "wormhole")
    assert tree.llk_sfpu == llk.resolve() and tree.metal_sfpu == metal.resolve()
