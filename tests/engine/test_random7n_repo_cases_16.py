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


# -- Xilinx/finn-hlslib: Vitis HLS layer templates, their top functions and C-sim testbenches --


def test_hls_csim_testbench_is_vendor_library_host_code_not_kernel() -> None:
    # tb/dup_stream_tb.cpp (and 24 more tb/*_tb.cpp): main() fills the top function's
    # hls::stream inputs on the CPU, runs it in C simulation and compares the outputs. Before,
    # the whole file counted as FPGA kernel code (42 kernel lines); a porting engineer counts
    # none, only the lines on Vitis HLS's types.
    source = b"""\
#include <iostream>
#include <hls_stream.h>
#include "ap_int.h"
using namespace hls;

void Top(stream<ap_uint<16> > &in, stream<ap_uint<16> > &out, unsigned reps);

int main() {
  stream<ap_uint<16> > in("in");
  stream<ap_uint<16> > out("out");
  for (unsigned n = 0; n < 8; n++) {
    in.write(n);
  }
  Top(in, out, 1);
  for (unsigned n = 0; n < 8; n++) {
    if (out.read() != n) {
      std::cout << "mismatch at " << n << std::endl;
      return 1;
    }
  }
  return 0;
}
"""
    assert _rules("tb/dup_stream_tb.cpp", source) == {"vitis.hls-library-host"}
    assert _layers("tb/dup_stream_tb.cpp", source) == {"vendor-library": 5, "portable": 15}


def test_hls_top_function_without_directives_stays_kernel() -> None:
    # tb/dup_stream_top.cpp: the synthesised top, calling the library's template with no
    # directive of its own and no main(). Checked right.
    source = b"""\
#include <hls_stream.h>
using namespace hls;
#include "ap_int.h"

void Top(stream<ap_uint<16> > &in, stream<ap_uint<16> > &out, unsigned reps) {
  DuplicateStreams_Batch<16, 8>(in, out, reps);
}
"""
    assert _rules("tb/dup_stream_top.cpp", source) == {"vitis.hls-kernel"}
    assert _layers("tb/dup_stream_top.cpp", source) == {"kernel": 6}


def test_hls_kernel_and_testbench_in_one_file_stays_kernel() -> None:
    # A one-file design, the top function with its directives above the testbench's main():
    # the directives make it HLS source, kernel as before.
    source = b"""\
#include <hls_stream.h>
void Top(hls::stream<int> &in, hls::stream<int> &out) {
#pragma HLS PIPELINE II = 1
  out.write(in.read() + 1);
}
int main() {
  hls::stream<int> in, out;
  in.write(1);
  Top(in, out);
  return out.read() == 2 ? 0 : 1;
}
"""
    assert _rules("src/top.cpp", source) == {"vitis.hls-kernel"}
    assert _layers("src/top.cpp", source) == {"kernel": 11}
