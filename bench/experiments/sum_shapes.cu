// A stand-alone experiment, not built by CMake: kernel shapes for SUM of
// 2^27 DOUBLEs in aggregate_state.hpp's canonical order (chunks of 2048
// values, thread t folding items k*256+t, a warp tree, a tree of 8 warps),
// each checked bit for bit against the host and timed (cudaEvent, median of
// 25) beside cub::DeviceReduce::Sum. kernels/column_reduce.cu took its shape
// from here; its comments give what this printed on an H100 (2026-11-23).
//   nvcc -O3 -arch=sm_90 -std=c++17 -o sum_shapes bench/experiments/sum_shapes.cu && ./sum_shapes
// Shapes: block_chunks (a block a chunk, the next chunk's loads before the
// tree; even share or grid-stride), warp_chunks (a warp a chunk), fused
// (block_chunks counting off each chunk for the last-block combine),
// separate (block_chunks and the two combine passes as kernels), and
// ceiling (one running sum a thread: not the canonical order, the bound).
#include <cub/cub.cuh>
#include <cstdio>
#include <vector>
#include <algorithm>
#include <cstring>
#include <cstdint>
#include <cstdlib>
#define CK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { printf("CUDA %s line %d\n", cudaGetErrorString(e), __LINE__); exit(1);} } while (0)
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

// warp per chunk, 8 canonical warps of the chunk one after the other, loads of the next step first
template <int MODE>
__global__ void __launch_bounds__(T) warp_chunks(const double* __restrict__ d, uint64_t chunks, double* __restrict__ partials) {
  const int lane = threadIdx.x % 32;
  const uint64_t warps = (uint64_t)gridDim.x * (T / 32);
  const uint64_t gw = blockIdx.x * (uint64_t)(T / 32) + threadIdx.x / 32;
  uint64_t begin, end, stride;
  if (MODE == 0) {
    uint64_t per = chunks / warps, extra = chunks % warps;
    begin = gw * per + (gw < extra ? gw : extra); end = begin + per + (gw < extra); stride = 1;
  } else { begin = gw; end = chunks; stride = warps; }
  for (uint64_t c = begin; c < end; c += stride) {
    double w[8];
#pragma unroll
    for (int cw = 0; cw < 8; ++cw) {
      double v[K];
#pragma unroll
      for (int k = 0; k < K; ++k) v[k] = __ldg(d + c * C + k * T + cw * 32 + lane);
      double s = v[0];
#pragma unroll
      for (int k = 1; k < K; ++k) s = s + v[k];
      w[cw] = tree32(s);
    }
    // tree over 8 warps: offsets 4,2,1
    double a = ((w[0] + w[4]) + (w[2] + w[6])) + ((w[1] + w[5]) + (w[3] + w[7]));
    if (lane == 0) partials[c] = a;
  }
}

__global__ void __launch_bounds__(T) ceiling(const double* __restrict__ d, uint64_t n, double* out) {
  double s = 0;
  for (uint64_t i = blockIdx.x * (uint64_t)C + threadIdx.x; i < n; i += (uint64_t)gridDim.x * C) {
    double v[K];
#pragma unroll
    for (int k = 0; k < K; ++k) v[k] = __ldg(d + i + k * T);
#pragma unroll
    for (int k = 0; k < K; ++k) s += v[k];
  }
  s = tree32(s);
  if (threadIdx.x % 32 == 0) atomicAdd(out, s);
}


// combine group g of level L (states in[], n of them) into out[g]: canonical chunk tree, empties beyond n.
__device__ __forceinline__ void combine_group(const double* in, uint64_t n, uint64_t g, double* out, double (&ws)[8]) {
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  double items[K]; double s = 0;
#pragma unroll
  for (int k = 0; k < K; ++k) { uint64_t p = g * C + k * T + threadIdx.x; items[k] = p < n ? __ldcg(in + p) : 0.0; }
  // empties: positions beyond n; with doubles, track count
  int cnt = 0;
#pragma unroll
  for (int k = 0; k < K; ++k) { uint64_t p = g * C + k * T + threadIdx.x; if (p < n) { s = cnt ? s + items[k] : items[k]; ++cnt; } }
  // warp tree with empties
#pragma unroll
  for (int o = 16; o > 0; o /= 2) {
    double t = __shfl_down_sync(0xffffffffu, s, o); int tc = __shfl_down_sync(0xffffffffu, cnt, o);
    if (lane < o && tc) { s = cnt ? s + t : t; cnt += tc; }
  }
  __syncthreads();
  if (lane == 0) ws[warp] = cnt ? s : __longlong_as_double(0x7ff4000000000000ll);
  __syncthreads();
  if (warp == 0) {
    double w = lane < 8 ? ws[lane] : 0.0; int wc = lane < 8 && __double_as_longlong(w) != 0x7ff4000000000000ll;
#pragma unroll
    for (int o = 4; o > 0; o /= 2) {
      double t = __shfl_down_sync(0xffffffffu, w, o); int tc = __shfl_down_sync(0xffffffffu, wc, o);
      if (lane < o && tc) { w = wc ? w + t : t; wc += tc; }
    }
    if (lane == 0) out[g] = w;
  }
  __syncthreads();
}

struct Levels { double* states[4]; uint64_t counts[4]; unsigned* counters[4]; int levels; };

// thread 0: after writing states[L][i]: arrive at group i/C of level L+1; returns whether last.
__device__ __forceinline__ unsigned arrive(const Levels& lv, int L, uint64_t i) {
  __threadfence();
  const uint64_t g = i / C;
  const uint64_t size = min((uint64_t)C, lv.counts[L] - g * C);
  unsigned old = atomicAdd(lv.counters[L + 1] + g, 1u);
  return old == size - 1 ? 1u : 0u;
}

__device__ void finish_groups(const Levels& lv, uint64_t c, double (&ws)[8], unsigned* flag) {
  // block-uniform: the block completed group c/C of level 1
  int L = 0; uint64_t i = c;
  while (true) {
    const uint64_t g = i / C;
    if (threadIdx.x == 0) lv.counters[L + 1][g] = 0;  // self-cleaning
    combine_group(lv.states[L], lv.counts[L], g, lv.states[L + 1], ws);
    ++L; i = g;
    if (L + 1 >= lv.levels) break;
    if (threadIdx.x == 0) *flag = arrive(lv, L, i);
    __syncthreads();
    const unsigned last = *flag;
    __syncthreads();
    if (!last) break;
  }
}

__global__ void __launch_bounds__(T) fused(const double* __restrict__ d, Levels lv) {
  __shared__ double ws[2][8];
  __shared__ double cws[8];
  __shared__ unsigned flag[2];
  __shared__ unsigned fflag;
  __shared__ uint64_t pchunk[2];
  const uint64_t chunks = lv.counts[0];
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  double v[K];
  uint64_t c = blockIdx.x;
  if (c < chunks) {
#pragma unroll
    for (int k = 0; k < K; ++k) v[k] = __ldg(d + c * C + k * T + threadIdx.x);
  }
  int p = 0;
  unsigned pending = 0; uint64_t pending_chunk = 0;
  for (; c < chunks; c += gridDim.x, p ^= 1) {
    double s = v[0];
#pragma unroll
    for (int k = 1; k < K; ++k) s = s + v[k];
    const uint64_t n = c + gridDim.x;
    if (n < chunks) {
#pragma unroll
      for (int k = 0; k < K; ++k) v[k] = __ldg(d + n * C + k * T + threadIdx.x);
    }
    s = tree32(s);
    if (lane == 0) ws[p][warp] = s;
    if (threadIdx.x == 0) { flag[p] = pending; pchunk[p] = pending_chunk; }
    __syncthreads();
    if (flag[p]) finish_groups(lv, pchunk[p], cws, &fflag);  // block-uniform
    if (warp == 0) {
      double w = lane < 8 ? ws[p][lane] : 0.0;
      w = tree8(w);
      if (lane == 0) { lv.states[0][c] = w; pending = arrive(lv, 0, c); pending_chunk = c; }
    }
  }
  __syncthreads();
  if (threadIdx.x == 0) { fflag = pending; pchunk[0] = pending_chunk; }
  __syncthreads();
  if (fflag) { __syncthreads(); finish_groups(lv, pchunk[0], cws, &fflag); }
}

__global__ void combine_kernel(const double* in, uint64_t n, double* out) {
  __shared__ double ws[8];
  combine_group(in, n, blockIdx.x, out, ws);
}

template <class F> float time_med(F f, int reps = 25) {
  cudaEvent_t a, b; cudaEventCreate(&a); cudaEventCreate(&b);
  std::vector<float> t;
  f(); CK(cudaDeviceSynchronize());
  for (int r = 0; r < reps; ++r) { cudaEventRecord(a); f(); cudaEventRecord(b); cudaEventSynchronize(b); float ms; cudaEventElapsedTime(&ms, a, b); t.push_back(ms); }
  std::sort(t.begin(), t.end()); return t[t.size() / 2] * 1000.0f;
}

int main() {
  const uint64_t n = 1ull << 27, chunks = n / C;
  double *d, *partials, *partials2, *out;
  CK(cudaMalloc(&d, n * 8)); CK(cudaMalloc(&partials, chunks * 8)); CK(cudaMalloc(&partials2, chunks * 8)); CK(cudaMalloc(&out, 8));
  fill<<<1024, 256>>>(d, n); CK(cudaDeviceSynchronize());
  int sms; cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0);
  size_t tb = 0; CK(cub::DeviceReduce::Sum(nullptr, tb, d, out, (int64_t)n)); void* temp; CK(cudaMalloc(&temp, tb));
  printf("cub DeviceReduce::Sum: %.1f us\n", time_med([&] { cub::DeviceReduce::Sum(temp, tb, d, out, (int64_t)n); }));
  // host reference partials
  std::vector<double> h(n); CK(cudaMemcpy(h.data(), d, n * 8, cudaMemcpyDeviceToHost));
  std::vector<double> ref(chunks);
  for (uint64_t c = 0; c < chunks; ++c) {
    double th[T];
    for (int t = 0; t < T; ++t) { double s = h[c * C + t]; for (int k = 1; k < K; ++k) s = s + h[c * C + k * T + t]; th[t] = s; }
    double w[8];
    for (int wi = 0; wi < 8; ++wi) { double* l = th + wi * 32; for (int o = 16; o > 0; o /= 2) for (int i = 0; i < o; ++i) l[i] = l[i] + l[i + o]; w[wi] = l[0]; }
    for (int o = 4; o > 0; o /= 2) for (int i = 0; i < o; ++i) w[i] = w[i] + w[i + o];
    ref[c] = w[0];
  }
  std::vector<double> got(chunks);
  auto check = [&](const char* name) {
    CK(cudaMemcpy(got.data(), partials, chunks * 8, cudaMemcpyDeviceToHost));
    bool same = memcmp(got.data(), ref.data(), chunks * 8) == 0;
    printf("  %s bits %s\n", name, same ? "same as host" : "DIFFER");
    CK(cudaMemset(partials, 0, chunks * 8));
  };

  {
    const uint64_t n1 = (chunks + C - 1) / C;
    double *l1, *l2; unsigned* counters; CK(cudaMalloc(&l1, n1 * 8)); CK(cudaMalloc(&l2, 8)); CK(cudaMalloc(&counters, (n1 + 1) * 4));
    CK(cudaMemset(counters, 0, (n1 + 1) * 4));
    double want = 0;
    for (int bps : {3, 4}) {
      unsigned g = sms * bps;
      printf("separate: fold %d/SM + 2 combine kernels: %.1f us\n", bps, time_med([&] {
        block_chunks<1><<<g, T>>>(d, chunks, partials); combine_kernel<<<n1, T>>>(partials, chunks, l1); combine_kernel<<<1, T>>>(l1, n1, l2); }));
      CK(cudaMemcpy(&want, l2, 8, cudaMemcpyDeviceToHost));
      Levels lv{{partials, l1, l2, nullptr}, {chunks, n1, 1, 0}, {nullptr, counters, counters + n1, nullptr}, 3};
      CK(cudaMemset(l2, 0, 8));
      printf("fused %d/SM: %.1f us\n", bps, time_med([&] { fused<<<g, T>>>(d, lv); }));
      double got2; CK(cudaMemcpy(&got2, l2, 8, cudaMemcpyDeviceToHost));
      std::vector<unsigned> hc(n1 + 1); CK(cudaMemcpy(hc.data(), counters, (n1 + 1) * 4, cudaMemcpyDeviceToHost));
      unsigned nz = 0; for (unsigned x : hc) nz += x != 0;
      printf("  fused result %s (%.17g vs %.17g), nonzero counters %u\n", memcmp(&got2, &want, 8) == 0 ? "same bits" : "DIFFER", got2, want, nz);
      check("fused partials");
    }
    printf("cub again: %.1f us\n", time_med([&] { cub::DeviceReduce::Sum(temp, tb, d, out, (int64_t)n); }));
  }
  for (int bps : {2, 3, 4, 6, 8}) {
    unsigned g = sms * bps;
    printf("block/chunk even-share %d/SM: %.1f us\n", bps, time_med([&] { block_chunks<0><<<g, T>>>(d, chunks, partials); })); check("even");
    printf("block/chunk grid-stride %d/SM: %.1f us\n", bps, time_med([&] { block_chunks<1><<<g, T>>>(d, chunks, partials); })); check("stride");
    printf("warp/chunk even-share %d/SM: %.1f us\n", bps, time_med([&] { warp_chunks<0><<<g, T>>>(d, chunks, partials); })); check("weven");
    printf("warp/chunk grid-stride %d/SM: %.1f us\n", bps, time_med([&] { warp_chunks<1><<<g, T>>>(d, chunks, partials); })); check("wstride");
    printf("ceiling %d/SM: %.1f us\n", bps, time_med([&] { ceiling<<<g, T>>>(d, n, out); }));
  }
  CK(cudaGetLastError());
  return 0;
}
