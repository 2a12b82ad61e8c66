package report

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/pgasrob/pgasrob/automata"
	"github.com/pgasrob/pgasrob/cycles"
)

// TestBeyondBudgetShown: states visited beyond the memory budget (the
// state cache) are said in the stats line and in the JSON, and nothing
// is said when there are none (the older outputs stay as they were).
func TestBeyondBudgetShown(t *testing.T) {
	r := &cycles.Result{Verdict: cycles.Robust, Elapsed: time.Second, Stats: automata.Stats{States: 1000, Beyond: 400}}
	if line := StatsLine(r); !strings.Contains(line, "400 states beyond the memory budget, in the state cache") {
		t.Errorf("stats line without the states beyond the budget: %s", line)
	}
	b, _ := json.Marshal(StatsToJSON(r.Stats, r.Elapsed))
	if !strings.Contains(string(b), `"beyond_budget":400`) {
		t.Errorf("JSON without beyond_budget: %s", b)
	}
	r.Stats.Beyond = 0
	b, _ = json.Marshal(StatsToJSON(r.Stats, r.Elapsed))
	if line := StatsLine(r); strings.Contains(line, "beyond") || strings.Contains(string(b), "beyond") {
		t.Errorf("a search within its budget reports states beyond it: %s / %s", line, b)
	}
}
