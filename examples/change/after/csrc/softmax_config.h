// Launch geometry shared by the CUDA and HIP builds.
#pragma once

constexpr int kRowsPerBlock = 4;
