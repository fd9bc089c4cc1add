"""Cases from repositories drawn at random from a fixed pool (issue 27, lane h45-random-j).

The pool is ``/work/pool-h40-ext.txt``, ordered with ``random.seed("h40-pool")``; this lane took
positions 538-545. One was skipped: CodeHariK/WebGpu (snapshot over 500 MB). The other seven,
yuankuns/cutlass-sycl, joachimwolff/sparse-neighbors-search, liangyh911/FT-cutlass,
iksnagreb/attention-hlslib, IvanGrigorik/pykokkos, Tokeii0/LovelyHashcat and
st-tech/ppf-contact-solver, had snapshots. Fifteen files of each (nine for attention-hlslib,
which has nine) were sampled with ``random.Random("owner/name")`` over every file lockin counts
with code lines, and labelled before any fix, with the files lockin calls non-portable (up to
20) and GPU-looking files it calls portable (up to 10); three commits touching GPU code per
repository, drawn with ``random.Random("owner/name:commits")``, were judged against
``lockin diff``. Each snippet is a small rewrite, in our own words, of a pattern found in the
repository its test names; the expected layers are what a porting engineer reading that file
would say.
"""

from __future__ import annotations

from tests.engine.test_ml_repo_cases import _layers, _rules

# -- IvanGrigorik/pykokkos: PyKokkos, Python workunits translated to Kokkos C++ ----------------


def test_pykokkos_workunit_is_kernel_code() -> None:
    # examples/kokkos-tutorials/standalone/02.py (sampled, called portable): a reduction body
    # decorated @pk.workunit, launched from plain Python with a RangePolicy.
    source = b"""\
import pykokkos as pk


@pk.workunit
def weighted_sum(j, acc, cols, y, x, A):
    t: float = 0
    for i in range(cols):
        t += A[j][i] * x[i]
    acc += y[j] * t


def run(n, m):
    y = pk.View([n], pk.double)
    x = pk.View([m], pk.double)
    A = pk.View([n, m], pk.double)
    policy = pk.RangePolicy(0, n)
    return pk.parallel_reduce(policy, weighted_sum, cols=m, y=y, x=x, A=A)
"""
    assert _rules("examples/tutorials/02.py", source) == {"portable-gpu.pykokkos-workunit"}
    assert _layers("examples/tutorials/02.py", source) == {"kernel": 6, "portable": 7}


def test_pykokkos_workload_counts_its_workunits_not_its_main() -> None:
    # examples/ParRes/workload/nstream.py and examples/pykokkos/subviews.py (sampled, called
    # portable): a @pk.workload class whose @pk.main and @pk.callback run on the host and
    # whose @pk.workunit methods are the kernels.
    source = b"""\
import pykokkos as pk


@pk.workload
class Triad:
    def __init__(self, n: int, s: float):
        self.n: int = n
        self.s: float = s
        self.A: pk.View1D[pk.double] = pk.View([n], pk.double)
        self.B: pk.View1D[pk.double] = pk.View([n], pk.double)

    @pk.main
    def run(self):
        pk.parallel_for(self.n, self.init)
        pk.parallel_for(self.n, self.triad)

    @pk.workunit
    def triad(self, i: int):
        self.A[i] += self.s * self.B[i]

    @pk.workunit
    def init(self, i: int):
        self.A[i] = 0
        self.B[i] = 2

    @pk.callback
    def report(self):
        print(self.A)
"""
    assert _rules("examples/workload/triad.py", source) == {"portable-gpu.pykokkos-workunit"}
    assert _layers("examples/workload/triad.py", source) == {"kernel": 7, "portable": 15}


def test_pykokkos_device_helper_function_is_kernel_code() -> None:
    # examples/ExaMiniMD/workload/src/system.py (sampled, called portable): @pk.function
    # helpers the workunits call, in a class the workload uses.
    source = b"""\
import pykokkos as pk


@pk.classtype
class Box:
    def __init__(self, lo: float, hi: float):
        self.lo: float = lo
        self.hi: float = hi

    @pk.function
    def wrap(self, x: float) -> float:
        if x >= self.hi:
            return x - (self.hi - self.lo)
        return x
"""
    assert _rules("src/system.py", source) == {"portable-gpu.pykokkos-workunit"}
    assert _layers("src/system.py", source) == {"kernel": 5, "portable": 6}


# -- joachimwolff/sparse-neighbors-search: MinHash neighbours with an optional CUDA path --------


def test_sparse_neighbors_bare_cuda_switch_is_a_build_guard() -> None:
    # sparse_neighbors_search/computation/nearestNeighbors.cpp (sampled, called portable): the
    # setup script defines CUDA for the nvcc build; these branches exist on that build only.
    source = b"""\
#include "nearestNeighbors.h"

NearestNeighbors::NearestNeighbors(size_t pCores, int pBalance) {
    mCores = pCores;
    mBalance = pBalance;
    #ifdef CUDA
    mNeighborsCuda = new NearestNeighborsCuda();
    #endif
}

NearestNeighbors::~NearestNeighbors() {
    delete mIndex;
}
"""
    assert _rules("computation/nearestNeighbors.cpp", source) == {"cuda.build-guard"}
    assert _layers("computation/nearestNeighbors.cpp", source) == {"vendor-path": 3, "portable": 8}


def test_sparse_neighbors_header_of_a_class_named_cuda_is_portable() -> None:
    # sparse_neighbors_search/computation/inverseIndexCuda.h (sampled, right): the declaration
    # of the CUDA class names no CUDA type or call; its .cu file holds the runtime calls.
    source = b"""\
#include "typeDefinitions.h"
#ifndef INVERSE_INDEX_CUDA_H
#define INVERSE_INDEX_CUDA_H
class InverseIndexCuda {
  private:
    size_t mHashFunctions;
    bool mDataOnGpu;
  public:
    InverseIndexCuda(size_t pHashFunctions);
    void copyDataToGpu(SparseMatrixFloat* pRawData, int** pDevFeatures);
};
#endif
"""
    assert _rules("computation/inverseIndexCuda.h", source) == set()


# -- yuankuns/cutlass-sycl: CUTLASS and CuTe for SYCL (Intel Xe) ------------------------------


def test_cutlass_sycl_igc_options_are_intel_only() -> None:
    # examples/08_bmg_gemm_f8/CMakeLists.txt (sampled, called portable): a link option handing
    # Intel's Graphics Compiler a workaround, for the ahead-of-time Intel GPU build.
    source = b"""\
cutlass_example_add_executable(
  08_gemm_f8_scaling
  08_gemm_f8_scaling.cpp
)

if(NOT DPCPP_SYCL_TARGET STREQUAL "spir64")
  target_link_options(gemm_f8 PRIVATE -Xs "-options \\"-igc_opts 'allowDecompose2DBlockFuncs=0'\\"")
endif()
"""
    assert _rules("examples/08_gemm_f8/CMakeLists.txt", source) == {"build.intel-igc-options"}
    assert _layers("examples/08_gemm_f8/CMakeLists.txt", source) == {
        "vendor-path": 1,
        "portable": 6,
    }


# -- iksnagreb/attention-hlslib: attention operators for Vitis HLS (Xilinx FPGAs) ---------------


def test_attention_hlslib_build_reading_vitis_hls_install_is_vendor_path() -> None:
    # CMakeLists.txt (sampled, called portable): the HLS headers come from the Vitis HLS
    # install, found through the project's own variable.
    source = b"""\
cmake_minimum_required(VERSION 3.22)
project(attention-hlslib)
set(CMAKE_CXX_STANDARD 14)
include_directories($ENV{VITIS_HLS_PATH}/include)
include_directories(.)
"""
    assert _rules("CMakeLists.txt", source) == {"build.vitis"}
    assert _layers("CMakeLists.txt", source) == {"vendor-path": 1, "portable": 4}


def test_attention_hlslib_header_over_ap_types_is_vendor_library() -> None:
    # limits.hpp (sampled, called portable): limits specialised for ap_uint and ap_int, with
    # no directive, stream or main: it needs Xilinx's ap_int.h and nothing else of HLS.
    source = b"""\
#ifndef LIMITS_HPP
#define LIMITS_HPP
#include <limits>
#include <ap_int.h>

template<class T>
    constexpr T lowest = std::numeric_limits<T>::min();

template<int W>
    constexpr auto lowest<ap_uint<W>> = 0;

template<int W>
    constexpr auto lowest<ap_int<W>> = -(ap_uint<W>{1} << (W - 1));
#endif
"""
    assert _rules("limits.hpp", source) == {"vitis.ap-types"}
    assert _layers("limits.hpp", source) == {"vendor-library": 3, "portable": 8}


def test_attention_hlslib_plain_template_header_is_portable() -> None:
    # mac_info.hpp (sampled, right): accumulator widths from decltype over whatever types it
    # is given; it includes no HLS header.
    source = b"""\
#ifndef MAC_INFO_HPP
#define MAC_INFO_HPP
template<unsigned N, class L, class R>
struct MacInfo {
    using Acc = decltype(L{} * R{} + typename MacInfo<N - 1, L, R>::Acc{});
    static constexpr unsigned width = Acc::width;
};
#endif
"""
    assert _rules("mac_info.hpp", source) == set()


# -- st-tech/ppf-contact-solver: a CUDA contact solver with a Blender front end -----------------


def test_ppf_effect_naming_a_cuda_device_index_is_portable() -> None:
    # blender_addon/core/effects.py (sampled, right): a message carrying the device index the
    # remote server is launched on; the add-on itself calls no GPU API.
    source = b"""\
from dataclasses import dataclass


@dataclass(frozen=True)
class LaunchServer:
    cuda_device: int = -1
    cuda_device_uuid: str = ""
"""
    assert _rules("blender_addon/core/effects.py", source) == set()
