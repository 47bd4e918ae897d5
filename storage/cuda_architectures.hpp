// Which devices a build's GPU code runs on.
#pragma once

#include <string_view>

namespace gpusql {

// Whether GPU code built for `architectures` (CMAKE_CUDA_ARCHITECTURES: "90",
// "80-real;90-virtual", ...; entries separated by ';', ',' or blanks) runs on a device of compute capability
// major.minor: machine code for sm_XY on devices of major X and minor at
// least Y; PTX for compute_XY, which the driver compiles, on any device of
// at least X.Y. gpu_available() refuses a device it does not run on.
bool architectures_run_on(std::string_view architectures, int major, int minor);

}  // namespace gpusql
