// Whether this build's device code runs on device 0: a build carries code
// for the CUDA architectures it was compiled for (CMAKE_CUDA_ARCHITECTURES),
// and a GPU of another architecture finds no kernel to launch.
#pragma once

#include <string>

namespace gpusql {

// False, with why set (the device, its compute capability, the build's
// architectures and how to rebuild), when device 0 can launch none of it.
// Call after a device was found.
bool device_code_runs(std::string* why);

}  // namespace gpusql
