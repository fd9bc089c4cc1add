"""Cases from repositories drawn at random from a fixed pool (issue 27, lane h39-random-j).

The pool is ``/work/pool-h39.txt``, ordered with ``random.seed("h39-pool")``; this lane took
positions 151-165. One could not be read: rbarfinezhadfeli0/cuda-samples (no snapshot). Of
each of the other fourteen, fifteen files were sampled with ``random.Random("owner/name")``
over every file lockin counts (sorted by path) and labelled before any fix; so were up to
twenty of the files lockin calls non-portable and ten GPU-looking files it calls portable,
and three commits touching GPU code were drawn with ``random.Random("owner/name:commits")``
and put through ``lockin diff``. Each snippet is a small rewrite, in our own words, of a
pattern found in the repository its test names; the expected layers are what a porting
engineer reading that file would say.
"""

from __future__ import annotations

from tests.engine.test_ml_repo_cases import _layers, _rules

# -- waltsims/k-wave-cupy: k-Wave's MATLAB solvers, whose GPU path is a 'gpuArray' option ----


def test_kwave_recast_branching_on_the_gpuarray_option_is_vendor_path() -> None:
    # k-Wave/private/kspaceFirstOrder_dataRecast.m: the results are gathered off the GPU when
    # the data cast option names gpuArray. Before, the file was portable: the class is only
    # ever named in the string.
    source = b"""\
% cast the sensor data back to double
if strncmp(data_cast, 'gpuArray', 8)
    recast_pre = 'double(gather(';
else
    recast_pre = 'double(';
end
"""
    assert _rules("k-Wave/private/kspaceFirstOrder_dataRecast.m", source) == {
        "matlab-gpu.gpu-array-name"
    }
    assert _layers("k-Wave/private/kspaceFirstOrder_dataRecast.m", source) == {
        "vendor-path": 1,
        "portable": 4,
    }


def test_kwave_example_asking_for_gpuarray_single_is_vendor_path() -> None:
    # k-Wave/examples/example_at_linear_array_transducer.m: the simulation's options select the
    # GPU with 'DataCast', 'gpuArray-single'.
    source = b"""\
% run the simulation
input_args = {'DisplayMask', 'off', 'PMLInside', false, ...
    'DataCast', 'gpuArray-single'};
sensor_data = kspaceFirstOrder3D(kgrid, medium, source, sensor, input_args{:});
"""
    assert _rules("k-Wave/examples/example_at_linear_array_transducer.m", source) == {
        "matlab-gpu.gpu-array-name"
    }


def test_kwave_message_mentioning_gpuarray_stays_portable() -> None:
    # The negative: a help string that mentions the option among other words is prose.
    source = b"""\
% print the options
disp('  set DataCast to gpuArray-single to run on the GPU');
data_cast = 'single';
"""
    assert _layers("k-Wave/private/print_options.m", source) == {"portable": 2}


# -- ROCm/rccl: the public header is a configure_file() template ------------------------------


def test_rccl_header_template_is_read_as_c() -> None:
    # src/nccl.h.in: the library's API, with the HIP includes and the version macros CMake fills
    # in. Before, .in was Autoconf's and the 207-line header counted as portable text.
    source = b"""\
#ifndef NCCL_H_
#define NCCL_H_

#include <hip/hip_runtime.h>

#define NCCL_MAJOR ${NCCL_MAJOR}

typedef struct ncclComm* ncclComm_t;

ncclResult_t ncclCommInitRank(ncclComm_t* comm, int nranks, ncclUniqueId commId, int rank);
ncclResult_t ncclAllReduce(const void* sendbuff, void* recvbuff, size_t count,
    ncclDataType_t datatype, ncclRedOp_t op, ncclComm_t comm, hipStream_t stream);

#endif
"""
    assert {"hip.include", "nccl.call"} <= _rules("src/nccl.h.in", source)


def test_autoheader_config_template_stays_portable() -> None:
    # The negative: autoheader's config.h.in is C too, and names no GPU API.
    source = b"""\
/* Define to 1 if you have the <dlfcn.h> header file. */
#undef HAVE_DLFCN_H

/* Version number of package */
#undef VERSION
"""
    assert _layers("config.h.in", source) == {"portable": 2}


# -- premsasidharan/GpgpuOpenCL: a vendored GLEW beside the OpenCL examples -------------------


def test_glew_cl_event_sync_declaration_is_portable() -> None:
    # glew-1.10.0/include/GL/glew.h: GL's ARB_cl_event entry point names cl_context and
    # cl_event in its signature. Before, this one line of the 14,000-line loader made it
    # OpenCL host code.
    # The typedef is one line in glew.h, as here.
    source = (
        b"#ifndef GL_ARB_cl_event\n"
        b"#define GL_ARB_cl_event 1\n"
        b"typedef GLsync (GLAPIENTRY * PFNGLCREATESYNCFROMCLEVENTARBPROC) "
        b"(cl_context context, cl_event event, GLbitfield flags);\n"
        b"#define glCreateSyncFromCLeventARB GLEW_GET_FUN(__glewCreateSyncFromCLeventARB)\n"
        b"#endif\n"
    )
    assert _layers("glew-1.10.0/include/GL/glew.h", source) == {"portable": 5}


def test_opencl_example_host_code_stays_vendor_path() -> None:
    # The negative: Examples/OpenCL_2_0/RadixSort/main.cpp creates its queue with the API.
    source = b"""\
cl_command_queue make_queue(cl_context ctx, cl_device_id dev, cl_int* err) {
    return clCreateCommandQueueWithProperties(ctx, dev, nullptr, err);
}
"""
    assert _rules("Examples/OpenCL_2_0/RadixSort/main.cpp", source) == {"opencl.host-api"}


# -- GPUOpen-Tools/gpu_performance_api: AMD's counters through its D3D12 driver extension -----


def test_gpa_dx12_sample_reading_the_amdext_session_is_vendor_path() -> None:
    # source/gpu_perf_api_dx12/dx12_gpa_sample.cc: the results come from the session the AMD
    # driver's extension interface opened. Before, the file was portable.
    source = b"""\
bool Dx12Sample::UpdateResults() {
    size_t bytes = 0;
    IAmdExtGpaSession* session = cmd_list_->GetAmdExtSession();
    if (session == nullptr) {
        return false;
    }
    return SUCCEEDED(session->GetResults(driver_sample_id_, &bytes, nullptr));
}
"""
    assert _rules("source/gpu_perf_api_dx12/dx12_gpa_sample.cc", source) == {
        "hip.amd-driver-extension"
    }


def test_gpa_counter_tables_without_the_extension_stay_portable() -> None:
    # The negative: the counter generator's tables index AMD hardware blocks by generation but
    # call no driver.
    source = b"""\
GpaUInt32 CounterGeneratorVk::BlockId(GDT_HW_GENERATION gen, GpaUInt32 group) {
    if (gen == GDT_HW_GENERATION_GFX11) {
        return kHwVkDriverBlockIdGfx11[group];
    }
    return kHwVkDriverBlockIdGfx10[group];
}
"""
    assert _layers("source/gpu_perf_api_counter_generator/gpa_counter_generator_vk.cc", source) == {
        "portable": 6
    }


# -- checked right, and hard: the libcu++ tests ROCm/libhipcxx carries ------------------------


def test_libhipcxx_test_dispatching_on_the_sm_target_is_vendor_path() -> None:
    # .upstream-tests/test/std/atomics/atomics.flag/init.pass.cpp: a host branch and an
    # sm_70-and-newer branch, through cuda::std.
    source = b"""\
#include <cuda/std/atomic>
#include <cuda/std/cassert>

int main(int, char**)
{
    NV_DISPATCH_TARGET(
    NV_IS_HOST,(
      cuda::std::atomic_flag f = ATOMIC_FLAG_INIT;
      assert(f.test_and_set() == 0);
    ),
    NV_PROVIDES_SM_70,(
      cuda::std::atomic_flag f = ATOMIC_FLAG_INIT;
      assert(f.test_and_set() == 0);
    ))
    return 0;
}
"""
    layers = _layers(".upstream-tests/test/std/atomics/atomics.flag/init.pass.cpp", source)
    assert layers.get("vendor-path", 0) + layers.get("kernel", 0) > 0
