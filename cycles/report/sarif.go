package report

import (
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/owenrumney/go-sarif/v3/pkg/report/v210/sarif"

	"github.com/pgasrob/pgasrob/cycles"
	"github.com/pgasrob/pgasrob/cycles/repair"
	"github.com/pgasrob/pgasrob/pgas"
)

// SARIF 2.1.0 for code scanning (--sarif FILE): one run of pgasrob over
// one or several files, one result per violation (rules.go), each with
// its witness as a codeFlow of one threadFlow per PE (the PE's events in
// program order, each at its source line, executionOrder its place in
// the computation), the steps of the happens-before cycle as related
// locations, and the repair, when one was asked for, as a fix.

// File is one decided file, as the formats that cover several files
// (SARIF, the summary) read it.
type File struct {
	Path     string
	Prog     *pgas.Program // nil when the file could not be compiled
	Src      []byte
	Outcomes []Outcome
	Errors   []ErrorJSON    // input errors (then Outcomes is empty)
	Fix      *repair.Result // a repair of the file, shown as a fix; may be nil
	Races    []RaceOutcome  // the race criterion's decisions (race_diag.go)
	Repair   *repair.Result // pgasrob repair's result, reported at its insertions (repair_diag.go)
	Elapsed  float64        // seconds, for the summary
}

// SARIF builds the log of one run over files.
func SARIF(files []File, version string) *sarif.Report {
	run := sarif.NewRunWithInformationURI("pgasrob", "https://github.com/pgasrob/pgasrob")
	b := &sarifRun{run: run, index: map[string]int{}}
	run.Tool.Driver.WithVersion(version).WithSemanticVersion(strings.TrimPrefix(version, "v"))
	for _, r := range Rules {
		d := run.AddRule(r.ID).WithName(r.Name).WithShortDescription(sarif.NewMultiformatMessageString().WithText(r.Short)).
			WithFullDescription(sarif.NewMultiformatMessageString().WithText(r.Help))
		d.WithDefaultConfiguration(sarif.NewReportingConfiguration().WithLevel(r.Level))
	}
	for _, f := range files {
		b.artifactIndex(f.Path)
		for _, e := range f.Errors {
			res := newResult(run, RuleInput, "error", e.Msg)
			res.AddLocation(b.physical(e.File, e.Line, e.Col, ""))
		}
		if f.Prog != nil {
			for _, d := range f.Prog.Warnings {
				res := newResult(run, RuleWarning, "warning", d.Msg)
				res.AddLocation(b.physical(f.Path, d.Pos.Line, d.Pos.Col, ""))
			}
		}
		for _, o := range f.Outcomes {
			b.addOutcome(f, o)
		}
		for _, o := range f.Races {
			b.addRace(f, o)
		}
		if f.Repair != nil {
			b.addRepair(f)
		}
	}
	return sarif.NewReport().AddRun(run)
}

// WriteSARIF writes the log, indented.
func WriteSARIF(w io.Writer, files []File, version string) error {
	return SARIF(files, version).PrettyWrite(w)
}

func newResult(run *sarif.Run, rule, level, msg string) *sarif.Result {
	return run.CreateResultForRule(rule).WithLevel(level).WithMessage(sarif.NewTextMessage(msg))
}

// sarifRun builds one run: its results refer to its artifacts by index.
type sarifRun struct {
	run   *sarif.Run
	index map[string]int // artifact URI -> index in run.artifacts
}

func (b *sarifRun) artifactIndex(file string) int {
	u := uri(file)
	if i, ok := b.index[u]; ok {
		return i
	}
	b.index[u] = len(b.run.Artifacts)
	b.run.AddArtifact(sarif.NewArtifact().WithLocation(artifact(file).WithIndex(b.index[u])))
	return b.index[u]
}

func (b *sarifRun) addOutcome(f File, o Outcome) {
	run := b.run
	if o.Res == nil {
		msg := "no verdict"
		if o.Err != nil {
			msg = firstLine(o.Err.Error())
		}
		newResult(run, RuleInternal, "error", fmt.Sprintf("N = %d: %s", o.N, msg)).AddLocation(b.physical(f.Path, 0, 0, ""))
		return
	}
	p, r := f.Prog, o.Res
	switch r.Verdict {
	case cycles.NotRobust:
		m := NewWitness(p, o.N, r.Witness)
		at := m.Events[m.Cycle[m.Primary()].From]
		res := newResult(run, RuleNotRobust, "error", fmt.Sprintf("Not robust for N = %d: %s.", o.N, violationSummary(m)))
		res.AddLocation(b.evLocation(f.Path, at, ""))
		for i, e := range m.Cycle {
			loc := b.evLocation(f.Path, m.Events[e.From], stepText(m, i))
			res.AddRelatedLocation(loc.WithID(i + 1))
		}
		onCycle := map[int]bool{}
		for _, x := range m.OnCycle() {
			onCycle[x] = true
		}
		res.AddCodeFlow(b.codeFlow(f.Path, m.Events, onCycle, fmt.Sprintf("relaxed computation of %d events, certified in X(P,%d)", len(m.Events), o.N)))
		res.WithPartialFingerprints(map[string]string{"pgasrobCycle/v1": fingerprint(m)})
		if fix := b.fix(f); fix != nil {
			res.AddFixe(fix)
		}
	case cycles.RunError:
		res := newResult(run, RuleRunError, "error", fmt.Sprintf("Run-time error for N = %d: %s.", o.N, runErrMessage(p, r.RunError.Err)))
		pos, _ := RunErrPos(p, r.RunError.Err)
		res.AddLocation(b.physical(f.Path, pos.Line, pos.Col, ""))
		if path := NewPath(p, r.RunError.Path); len(path) > 0 {
			res.AddCodeFlow(b.codeFlow(f.Path, path, nil, fmt.Sprintf("sequentially consistent computation of %d events", len(path))))
		}
	case cycles.Unknown:
		newResult(run, RuleUnknown, "warning", fmt.Sprintf("Robustness unknown for N = %d: %s.", o.N, r.Reason)).AddLocation(b.physical(f.Path, 0, 0, ""))
	}
}

// codeFlow is a computation as one threadFlow per process that has
// events, each in program order.
func (b *sarifRun) codeFlow(file string, evs []Event, essential map[int]bool, msg string) *sarif.CodeFlow {
	cf := sarif.NewCodeFlow().WithMessage(sarif.NewTextMessage(msg))
	byProc := map[int][]Event{}
	var procs []int
	for _, ev := range evs {
		if _, ok := byProc[ev.Proc]; !ok {
			procs = append(procs, ev.Proc)
		}
		byProc[ev.Proc] = append(byProc[ev.Proc], ev)
	}
	sortInts(procs)
	for _, pr := range procs {
		tf := sarif.NewThreadFlow().WithID(byProc[pr][0].Who).WithMessage(sarif.NewTextMessage(byProc[pr][0].Who))
		for _, ev := range byProc[pr] {
			imp := "important"
			if essential[ev.Index] {
				imp = "essential"
			}
			tl := sarif.NewThreadFlowLocation().WithExecutionOrder(ev.Index).WithImportance(imp).
				WithLocation(b.evLocation(file, ev, evShort(ev)))
			tf.AddLocation(tl)
		}
		cf.AddThreadFlow(tf)
	}
	return cf
}

func sortInts(xs []int) {
	for i := 1; i < len(xs); i++ {
		for j := i; j > 0 && xs[j] < xs[j-1]; j-- {
			xs[j], xs[j-1] = xs[j-1], xs[j]
		}
	}
}

// fingerprint identifies a violation across runs by what it is made of
// (the source lines and kinds of the cycle's events), not by numbers
// that change with unrelated edits.
func fingerprint(m *Witness) string {
	var parts []string
	for _, e := range m.Cycle {
		ev := m.Events[e.From]
		parts = append(parts, fmt.Sprintf("%s:%s:%s", ev.Kind, strings.Join(strings.Fields(ev.Text), " "), e.Rel))
	}
	return strings.Join(parts, "|")
}

func (b *sarifRun) evLocation(file string, ev Event, msg string) *sarif.Location {
	if !ev.HasPos {
		return b.physical(file, 0, 0, msg)
	}
	f := ev.Pos.File
	if f == "" {
		f = file
	}
	return b.physical(f, ev.Pos.Line, ev.Pos.Col, msg)
}

// physical is a location in file at line:col (line 0: the file).
func (b *sarifRun) physical(file string, line, col int, msg string) *sarif.Location {
	pl := sarif.NewPhysicalLocation().WithArtifactLocation(artifact(file).WithIndex(b.artifactIndex(file)))
	if line > 0 {
		reg := sarif.NewRegion().WithStartLine(line)
		if col > 0 {
			reg.WithStartColumn(col)
		}
		pl.WithRegion(reg)
	}
	loc := sarif.NewLocationWithPhysicalLocation(pl)
	if msg != "" {
		loc.WithMessage(sarif.NewTextMessage(msg))
	}
	return loc
}

func artifact(file string) *sarif.ArtifactLocation {
	a := sarif.NewArtifactLocation().WithURI(uri(file))
	if !filepath.IsAbs(file) {
		// Relative to where pgasrob ran: the checkout, in CI.
		a.WithURIBaseID("%SRCROOT%")
	}
	return a
}

// uri is a file name as a URI reference: slashes, and file:// for an
// absolute path.
func uri(file string) string {
	u := filepath.ToSlash(file)
	if filepath.IsAbs(file) {
		return "file://" + u
	}
	return strings.TrimPrefix(u, "./")
}

// sarifFix is a repair of the file as replacements of its lines.
func (b *sarifRun) fix(f File) *sarif.Fix {
	if f.Fix == nil || f.Fix.Verdict != repair.Repaired || f.Fix.Source == nil || f.Src == nil {
		return nil
	}
	hunks, ok := lineHunks(splitKeep(f.Src), splitKeep(f.Fix.Source))
	if !ok || len(hunks) == 0 {
		return nil
	}
	var texts []string
	for _, in := range f.Fix.Insertions {
		texts = append(texts, in.Text)
	}
	ch := sarif.NewArtifactChange().WithArtifactLocation(artifact(f.Path).WithIndex(b.artifactIndex(f.Path)))
	for _, h := range hunks {
		// A region of whole lines: from the start of line From to the
		// start of line From+Deleted (empty for a pure insertion).
		reg := sarif.NewRegion().WithStartLine(h.From).WithStartColumn(1).WithEndLine(h.From + h.Deleted).WithEndColumn(1)
		rep := sarif.NewReplacement().WithDeletedRegion(reg)
		if h.Inserted != "" {
			rep.WithInsertedContent(sarif.NewArtifactContent().WithText(h.Inserted))
		}
		ch.AddReplacement(rep)
	}
	desc := fmt.Sprintf("pgasrob repair (cost %d): %s", f.Fix.Cost, strings.Join(texts, "; "))
	return sarif.NewFix().WithDescription(sarif.NewTextMessage(desc)).AddArtifactChange(ch)
}
