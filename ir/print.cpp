// print(): checks the format against the arguments when called, then lowers to OpenCL C's
// printf as the SPIR-V translator recognises it: a call to the variadic `printf` whose format is
// a constant string in the constant address space (2), which becomes OpExtInst OpenCL.std printf.
// Arguments follow C's default promotions, as clang passes them for a device with doubles:
// integers narrower than int widen to i32, floats widen to double (PoCL's printf reads a
// promoted double for a scalar %f on such devices).
#include "spvjit/print.hpp"

#include <llvm/IR/Constants.h>
#include <llvm/IR/GlobalVariable.h>

#include <cstdio>
#include <cstdlib>
#include <vector>

#include "common/error_report.hpp"
#include "ir/state.hpp"

namespace spvjit {

namespace detail {

namespace {

/// One conversion of the format: `%-08.3ld` is flags "-0", width 8, precision 3, length "l",
/// conversion 'd'.
struct Conversion {
  std::string spec;   ///< the whole conversion as written, `%-08.3ld`
  std::string flags;  ///< any of "-+ #0"
  bool precision = false;
  std::string length;  ///< "", "hh", "h" or "l"
  char conversion = 0;
  std::size_t begin = 0;  ///< where `spec` starts in the format
};

bool is_flag(char c) { return c == '-' || c == '+' || c == ' ' || c == '#' || c == '0'; }

[[noreturn]] void bad_format(const BuilderState& s, std::string_view format,
                             const std::string& why) {
  user_error({"print", s.name}) << "format \"" << format << "\": " << why;
  std::abort();  // not reached: the report throws at the end of its statement
}

std::vector<Conversion> parse(const BuilderState& s, std::string_view format) {
  std::vector<Conversion> out;
  for (std::size_t i = 0; i < format.size(); ++i) {
    if (format[i] != '%') continue;
    Conversion c;
    c.begin = i;
    std::size_t j = i + 1;
    if (j < format.size() && format[j] == '%') {
      i = j;
      continue;
    }
    while (j < format.size() && is_flag(format[j])) {
      c.flags += format[j++];
    }
    while (j < format.size() && format[j] >= '0' && format[j] <= '9') ++j;
    if (j < format.size() && format[j] == '.') {
      c.precision = true;
      ++j;
      while (j < format.size() && format[j] >= '0' && format[j] <= '9') ++j;
    }
    if (j < format.size() && format[j] == '*') {
      bad_format(s, format,
                 "a `*` width or precision at offset " + std::to_string(j) +
                     "; OpenCL C's printf takes them only as digits in the format");
    }
    if (j < format.size() && format[j] == 'v') {
      bad_format(s, format,
                 "a vector conversion (%v...) at offset " + std::to_string(i) +
                     "; print takes scalars: print each lane");
    }
    const std::size_t length_begin = j;
    while (j < format.size() && (format[j] == 'h' || format[j] == 'l')) ++j;
    c.length = std::string(format.substr(length_begin, j - length_begin));
    if (j >= format.size()) bad_format(s, format, "the format ends inside a conversion");
    c.conversion = format[j];
    c.spec = std::string(format.substr(i, j + 1 - i));
    if (std::string_view("diouxXcsfFeEgGaA").find(c.conversion) == std::string_view::npos) {
      bad_format(s, format,
                 "conversion " + c.spec +
                     " is not one OpenCL C's printf supports; "
                     "expected one of %d %i %o %u %x %X %c %s %f %F %e %E %g %G %a %A %%");
    }
    if (c.length != "" && c.length != "h" && c.length != "hh" && c.length != "l") {
      bad_format(s, format,
                 "conversion " + c.spec + ": length modifier '" + c.length +
                     "'; OpenCL C's printf knows hh, h and l (64 bits)");
    }
    out.push_back(c);
    i = j;
  }
  return out;
}

unsigned bits_of(Scalar t) { return t == Scalar::Bool ? 1 : size_of(t) * 8; }

/// Empty when `t` suits conversion `c`, else what was expected instead.
std::string mismatch(const Conversion& c, Scalar t) {
  const bool integer = is_integer(t) || t == Scalar::Bool;
  switch (c.conversion) {
    case 'c':
      if (!c.length.empty() || c.precision || c.flags.find_first_not_of('-') != std::string::npos) {
        return "%c with at most a '-' flag and a width (no precision, no length modifier)";
      }
      if (!integer || bits_of(t) > 32) return "an integer of at most 32 bits (a character code)";
      return {};
    case 'f':
    case 'F':
    case 'e':
    case 'E':
    case 'g':
    case 'G':
    case 'a':
    case 'A':
      if (!c.length.empty()) {
        return "no length modifier for " + c.spec + " (f32 and f64 both print with %" +
               c.conversion + ")";
      }
      if (!is_float(t)) return "f32 or f64";
      return {};
    case 's':
      return "a C++ string (written into the format when the kernel is built)";
    default:
      break;
  }
  // Integer conversions.
  const bool wants_signed = c.conversion == 'd' || c.conversion == 'i';
  const char* sign = wants_signed          ? "a signed integer"
                     : c.conversion == 'u' ? "an unsigned integer"
                                           : "an integer";
  std::string width;
  bool fits = false;
  if (c.length.empty()) {
    width = "of at most 32 bits (use %l" + std::string(1, c.conversion) + " for 64 bits)";
    fits = bits_of(t) <= 32;
  } else if (c.length == "l") {
    width = "of 64 bits";
    fits = bits_of(t) == 64;
  } else if (c.length == "h") {
    width = "of 16 bits";
    fits = bits_of(t) == 16;
  } else {
    width = "of 8 bits";
    fits = bits_of(t) == 8;
  }
  bool sign_ok = integer;
  if (t != Scalar::Bool && integer) {
    if (c.conversion == 'd' || c.conversion == 'i') sign_ok = is_signed(t);
    if (c.conversion == 'u') sign_ok = !is_signed(t);
  }
  if (integer && sign_ok && fits) return {};
  return std::string(sign) + " " + width;
}

/// `text` as the conversion `spec` (%s with its flags, width and precision) prints it, with
/// every '%' doubled so that it stays text in the format.
std::string substituted(const std::string& spec, const std::string& text) {
  const int n = std::snprintf(nullptr, 0, spec.c_str(), text.c_str());
  std::string shown(static_cast<std::size_t>(n > 0 ? n : 0), '\0');
  if (n > 0) std::snprintf(shown.data(), shown.size() + 1, spec.c_str(), text.c_str());
  std::string out;
  for (char ch : shown) {
    out += ch;
    if (ch == '%') out += '%';
  }
  return out;
}

std::string ordinal(std::size_t i) { return "argument " + std::to_string(i + 1); }

}  // namespace

void print(KernelBuilder& kb, std::string_view format, std::span<const PrintArg> args) {
  auto& s = *detail::state_of(kb);
  s.check_open("print");
  user_assert(format.find('\0') == std::string_view::npos, {"print", s.name})
      << "the format holds a NUL character; expected text";
  const std::vector<Conversion> conversions = parse(s, format);
  user_assert(conversions.size() == args.size(), {"print", s.name})
      << "format \"" << format << "\" has " << conversions.size() << " conversion(s) but "
      << args.size() << " argument(s) were given; expected one argument per conversion";
  std::string lowered;
  std::vector<llvm::Value*> values;
  std::size_t copied = 0;
  for (std::size_t k = 0; k < args.size(); ++k) {
    const Conversion& c = conversions[k];
    const PrintArg& a = args[k];
    lowered += format.substr(copied, c.begin - copied);
    copied = c.begin + c.spec.size();
    if (a.is_text) {
      user_assert(c.conversion == 's', {"print", s.name})
          << ordinal(k) << " is the string \"" << a.text << "\" for " << c.spec
          << "; expected %s for a string";
      user_assert(c.length.empty() && c.flags.find_first_not_of('-') == std::string::npos,
                  {"print", s.name})
          << ordinal(k) << ": " << c.spec
          << " takes no length modifier and no '+', ' ', '#' or '0' flag; expected %s, %-Ns or "
             "%.Ns";
      lowered += substituted(c.spec, a.text);
      continue;
    }
    const std::string what = "print " + ordinal(k);
    s.check_same_builder(a.value, what.c_str());
    const Scalar t = a.value.type();
    const std::string expected = mismatch(c, t);
    user_assert(expected.empty(), {"print", s.name})
        << ordinal(k) << " (" << name(t) << ") for " << c.spec << " in \"" << format
        << "\"; expected " << expected;
    lowered += c.spec;
    llvm::Value* v = detail::llvm_of(a.value);
    if (is_float(t)) {
      v = s.ir.CreateFPExt(v, s.ir.getDoubleTy());
    } else if (bits_of(t) < 32) {
      v = s.ir.CreateIntCast(v, s.ir.getInt32Ty(), is_signed(t));
    }
    values.push_back(v);
  }
  lowered += format.substr(copied);

  auto* text = llvm::ConstantDataArray::getString(s.ctx(), lowered, true);
  auto* global = new llvm::GlobalVariable(
      *s.module, text->getType(), true, llvm::GlobalValue::PrivateLinkage, text, "print.format",
      nullptr, llvm::GlobalValue::NotThreadLocal, static_cast<unsigned>(AddressSpace::Constant));
  global->setUnnamedAddr(llvm::GlobalValue::UnnamedAddr::Global);
  global->setAlignment(llvm::Align(1));
  auto* zero = s.ir.getInt64(0);
  llvm::Constant* first = llvm::ConstantExpr::getInBoundsGetElementPtr(
      text->getType(), global, llvm::ArrayRef<llvm::Constant*>{zero, zero});
  auto* char_ptr =
      llvm::PointerType::get(s.ir.getInt8Ty(), static_cast<unsigned>(AddressSpace::Constant));
  auto* printf_type = llvm::FunctionType::get(s.ir.getInt32Ty(), {char_ptr}, true);
  llvm::Function* fn = s.module->getFunction("printf");
  user_assert(!fn || (fn->isDeclaration() && fn->getFunctionType() == printf_type),
              {"print", s.name})
      << "the kernel has a device function named 'printf', which print needs for OpenCL's "
         "printf; rename the device function";
  if (!fn) {
    fn = llvm::Function::Create(printf_type, llvm::Function::ExternalLinkage, "printf", *s.module);
  }
  fn->setCallingConv(llvm::CallingConv::SPIR_FUNC);
  fn->addFnAttr(llvm::Attribute::NoUnwind);
  values.insert(values.begin(), first);
  auto* call = s.ir.CreateCall(printf_type, fn, values);
  call->setCallingConv(llvm::CallingConv::SPIR_FUNC);
}

}  // namespace detail

}  // namespace spvjit
