// A 2D stencil: 3x3 box blur of a binary PGM (P5, 8-bit) image, edges clamped, checked against
// the same blur on the CPU.
//   image_blur in.pgm out.pgm                blur an existing image
//   image_blur --make-input in.pgm out.pgm   write a 640x480 test pattern first
#include <spvjit/spvjit.hpp>

#include <cstdint>
#include <cstdio>
#include <fstream>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

struct Image {
  std::size_t width = 0, height = 0;
  std::vector<std::uint8_t> pixels;
};

Image read_pgm(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  if (!f) throw std::runtime_error("cannot open " + path);
  std::string magic;
  int maxval = 0;
  Image img;
  f >> magic >> img.width >> img.height >> maxval;
  if (magic != "P5" || maxval != 255 || img.width == 0 || img.height == 0) {
    throw std::runtime_error(path + ": expected a binary 8-bit PGM (P5, maxval 255)");
  }
  f.get();  // the single whitespace after the header
  img.pixels.resize(img.width * img.height);
  f.read(reinterpret_cast<char*>(img.pixels.data()),
         static_cast<std::streamsize>(img.pixels.size()));
  if (!f) throw std::runtime_error(path + ": truncated pixel data");
  return img;
}

void write_pgm(const std::string& path, const Image& img) {
  std::ofstream f(path, std::ios::binary);
  f << "P5\n" << img.width << " " << img.height << "\n255\n";
  f.write(reinterpret_cast<const char*>(img.pixels.data()),
          static_cast<std::streamsize>(img.pixels.size()));
  if (!f) throw std::runtime_error("cannot write " + path);
}

Image test_pattern(std::size_t w, std::size_t h) {
  Image img{w, h, std::vector<std::uint8_t>(w * h)};
  for (std::size_t y = 0; y < h; ++y) {
    for (std::size_t x = 0; x < w; ++x) {
      const bool check = ((x / 16) + (y / 16)) % 2 == 0;
      img.pixels[y * w + x] =
          static_cast<std::uint8_t>(check ? (x * 255) / w : 255 - (y * 255) / h);
    }
  }
  return img;
}

spvjit::KernelDef blur_kernel() {
  using namespace spvjit;
  KernelBuilder kb("box_blur3x3");
  auto out = kb.param<Global<std::uint8_t>>("out");
  auto in = kb.param<Const<std::uint8_t>>("in");
  auto x = kb.global_index(0);
  auto y = kb.global_index(1);
  auto w = kb.ndrange(0);
  auto h = kb.ndrange(1);
  kb.if_(kb.in_ndrange(), [&] {
    auto sum = kb.var(0.0f);
    for (std::int64_t dy = -1; dy <= 1; ++dy) {
      for (std::int64_t dx = -1; dx <= 1; ++dx) {
        auto nx = min(max(x + dx, kb.lit<std::int64_t>(0)), w - std::int64_t{1});
        auto ny = min(max(y + dy, kb.lit<std::int64_t>(0)), h - std::int64_t{1});
        sum = sum.get() + cast<float>(in[ny * w + nx].get());
      }
    }
    out[y * w + x] = cast<std::uint8_t>(sum.get() / 9.0f + 0.5f);
  });
  return kb.finish();
}

std::uint8_t blur_at(const Image& img, std::size_t x, std::size_t y) {
  float sum = 0.0f;
  for (long dy = -1; dy <= 1; ++dy) {
    for (long dx = -1; dx <= 1; ++dx) {
      const long nx =
          std::min(std::max(static_cast<long>(x) + dx, 0L), static_cast<long>(img.width) - 1);
      const long ny =
          std::min(std::max(static_cast<long>(y) + dy, 0L), static_cast<long>(img.height) - 1);
      sum += static_cast<float>(
          img.pixels[static_cast<std::size_t>(ny) * img.width + static_cast<std::size_t>(nx)]);
    }
  }
  return static_cast<std::uint8_t>(sum / 9.0f + 0.5f);
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  const bool make_input = !args.empty() && args[0] == "--make-input";
  if (make_input) args.erase(args.begin());
  if (args.size() != 2) {
    std::fprintf(stderr, "usage: image_blur [--make-input] in.pgm out.pgm\n");
    return 2;
  }
  try {
    if (make_input) write_pgm(args[0], test_pattern(640, 480));
    const Image img = read_pgm(args[0]);
    spvjit::Runtime rt;
    spvjit::Jit jit(rt);
    spvjit::Kernel blur = jit.compile(blur_kernel(), {.workgroup = spvjit::WorkGroup{16, 16}});
    auto in = rt.upload(img.pixels);
    auto out = rt.zeros<std::uint8_t>(img.pixels.size());
    blur.launch(spvjit::NDRange{img.width, img.height}, out, in);
    rt.synchronize();
    Image result{img.width, img.height, out.to_vector()};
    write_pgm(args[1], result);
    std::size_t wrong = 0;
    for (std::size_t y = 0; y < img.height; ++y) {
      for (std::size_t x = 0; x < img.width; ++x) {
        if (result.pixels[y * img.width + x] != blur_at(img, x, y)) ++wrong;
      }
    }
    std::printf("image_blur: %zux%zu blurred into %s, %zu pixels differ from the CPU blur\n",
                img.width, img.height, args[1].c_str(), wrong);
    return wrong == 0 ? 0 : 1;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "image_blur: %s\n", e.what());
    return 1;
  }
}
