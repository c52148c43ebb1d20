// The reply of spvjit-translate (tools/spvjit_translate.cpp) to the library (translate.cpp), and
// the requests of its --serve mode. The reply: one
// byte (1: SPIR-V follows; 0: the translator's error message follows), the payload's length as 8
// little-endian bytes, the payload. The length lets the library tell a whole reply from a cut
// one without the exit status, which a host that reaps every child may have taken.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace spvjit::detail {

/// `bytes`' length as 8 little-endian bytes, appended to `out`, then `bytes`.
inline void append_with_length(std::string& out, std::string_view bytes) {
  const auto length = static_cast<std::uint64_t>(bytes.size());
  for (int byte = 0; byte < 8; ++byte)
    out.push_back(static_cast<char>((length >> (8 * byte)) & 0xff));
  out.append(bytes);
}

/// The length that append_with_length wrote in the 8 bytes at `eight`.
inline std::uint64_t length_at(std::string_view eight) {
  std::uint64_t length = 0;
  for (int byte = 0; byte < 8; ++byte) {
    length |= static_cast<std::uint64_t>(static_cast<unsigned char>(eight[byte])) << (8 * byte);
  }
  return length;
}

inline std::string encode_translator_reply(bool ok, std::string_view payload) {
  std::string reply(1, ok ? '\1' : '\0');
  append_with_length(reply, payload);
  return reply;
}

/// What `spvjit-translate --serve <seconds>` writes, alone, when it leaves after that long
/// without a request: no reply starts with it, and it has read no byte of a request since its
/// last reply, so a request sent meanwhile is sent again to a new one (ChildServer's goodbye).
inline constexpr std::string_view translator_idle_goodbye = "\2";

/// A request of `spvjit-translate --serve`: the bitcode with its length before it.
inline std::string encode_translator_request(std::string_view bitcode) {
  std::string request;
  append_with_length(request, bitcode);
  return request;
}

struct TranslatorReply {
  bool ok;
  std::string_view payload;
};

/// The reply in `out`, or nothing when `out` is not one whole reply.
inline std::optional<TranslatorReply> decode_translator_reply(std::string_view out) {
  if (out.size() < 9) return std::nullopt;
  if (out.size() - 9 != length_at(out.substr(1, 8))) return std::nullopt;
  return TranslatorReply{out[0] == '\1', out.substr(9)};
}

}  // namespace spvjit::detail
