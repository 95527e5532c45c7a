// The golden vectors of proto/testdata (see its README.md) decoded with the
// protoc-generated C++ classes: each .bin must equal its .json (proto3 JSON
// mapping) and re-serialize to the same bytes.
#include <google/protobuf/util/json_util.h>
#include <google/protobuf/util/message_differencer.h>
#include <gtest/gtest.h>

#include <map>
#include <memory>
#include <nlohmann/json.hpp>

#include "opentelemetry/proto/collector/metrics/v1/metrics_service.pb.h"
#include "test_support.hpp"
#include "tierwise/v1/ingest_record.pb.h"
#include "tierwise/v1/reference_batch.pb.h"

namespace tierwise {
namespace {

using google::protobuf::Message;
using tierwise::testing::read_file;

std::string testdata(const std::string& file) {
  return std::string(TIERWISE_PROTO_DIR) + "/testdata/" + file;
}

// The message types the vectors use. Naming the generated classes here also
// links their descriptors into the test.
const Message* prototype(const std::string& type) {
  namespace otlp = opentelemetry::proto::collector::metrics::v1;
  static const std::map<std::string, const Message*> types = {
      {"tierwise.v1.ReferenceBatch", &v1::ReferenceBatch::default_instance()},
      {"tierwise.v1.ReferenceBatches", &v1::ReferenceBatches::default_instance()},
      {"tierwise.v1.IngestRecord", &v1::IngestRecord::default_instance()},
      {"opentelemetry.proto.collector.metrics.v1.ExportMetricsServiceRequest",
       &otlp::ExportMetricsServiceRequest::default_instance()},
      {"opentelemetry.proto.collector.metrics.v1.ExportMetricsServiceResponse",
       &otlp::ExportMetricsServiceResponse::default_instance()},
  };
  auto it = types.find(type);
  return it == types.end() ? nullptr : it->second;
}

TEST(GoldenVectors, EveryBinaryEqualsItsJsonAndReEncodesByteForByte) {
  nlohmann::json manifest = nlohmann::json::parse(read_file(testdata("manifest.json")));
  ASSERT_FALSE(manifest.empty()) << "no vectors in " << testdata("manifest.json");
  for (const auto& entry : manifest) {
    std::string name = entry["name"];
    std::string type = entry["type"];
    SCOPED_TRACE(name + " (" + type + ")");
    const Message* proto = prototype(type);
    ASSERT_NE(proto, nullptr) << "no generated C++ class for " << type;

    std::string bin = read_file(testdata(name + ".bin"));
    ASSERT_FALSE(bin.empty());
    std::unique_ptr<Message> actual(proto->New());
    ASSERT_TRUE(actual->ParseFromString(bin));

    std::unique_ptr<Message> expected(proto->New());
    auto status = google::protobuf::util::JsonStringToMessage(read_file(testdata(name + ".json")),
                                                              expected.get());
    ASSERT_TRUE(status.ok()) << status.ToString();

    EXPECT_TRUE(google::protobuf::util::MessageDifferencer::Equals(*expected, *actual))
        << "binary:\n" << actual->DebugString() << "json:\n" << expected->DebugString();
    EXPECT_EQ(actual->SerializeAsString(), bin);
    EXPECT_EQ(expected->SerializeAsString(), bin);
  }
}

// The message the agent writes, checked field by field against the JSON read
// with nlohmann-json (independently of protobuf's JSON parser): unsigned
// 64-bit values above 2^63, offsets above 2^32, defaults left out.
TEST(GoldenVectors, ReferenceBatchFieldsMatchTheJson) {
  v1::ReferenceBatch batch;
  ASSERT_TRUE(batch.ParseFromString(read_file(testdata("reference_batch.bin"))));
  nlohmann::json json = nlohmann::json::parse(read_file(testdata("reference_batch.json")));
  auto u64 = [](const nlohmann::json& value) { return std::stoull(value.get<std::string>()); };

  EXPECT_EQ(batch.batch_id(), json["batchId"]);
  EXPECT_EQ(batch.host_id(), json["hostId"]);
  EXPECT_EQ(batch.volume_id(), json["volumeId"]);
  EXPECT_EQ(batch.sampling_modulus(), u64(json["samplingModulus"]));
  EXPECT_EQ(batch.sampling_threshold(), u64(json["samplingThreshold"]));
  EXPECT_EQ(batch.base_time_unix_nano(), u64(json["baseTimeUnixNano"]));
  EXPECT_EQ(batch.sequence(), u64(json.value("sequence", nlohmann::json("0"))));
  ASSERT_EQ(static_cast<size_t>(batch.references_size()), json["references"].size());
  for (int i = 0; i < batch.references_size(); ++i) {
    const v1::BlockReference& ref = batch.references(i);
    const nlohmann::json& want = json["references"][i];
    EXPECT_EQ(ref.block_hash(), u64(want["blockHash"])) << i;
    EXPECT_EQ(v1::Direction_Name(ref.direction()), want["direction"]) << i;
    EXPECT_EQ(ref.length_blocks(), want["lengthBlocks"].get<uint32_t>()) << i;
    EXPECT_EQ(ref.time_offset_us(), u64(want.value("timeOffsetUs", nlohmann::json("0")))) << i;
  }
}

}  // namespace
}  // namespace tierwise
