#!/usr/bin/env bash
# Submits a pgasrob run as a Slurm job array of K shards plus a merge job
# that starts when every shard has ended well (afterok), all in DIR:
#
#   scripts/slurm/submit.sh K DIR PGASROB COMMAND ARGS...
#   scripts/slurm/submit.sh 8 run1 $PWD/pgasrob decide $PWD/kernel.pgas -n 6 --timeout 2h
#
# Shard i writes DIR/shard-i.json (its progress and errors go to
# DIR/shard-i.err); the merge job writes DIR/merged.json, DIR/merged.txt
# (the text report) and DIR/merged.exit (the exit code of the merged
# run: 0 robust, 1 not robust, 3 unknown, ...; see docs/cli.md). Give
# paths that the compute nodes see (absolute, or relative to DIR). Prints
# the two job ids. Extra sbatch options go in SBATCH_SHARD_OPTS and
# SBATCH_MERGE_OPTS (e.g. "--time=4:00:00 --cpus-per-task=4 --mem=16G").
set -euo pipefail
if [ $# -lt 4 ]; then
  echo "usage: $0 K DIR PGASROB COMMAND ARGS..." >&2
  exit 2
fi
k=$1 dir=$2 bin=$3
shift 3
mkdir -p "$dir"
cmd=$(printf '%q ' "$bin" "$@")
# --shard slurm takes I and K from SLURM_ARRAY_TASK_ID/COUNT/MIN/MAX.
shards=$(sbatch --parsable --job-name=pgasrob-shards --chdir="$dir" --array="0-$((k - 1))" \
  --output=shard-%a.json --error=shard-%a.err ${SBATCH_SHARD_OPTS:-} \
  --wrap="exec $cmd--shard slurm")
merge=$(sbatch --parsable --job-name=pgasrob-merge --chdir="$dir" --dependency="afterok:${shards%%;*}" \
  --output=merge.log ${SBATCH_MERGE_OPTS:-} \
  --wrap="$(printf '%q' "$bin") merge --json shard-*.json > merged.json; echo \$? > merged.exit; $(printf '%q' "$bin") merge shard-*.json > merged.txt")
echo "$shards $merge"
