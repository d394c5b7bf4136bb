// The JSON Lines records of `rigidref campaign --pairs-out` / `--shard`
// (docs/scale-out.md), in file order:
//   {"record":"header", "tool":"rigidref campaign", "format":1, the options
//    (seed, pairs, mp_pairs, type, kinds, first, max_query_ms), "shard":K, "of":N}
//   {"record":"pair", "type", "kind", "index" (per kind, what --first takes),
//    "i" (the loop index within the type), "oracle" (separated, touching or
//    intersecting), "dec", "bound", "err" (0 or 1), "hang" (queries),
//    "cap" and "fb" ([gjk, epa], 0 or 1), and when a value was measured its
//    largest error "eps", "ulps", "metric"; "failures" when it failed}
//   ... one pair record per pair of the slice, types in run order, i ascending
//   {"record":"worst", "type", "kind", "i", "text"}: the worst case of each row
//   {"record":"timing", "type", "kind", "slow", "max_ms"}: per row (wall clock)
//   {"record":"runtime", "type", "seconds"}: per type (wall clock)
//   {"record":"end", "pairs": {type: count}}: last; its absence means the
//    shard did not finish.
// Errors in eps that are not finite are written as the strings "inf",
// "-inf", "nan" (JSON has no such numbers).
#pragma once

#include "campaign/campaign.hpp"
#include "shard/shard.hpp"

#include "rigidref/internal/collision_campaign.hpp"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <string>

namespace rigidref::tools::campaign {

using json = nlohmann::json;

inline constexpr int record_format = 1;

json header_record(const campaign_options& o, const shard::spec& s);
// The options a header records (throws merge_error when one is missing).
campaign_options options_of(const json& header, const std::string& where);

// `pair`: a campaign_row that saw only this pair.
json pair_record(const std::string& type, const std::string& kind, std::uint64_t index, std::uint64_t i,
                 const verify::campaign_row& pair);
// Back to a one-pair row; worst_case is a placeholder when a value was
// measured (the text of a row's worst case is in its "worst" record).
verify::campaign_row pair_row(const json& record);

inline constexpr const char* worst_placeholder = "(see the worst record)";

json number(double x);            // finite: a number; else "inf", "-inf", "nan"
double number_of(const json& v);  // the inverse

}  // namespace rigidref::tools::campaign
