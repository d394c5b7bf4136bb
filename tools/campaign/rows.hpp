// The campaign's rows (one per type and kind): folding one pair's outcome
// into its row, the pair counts per type, and the printed summary. The
// single run, a shard and the merge of shards all go through fold_pair in
// the same pair order, so the merge prints what the single run prints.
#pragma once

#include "campaign/campaign.hpp"

#include "rigidref/internal/collision_campaign.hpp"

#include <cstdint>
#include <iosfwd>
#include <string>
#include <utility>
#include <vector>

namespace rigidref::tools::campaign {

struct row_state {
  verify::campaign_row row;
  bool has_worst = false;
  std::uint64_t worst_i = 0;  // the loop index i of the pair that set row.worst_case
};

// Folds the outcome of one pair (`pair`: a campaign_row that saw only pair
// i) into `into`, exactly as campaign_check would have accumulated it: sums,
// the first `keep` failures, the first pair of the largest error in eps.
void fold_pair(row_state& into, const verify::campaign_row& pair, std::uint64_t i, std::size_t keep);

// The types the --type option selects, in the order they run.
std::vector<std::string> selected_types(const std::string& type_option);

// Pairs of a type (the loop's i runs over 0..total-1).
std::size_t type_total(const campaign_options& o, const std::string& type, std::size_t kind_count);

// The kinds in order (the option's list, or all).
std::vector<std::string> resolved_kinds(const campaign_options& o);

// The table, worst cases and failures on `out` (no timing: that is
// print_timing's, on stderr). Returns true when any row failed.
bool print_summary(const campaign_options& o, const std::vector<row_state>& rows, std::ostream& out);

// Timing, which differs from run to run: slow queries and the slowest query
// per row, seconds per type, total.
void print_timing(const std::vector<row_state>& rows, const std::vector<std::pair<std::string, double>>& seconds,
                  double total_seconds, const std::string& note, std::ostream& err);

}  // namespace rigidref::tools::campaign
