// `rigidref campaign --merge FILES...`: the single run's summary from the
// records of its shards (records.hpp). The shards' pair records are read in
// the single run's order (type by type; within a type shard 1's block, then
// shard 2's, ...) and folded into the rows as the run folds them, so the
// table, worst cases and failures come out byte for byte. Every file is
// streamed once; nothing is summed before the inputs are known to be one
// campaign, cut once into shards 1..N, each complete.
#include "campaign/campaign.hpp"
#include "campaign/records.hpp"
#include "campaign/rows.hpp"
#include "shard/shard.hpp"

#include <iostream>
#include <map>
#include <memory>

namespace rigidref::tools {

namespace {

using campaign::json;
using shard::merge_error;

struct input {
  std::unique_ptr<shard::record_reader> reader;
  shard::spec slice;
};

// The header without the shard fields: equal for shards of one campaign.
json campaign_identity(json header) {
  header.erase("shard");
  header.erase("of");
  return header;
}

std::string first_difference(const json& a, const json& b) {
  for (const auto& [key, value] : a.items())
    if (!b.contains(key) || b[key] != value)
      return key + " " + value.dump() + " vs " + (b.contains(key) ? b[key].dump() : "(none)");
  return "fields";
}

std::vector<input> open_shards(const std::vector<std::string>& files, campaign_options& options) {
  std::vector<input> inputs;
  json identity;
  std::string identity_file;
  for (const auto& path : files) {
    input in{std::make_unique<shard::record_reader>(path), {}};
    const json h = in.reader->next();
    if (h.is_null() || h["record"] != "header")
      throw merge_error(in.reader->where() + ": the first record must be the header (is this a shard file of "
                                             "rigidref campaign --shard or --pairs-out?)");
    options = campaign::options_of(h, in.reader->where());
    try {
      in.slice.k = h.at("shard").get<std::size_t>();
      in.slice.n = h.at("of").get<std::size_t>();
    } catch (const json::exception& e) {
      throw merge_error(in.reader->where() + ": bad shard fields: " + e.what());
    }
    if (in.slice.k < 1 || in.slice.k > in.slice.n) throw merge_error(path + ": shard " + in.slice.text() + " is not K/N with 1 <= K <= N");
    const json id = campaign_identity(h);
    if (identity.is_null()) {
      identity = id;
      identity_file = path;
    } else if (id != identity) {
      throw merge_error("shards of different campaigns: " + path + " and " + identity_file + " differ in " +
                        first_difference(id, identity));
    }
    inputs.push_back(std::move(in));
  }
  return shard::in_shard_order(std::move(inputs));
}

}  // namespace

int run_campaign_merge(const std::vector<std::string>& files, std::ostream& out, std::ostream& err) {
  try {
    campaign_options o;
    std::vector<input> shards = open_shards(files, o);
    const std::vector<std::string> kinds = campaign::resolved_kinds(o);
    const std::vector<std::string> types = campaign::selected_types(o.type);
    verify::campaign_limits lim;
    std::vector<campaign::row_state> rows;
    for (const auto& type : types) {
      const std::size_t total = campaign::type_total(o, type, kinds.size());
      const std::size_t first_row = rows.size();
      for (const auto& k : kinds) {
        campaign::row_state r;
        r.row.type = type;
        r.row.kind = k;
        rows.push_back(r);
      }
      for (auto& sh : shards) {
        const std::size_t begin = shard::block_begin(sh.slice, total), end = shard::block_end(sh.slice, total);
        for (std::size_t i = begin; i < end; ++i) {
          const json r = sh.reader->next();
          const std::string want = type + " pair i=" + std::to_string(i);
          if (r.is_null())
            throw merge_error(sh.reader->path() + ": ends before " + want + " (shard " + sh.slice.text() +
                              " unfinished or truncated)");
          try {
            if (r["record"] != "pair" || r.at("type") != type || r.at("i").get<std::uint64_t>() != i)
              throw merge_error(sh.reader->where() + ": expected the record of " + want + " (shard " +
                                sh.slice.text() + "), found " + r.dump().substr(0, 120) +
                                ": a pair missing, repeated or out of order");
            const std::uint64_t global = o.first + i;
            const std::size_t slot = static_cast<std::size_t>(global % kinds.size());
            if (r.at("kind") != kinds[slot] || r.at("index").get<std::uint64_t>() != global / kinds.size())
              throw merge_error(sh.reader->where() + ": " + want + " must be kind " + kinds[slot] + " #" +
                                std::to_string(global / kinds.size()));
            campaign::fold_pair(rows[first_row + slot], campaign::pair_row(r), i, lim.keep_failures);
          } catch (const json::exception& e) {
            throw merge_error(sh.reader->where() + ": bad pair record: " + e.what());
          } catch (const std::invalid_argument& e) {
            throw merge_error(sh.reader->where() + ": bad pair record: " + e.what());
          }
        }
      }
    }
    // The tails: worst-case texts, timing, runtime, then the end record.
    std::map<std::pair<std::string, std::string>, std::size_t> row_of;
    for (std::size_t r = 0; r < rows.size(); ++r) row_of[{rows[r].row.type, rows[r].row.kind}] = r;
    std::vector<bool> text_found(rows.size(), false);
    std::map<std::string, double> seconds;
    for (auto& sh : shards) {
      bool ended = false;
      for (json r = sh.reader->next(); !r.is_null(); r = sh.reader->next()) {
        if (ended) throw merge_error(sh.reader->where() + ": a record after the end record");
        try {
          const std::string what = r["record"].get<std::string>();
          if (what == "end") {
            for (const auto& type : types) {
              const std::size_t total = campaign::type_total(o, type, kinds.size());
              const std::size_t want = shard::block_end(sh.slice, total) - shard::block_begin(sh.slice, total);
              if (r.at("pairs").at(type).get<std::size_t>() != want)
                throw merge_error(sh.reader->where() + ": the end record counts " + r["pairs"][type].dump() + " " +
                                  type + " pairs, shard " + sh.slice.text() + " has " + std::to_string(want));
            }
            ended = true;
            continue;
          }
          if (what == "runtime") {
            seconds[r.at("type").get<std::string>()] += r.at("seconds").get<double>();
            continue;
          }
          if (what != "worst" && what != "timing")
            throw merge_error(sh.reader->where() + ": unexpected " + r["record"].dump() + " record (pairs beyond the shard's block?)");
          const auto it = row_of.find({r.at("type").get<std::string>(), r.at("kind").get<std::string>()});
          if (it == row_of.end()) throw merge_error(sh.reader->where() + ": a row the header does not select");
          campaign::row_state& row = rows[it->second];
          if (what == "timing") {
            row.row.slow_once += r.at("slow").get<std::size_t>();
            const double ms = campaign::number_of(r.at("max_ms"));
            if (ms > row.row.max_query_ms) row.row.max_query_ms = ms;
          } else if (row.has_worst && r.at("i").get<std::uint64_t>() == row.worst_i) {
            row.row.worst_case = r.at("text").get<std::string>();
            text_found[it->second] = true;
          }
        } catch (const json::exception& e) {
          throw merge_error(sh.reader->where() + ": bad record: " + e.what());
        }
      }
      if (!ended)
        throw merge_error(sh.reader->path() + ": no end record: shard " + sh.slice.text() +
                          " did not finish (interrupted, or the file is truncated)");
    }
    for (std::size_t r = 0; r < rows.size(); ++r)
      if (rows[r].has_worst && !text_found[r])
        throw merge_error("no shard has the worst case text of " + rows[r].row.type + " " + rows[r].row.kind + " (pair i=" +
                          std::to_string(rows[r].worst_i) + ")");
    const bool any_failed = campaign::print_summary(o, rows, out);
    std::vector<std::pair<std::string, double>> per_type;
    double total = 0;
    for (const auto& type : types) {
      per_type.emplace_back(type, seconds[type]);
      total += seconds[type];
    }
    campaign::print_timing(rows, per_type, total, " of " + std::to_string(shards.size()) + " shards (seconds summed)", err);
    return any_failed ? 1 : 0;
  } catch (const merge_error& e) {
    err << "rigidref campaign --merge: " << e.what() << "\n";
    return 2;
  }
}

}  // namespace rigidref::tools
