#include "span_log.hpp"

#include <nlohmann/json.hpp>

namespace dtsim::runtime {
namespace {

// Spans travel as JSON text: a run has thousands of spans, not millions, and names are strings.
std::string serialise(const std::vector<Span>& spans, const std::vector<double>& iteration_end_s, const std::vector<double>& staleness,
                      const std::vector<double>& staleness_clocks) {
    nlohmann::json spans_json = nlohmann::json::array();
    for (const auto& s : spans)
        spans_json.push_back({s.rank, to_string(s.lane), s.name, s.iteration, s.index, s.start_s, s.end_s, s.bytes});
    return nlohmann::json{{"spans", spans_json}, {"ends", iteration_end_s}, {"staleness", staleness}, {"staleness_clocks", staleness_clocks}}
        .dump();
}

void parse_into(const std::string& text, SpanLog::Gathered& out) {
    const auto json = nlohmann::json::parse(text);
    for (const auto& s : json.at("spans"))
        out.spans.push_back(Span{s[0].get<int>(), lane_from_string(s[1].get<std::string>()), s[2].get<std::string>(),
                                 s[3].get<int>(), s[4].get<int>(), s[5].get<double>(), s[6].get<double>(), s[7].get<double>()});
    out.iteration_end_s.push_back(json.at("ends").get<std::vector<double>>());
    for (double gap : json.at("staleness")) out.staleness.push_back(gap);
    for (double gap : json.at("staleness_clocks")) out.staleness_clocks.push_back(gap);
}

}  // namespace

void SpanLog::add(Lane lane, const char* name, int iteration, int index, double start_s, double end_s, double bytes) {
    std::lock_guard lock(mutex_);
    spans_.push_back(Span{rank_, lane, name, iteration, index, start_s, end_s, bytes});
}

SpanLog::Gathered SpanLog::gather(MPI_Comm comm) const {
    int rank = 0, size = 1;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &size);
    std::string text;
    {
        std::lock_guard lock(mutex_);
        text = serialise(spans_, iteration_end_s_, staleness_, staleness_clocks_);
    }
    int length = static_cast<int>(text.size());
    std::vector<int> lengths(static_cast<size_t>(size)), offsets(static_cast<size_t>(size));
    MPI_Gather(&length, 1, MPI_INT, lengths.data(), 1, MPI_INT, 0, comm);
    int total = 0;
    for (size_t r = 0; r < lengths.size(); ++r) {
        offsets[r] = total;
        total += lengths[r];
    }
    std::string all(rank == 0 ? static_cast<size_t>(total) : 0, '\0');
    MPI_Gatherv(text.data(), length, MPI_CHAR, all.data(), lengths.data(), offsets.data(), MPI_CHAR, 0, comm);
    Gathered out;
    if (rank != 0) return out;
    for (size_t r = 0; r < lengths.size(); ++r) parse_into(all.substr(static_cast<size_t>(offsets[r]), static_cast<size_t>(lengths[r])), out);
    return out;
}

}  // namespace dtsim::runtime
