"""Cases from repositories drawn at random from a fixed pool (issue 27, lane h43-random-n).

The pool is ``/work/pool-h40-ext.txt``, ordered with ``random.seed("h40-pool")``; this lane took
positions 434-441. One could not be read: Fthelearner/GLSL-SkSL-Conversion-Tool (no snapshot).
Fifteen files of each remaining repository were sampled with ``random.Random("owner/name")``
over every file lockin counts, and labelled before any fix, with the files lockin calls
non-portable and GPU-looking files it calls portable; three commits touching GPU code were
drawn with ``random.Random("owner/name:commits")``. Each snippet is a small rewrite, in our own
words, of a pattern found in the repository its test names; the expected layers are what a
porting engineer reading that file would say.
"""

from __future__ import annotations

from tests.engine.test_ml_repo_cases import _layers, _rules

# -- parthenon-hpc-lab/parthenon: an AMR framework on Kokkos -----------------------------------


def test_kokkos_device_function_after_an_attribute_is_kernel_code() -> None:
    # src/utils/error_checking.hpp: `[[noreturn]] KOKKOS_INLINE_FUNCTION void fail(...)`, the
    # device-side abort. Before, the attribute's `]]` read as a lambda's capture list and the
    # function was portable (14 kernel lines of the file's 22).
    source = b"""\
#include <cstdio>

[[noreturn]] KOKKOS_INLINE_FUNCTION void
fail(const char *const message, const char *const file, int const line) {
  printf("ERROR %s at %s:%i\\n", message, file, line);
  Kokkos::abort(message);
  while (true) {
  }
}
"""
    assert _rules("src/utils/error_checking.hpp", source) == {"portable-gpu.device-code"}
    assert _layers("src/utils/error_checking.hpp", source) == {"kernel": 7, "portable": 1}


def test_kokkos_lambda_after_a_capture_list_stays_a_lambda() -> None:
    # tst/unit/test_mesh_data.cpp: a device lambda launched by par_for; the lambda rule counts
    # it, not the device-function one. Checked right.
    source = b"""\
void fill(Pack pack, int n) {
  parthenon::par_for(
      PARTHENON_AUTO_LABEL, 0, n - 1, KOKKOS_LAMBDA(const int i) {
        pack(i) = 1.0;
      });
  auto g = [=] KOKKOS_INLINE_FUNCTION(int i) { return i; };
}
"""
    assert "portable-gpu.device-lambda" in _rules("tst/unit/test_mesh_data.cpp", source)
    assert "portable-gpu.device-code" not in _rules("tst/unit/test_mesh_data.cpp", source)
