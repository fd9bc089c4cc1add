"""Cases from repositories drawn at random from a fixed pool (issue 27, lane h41-random-f).

The pool is ``/work/pool-h40.txt``, ordered with ``random.seed("h40-pool")``; this lane took
positions 141-150. One could not be read: capitaharlock/btcfun-bitcoin-rgbpp-webgpu-launchpad
(no snapshot). Fifteen files of each remaining repository (all five of minhuanli/PyParticle)
were sampled with ``random.Random("owner/name")`` over every file lockin counts, and labelled
before any fix, with the files lockin calls non-portable (up to twenty) and GPU-looking files
it calls portable (up to ten); three commits touching GPU code per repository were drawn with
``random.Random("owner/name:commits")``. Each snippet is a small rewrite, in our own words, of
a pattern found in the repository its test names; the expected layers are what a porting
engineer reading that file would say.
"""

from __future__ import annotations

from bot.engine.classify import classify
from tests.engine.test_ml_repo_cases import _layers

# -- mbdevpl/FLASH5: per-machine build settings in sites/<host>/Makefile.h ---------------------


def test_flash_site_makefile_h_with_cuda_flags_is_make() -> None:
    # sites/summit.olcf.ornl.gov/Makefile.h: the settings the FLASH Makefile includes for one
    # machine, nvcc and the CUDA libraries among them. Before, the name's .h made it a C header
    # and no build rule read it: the file was portable.
    source = b"""\
# FLASH settings for a GPU machine
CUDA_PATH = ${OLCF_CUDA_ROOT}
FCOMP   = mpif90
CUCOMP  = nvcc
FFLAGS_OACC = -acc -ta=tesla:cc70
LIB_CUDA = -L${CUDA_PATH}/lib64 -lcublas -lcudart
LIB_HDF5 = -L${HDF5_DIR}/lib -lhdf5
"""
    report = classify("sites/summit.olcf.ornl.gov/Makefile.h", source)
    assert report.language == "Makefile"
    assert _layers("sites/summit.olcf.ornl.gov/Makefile.h", source) == {
        "vendor-path": 4,
        "portable": 2,
    }


def test_flash_site_makefile_h_per_compiler_copy_is_make() -> None:
    # sites/titan.ccs.ornl.gov/Makefile.h.pgi: one copy per compiler, with the same settings.
    source = b"""\
CUCOMP = nvcc
LIB_CUDA = -lcublas -lcudart -lcuda
"""
    assert classify("sites/titan.ccs.ornl.gov/Makefile.h.pgi", source).language == "Makefile"
    assert _layers("sites/titan.ccs.ornl.gov/Makefile.h.pgi", source) == {"vendor-path": 2}


def test_flash_site_makefile_h_without_gpu_stays_portable() -> None:
    # sites/coyote.lanl.gov/Makefile.h and most of the 300 other machines: compilers, MPI and
    # HDF5 only; the comment lines now read as make comments, not as C code.
    source = b"""\
# settings for a CPU cluster
FCOMP = mpif90
FFLAGS_OPT = -O2 -r8
LIB_HDF5 = -L${HDF5_PATH}/lib -lhdf5
"""
    assert _layers("sites/coyote.lanl.gov/Makefile.h", source) == {"portable": 3}
