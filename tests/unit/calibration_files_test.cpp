// The calibration file formats written and read by calibrate/: samples.jsonl and environment.json.
#include <catch2/catch.hpp>

#include <fstream>

#include "dtsim/calibrate/environment.hpp"
#include "dtsim/calibrate/fit_verdict.hpp"
#include "dtsim/calibrate/samples.hpp"
#include "dtsim/input_error.hpp"
#include "dtsim/name_table.hpp"
#include "test_support.hpp"

namespace calibration_files_test {

using namespace dtsim;
using namespace dtsim::calibrate;

namespace {

Sample network_sample() {
    Sample s;
    s.key = "allreduce/latency/4r/1024";
    s.op = NetworkOp::allreduce;
    s.mode = TimingMode::latency;
    s.dtype = "float32";
    s.backend = "mpi";
    s.link_class = LinkClass::inter_node;
    s.ranks = 4;
    s.nodes = 4;
    s.bytes = 1024;
    s.time_s = 2.5e-5;
    s.iteration_times_s = {2.5e-5, 3e-5};
    s.iterations = 2;
    s.warmup = 1;
    s.timestamp = "2026-11-25T12:00:00Z";
    return s;
}

Sample codec_sample() {
    Sample s;
    s.key = "codec/topk_decode/65536";
    s.op = ComputeOp::codec;
    s.device = "cpu";
    s.backend = "mpi";
    s.ranks = 5;
    s.nodes = 5;
    s.bytes = 65536;
    s.kernel = CodecKernel::topk_decode;
    s.ratio = 0.01;
    s.blocks = 8;
    s.time_s = 1e-4;
    s.iteration_times_s = {1e-4};
    s.iterations = 1;
    return s;
}

Sample gemm_sample() {
    Sample s;
    s.key = "gemm/float32/64x128x256";
    s.op = ComputeOp::gemm;
    s.dtype = "float32";
    s.device = "cpu";
    s.backend = "mpi";
    s.m = 64;
    s.n = 128;
    s.k = 256;
    s.flops = 2.0 * 64 * 128 * 256;
    s.time_s = 1e-3;
    return s;
}

void check_same(const Sample& a, const Sample& b) {
    CHECK(a.key == b.key);
    CHECK(a.op == b.op);
    CHECK(a.mode == b.mode);
    CHECK(a.dtype == b.dtype);
    CHECK(a.device == b.device);
    CHECK(a.backend == b.backend);
    CHECK(a.link_class == b.link_class);
    CHECK(a.ranks == b.ranks);
    CHECK(a.nodes == b.nodes);
    CHECK(a.bytes == b.bytes);
    CHECK(a.m == b.m);
    CHECK(a.n == b.n);
    CHECK(a.k == b.k);
    CHECK(a.flops == b.flops);
    CHECK(a.kernel == b.kernel);
    CHECK(a.ratio == b.ratio);
    CHECK(a.blocks == b.blocks);
    CHECK(a.time_s == b.time_s);
    CHECK(a.iteration_times_s == b.iteration_times_s);
    CHECK(a.iterations == b.iterations);
    CHECK(a.warmup == b.warmup);
    CHECK(a.timestamp == b.timestamp);
}

}  // namespace

TEST_CASE("samples.jsonl: what the writer writes, the reader reads back", "[unit][calibrate]") {
    const std::vector<Sample> samples{network_sample(), codec_sample(), gemm_sample()};
    test::TempDir dir;
    {
        std::ofstream out(dir.file("samples.jsonl"));
        for (const auto& sample : samples) out << sample_to_json_line(sample) << "\n";
    }
    const auto file = read_samples_file(dir.file("samples.jsonl"));
    CHECK(file.truncated_lines == 0);
    REQUIRE(file.samples.size() == samples.size());
    for (size_t i = 0; i < samples.size(); ++i) {
        INFO(samples[i].key);
        check_same(file.samples[i], samples[i]);
    }
}

TEST_CASE("samples.jsonl: the writer's fields and their order", "[unit][calibrate]") {
    CHECK(sample_to_json_line(network_sample()) ==
          R"({"key":"allreduce/latency/4r/1024","op":"allreduce","mode":"latency","link_class":"inter_node",)"
          R"("backend":"mpi","dtype":"float32","bytes":1024,"count":256,"ranks":4,"nodes":4,"time_s":2.5e-05,)"
          R"("algbw_GBps":0.04096,"busbw_GBps":0.06144000000000001,"iterations":2,"warmup":1,"iteration_times_s":[2.5e-05,3e-05],)"
          // 1.4826 × the median absolute deviation (2.5 us) over the median (27.5 us)
          R"("stalls":0,"spread":0.13478181818181817,"timestamp":"2026-11-25T12:00:00Z"})");
    CHECK(sample_to_json_line(codec_sample()) ==
          R"({"key":"codec/topk_decode/65536","op":"codec","backend":"mpi","device":"cpu","bytes":65536,)"
          R"("bytes_per_s":655360000.0,"kernel":"topk_decode","ratio":0.01,"blocks":8,"ranks":5,"nodes":5,)"
          R"("time_s":0.0001,"iterations":1,"warmup":0,"iteration_times_s":[0.0001],"stalls":0,"spread":0.0})");
}

TEST_CASE("samples.jsonl: errors name the file, the line and the key", "[unit][calibrate]") {
    test::TempDir dir;
    auto bad = sample_to_json_line(codec_sample());
    bad.replace(bad.find("topk_decode\",\"ratio"), 11, "topk_decoed");
    {
        std::ofstream out(dir.file("samples.jsonl"));
        out << sample_to_json_line(network_sample()) << "\n\n" << bad << "\n";
    }
    CHECK_THROWS_WITH(read_samples_file(dir.file("samples.jsonl")),
                      Catch::Contains("samples.jsonl:3: key 'kernel'") && Catch::Contains("did you mean 'topk_decode'"));
}

TEST_CASE("environment.json: what the writer writes, the reader reads back", "[unit][calibrate]") {
    CalibrationEnvironment written;
    written.date = "2026-11-25T12:00:00Z";
    written.command = "dtsim-runtime calibrate --backend mpi --out . --quick";
    written.backend = "mpi";
    written.ranks = 4;
    written.nodes = 2;
    written.node_of_rank = {0, 0, 1, 1};
    written.hosts = {{"h0", {0, 1}}, {"h1", {2, 3}}};
    written.machines = {{2, {0, 1, 2, 3}}};
    written.communicator_name = "mpi";
    written.communicator_version = "Open MPI v4.1.4";
    written.device_json = R"({"device":"cpu","blas_threads":1})";
    written.mpi_library = "Open MPI v4.1.4";
    written.quick = true;
    written.mpi_collective_algorithms = {{"coll_tuned_allreduce_algorithm", "4"}};
    written.mpi_transport = {{"btl_tcp_eager_limit", "1073741824"}};

    const auto text = environment_to_json(written);
    const auto read = environment_from_json(text, "environment.json");
    CHECK(read.tool == written.tool);
    CHECK(read.date == written.date);
    CHECK(read.command == written.command);
    CHECK(read.backend == written.backend);
    CHECK(read.ranks == written.ranks);
    CHECK(read.nodes == written.nodes);
    CHECK(read.node_of_rank == written.node_of_rank);
    REQUIRE(read.hosts.size() == 2);
    CHECK(read.hosts[1].host == "h1");
    CHECK(read.hosts[1].ranks == std::vector<int>{2, 3});
    REQUIRE(read.machines.size() == 1);
    CHECK(read.machines[0].cores == 2);
    CHECK(read.machines[0].ranks == std::vector<int>{0, 1, 2, 3});
    CHECK(read.communicator_name == written.communicator_name);
    CHECK(read.communicator_version == written.communicator_version);
    CHECK(read.device_json == written.device_json);
    CHECK(read.mpi_library == written.mpi_library);
    CHECK(read.quick);
    CHECK(read.mpi_collective_algorithms == written.mpi_collective_algorithms);
    CHECK(read.mpi_transport == written.mpi_transport);
    CHECK(environment_to_json(read) == text);

    const auto shared = shared_cores(read);
    REQUIRE(shared);
    CHECK(shared->cores == 2);
    CHECK(shared->ranks == 4);
}

TEST_CASE("environment.json: keys are optional, a value of the wrong kind is located", "[unit][calibrate]") {
    const auto empty = environment_from_json("{}", "e.json");
    CHECK(empty.ranks == 0);
    CHECK(empty.machines.empty());
    CHECK_FALSE(shared_cores(empty));
    CHECK_THROWS_WITH(environment_from_json("{\n  \"ranks\": 4,\n  \"nodes\": \"two\"\n}", "e.json"),
                      Catch::Contains("e.json:3: key 'nodes'"));
    CHECK_THROWS_WITH(environment_from_json("[1]", "e.json"), Catch::Contains("e.json: expected a JSON object"));
}

TEST_CASE("environment.json: the command names no machine paths", "[unit][calibrate]") {
    CHECK(calibration_command({"/work/main/build/bin/dtsim-runtime", "calibrate", "--backend", "mpi", "--out",
                               "/work/main/bench/results/testbed", "--max", "16MiB"}) ==
          "dtsim-runtime calibrate --backend mpi --out . --max 16MiB");
    CHECK(calibration_command({"build/bin/dtsim-runtime", "calibrate", "--out=/tmp/x"}) == "dtsim-runtime calibrate --out=.");
}

TEST_CASE("name tables: every value of the calibration vocabularies has a name that parses back", "[unit][calibrate]") {
    for (const auto& [kernel, name] : kCodecKernelNames.entries) CHECK(kCodecKernelNames.parse(name) == kernel);
    for (const auto& [link_class, name] : kLinkClassNames.entries) CHECK(kLinkClassNames.parse(name) == link_class);
    for (const auto& [rating, name] : kFitRatingNames.entries) CHECK(kFitRatingNames.parse(name) == rating);
    CHECK(kFitRatingNames.name(FitRating::poor) == "poor");  // the last value has its name
    for (auto name : calibration_op_names()) CHECK(to_string(*parse_calibration_op(name)) == name);
    CHECK(calibration_op_names().size() == kNetworkOpNames.entries.size() + kComputeOpNames.entries.size());
    CHECK_FALSE(parse_calibration_op("allreduse"));
}

}  // namespace calibration_files_test
