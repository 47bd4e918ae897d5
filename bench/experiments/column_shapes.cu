// A stand-alone experiment, not built by CMake: a copy of
// kernels/column_reduce.cu's kernel in its grid-stride form (each block
// every grid-th chunk; the library now gives each block a run of
// consecutive chunks), cut short at each step of its end (V: 1 after the
// fold, 8 after the fence, 4 after the count), timed beside the harness's
// block_chunks<1> (sum_shapes.cu) and CUB on 2^27 DOUBLEs. What it printed
// on an H100 (2026-11-23) is in bench/RESULTS.md, SUM.
//   nvcc -O3 -arch=sm_90 -std=c++20 -I. -Iinclude -diag-suppress 128 \
//        -o column_shapes bench/experiments/column_shapes.cu && ./column_shapes
#include <cub/cub.cuh>
#include <cstdio>
#include <vector>
#include <algorithm>
#include <type_traits>
#include "kernels/lean_ops.cuh"
#define CK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { printf("CUDA %s line %d\n", cudaGetErrorString(e), __LINE__); exit(1);} } while (0)
namespace gpusql::kernels {
constexpr int kWarp = 32;
namespace {
constexpr int kColumnBlocksPerSm = 3;  // stand-alone: 3 and 4 a multiprocessor best (349-353 us), 8: 368
constexpr uint64_t kMaxGroups = 1024;  // 2^32 rows: 2^21 chunks, 1024 groups
constexpr unsigned kFullMask = 0xffffffffu;

struct ColumnReduce {
  uint64_t count;          // rows
  uint64_t chunks;         // of kReduceChunk rows
  uint64_t groups;         // of kReduceChunk chunk states
  int64_t* chunk_states;   // [chunks]
  int64_t* group_states;   // [groups]
  uint32_t* arrivals;      // [groups + 1]: zero before, left zero
  int64_t* result;         // the final state's bits
  uint32_t* error_word;
};

template <class T>
__device__ __forceinline__ int64_t widen(T v) {
  if constexpr (std::is_floating_point_v<T>) return as_bits(static_cast<double>(v));
  else return static_cast<int64_t>(v);
}

// The canonical order over one chunk whose first `present` positions hold
// values (a prefix; all of them when FULL): item k of thread t is position
// k * 256 + t. thread_fold(): thread t folds its items in order.
// block_tree(): lane i then takes in lane i + o's state for o = 16 .. 1 when
// that lane holds any, and warp 0 does the same over the 8 warps' states
// (lean_warp_tree()'s order, empty states skipped); every thread calls it,
// the result is in thread 0. `ws`: 8 words of shared memory no other call
// uses before this one's barrier has passed again (the caller alternates
// two). Two functions, so the main loop can load the next chunk into the
// registers the fold has just read, before the tree.
template <LeanOp OP, bool FULL, class T>
__device__ __forceinline__ int64_t thread_fold(const T (&v)[kReduceItems], uint32_t present, uint32_t& error) {
  int64_t s = widen(v[0]);
#pragma unroll
  for (int k = 1; k < kReduceItems; ++k)
    if (FULL || static_cast<uint32_t>(k * kReduceThreads) + threadIdx.x < present)
      s = live_combine<OP>(s, widen(v[k]), error);
  return s;
}

template <LeanOp OP, bool FULL>
__device__ __forceinline__ int64_t block_tree(int64_t s, uint32_t present, int64_t* ws, uint32_t& error) {
  const int lane = threadIdx.x % kWarp, warp = threadIdx.x / kWarp;
#pragma unroll
  for (int o = kWarp / 2; o > 0; o /= 2) {
    const int64_t other = __shfl_down_sync(kFullMask, static_cast<long long>(s), o);
    if (lane < o && (FULL || threadIdx.x + o < present)) s = live_combine<OP>(s, other, error);
  }
  if (lane == 0) ws[warp] = s;
  __syncthreads();
  if (warp == 0) {
    constexpr int kWarps = kReduceThreads / kWarp;
    s = ws[lane % kWarps];
#pragma unroll
    for (int o = kWarps / 2; o > 0; o /= 2) {
      const int64_t other = __shfl_down_sync(kFullMask, static_cast<long long>(s), o);
      if (lane < o && (FULL || static_cast<uint32_t>((lane + o) * kWarp) < present))
        s = live_combine<OP>(s, other, error);
    }
  }
  return s;
}

// Both, for a chunk that is not part of the main loop.
template <LeanOp OP, class T>
__device__ __forceinline__ int64_t chunk_tree(const T (&v)[kReduceItems], uint32_t present, int64_t* ws,
                                              uint32_t& error) {
  return block_tree<OP, false>(thread_fold<OP, false>(v, present, error), present, ws, error);
}

template <class T>
__device__ __forceinline__ void load_chunk(const T* __restrict__ data, uint64_t chunk, T (&v)[kReduceItems]) {
#pragma unroll
  for (int k = 0; k < kReduceItems; ++k) v[k] = __ldg(data + chunk * kReduceChunk + k * kReduceThreads + threadIdx.x);
}

// How many of the chunks below x block b takes under the grid-stride loop
// (those that are b mod grid).
__device__ __forceinline__ uint64_t owned_below(uint64_t x, uint64_t b, uint64_t grid) {
  return x > b ? (x - 1 - b) / grid + 1 : 0;
}

// One chunk of the main loop: fold `v`, issue the loads of this block's next
// full chunk (if any) into `next`, then the tree, while they are in flight.
template <LeanOp OP, class T>
__device__ __forceinline__ void full_chunk(const T* __restrict__ data, uint64_t chunk, uint64_t full_chunks,
                                           const T (&v)[kReduceItems], T (&next)[kReduceItems], int64_t* ws,
                                           int64_t* chunk_states, uint32_t& error) {
  int64_t s = thread_fold<OP, true>(v, kReduceChunk, error);
  if (chunk + gridDim.x < full_chunks) load_chunk(data, chunk + gridDim.x, next);
  s = block_tree<OP, true>(s, kReduceChunk, ws, error);
  if (threadIdx.x == 0) chunk_states[chunk] = s;
}

template <LeanOp OP, class T, int V>
__global__ void __launch_bounds__(kReduceThreads, (V & 2) ? 1 : kColumnBlocksPerSm)
    column_reduce_kernel(const T* __restrict__ data, ColumnReduce r) {
  __shared__ int64_t ws[2][kReduceThreads / kWarp];
  __shared__ uint32_t completed[kMaxGroups / 32];
  __shared__ uint32_t last_flag;
  uint32_t error = 0;
  int p = 0;  // which half of ws the next tree uses
  const uint64_t full_chunks = r.count / kReduceChunk;
  // Two register sets, unrolled twice, so each step loads into the set the
  // other step folds: with one set loaded and folded in the same step,
  // ptxas loaded into other registers and copied them back at the loop's
  // end, and the copies waited for the loads.
  T a[kReduceItems], b[kReduceItems];
  uint64_t chunk = blockIdx.x;
  if (chunk < full_chunks) load_chunk(data, chunk, a);
  while (chunk < full_chunks) {
    full_chunk<OP>(data, chunk, full_chunks, a, b, ws[0], r.chunk_states, error);
    chunk += gridDim.x;
    if (chunk >= full_chunks) {
      p = 1;
      break;
    }
    full_chunk<OP>(data, chunk, full_chunks, b, a, ws[1], r.chunk_states, error);
    chunk += gridDim.x;
  }
  if (chunk < r.chunks) {  // the last chunk, part full: its block is the next in turn
    const uint64_t base = chunk * kReduceChunk;
    const uint32_t present = static_cast<uint32_t>(r.count - base);
#pragma unroll
    for (int k = 0; k < kReduceItems; ++k) {
      const uint32_t i = static_cast<uint32_t>(k * kReduceThreads) + threadIdx.x;
      a[k] = i < present ? data[base + i] : T{};
    }
    const int64_t s = chunk_tree<OP>(a, present, ws[p], error);
    if (threadIdx.x == 0) r.chunk_states[chunk] = s;
    p ^= 1;
  }

  if (V & 1) return;
  // Count off this block's chunks in each group; a completed group's bit.
  for (uint32_t i = threadIdx.x; i < kMaxGroups / 32; i += kReduceThreads) completed[i] = 0;
  __syncthreads();
  __threadfence();  // thread 0's chunk states before any count of them
  if (V & 8) return;
  for (uint64_t g = threadIdx.x; g < r.groups; g += kReduceThreads) {
    const uint64_t lo = g * kReduceChunk, hi = min(r.chunks, lo + kReduceChunk);
    const uint32_t mine = static_cast<uint32_t>(owned_below(hi, blockIdx.x, gridDim.x) -
                                                owned_below(lo, blockIdx.x, gridDim.x));
    if (mine == 0) continue;
    const uint32_t before = atomicAdd(&r.arrivals[g], mine);
    if (before + mine == hi - lo) {
      r.arrivals[g] = 0;  // no other block counts this group again
      atomicOr(&completed[g / 32], 1u << (g % 32));
    }
  }
  __syncthreads();
  if (V & 4) return;
  int64_t states[kReduceItems];  // state bits: widen() leaves them as they are
  for (uint64_t g = 0; g < r.groups; ++g) {
    if (!((completed[g / 32] >> (g % 32)) & 1u)) continue;  // the same for every thread
    __threadfence();  // the other blocks' chunk states, after their counts
    const uint64_t lo = g * kReduceChunk;
    const uint32_t present = static_cast<uint32_t>(min(r.chunks, lo + kReduceChunk) - lo);
#pragma unroll
    for (int k = 0; k < kReduceItems; ++k) {
      const uint32_t i = static_cast<uint32_t>(k * kReduceThreads) + threadIdx.x;
      states[k] = i < present ? __ldcg(r.chunk_states + lo + i) : 0;
    }
    int64_t s = chunk_tree<OP>(states, present, ws[p], error);
    p ^= 1;
    if (r.groups == 1) {
      if (threadIdx.x == 0) *r.result = s;
      break;
    }
    if (threadIdx.x == 0) {
      r.group_states[g] = s;
      __threadfence();
      last_flag = atomicAdd(&r.arrivals[r.groups], 1u) == r.groups - 1;
      if (last_flag) r.arrivals[r.groups] = 0;
    }
    __syncthreads();
    if (last_flag) {  // every group's state is written: the final tree
      __threadfence();
#pragma unroll
      for (int k = 0; k < kReduceItems; ++k) {
        const uint32_t i = static_cast<uint32_t>(k * kReduceThreads) + threadIdx.x;
        states[k] = i < r.groups ? __ldcg(r.group_states + i) : 0;
      }
      s = chunk_tree<OP>(states, static_cast<uint32_t>(r.groups), ws[p], error);
      p ^= 1;
      if (threadIdx.x == 0) *r.result = s;
    }
  }
  if (error) atomicOr(r.error_word, error);
}


constexpr int T = 256, K = 8, C = T * K;

__global__ void fill(double* d, uint64_t n) {
  for (uint64_t i = blockIdx.x * (uint64_t)blockDim.x + threadIdx.x; i < n; i += (uint64_t)gridDim.x * blockDim.x) {
    uint64_t x = i * 0x9E3779B97F4A7C15ull; x ^= x >> 29; x *= 0xBF58476D1CE4E5B9ull; x ^= x >> 32;
    d[i] = (double)(x >> 11) * 0x1.0p-53 * 100.0 - 20.0;
  }
}

// exact shuffle-down tree: lane i < o: s_i = s_i + s_{i+o}
__device__ __forceinline__ double tree32(double s) {
  const int lane = threadIdx.x % 32;
#pragma unroll
  for (int o = 16; o > 0; o /= 2) { double t = __shfl_down_sync(0xffffffffu, s, o); if (lane < o) s = s + t; }
  return s;
}
__device__ __forceinline__ double tree8(double s) {  // lanes 0..7 hold values
  const int lane = threadIdx.x % 32;
#pragma unroll
  for (int o = 4; o > 0; o /= 2) { double t = __shfl_down_sync(0xffffffffu, s, o); if (lane < o) s = s + t; }
  return s;
}

template <int MODE>  // 0: even share, 1: grid stride
__global__ void __launch_bounds__(T) block_chunks(const double* __restrict__ d, uint64_t chunks, double* __restrict__ partials) {
  __shared__ double ws[2][8];
  uint64_t begin, end, stride;
  if (MODE == 0) {
    uint64_t per = chunks / gridDim.x, extra = chunks % gridDim.x;
    begin = blockIdx.x * per + (blockIdx.x < extra ? (uint64_t)blockIdx.x : extra);
    end = begin + per + (blockIdx.x < extra);
    stride = 1;
  } else { begin = blockIdx.x; end = chunks; stride = gridDim.x; }
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  double v[K];
  if (begin < end) {
#pragma unroll
    for (int k = 0; k < K; ++k) v[k] = __ldg(d + begin * C + k * T + threadIdx.x);
  }
  int p = 0;
  for (uint64_t c = begin; c < end; c += stride, p ^= 1) {
    double s = v[0];
#pragma unroll
    for (int k = 1; k < K; ++k) s = s + v[k];
    const uint64_t n = c + stride;
    if (n < end) {
#pragma unroll
      for (int k = 0; k < K; ++k) v[k] = __ldg(d + n * C + k * T + threadIdx.x);
    }
    s = tree32(s);
    if (lane == 0) ws[p][warp] = s;
    __syncthreads();
    if (warp == 0) {
      double w = lane < 8 ? ws[p][lane] : 0.0;
      w = tree8(w);
      if (lane == 0) partials[c] = w;
    }
  }
}


} } // namespaces
using namespace gpusql::kernels;
template <class F> float time_med(F f, int reps = 25) {
  cudaEvent_t a, b; cudaEventCreate(&a); cudaEventCreate(&b);
  std::vector<float> t;
  f(); CK(cudaDeviceSynchronize());
  for (int r = 0; r < reps; ++r) { cudaEventRecord(a); f(); cudaEventRecord(b); cudaEventSynchronize(b); float ms; cudaEventElapsedTime(&ms, a, b); t.push_back(ms); }
  std::sort(t.begin(), t.end()); return t[t.size() / 2] * 1000.0f;
}
int main() {
  const uint64_t n = 1ull << 27, chunks = n / C;
  double *d, *partials, *out; int64_t* states; uint32_t* arr; uint32_t* err; int64_t* res;
  CK(cudaMalloc(&d, n * 8)); CK(cudaMalloc(&partials, chunks * 8)); CK(cudaMalloc(&out, 8));
  CK(cudaMalloc(&states, (chunks + 64) * 8)); CK(cudaMalloc(&arr, 4096)); CK(cudaMemset(arr, 0, 4096));
  CK(cudaMalloc(&err, 4)); CK(cudaMalloc(&res, 8));
  fill<<<1024, 256>>>(d, n); CK(cudaDeviceSynchronize());
  int sms; cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0);
  size_t tb = 0; CK(cub::DeviceReduce::Sum(nullptr, tb, d, out, (int64_t)n)); void* temp; CK(cudaMalloc(&temp, tb));
  ColumnReduce r{};
  r.count = n; r.chunks = chunks; r.groups = (chunks + 2047) / 2048; r.chunk_states = states; r.group_states = states + chunks;
  r.arrivals = arr; r.result = res; r.error_word = err;
  for (int rep = 0; rep < 2; ++rep) {
    printf("cub: %.1f us\n", time_med([&] { cub::DeviceReduce::Sum(temp, tb, d, out, (int64_t)n); }));
    for (int bps : {3, 4}) {
      unsigned g = sms * bps;
      printf("%d/SM harness block_chunks<1>: %.1f us\n", bps, time_med([&] { block_chunks<1><<<g, T>>>(d, chunks, partials); }));
      printf("%d/SM library kernel: %.1f us\n", bps, time_med([&] { column_reduce_kernel<LeanOp::SumDouble, double, 0><<<g, T>>>(d, r); }));
      printf("%d/SM library no tail: %.1f us\n", bps, time_med([&] { column_reduce_kernel<LeanOp::SumDouble, double, 1><<<g, T>>>(d, r); }));
      printf("%d/SM library stop after fence: %.1f us\n", bps, time_med([&] { column_reduce_kernel<LeanOp::SumDouble, double, 8><<<g, T>>>(d, r); }));
      printf("%d/SM library stop after count-off: %.1f us\n", bps, time_med([&] { column_reduce_kernel<LeanOp::SumDouble, double, 4><<<g, T>>>(d, r); CK(cudaMemsetAsync(arr, 0, 4096)); }));
      printf("%d/SM memset alone: %.1f us\n", bps, time_med([&] { CK(cudaMemsetAsync(arr, 0, 4096)); }));
    }
  }
  double lib; CK(cudaMemcpy(&lib, res, 8, cudaMemcpyDeviceToHost));
  printf("result %.17g\n", lib);
  CK(cudaGetLastError());
  return 0;
}
