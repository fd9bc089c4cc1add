"""Portability-layer kernel spans as a porting engineer counts them (issue 27, kernel counts).

Method: lockin scanned kabasset/KokkosTest, jinluchang/Qlattice and kokkos/kokkos-tutorials
at their stored snapshots before and after each change; every file whose kernel count moved
was read, and twelve drawn with ``random.Random("h40-kokkos")`` from the files given kernel
lines, with the files the audit named, were counted by hand: the code lines of device lambdas,
device functions and kernels, not the host code launching them (the ``parallel_for(`` call,
its label and its policy). Each snippet is a small rewrite of the pattern seen, with a comment
naming the file it stands for.
"""

from __future__ import annotations

from bot.engine.classify import classify
from tests.engine.test_ml_repo_cases import _layers, _rules


def _spans(path: str, source: bytes) -> list[tuple[str, int, int]]:
    return [(f.rule, f.start_line, f.end_line) for f in classify(path, source).findings]


def test_kokkos_launch_lines_are_host_code() -> None:
    # kabasset/KokkosTest tests/Patch_test.cpp: each test fills an image with a one-line
    # KOKKOS_LAMBDA launched over four lines (the call, the label, the domain). Before, 38
    # kernel lines for ten lambdas; an engineer counts 10.
    source = b"""\
void fill_and_compare(Image& image, Image& diff, Slice slice) {
  Linx::for_each(
      "init",
      image.domain(),
      KOKKOS_LAMBDA(int i, int j, int k) { image(i, j, k) = i + j + k; });
  Linx::for_each(
      "test",
      slice.domain(),
      KOKKOS_LAMBDA(int i, int j, int k) { diff(i, j, k) = slice(i, j, k) - image(i, j, k); });
}
"""
    assert _spans("tests/Patch_test.cpp", source) == [
        ("portable-gpu.device-lambda", 5, 5),
        ("portable-gpu.device-lambda", 9, 9),
    ]


def test_kokkos_range_policy_line_is_host_code() -> None:
    # kabasset/KokkosTest src/KokkosBenchmarkConvolution.cpp and tests/Random_test.cpp: a
    # RangePolicy on its own line above a two-line lambda. Before, 8 kernel lines in each
    # file; an engineer counts 2.
    source = b"""\
void convolve(View in, View out, int n) {
  Kokkos::parallel_for(
      "convolve",
      Kokkos::RangePolicy<>(0, n),
      KOKKOS_LAMBDA(int i) {
        out(i) = in(i) + in(i + 1);
      });
  Kokkos::fence();
}
"""
    assert _spans("src/KokkosBenchmarkConvolution.cpp", source) == [
        ("portable-gpu.device-lambda", 5, 7)
    ]


def test_kokkos_lambdas_handed_to_a_method_count_alone() -> None:
    # kabasset/KokkosTest tests/ImageApply_test.cpp: a lambda handed to for_each below its
    # label and domain, and one handed to Image::apply between a label and an argument.
    # Before, one 10-line span; an engineer counts 4 + 1.
    source = b"""\
void apply_test(Image a, Image b, Box domain) {
  for_each(
      "init",
      domain,
      KOKKOS_LAMBDA(int i, int j) {
        a(i, j) = i + 2 * j;
        b(i, j) = 3;
      });
  a.apply(
      "eval",
      KOKKOS_LAMBDA(int ai, int bi) { return ai * ai + bi; },
      b);
  Kokkos::fence();
}
"""
    assert _layers("tests/ImageApply_test.cpp", source) == {"kernel": 5, "portable": 9}


def test_kokkos_team_launch_keeps_the_lambda_from_its_policy_line() -> None:
    # kokkos/kokkos-tutorials Exercises/kokkoskernels/BlockJacobi/Begin/blockjacobi.cpp: the
    # call and its label on lines of their own, the policy sharing the lambda's line. The
    # lambda's line (its parameters) counts; nested TeamThreadRange lambdas are its body.
    source = b"""\
void factorize(Policy policy, Matrices A) {
  Kokkos::parallel_for
    ("factorize",
     policy, KOKKOS_LAMBDA(const member_type& member) {
      const int i = member.league_rank();
      auto AA = Kokkos::subview(A, i, Kokkos::ALL(), Kokkos::ALL());
      Kokkos::parallel_for(Kokkos::TeamThreadRange(member, AA.extent(0)), [&](int k) {
        AA(k, k) = 1;
      });
    });
}
"""
    assert _spans("Exercises/BlockJacobi/blockjacobi.cpp", source) == [
        ("portable-gpu.device-lambda", 4, 10)
    ]


def test_kokkos_host_policy_above_the_lambda_still_makes_it_host_code() -> None:
    # kabasset/KokkosTest include/Linx/Data/Sequence.h copy_to(): a for_each on the host
    # execution space. The policy is outside the lambda's lines now, but still in its
    # statement, where the host space is read.
    source = b"""\
void copy_host(View in, View out, int n) {
  Kokkos::parallel_for(
      "copy",
      Kokkos::RangePolicy<Kokkos::DefaultHostExecutionSpace>(0, n),
      KOKKOS_LAMBDA(int i) { out[i] = in[i]; });
}
"""
    assert "kernel" not in _layers("include/Linx/Data/Sequence.h", source)


def test_kokkos_inline_functions_stay_whole() -> None:
    # kokkos/kokkos-tutorials Exercises/tools_minimd/comm.cpp: tagged operator() members
    # defined out of class are device functions, their signature lines included.
    source = b"""\
KOKKOS_INLINE_FUNCTION
void Comm::operator()(TagBorderPack, const int& k) const {
  atom.pack_border(sendlist(k), &buf_send[k * 4], pbc_flags);
  sendlist_out(iswap, k) = sendlist(k);
}
"""
    assert _spans("Exercises/tools_minimd/comm.cpp", source) == [("portable-gpu.device-code", 1, 5)]


def test_raja_and_amrex_lambdas_count_from_their_capture_list() -> None:
    # The same convention for RAJA's forall and AMReX's ParallelFor: the capture list's
    # line starts the kernel, the segment or box line above it is the launch.
    source = b"""\
void update(double* a, const double* b, int n, amrex::Box const& bx, Array4 const& c) {
  RAJA::forall<RAJA::cuda_exec<256>>(
      RAJA::TypedRangeSegment<int>(0, n),
      [=] RAJA_DEVICE (int i) { a[i] += b[i]; });
  amrex::ParallelFor(
      bx,
      [=] AMREX_GPU_DEVICE (int i, int j, int k) noexcept { c(i, j, k) = 0.0; });
}
"""
    assert _spans("src/update.cpp", source) == [
        ("portable-gpu.device-lambda", 4, 4),
        ("portable-gpu.device-lambda", 7, 7),
    ]
    assert "portable-gpu.device-code" not in _rules("src/update.cpp", source)


def test_launch_macro_counts_its_device_lambda_not_its_host_code() -> None:
    # jinluchang/Qlattice qlat-utils/.../qacc-func.h: qacc_forNB wraps one __device__ lambda
    # in host code (thread counts, an error check, the <<< >>> launch). Before, the whole
    # 20-line macro was kernel code with the kernel it launches (28); an engineer counts 9.
    source = b"""\
#define acc_for(iter, num, ...)                                          \\
  {                                                                      \\
    const long N_VALUE = (num);                                          \\
    if (N_VALUE != 0) {                                                  \\
      auto LOOP_BODY =                                                   \\
          [=] __host__ __device__(long iter) mutable { {__VA_ARGS__}; }; \\
      const int N_THREADS = acc_num_threads();                           \\
      dim3 THREADS(N_THREADS, 1, 1);                                     \\
      dim3 BLOCKS((N_VALUE + N_THREADS - 1) / N_THREADS, 1, 1);          \\
      acc_error LAST = acc_get_last_error();                             \\
      if (acc_success != LAST) {                                         \\
        report_error("acc_for", LAST);                                   \\
      }                                                                  \\
      lambda_apply<<<BLOCKS, THREADS>>>(N_VALUE, LOOP_BODY);             \\
    }                                                                    \\
  }

template <typename Lambda>
__global__ void lambda_apply(long num, Lambda lam)
{
  long x = threadIdx.x + blockDim.x * blockIdx.x;
  if (x < num) {
    lam(x);
  }
}
"""
    spans = _spans("qlat-utils/include/qlat-utils/qacc-func.h", source)
    assert ("cuda.device-function", 5, 6) in spans
    assert _layers("qlat-utils/include/qlat-utils/qacc-func.h", source)["kernel"] == 10


def test_functor_macro_counts_its_device_members() -> None:
    # kabasset/KokkosTest include/Linx/Base/Functional.h: LINX_DEFINE_BINARY_OPERATOR
    # declares functor structs (members, constructors) around KOKKOS_INLINE_FUNCTION
    # operator()s. Before, the whole macro (44 lines) counted; the device code is the
    # operators. File: 79 kernel lines before, 55 after; an engineer counts 51.
    source = b"""\
#define DEFINE_BINARY(Func, out) \\
  template <typename TRhs> \\
  struct Func { \\
    TRhs rhs; \\
    Func(TRhs value) : rhs {value} {} \\
    KOKKOS_INLINE_FUNCTION auto operator()(const auto& lhs) const \\
    { \\
      return out; \\
    } \\
  }; \\
  template <typename T> \\
  Func(T) -> Func<T>;

DEFINE_BINARY(Add, (lhs + rhs))
"""
    assert _spans("include/Linx/Base/Functional.h", source) == [("portable-gpu.device-code", 6, 9)]


def test_macro_of_one_device_function_stays_whole() -> None:
    # A macro whose body is one device function loses only its #define line: the function
    # is the macro's code.
    source = b"""\
#define FIELD(STORAGE, NAME) \\
    KOKKOS_INLINE_FUNCTION auto& NAME() { return STORAGE.NAME; }
"""
    assert _spans("include/storage.h", source) == [("portable-gpu.device-code", 2, 2)]


def test_device_qualifier_in_a_macro_without_a_body_claims_the_macro() -> None:
    # A macro that spells a qualifier for others (no declaration ends inside it) is claimed
    # whole, as before.
    source = b"""\
#define HD_INLINE \\
  KOKKOS_INLINE_FUNCTION
HD_INLINE int twice(int x) { return 2 * x; }
"""
    assert ("portable-gpu.device-code", 1, 2) in _spans("include/qualifiers.h", source)


def test_cuda_lambda_handed_to_a_layer_counts_from_its_capture_list() -> None:
    # LLNL/RAJAPerf src/apps/LTIMES-Cuda.cpp and ENERGY-Cuda.cpp: RAJA launches handed a
    # `[=] __device__` lambda below their policy, segments and resource. Before, every
    # launch line was kernel code (LTIMES-Cuda.cpp 42, ENERGY-Cuda.cpp 103); the lambda
    # is the kernel (36, 97).
    source = b"""\
void run(Res res, double* x, int n) {
  RAJA::kernel_resource<EXEC_POL>(
    RAJA::make_tuple(RAJA::RangeSegment(0, n),
                     RAJA::RangeSegment(0, n)),
    res,
    [=] __device__ (int d, int z) {
      x[d * n + z] += 1.0;
    });
  RAJA::forall<RAJA::cuda_exec<256, true>>(res,
    RAJA::RangeSegment(0, n), [=] __device__ (int i) {
    x[i] *= 2.0;
  });
}
"""
    assert _spans("src/apps/LTIMES-Cuda.cpp", source) == [
        ("cuda.device-function", 6, 8),
        ("cuda.device-function", 10, 12),
    ]


def test_attribute_before_a_device_function_is_no_capture_list() -> None:
    # `[[nodiscard]]` closes with `]` too: the function counts from its attribute.
    source = b"""\
[[nodiscard]] __device__ int clamp_index(int i, int n) {
  return i < n ? i : n - 1;
}
"""
    assert _spans("src/index.cu", source) == [("cuda.device-function", 1, 3)]


def test_host_policy_with_brace_initialised_bounds_stays_host_code() -> None:
    # kabasset/KokkosTest tests/KokkosSmoke_test.cpp launches over an MDRangePolicy whose
    # bounds are brace lists; on a host space (here OpenMP, Serial) the lambda is host code:
    # the head steps back over `{0, 0}, {w, h}` to read the policy.
    source = b"""\
void fill(View a, int w, int h) {
  Kokkos::parallel_for(
      Kokkos::MDRangePolicy<Kokkos::OpenMP, Kokkos::Rank<2>>({0, 0}, {w, h}),
      KOKKOS_LAMBDA(int i, int j) {
        a(i, j) = i + j;
      });
  Kokkos::parallel_for("f",
      Kokkos::MDRangePolicy<Kokkos::Serial, Kokkos::Rank<2>>(
          {0, 0}, {w, h}),
      KOKKOS_LAMBDA(int i, int j) {
        a(i, j) = i + j;
      });
}
"""
    assert "kernel" not in _layers("tests/KokkosSmoke_test.cpp", source)
