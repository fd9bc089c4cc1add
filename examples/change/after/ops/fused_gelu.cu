// Bias + GELU fused into one elementwise kernel (tanh approximation).
#include <cuda_runtime.h>
#include <cuda_fp16.h>

__global__ void bias_gelu_kernel(const __half* __restrict__ x, const __half* __restrict__ bias,
                                 __half* __restrict__ y, int n, int cols) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float v = __half2float(x[i]) + __half2float(bias[i % cols]);
  float inner = 0.7978845608f * (v + 0.044715f * v * v * v);
  y[i] = __float2half(0.5f * v * (1.f + tanhf(inner)));
}

void bias_gelu(const __half* x, const __half* bias, __half* y, int n, int cols,
               cudaStream_t stream) {
  const int threads = 256;
  bias_gelu_kernel<<<(n + threads - 1) / threads, threads, 0, stream>>>(x, bias, y, n, cols);
  cudaError_t err = cudaGetLastError();
  if (err != cudaSuccess) {
    throw std::runtime_error(cudaGetErrorString(err));
  }
}
