#!/bin/sh
# Tabulate what pgasrob makes of public C files, unedited: for each file,
# "check" (the front end) and, when it passes, "decide -n 2" with a small
# budget; then the first refusal (message without its position), counted.
#
#   scripts/ccorpus/run.sh PGASROB FILE.c...
#
# Prints one line per file (file, exit code, first message) and a table
# of the most common first messages. Used to choose what the C front end
# accepts next (issue 33); the results are kept in docs/shmem.md.
bin=$1; shift
out=$(mktemp)
for f in "$@"; do
	msg=$("$bin" check "$f" 2>&1 >/dev/null | head -1)
	rc=0
	"$bin" check "$f" >/dev/null 2>&1 || rc=$?
	if [ $rc -eq 0 ]; then
		dmsg=$(timeout 60 "$bin" decide "$f" -n 2 --timeout 30s --max-memory 1000 2>&1)
		rc=$?
		msg=$(printf '%s\n' "$dmsg" | head -1)
		case $rc in 0) msg="ROBUST";; 1) msg="NOT ROBUST";; 3) msg="UNKNOWN: $msg";; esac
	fi
	printf '%s\t%s\t%s\n' "$(basename "$f")" "$rc" "$msg" | tee -a "$out"
done
echo "---- first messages, most common first"
cut -f3 "$out" | sed -e 's/^[^ ]*:[0-9]*:[0-9]*: //' -e 's/[0-9][0-9]*/#/g' | cut -c1-90 | sort | uniq -c | sort -rn
echo "---- exit codes"
cut -f2 "$out" | sort | uniq -c
rm -f "$out"
