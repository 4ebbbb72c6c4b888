#pragma once
// One table per vocabulary: the names an enum's values have in scenarios, profiles and samples files.
// Every reader and writer of that vocabulary goes through its table, so a name is spelled once.
#include <array>
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace dtsim {

template <typename Enum, std::size_t N>
struct NameTable {
    std::array<std::pair<Enum, std::string_view>, N> entries;

    /// The value's name; every value of the enum is in the table (a test checks each table).
    constexpr std::string_view name(Enum value) const {
        for (const auto& [entry, text] : entries)
            if (entry == value) return text;
        return "?";
    }
    constexpr std::optional<Enum> parse(std::string_view text) const {
        for (const auto& [entry, name_of_entry] : entries)
            if (name_of_entry == text) return entry;
        return std::nullopt;
    }
    std::vector<std::string_view> names() const {
        std::vector<std::string_view> out;
        for (const auto& entry : entries) out.push_back(entry.second);
        return out;
    }
    /// "a | b | c", for messages that list the choices.
    std::string choices() const {
        std::string out;
        for (const auto& entry : entries) out += (out.empty() ? "" : " | ") + std::string(entry.second);
        return out;
    }
};

template <typename Enum, typename... Names>
constexpr auto make_name_table(std::pair<Enum, Names>... entries) {
    return NameTable<Enum, sizeof...(Names)>{{std::pair<Enum, std::string_view>(entries.first, entries.second)...}};
}

}  // namespace dtsim
