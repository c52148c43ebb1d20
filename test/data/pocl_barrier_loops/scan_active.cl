// Blelloch exclusive scan of n ints (n a power of two, 2 <= n <= 256, local size >= n / 2) in one
// work-group. The work-items that take part in the last level of the down-sweep write the
// results. `active` is written in every iteration and n >= 2, so it is set when read; clang -O2
// sends the loop's zero-trip path (where it is not) straight to the stores.
__kernel void scan_active(__global const int* in, __global int* out, uint n) {
  __local int tmp[256];
  uint t = get_local_id(0);
  uint m = n >> 1;
  if (t < m) {
    tmp[2 * t] = in[2 * t];
    tmp[2 * t + 1] = in[2 * t + 1];
  }
  uint offset = 1;
  uint d = m;
  while (d > 0) {  // up-sweep
    barrier(CLK_LOCAL_MEM_FENCE);
    if (t < d) {
      uint ai = offset * (2 * t + 1) - 1, bi = offset * (2 * t + 2) - 1;
      tmp[bi] += tmp[ai];
    }
    offset <<= 1;
    d >>= 1;
  }
  if (t == 0) tmp[n - 1] = 0;
  bool active;
  d = 1;
  while (d < n) {  // down-sweep
    offset >>= 1;
    barrier(CLK_LOCAL_MEM_FENCE);
    active = t < d;
    if (active) {
      uint ai = offset * (2 * t + 1) - 1, bi = offset * (2 * t + 2) - 1;
      int x = tmp[ai];
      tmp[ai] = tmp[bi];
      tmp[bi] += x;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    d <<= 1;
  }
  if (active) {
    out[2 * t] = tmp[2 * t];
    out[2 * t + 1] = tmp[2 * t + 1];
  }
}
