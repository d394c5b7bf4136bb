#!/usr/bin/env bash
# ctest scale_out (docs/scale-out.md): 4 shards of `rigidref campaign` and of
# `rigidref check`, run by GNU parallel, merged with --merge, must give the
# single run's summary byte for byte (stdout; timing is on stderr and not
# compared) and its records pair for pair (case for case); bad --shard
# values and inconsistent merges must be refused with exit status 2.
# Exit 77 (ctest SKIP_RETURN_CODE) only when GNU parallel is not installed.
#   bash tests/scale_out.sh RIGIDREF_CLI WORK_DIR ANSWERS_JSONL
set -uo pipefail
cli=$1
work=$2
answers=$3
if ! command -v parallel >/dev/null 2>&1; then
  echo "skipped: GNU parallel is not installed (Debian package parallel; bash tools/deps.sh installs it)"
  exit 77
fi
rm -rf "$work" && mkdir -p "$work" && cd "$work" || exit 1
failed=0
fail() { echo "FAIL: $*"; failed=1; }
# expect_refusal NAME STDERR_PATTERN COMMAND...: exit status 2 and the pattern on stderr.
expect_refusal() {
  local name=$1 pattern=$2
  shift 2
  "$@" >/dev/null 2>refusal.err
  local rc=$?
  if [ $rc -ne 2 ]; then fail "$name: exit $rc, expected 2"; return; fi
  grep -q -- "$pattern" refusal.err || { fail "$name: stderr lacks \"$pattern\": $(cat refusal.err)"; return; }
  echo "ok: $name refused: $(head -c 200 refusal.err)"
}
pair_records() { cat "$@" | grep '"record":"pair"' | LC_ALL=C sort; }
case_records() { cat "$@" | grep '"record":"case"' | LC_ALL=C sort; }

# ---- campaign: 400 pairs per float, double, long double, 40 per mp type
opts=(--type all --pairs 400)
"$cli" campaign "${opts[@]}" --seed 7 --pairs-out single.jsonl >single.txt 2>single.err
single_rc=$?
[ $single_rc -le 1 ] || fail "single campaign run: exit $single_rc: $(tail -3 single.err)"
parallel "$cli" campaign "${opts[@]}" --seed 7 --shard {}/4 '>' shard-{}.jsonl '2>' shard-{}.err ::: 1 2 3 4
grep -q "shard 3/4 double" shard-3.err || fail "shard 3/4's progress does not name the shard"
"$cli" campaign --merge shard-1.jsonl shard-2.jsonl shard-3.jsonl shard-4.jsonl >merged.txt 2>merged.err
merged_rc=$?
[ $merged_rc -eq $single_rc ] || fail "merge exit $merged_rc, single run $single_rc: $(cat merged.err)"
cmp single.txt merged.txt || { fail "campaign: merged summary differs from the single run"; diff single.txt merged.txt | head -20; }
pair_records single.jsonl >single.pairs
pair_records shard-[1-4].jsonl >shards.pairs
[ "$(wc -l <single.pairs)" -eq $((3 * 400 + 2 * 40)) ] || fail "single run: $(wc -l <single.pairs) pair records, expected 1280"
cmp single.pairs shards.pairs || fail "campaign: the shards' pair records differ from the single run's"
echo "ok: campaign, 4 shards under GNU parallel: $(wc -l <shards.pairs) pair records and the summary as the single run"
# The shards in another order on the command line merge the same.
"$cli" campaign --merge shard-3.jsonl shard-1.jsonl shard-4.jsonl shard-2.jsonl >merged-shuffled.txt 2>/dev/null
cmp single.txt merged-shuffled.txt || fail "campaign: merge depends on the order of the files"

for bad in 0/4 5/4 1/0 x/4 2 1/ /4 -1/4 1/4/2; do
  expect_refusal "campaign --shard $bad" "shard" "$cli" campaign --pairs 8 --shard "$bad"
done
expect_refusal "campaign merge, shard 4 missing" "shard 4/4 missing" \
  "$cli" campaign --merge shard-1.jsonl shard-2.jsonl shard-3.jsonl
expect_refusal "campaign merge, shard 2 twice" "given twice" \
  "$cli" campaign --merge shard-1.jsonl shard-2.jsonl shard-2.jsonl shard-3.jsonl shard-4.jsonl
"$cli" campaign "${opts[@]}" --seed 8 --shard 2/4 >seed8-2.jsonl 2>/dev/null
[ -s seed8-2.jsonl ] || fail "the shard of seed 8 wrote nothing"
expect_refusal "campaign merge, two seeds" "different campaigns.*seed" \
  "$cli" campaign --merge shard-1.jsonl seed8-2.jsonl shard-3.jsonl shard-4.jsonl
head -n -1 shard-4.jsonl >unfinished-4.jsonl
expect_refusal "campaign merge, unfinished shard" "no end record" \
  "$cli" campaign --merge shard-1.jsonl shard-2.jsonl shard-3.jsonl unfinished-4.jsonl
sed '5d' shard-2.jsonl >gap-2.jsonl
expect_refusal "campaign merge, a missing pair" "missing, repeated or out of order" \
  "$cli" campaign --merge shard-1.jsonl gap-2.jsonl shard-3.jsonl shard-4.jsonl
expect_refusal "campaign merge, shard 2/4 alone" "shard 1/4, 3/4, 4/4 missing" \
  "$cli" campaign --merge seed8-2.jsonl

# ---- check: the answer lines, sharded by line number
"$cli" check --results "$answers" --worst 5 --cases-out check-single.jsonl >check-single.txt 2>check-single.err
check_rc=$?
[ $check_rc -le 1 ] || fail "single check run: exit $check_rc: $(cat check-single.err)"
parallel "$cli" check --results "$answers" --shard {}/4 '>' check-{}.jsonl '2>' check-{}.err ::: 1 2 3 4
"$cli" check --merge check-1.jsonl check-2.jsonl check-3.jsonl check-4.jsonl --worst 5 >check-merged.txt 2>check-merged.err
check_merged_rc=$?
[ $check_merged_rc -eq $check_rc ] || fail "check merge exit $check_merged_rc, single run $check_rc: $(cat check-merged.err)"
cmp check-single.txt check-merged.txt || { fail "check: merged summary differs"; diff check-single.txt check-merged.txt | head -20; }
case_records check-single.jsonl >check-single.cases
case_records check-[1-4].jsonl >check-shards.cases
[ -s check-single.cases ] || fail "check: no case records"
cmp check-single.cases check-shards.cases || fail "check: the shards' case records differ from the single run's"
# Standard input works the same (every shard reads the whole stream).
"$cli" check --shard 2/4 <"$answers" >check-2-stdin.jsonl 2>/dev/null
cmp check-2.jsonl check-2-stdin.jsonl || fail "check --shard 2/4: standard input and --results differ"
echo "ok: check, 4 shards under GNU parallel: $(wc -l <check-shards.cases) case records and the summary as the single run"

for bad in 0/4 5/4 1/0 x; do
  expect_refusal "check --shard $bad" "shard" "$cli" check --results "$answers" --shard "$bad"
done
expect_refusal "check merge, shard 3 missing" "shard 3/4 missing" \
  "$cli" check --merge check-1.jsonl check-2.jsonl check-4.jsonl
sed '1d' "$answers" >other-answers.jsonl
"$cli" check --results other-answers.jsonl --shard 4/4 >other-4.jsonl 2>/dev/null
expect_refusal "check merge, shards of different inputs" "different inputs" \
  "$cli" check --merge check-1.jsonl check-2.jsonl check-3.jsonl other-4.jsonl
head -n -1 check-1.jsonl >check-unfinished-1.jsonl
expect_refusal "check merge, unfinished shard" "no end record" \
  "$cli" check --merge check-unfinished-1.jsonl check-2.jsonl check-3.jsonl check-4.jsonl

[ $failed -eq 0 ] && echo "scale_out: all passed"
exit $failed
