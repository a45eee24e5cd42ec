"""tb/llk/fetch.py on a small stand-in wheel (no download): the folders the kernel front end and the
sweep read are unpacked, and a cache unpacked with fewer folders by an older version is unpacked again."""

import zipfile

from tensix_sfpu.tb.llk import fetch

SWEEP_KERNEL = "ttnn/tt_metal/tt-llk/tests/sources/eltwise_unary_sfpu_test.cpp"
HEADER = "ttnn/tt_metal/hw/ckernels/wormhole_b0/metal/llk_api/llk_sfpu/ckernel_sfpu_exp.h"
ELSEWHERE = "ttnn/ttnn/_ttnn.so"


def test_a_cache_unpacked_with_fewer_folders_is_unpacked_again(tmp_path):
    with zipfile.ZipFile(tmp_path / fetch.WHEEL, "w") as z:
        for name in (SWEEP_KERNEL, HEADER, ELSEWHERE):
            z.writestr(name, "x")
    stale = tmp_path / "src" / ".unpacked"
    stale.parent.mkdir()
    stale.write_text(fetch.VERSION)              # what the version before tt-llk/tests wrote
    tree = fetch.fetch(tmp_path)
    assert (tree / "tt-llk/tests/sources/eltwise_unary_sfpu_test.cpp").is_file()
    assert (tree / "hw/ckernels/wormhole_b0/metal/llk_api/llk_sfpu/ckernel_sfpu_exp.h").is_file()
    assert not (tmp_path / "src" / ELSEWHERE).exists()
