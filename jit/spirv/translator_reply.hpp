// The reply of spvjit-translate (tools/spvjit_translate.cpp) to the library (translate.cpp): one
// byte (1: SPIR-V follows; 0: the translator's error message follows), the payload's length as 8
// little-endian bytes, the payload. The length lets the library tell a whole reply from a cut
// one without the exit status, which a host that reaps every child may have taken.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace spvjit::detail {

inline std::string encode_translator_reply(bool ok, std::string_view payload) {
  std::string reply(1, ok ? '\1' : '\0');
  const auto length = static_cast<std::uint64_t>(payload.size());
  for (int byte = 0; byte < 8; ++byte)
    reply.push_back(static_cast<char>((length >> (8 * byte)) & 0xff));
  reply.append(payload);
  return reply;
}

struct TranslatorReply {
  bool ok;
  std::string_view payload;
};

/// The reply in `out`, or nothing when `out` is not one whole reply.
inline std::optional<TranslatorReply> decode_translator_reply(std::string_view out) {
  if (out.size() < 9) return std::nullopt;
  std::uint64_t length = 0;
  for (int byte = 0; byte < 8; ++byte) {
    length |= static_cast<std::uint64_t>(static_cast<unsigned char>(out[1 + byte])) << (8 * byte);
  }
  if (out.size() - 9 != length) return std::nullopt;
  return TranslatorReply{out[0] == '\1', out.substr(9)};
}

}  // namespace spvjit::detail
