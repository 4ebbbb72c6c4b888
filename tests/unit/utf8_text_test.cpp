#include <catch2/catch.hpp>

#include "dtsim/input_error.hpp"
#include "dtsim/utf8_text.hpp"

namespace utf8_text_test {

using namespace dtsim;

TEST_CASE("invalid_utf8_offset finds the first byte that is not well-formed UTF-8", "[unit][utf8]") {
    CHECK_FALSE(invalid_utf8_offset(""));
    CHECK_FALSE(invalid_utf8_offset("plain ascii"));
    CHECK_FALSE(invalid_utf8_offset("8 \xc3\x97 H100, 5 \xc2\xb5s, \xe2\x82\xac, \xf0\x9f\x9a\x80"));  // ×, µ, €, a 4-byte emoji
    CHECK(invalid_utf8_offset("caf\xe9") == 3u);                         // Latin-1
    CHECK(invalid_utf8_offset("ab\xc3") == 2u);                          // cut short at the end
    CHECK(invalid_utf8_offset("a\xc3(b") == 1u);                         // a lead byte without its continuation
    CHECK(invalid_utf8_offset("\x80") == 0u);                            // a lone continuation byte
    CHECK(invalid_utf8_offset("x\xc0\xaf") == 1u);                       // overlong '/'
    CHECK(invalid_utf8_offset("\xe0\x80\xaf") == 0u);                    // overlong, three bytes
    CHECK(invalid_utf8_offset("ok\xed\xa0\x80") == 2u);                  // a surrogate (U+D800)
    CHECK(invalid_utf8_offset("\xf4\x90\x80\x80") == 0u);                // above U+10FFFF
    CHECK(invalid_utf8_offset("\xf5\x80\x80\x80") == 0u);                // no such lead byte
    CHECK_FALSE(invalid_utf8_offset("\xf4\x8f\xbf\xbf"));               // U+10FFFF itself
}

TEST_CASE("printable_text escapes what a terminal acts on and keeps the rest", "[unit][utf8]") {
    CHECK(printable_text("resnet50 \xc3\x97 8") == "resnet50 \xc3\x97 8");
    CHECK(printable_text("red\x1b[31m") == "red\\x1b[31m");
    CHECK(printable_text("a\nb\tc\x07") == "a\\x0ab\\x09c\\x07");
    CHECK(printable_text("del\x7f") == "del\\x7f");
    CHECK(printable_text("csi\xc2\x9b" "2J") == "csi\\u009b2J");  // C1 control, as UTF-8
    CHECK(printable_text("caf\xe9!") == "caf\\xe9!");
    CHECK(printable_text(std::string("nul\0end", 7)) == "nul\\x00end");
}

TEST_CASE("require_utf8 names where the text came from and the first bad byte", "[unit][utf8]") {
    CHECK_NOTHROW(require_utf8("fine \xc3\x97", "command line: --label"));
    CHECK_THROWS_AS(require_utf8("caf\xe9", "command line: --label"), InputError);
    CHECK_THROWS_WITH(require_utf8("caf\xe9", "s.yaml:3: key 'name'"),
                      "s.yaml:3: key 'name': expected UTF-8 text, got the byte 0xe9 in 'caf\\xe9'");
    // Of a long value, the part around the byte.
    // (Built by appending: GCC 12's -Warray-bounds misreads `std::string(100, 'a') + "\xff"` at -O2.)
    std::string long_value(100, 'a');
    long_value += '\xff';
    long_value.append(100, 'b');
    CHECK_THROWS_WITH(require_utf8(long_value, "here"),
                      "here: expected UTF-8 text, got the byte 0xff in '..." + std::string(20, 'a') + "\\xff" +
                          std::string(19, 'b') + "...'");
}

}  // namespace utf8_text_test
