#include "kernels/launch.hpp"
#include "kernels/project.hpp"

namespace gpusql::kernels {
namespace {

constexpr int kProjectThreads = 256;

// Grid-stride over positions. Block and grid sizes are multiples of 32, so
// each warp covers 32 consecutive positions: one validity word per ballot.
__global__ void __launch_bounds__(kProjectThreads)
    project_kernel(const ExprProgram* __restrict__ program, Type type, const ColumnSet* __restrict__ columns,
                   const uint32_t* __restrict__ selection, uint64_t count, void* __restrict__ out,
                   uint32_t* __restrict__ validity, uint32_t* __restrict__ error_word) {
  uint32_t error = 0;
  const uint64_t stride = static_cast<uint64_t>(gridDim.x) * blockDim.x;
  for (uint64_t base = static_cast<uint64_t>(blockIdx.x) * blockDim.x; base < count; base += stride) {
    uint64_t position = base + threadIdx.x;
    bool valid = false;
    if (position < count) {
      int64_t row = selection ? selection[position] : static_cast<int64_t>(position);
      int64_t high = 0;
      Slot s = evaluate_to(*program, *columns, row, error, high);
      store_value(out, type, static_cast<int64_t>(position), s, high);
      valid = s.valid;
    }
    uint32_t bits = __ballot_sync(0xffffffffu, valid);
    if (threadIdx.x % 32 == 0 && position < count) validity[position / 32] = bits;
  }
  if (error) atomicOr(error_word, error);
}

}  // namespace

void project_rows(const ExprProgram& program, Type type, const ColumnSet& columns, const uint32_t* d_selection,
                  std::size_t count, void* d_out, uint32_t* d_validity, uint32_t* d_error, DeviceContext& context) {
  if (count == 0) return;
  std::size_t blocks = (count + kProjectThreads - 1) / kProjectThreads;
  DeviceObjects objects;
  std::size_t p = objects.add(program), c = objects.add(columns);
  objects.upload(context);
  project_kernel<<<grid_for(blocks, context, 16), kProjectThreads, 0, context.stream()>>>(
      objects.at<ExprProgram>(p), type, objects.at<ColumnSet>(c), d_selection, count, d_out, d_validity, d_error);
  GPUSQL_CHECK_LAUNCH();
}

}  // namespace gpusql::kernels
