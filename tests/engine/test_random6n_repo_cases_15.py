"""Cases from repositories drawn at random from a fixed pool (issue 27, lane h42-random-n).

The pool is ``/work/pool-h40-ext.txt``, ordered with ``random.seed("h40-pool")``; this lane took
positions 316-322: maikel/FiniteVolumeSolver, CoffeeVampir3/Mojo-Linuxperiments,
volter-ai/cutlass, Delphinoid/SDLOpenGLBaseC and cloudFPGA/cFDK. Two had no snapshot and were
skipped: Ch1nyzzz/hybrid-latent-attention and galwolfer/MOJO. Fifteen files of each repository
(twelve where it had fewer) were sampled with ``random.Random("owner/name")`` over every file
lockin counts, and labelled before any fix, with the files lockin calls non-portable, GPU-looking
files it calls portable, and files it gives no language. Each snippet is a small rewrite, in our
own words, of a pattern found in the repository its test names; the expected layers are what a
porting engineer reading that file would say.
"""

from __future__ import annotations

from tests.engine.test_ml_repo_cases import _layers, _rules

# -- cloudFPGA/cFDK: Vivado HLS network IPs for Xilinx FPGAs, their Makefiles and Tcl ----------


def test_cfdk_hls_header_with_unqualified_stream_ports_is_kernel_code() -> None:
    # SRA/LIB/SHELL/LIB/hls/NTS/arp/src/arp.hpp: the IP's top-level ports, streams written
    # without hls:: under the `using namespace hls` of a shared header, beside ap_uint types.
    # Before, the six such headers of the sample were portable.
    source = b"""\
#ifndef _ARP_H_
#define _ARP_H_
#include "../../nts.hpp"

typedef ap_uint<1> LookupOp;

void arp(
        stream<AxisEth>         &siIPRX_Data,
        stream<AxisEth>         &soETH_Data,
        stream<Ip4Addr>         &siIPTX_MacLkpReq,
        stream<ArpLkpReply>     &soIPTX_MacLkpRep);

#endif
"""
    assert _layers("hls/NTS/arp/src/arp.hpp", source) == {"kernel": 10}
    assert _rules("hls/NTS/arp/src/arp.hpp", source) == {"vitis.hls-kernel"}


def test_cfdk_hls_header_named_by_its_version_macro_is_kernel_code() -> None:
    # SRA/LIB/SHELL/LIB/hls/NTS/iptx/src/iptx.hpp: no ap_ type, but the HLS_VERSION switch
    # between two port lists, one with a nested template argument.
    source = b"""\
#include "../../nts.hpp"
#if HLS_VERSION == 2017
void iptx_top(
        stream<AxisIp4>          &siL3MUX_Data,
        stream<ap_uint<32> >     &soARP_LookupReq);
#endif
"""
    assert _layers("hls/NTS/iptx/src/iptx.hpp", source) == {"kernel": 6}


def test_unqualified_stream_template_of_another_library_stays_portable() -> None:
    # A logging header passing Boost.Iostreams' stream by reference: the same spelling, no
    # HLS anywhere in the file.
    source = b"""\
#include <boost/iostreams/stream.hpp>
#include <boost/iostreams/device/file.hpp>
using namespace boost::iostreams;

void write_rows(stream<file_sink>& out, const Table& table);
void read_rows(stream<file_source>& in, Table& table);
"""
    assert _layers("src/table_io.hpp", source) == {"portable": 5}


def test_cfdk_makefile_running_vivado_hls_is_a_vendor_build() -> None:
    # SRA/LIB/SHELL/LIB/hls/NTS/toecam/Makefile: every target runs Vivado HLS (Vitis HLS's
    # name before 2020.1) on the IP's run script. Before, the Makefile was portable.
    source = b"""\
ipName = toecam
SRC_DEPS := $(shell find ./src/ -type f)

csim:    ## Runs the HLS C simulation
\texport hlsCSim=1; export hlsCSynth=0; vivado_hls -f run_hls.tcl

csynth:  ## Runs the HLS C synthesis
\texport hlsCSim=0; export hlsCSynth=1; vivado_hls -f run_hls.tcl

clean:
\trm -rf ${ipName}_prj vivado*.log
"""
    assert _layers("hls/NTS/toecam/Makefile", source) == {"vendor-path": 2, "portable": 6}
    assert _rules("hls/NTS/toecam/Makefile", source) == {"build.vitis"}


def test_cfdk_config_header_without_hls_types_stays_portable() -> None:
    # SRA/LIB/SHELL/LIB/hls/NTS/nts_config.hpp: plain constants of the network stack (checked
    # right before any fix; the HLS ports live in the headers beside it).
    source = b"""\
#ifndef _NTS_CONFIG_H_
#define _NTS_CONFIG_H_
#include <stdint.h>
static const uint16_t MTU = 1500;
static const uint32_t TOE_BUFFER_SIZE = (1 << 16);
#endif
"""
    assert _layers("hls/NTS/nts_config.hpp", source) == {"portable": 6}


# -- maikel/FiniteVolumeSolver: AMReX solvers, loops launched by AMReX's macros --------------


def test_fvs_amrex_host_device_for_macro_body_is_kernel_code() -> None:
    # src/AMReX/MLMG/MLNodeHelmDualCstVel_K.cpp: a host helper whose boundary loops run through
    # AMREX_HOST_DEVICE_PARALLEL_FOR_3D. Before, the file was portable, and the solver files
    # beside it counted 10 kernel lines of about 160.
    source = b"""\
inline void scale_neumann_bc(Real s, Box const& bx, Array4<Real> const& rhs) noexcept
{
    Box blo = amrex::bdryLo(bx, 0);
    AMREX_HOST_DEVICE_PARALLEL_FOR_3D (blo, i, j, k,
    {
        rhs(i,j,k) *= s;
    });
}
"""
    assert _layers("src/AMReX/MLMG/NodeHelm_K.cpp", source) == {"kernel": 4, "portable": 4}
    assert _rules("src/AMReX/MLMG/NodeHelm_K.cpp", source) == {"portable-gpu.amrex-launch-macro"}


def test_fvs_amrex_launch_device_lambda_body_is_kernel_code() -> None:
    # src/AMReX/MLMG/MLNodeHelmDualLinVel.cpp: a Jacobi sweep launched with
    # AMREX_LAUNCH_DEVICE_LAMBDA over a tile box, after a ParallelFor device lambda.
    source = b"""\
void smooth(MultiFab& sol, MultiFab& Ax, MFIter const& mfi) {
    const Box& bx = mfi.validbox();
    Array4<Real> const& s = sol.array(mfi);
    Array4<Real> const& a = Ax.array(mfi);
    amrex::ParallelFor(bx, [=] AMREX_GPU_DEVICE (int i, int j, int k) noexcept
    {
        a(i,j,k) = 2.0 * s(i,j,k);
    });
    AMREX_LAUNCH_DEVICE_LAMBDA ( bx, tbx,
    {
        jacobi(tbx, s, a);
    });
}
"""
    assert _layers("src/AMReX/MLMG/Smooth.cpp", source) == {"kernel": 8, "portable": 5}


def test_fvs_amrex_dimension_macros_stay_portable() -> None:
    # examples/AMReX/GreshoVortex.cpp: AMREX_SPACEDIM and AMREX_D_DECL set up a grid on the
    # host (checked right before any fix).
    source = b"""\
int main() {
    constexpr int Dim = AMREX_SPACEDIM;
    std::array<int, Dim> cells{AMREX_D_DECL(128, 128, 1)};
    amrex::RealBox box({AMREX_D_DECL(-1.0, -1.0, -1.0)}, {AMREX_D_DECL(1.0, 1.0, 1.0)});
    return run(cells, box);
}
"""
    assert _layers("examples/AMReX/GreshoVortex.cpp", source) == {"portable": 6}


# -- Delphinoid/SDLOpenGLBaseC: an OpenGL engine in C, its GLSL shaders kept as .gls ---------


def test_sdl_engine_gls_shader_file_is_glsl_kernel_code() -> None:
    # bin/Release/Resources/Shaders/s_vertex.gls: a skinned vertex shader the engine reads from
    # its resources. Before, the twelve .gls shaders had no language and were never counted.
    source = b"""\
#version 330 core

// Bones a skeleton may have.
#define MAX_BONES 128

layout(location = 0) in vec3 vertexPosition;
layout(location = 1) in vec2 vertexUV;
uniform mat4 vpMatrix;
uniform mat4x3 boneArray[MAX_BONES];
out vec2 fragUV;

void main(){
    vec4 v = vec4(vertexPosition, 1.f);
    gl_Position = vpMatrix * v;
    fragUV = vertexUV;
}
"""
    assert _layers("Resources/Shaders/s_vertex.gls", source) == {"kernel": 12}


def test_gls_file_without_glsl_stays_uncounted() -> None:
    # The extension names no language of its own: a .gls file holding anything but GLSL (a
    # tool's listing) is left out, as .vs/.fs files that are not shaders are.
    source = b"""\
GAMS listing
  1  set i / a, b /;
  2  parameter p(i);
"""
    assert _layers("out/model.gls", source) == {}


def test_sdl_engine_opengl_host_code_stays_portable() -> None:
    # src/engine/shader.c: compiling and linking the shaders through OpenGL, a cross-vendor
    # API (checked right before any fix).
    source = b"""\
#include <GL/glew.h>

unsigned int shader_compile(const char *src, GLenum type){
    GLuint id = glCreateShader(type);
    glShaderSource(id, 1, &src, NULL);
    glCompileShader(id);
    return id;
}
"""
    assert _layers("src/engine/shader.c", source) == {"portable": 7}
