package report

// The rule ids of the results pgasrob reports: in the SARIF file's
// rules (sarif.go) and at the end of each --format gcc diagnostic. They
// are stable: code scanning tracks a result across runs by its rule id.
// A criterion added later gives its own id here (Rules), the way "race"
// is reserved for the race criterion.
const (
	RuleNotRobust = "not-robust"     // a certified happens-before cycle (Theorem 16)
	RuleRunError  = "run-time-error" // a value, address, PE or queue out of range, reachable under SC
	RuleUnknown   = "unknown"        // a budget stopped the decision: no verdict
	RuleInternal  = "internal-error" // the procedure failed its own checks
	RuleInput     = "input-error"    // the file could not be read or translated
	RuleWarning   = "front-end-warning"
	RuleRace      = "race" // two conflicting accesses api_hb does not order (--criterion race)
)

// Rule describes a rule for SARIF's tool.driver.rules.
type Rule struct {
	ID, Name, Short, Help string
	Level                 string // error, warning, note
}

// Rules are the rules of the run, in a fixed order (SARIF refers to a
// rule by its index too).
var Rules = []Rule{
	{RuleNotRobust, "NotRobustAgainstPGAS", "The program is not robust against the PGAS memory model",
		"Some computation under the relaxed one-sided memory model has a happens-before cycle, so its outcome is one no sequentially consistent run gives. The code flow shows the computation per PE; the related locations are the steps of the cycle. Insert a fence, quiet or wait between the two accesses of a program-order step (pgasrob repair finds a cheapest set).", "error"},
	{RuleRunError, "ReachableRunTimeError", "A run-time error is reachable",
		"A sequentially consistent run reaches a value, address, PE or queue out of range; robustness is not decided for a program that can fail. The code flow is that run.", "error"},
	{RuleUnknown, "NoVerdictWithinBudgets", "Robustness could not be decided within the budgets",
		"A budget (states, time, memory) ran out, or the run was interrupted: no verdict. Raise --max-states, --timeout or --max-memory.", "warning"},
	{RuleInternal, "ToolFailure", "pgasrob failed its own checks",
		"A witness failed its replay or the procedure broke: please report it.", "error"},
	{RuleInput, "UnreadableInput", "The file could not be read or translated",
		"The file has an error pgasrob reports at its position, or uses a construct the front end refuses.", "error"},
	{RuleWarning, "FrontEndWarning", "The answer is weaker than it looks",
		"A fact about the input the front end reports: a PE that communicates nothing, code removed by a macro.", "warning"},
	{RuleRace, "DataRace", "A data race",
		"Two accesses to one cell, one of them a write, at least one of them remote (RMA), not both atomic, that the OpenSHMEM API's happens-before (program order, completion, fences, quiet, barriers, atomics a wait observes) does not order: an execution reaches both with neither first (docs/criteria.md, Data races). The locations are the second access and the first; the code flow is that execution per PE. Order them, e.g. by a quiet and a flag the other PE waits for, or a barrier.", "error"},
}
