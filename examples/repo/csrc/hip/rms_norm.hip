// RMSNorm for AMD GPUs (ROCm), one block per row.
#include <hip/hip_runtime.h>

__global__ void rms_norm_kernel(const float* in, const float* weight, float* out, int cols,
                                float eps) {
  extern __shared__ float partial[];
  const float* x = in + blockIdx.x * cols;
  float acc = 0.f;
  for (int c = threadIdx.x; c < cols; c += blockDim.x) acc += x[c] * x[c];
  partial[threadIdx.x] = acc;
  __syncthreads();
  for (int stride = blockDim.x / 2; stride > 0; stride /= 2) {
    if (threadIdx.x < stride) partial[threadIdx.x] += partial[threadIdx.x + stride];
    __syncthreads();
  }
  const float scale = rsqrtf(partial[0] / cols + eps);
  for (int c = threadIdx.x; c < cols; c += blockDim.x) out[blockIdx.x * cols + c] = x[c] * scale * weight[c];
}

void rms_norm(const float* in, const float* weight, float* out, int rows, int cols, float eps,
              hipStream_t stream) {
  const int threads = 256;
  hipLaunchKernelGGL(rms_norm_kernel, dim3(rows), dim3(threads), threads * sizeof(float), stream,
                     in, weight, out, cols, eps);
  hipError_t err = hipGetLastError();
  if (err != hipSuccess) {
    throw std::runtime_error(hipGetErrorString(err));
  }
}
