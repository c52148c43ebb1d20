// The STREAM kernels as a KernelAbstractions user writes them (0-based here; Julia below):
//   @kernel function copy!(c, @Const(a))          i = @index(Global); c[i] = a[i]          end
//   @kernel function scale!(b, @Const(c), s)      i = @index(Global); b[i] = s * c[i]      end
//   @kernel function add!(c, @Const(a), @Const(b)) i = @index(Global); c[i] = a[i] + b[i]  end
//   @kernel function triad!(a, @Const(b), @Const(c), s)
//       i = @index(Global); a[i] = b[i] + s * c[i]
//   end
//   @kernel function dot!(partial, @Const(a), @Const(b))
//       li = @index(Local); gi = @index(Group); i = @index(Global)
//       tmp = @localmem Float64 (1024,)
//       tmp[li] = a[i] * b[i]
//       @synchronize
//       s = 512
//       while s > 0
//           if li <= s; tmp[li] += tmp[li + s]; end
//           @synchronize
//           s ÷= 2
//       end
//       if li == 1; partial[gi] = tmp[1]; end
//   end
// Like KA's, the element-wise ones do not guard their index: the launch's workgroup must divide
// the ndrange.
#include <string>

#include "spvjit/examples.hpp"
#include "spvjit/spvjit.hpp"

namespace spvjit::examples {

KernelDef stream_copy() {
  KernelBuilder kb("stream_copy");
  auto c = kb.param<Global<double>>("c");
  auto a = kb.param<Const<double>>("a");
  auto i = kb.global_index();
  c[i] = a[i];
  return kb.finish();
}

KernelDef stream_scale() {
  KernelBuilder kb("stream_scale");
  auto b = kb.param<Global<double>>("b");
  auto c = kb.param<Const<double>>("c");
  auto s = kb.param<double>("s");
  auto i = kb.global_index();
  b[i] = s * c[i];
  return kb.finish();
}

KernelDef stream_add() {
  KernelBuilder kb("stream_add");
  auto c = kb.param<Global<double>>("c");
  auto a = kb.param<Const<double>>("a");
  auto b = kb.param<Const<double>>("b");
  auto i = kb.global_index();
  c[i] = a[i] + b[i];
  return kb.finish();
}

KernelDef stream_triad() {
  KernelBuilder kb("stream_triad");
  auto a = kb.param<Global<double>>("a");
  auto b = kb.param<Const<double>>("b");
  auto c = kb.param<Const<double>>("c");
  auto s = kb.param<double>("s");
  auto i = kb.global_index();
  a[i] = b[i] + s * c[i];
  return kb.finish();
}

namespace {

void check_dot_group(const char* kernel, std::int64_t group) {
  if (group < 1 || group > 4096 || (group & (group - 1)) != 0) {
    throw UserError(std::string("examples::") + kernel + ": group " + std::to_string(group) +
                    "; expected a power of two from 1 to 4096");
  }
}

// The dots' reduction: each work-item's `value` into local memory, halves folded onto the first
// half level by level with a barrier each, and work-item 0 writing the group's sum to
// partial[gi].
template <class Partial, class Index, class V>
void sum_group_into(KernelBuilder& kb, std::int64_t group, Partial& partial, const Index& li,
                    const Index& gi, const V& value) {
  auto tmp = local_array<double>(kb, {group}, "tmp");
  tmp(li) = value;
  barrier(kb, Fence::Local);
  auto s = kb.var(kb.lit(group / 2));
  kb.while_([&] { return s > 0; },
            [&] {
              kb.if_(li < s, [&] { tmp(li) += tmp(li + s); });
              barrier(kb, Fence::Local);
              s /= 2;
            });
  kb.if_(li == 0, [&] { partial[gi] = tmp(0); });
}

}  // namespace

KernelDef stream_dot(std::int64_t group) {
  check_dot_group("stream_dot", group);
  KernelBuilder kb("stream_dot" + std::to_string(group));
  auto partial = kb.param<Global<double>>("partial");
  auto a = kb.param<Const<double>>("a");
  auto b = kb.param<Const<double>>("b");
  auto li = kb.local_index();
  auto gi = kb.group_index();
  auto i = kb.global_index();
  sum_group_into(kb, group, partial, li, gi, a[i] * b[i]);
  return kb.finish();
}

KernelDef stream_dot_grid_stride(std::int64_t group) {
  check_dot_group("stream_dot_grid_stride", group);
  KernelBuilder kb("stream_dot_grid_stride" + std::to_string(group));
  auto partial = kb.param<Global<double>>("partial");
  auto a = kb.param<Const<double>>("a");
  auto b = kb.param<Const<double>>("b");
  auto n = kb.param<std::int64_t>("n");
  auto li = kb.local_index();
  auto gi = kb.group_index();
  auto sum = kb.var(kb.lit(0.0));
  kb.for_(kb.global_index(), n, kb.ndrange(), [&](Val<std::int64_t> j) { sum += a[j] * b[j]; });
  sum_group_into(kb, group, partial, li, gi, sum);
  return kb.finish();
}

KernelDef stream_sum_grid_stride(std::int64_t group) {
  check_dot_group("stream_sum_grid_stride", group);
  KernelBuilder kb("stream_sum_grid_stride" + std::to_string(group));
  auto partial = kb.param<Global<double>>("partial");
  auto a = kb.param<Const<double>>("a");
  auto n = kb.param<std::int64_t>("n");
  auto li = kb.local_index();
  auto gi = kb.group_index();
  auto sum = kb.var(kb.lit(0.0));
  kb.for_(kb.global_index(), n, kb.ndrange(), [&](Val<std::int64_t> j) { sum += a[j]; });
  sum_group_into(kb, group, partial, li, gi, sum);
  return kb.finish();
}

KernelDef stream_triad_grid_stride() {
  KernelBuilder kb("stream_triad_grid_stride");
  auto a = kb.param<Global<double>>("a");
  auto b = kb.param<Const<double>>("b");
  auto c = kb.param<Const<double>>("c");
  auto s = kb.param<double>("s");
  auto n = kb.param<std::int64_t>("n");
  kb.for_(kb.global_index(), n, kb.ndrange(), [&](Val<std::int64_t> j) { a[j] = b[j] + s * c[j]; });
  return kb.finish();
}

KernelDef sum_squares_columns(std::int64_t group) {
  check_dot_group("sum_squares_columns", group);
  KernelBuilder kb("sum_squares_columns" + std::to_string(group));
  auto out = kb.param<Global<double>>("out");
  auto a = kb.param<Const<double>>("a");
  auto rows = kb.param<std::int64_t>("rows");
  auto li = kb.local_index();
  auto column = kb.group_index();
  auto first = column * rows;
  auto sum = kb.var(kb.lit(0.0));
  kb.for_(li, rows, kb.lit(group), [&](Val<std::int64_t> i) {
    const Val<double> x = a[first + i];
    sum += x * x;
  });
  sum_group_into(kb, group, out, li, column, sum);
  return kb.finish();
}

}  // namespace spvjit::examples
