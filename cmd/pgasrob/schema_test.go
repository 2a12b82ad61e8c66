package main

import (
	"encoding/json"
	"os"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"
)

// TestJSONSchemasDocumented checks every --json output against its
// documentation in docs/cli.md: each field the tool prints is documented
// in the section of its command, each documented field shows up in real
// output (a few only in situations the runs below do not reach, listed
// with the reason), and each object names its schema (issue 8, row 5).
func TestJSONSchemasDocumented(t *testing.T) {
	sections := cliSections(t)
	rte := writeFile(t, "rte.pgas", "values 2\naddress x\nregister r\n    mem[x] <- 1\n    r <- mem[x]\n    mem[x] <- r + 1\n")
	bad := writeFile(t, "bad.pgas", "values 2\naddress x\n    mem[z] <- 1\n")
	sb := "../../examples/tso/sb.txt"
	// a C program whose only SHMEM call a predefined macro removes: warnings
	silent := writeFile(t, "silent.c", "#include <shmem.h>\nlong x;\nint main(void) {\n  shmem_init();\n#if __STDC_VERSION__ < 199000L\n  shmem_long_p(&x, 1, 0);\n#endif\n  x = 1;\n  return 0;\n}\n")
	runs := map[string][][]string{
		"decide": {
			{"decide", oneToOne, "-n", "1..2", "--json", "--dot", t.TempDir() + "/c.dot"},
			{"decide", oneToOneFixed, "-n", "2", "--json", "--timeout", "1ns"},
			{"decide", rte, "-n", "2", "--json"},
			{"decide", bad, "-n", "2", "--json"},
			{"decide", "../../examples/handle.pgas", "-n", "2", "--json"},
			{"decide", oneToOne, "-n", "2", "--json", "--procedure", "oracle"},
			{"decide", oneToOne, "-n", "2", "--json", "--via", "instrumentation"},
			{"decide", oneToOne, "-n", "12", "--json", "--procedure", "automata"}, // streamed: note, listing
			{"decide", oneToOneFixed, "-n", "2", "--json", "--via", "instrumentation"},
			{"decide", "../../examples/shmem/mp-none.c", "-n", "2", "--json"},                               // a C program: pe, cycle_pes, cell text
			{"decide", "-r", oneToOne, bad, "-n", "2", "--json"},                                            // a project: files, summary
			{"decide", silent, "-n", "2", "--json"},                                                         // warnings, assumptions
			{"decide", "-r", "../../examples/shmem/mp-quiet.c", "-n", "2", "--criterion", "race", "--json"}, // a project's race rows
		},
		"translate": {{"translate", oneToOne, "-n", "2", "--json"}},
		"cycles": {
			{"cycles", oneToOne, "-n", "3", "--json", "--max-states", "300"},
			{"cycles", oneToOneFixed, "-n", "3", "--json", "--yardsticks"},
			{"cycles", rte, "-n", "2", "--json"},
			{"cycles", bad, "-n", "2", "--json"},
			{"cycles", "../../examples/shmem/mp-none.c", "-n", "3", "--json"}, // cycle_pes
		},
		"check":   {{"check", oneToOne, "--json"}, {"check", bad, "--json"}, {"check", "../../examples/shmem/sentinels.c", "--json"}},
		"version": {{"version", "--json"}},
		"tso": {{"tso", sb, "--json", "--fences"}, {"tso", "../../examples/tso/sb-fenced.txt", "--json", "--max-states", "1"},
			{"tso", "../../examples/tso/sb-hot.txt", "--json", "--fences", "--cost", "../../examples/tso/sb-hot.costs", "--write", t.TempDir() + "/f.txt"},
			{"tso", "../../examples/tso/param-ring3.txt", "--json", "--parameterized"}, {"tso", "../../examples/tso/param-mp-ack.txt", "--json", "--parameterized"},
			{"tso", "../../examples/tso/param-ring3.txt", "--json", "--parameterized", "--max-states", "1", "--instances", "1"},
			{"tso", "--criterion", "all", sb, "../../examples/tso/sb-fenced.txt", "--json", "--fences"},
			// --criterion persistence: a fragile run (tso/testdata/persist/wr.txt),
			// and --flatten falling back on the instances (guarded-many.txt).
			{"tso", "--criterion", "persistence", "--json", "../../tso/testdata/persist/wr.txt"},
			{"tso", "--criterion", "persistence", "--flatten", "--json", "../../tso/testdata/persist/flatten/guarded-many.txt"},
			// --criterion trf: a race with its TSO computation, and one
			// without (the note; tso.TestTRFCases/sc-read).
			{"tso", "--criterion", "trf", "--json", writeFile(t, "trf.txt", "thread t1\ninitial q0\ntransition q0 q1 write 1 0\ntransition q1 q2 read r 1\nend\nthread t2\ninitial q0\ntransition q0 q1 write 1 1\nend\n")},
			{"tso", "--criterion", "trf", "--json", writeFile(t, "trf-sc.txt", "thread p\ninitial q0\ntransition q0 q1 write 1 0\ntransition q1 q2 read r 0\ntransition q2 q3 check == r 2\ntransition q3 q4 read s 1\nend\nthread q\ninitial q0\ntransition q0 q1 write 2 0\ntransition q1 q2 write 1 1\nend\n")}},
		"difftest": {{"difftest", "--count", "30", "--json"}, {"difftest", "--tso", "--count", "5", "--json"},
			{"difftest", "--instrumentation", "--count", "30", "--json"}, {"difftest", "--instrumentation", "--shmem", "--count", "5", "--json"}},
		"repair": {{"repair", oneToOne, "-n", "2..3", "--json", "--write", t.TempDir() + "/r.pgas"}, {"repair", oneToOneFixed, "-n", "2", "--json"},
			{"repair", bad, "-n", "2", "--json"}, {"repair", "../../examples/mp-unsync.pgas", "-n", "2", "--json", "--cost", writeFile(t, "c", "wait 9\n")},
			{"repair", "../../examples/shmem/mp-quiet.c", "-n", "2", "--json", "--criterion", "race"}},
	}
	// Documented fields that only appear in situations these runs do not
	// reach, with the situation.
	rare := map[string]string{
		"error":      "an internal error",
		"internal":   "a disagreement",
		"repro":      "a disagreement with --out",
		"source":     "a disagreement",
		"detail":     "a disagreement",
		"program":    "difftest: a disagreement (decide and cycles print it always)",
		"oracle":     "a disagreement",
		"revision":   "a build with VCS information",
		"modified":   "a build from a modified tree",
		"reason":     "difftest: an interrupted run",
		"decide":     "difftest: a disagreement",
		"truncated":  "repair: the oracle stopped at its bound",
		"fence_note": "tso --criterion all --fences: no certified fence set",
		"assert":     "check: an example key of the sugar counts, which are data",
		// difftest --instrumentation: counts per cause, data keys; a short
		// run shows some of them only.
		"atomicity": "a cause", "own-read": "a cause", "delayed-source": "a cause",
		"local-store": "a cause", "store-order": "a cause", "wait": "a cause", "fence-barrier": "a cause",
		"context": "difftest --instrumentation: a skip reason, a data key",
		"await":   "difftest --instrumentation: a skip reason, a data key",

		"symmetric_to_pes": "cycles: a C program with a type taken by symmetry (the litmus files have none at small N)",
		"witness_withheld": "tso: a witness that would not fit the memory budget (tso.TestWitnessWithheld)",
		"warnings":         "decide, cycles: a front end's warning (pgas.Program.Warnings; report.TestWarningsAndAssumptions)",
		"assumptions":      "decide, cycles: a front end's assumptions (pgas.Program.Assumptions; report.TestWarningsAndAssumptions)",
		"beyond_budget":    "decide, cycles: a search that went on in the state cache past --max-memory (report.TestBeyondBudgetShown, cycles.TestStateCacheUnderPressure)",
		"id":               "decide, cycles: an assumption's id",
	}
	for cmd, lines := range runs {
		t.Run(cmd, func(t *testing.T) {
			sec, ok := sections[cmd]
			if !ok {
				t.Fatalf("docs/cli.md has no section for %s", cmd)
			}
			own := documentedKeys(sec)
			documented := documentedKeys(sec)
			if cmd == "cycles" {
				// Its section refers to decide's fields ("as in decide").
				for k := range documentedKeys(sections["decide"]) {
					documented[k] = true
				}
			}
			seen := map[string]bool{}
			for _, args := range lines {
				_, out, _ := runCmd(args...)
				var v any
				if err := json.Unmarshal([]byte(out), &v); err != nil {
					t.Fatalf("%v: not JSON: %v\n%.500s", args, err, out)
				}
				top, _ := v.(map[string]any)
				want := "pgasrob/" + cmd + "/v1"
				if slices.Contains(args, "--via") {
					want = "pgasrob/decide-via/v1"
				}
				if slices.Contains(args, "-r") {
					want = "pgasrob/decide-project/v1"
				}
				if slices.Contains(args, "all") {
					want = "pgasrob/tso-criteria/v1"
				}
				if top["schema"] != want {
					t.Errorf("%v: schema %v, want %q", args, top["schema"], want)
				}
				if !strings.Contains(sec, `"schema": "`+want+`"`) && !strings.Contains(sec, "`"+want+"`") {
					t.Errorf("docs/cli.md does not name the schema %s", want)
				}
				collectKeys(v, seen)
			}
			var undocumented, unseen []string
			for k := range seen {
				if !documented[k] {
					undocumented = append(undocumented, k)
				}
			}
			for k := range own {
				if !seen[k] && rare[k] == "" {
					unseen = append(unseen, k)
				}
			}
			sort.Strings(undocumented)
			sort.Strings(unseen)
			if len(undocumented) > 0 {
				t.Errorf("fields printed but not documented in docs/cli.md: %v", undocumented)
			}
			if len(unseen) > 0 {
				t.Errorf("fields documented but never printed: %v", unseen)
			}
		})
	}
}

var (
	jsonBlock = regexp.MustCompile("(?s)```\n(\\{.*?)```")
	comment   = regexp.MustCompile(`//[^\n]*`)
	keyColon  = regexp.MustCompile(`"([a-z_0-9-]+)"\s*:`)
	keyList   = regexp.MustCompile(`\{\s*"[a-z_]+"(\s*,\s*"[a-z_]+")*\s*\}`)
	keyName   = regexp.MustCompile(`"([a-z_]+)"`)
)

// documentedKeys are the field names in the JSON blocks of a section:
// "name": ... and the lists {"a", "b"} that stand for objects.
func documentedKeys(sec string) map[string]bool {
	keys := map[string]bool{}
	for _, m := range jsonBlock.FindAllStringSubmatch(sec, -1) {
		b := comment.ReplaceAllString(m[1], "")
		for _, k := range keyColon.FindAllStringSubmatch(b, -1) {
			keys[k[1]] = true
		}
		for _, l := range keyList.FindAllString(b, -1) {
			for _, k := range keyName.FindAllStringSubmatch(l, -1) {
				keys[k[1]] = true
			}
		}
	}
	return keys
}

// collectKeys gathers the field names of every object in v, except the
// keys of maps that hold data (verdict counts, sugar counts).
func collectKeys(v any, into map[string]bool) {
	switch x := v.(type) {
	case map[string]any:
		for k, c := range x {
			into[k] = true
			if k == "verdicts" || k == "sugar" {
				continue
			}
			collectKeys(c, into)
		}
	case []any:
		for _, c := range x {
			collectKeys(c, into)
		}
	}
}

// TestShardSchemaDocumented checks the shard files of every command
// against the pgasrob/shard/v1 block of docs/cli.md, as
// TestJSONSchemasDocumented does for the commands' own output.
func TestShardSchemaDocumented(t *testing.T) {
	sections := cliSections(t)
	documented := documentedKeys(sections["merge"])
	own := documentedKeys(sections["merge"])
	for k := range documentedKeys(sections["difftest"]) {
		documented[k] = true // the difftest shard holds difftest's own object
	}
	rte := writeFile(t, "rte.pgas", "values 2\naddress x\nregister r\n    mem[x] <- 1\n    r <- mem[x]\n    mem[x] <- r + 1\n")
	runs := [][]string{
		{"decide", oneToOne, "-n", "2", "--shard", "1/2"},
		{"decide", oneToOneFixed, "-n", "3", "--shard", "2/2", "--timeout", "1ns"},
		{"decide", rte, "-n", "2", "--shard", "1/1"},
		{"cycles", oneToOne, "-n", "2", "--shard", "1/3"},
		// N = 10: streamed cycle types, the "streamed" counts.
		{"decide", writeFile(t, "own.pgas", "values 2\naddress x\nqueue q\n  write(x, rank, x, q)\n"), "-n", "10", "--shard", "1/2"},
		{"tso", "../../examples/tso/sb.txt", "--shard", "1/1"},
		{"difftest", "--count", "5", "--shard", "1/2"},
	}
	rare := map[string]string{
		"reason":       "a shard stopped by a signal, or a part that ran out of budget",
		"error":        "an internal error",
		"costs_sha256": "--shard-costs",

		"symmetric_to_pes": "cycles: a C program with a type taken by symmetry (the litmus files have none at small N)",
		"witness_withheld": "tso: a witness that would not fit the memory budget",
	}
	seen := map[string]bool{}
	for _, args := range runs {
		code, out, errs := runCmd(args...)
		var v map[string]any
		if code != 0 || json.Unmarshal([]byte(out), &v) != nil {
			t.Fatalf("%v: exit %d, not a shard file\n%.300s%s", args, code, out, errs)
		}
		if v["schema"] != shardSchema {
			t.Errorf("%v: schema %v", args, v["schema"])
		}
		collectKeys(v, seen)
	}
	for k := range seen {
		if !documented[k] {
			t.Errorf("shard field %q is not documented in docs/cli.md", k)
		}
	}
	for k := range own {
		if !seen[k] && rare[k] == "" {
			t.Errorf("shard field %q is documented but never printed", k)
		}
	}
}

// cliSections splits docs/cli.md into its command sections, by name.
func cliSections(t *testing.T) map[string]string {
	t.Helper()
	doc, err := os.ReadFile("../../docs/cli.md")
	if err != nil {
		t.Fatal(err)
	}
	sections := map[string]string{}
	for _, part := range strings.Split(string(doc), "\n## `pgasrob ")[1:] {
		name, _, _ := strings.Cut(part, "`")
		sections[name] = part
	}
	return sections
}
