package main

import (
	"github.com/pgasrob/pgasrob/cycles/report"
	"github.com/pgasrob/pgasrob/pgas"
)

// The renderers of decide and cycles live in cycles/report; this file
// names the parts the command (and its tests, and merge) handle.

const (
	decideSchema     = report.DecideSchema
	cyclesSchema     = report.CyclesSchema
	restrictedRobust = report.RestrictedRobust
)

type (
	outcome          = report.Outcome
	decideJSON       = report.DecideJSON
	nResultJSON      = report.NResultJSON
	statsJSON        = report.StatsJSON
	cacheJSON        = report.CacheJSON
	typeCounts       = report.TypeCounts
	witnessJSON      = report.WitnessJSON
	edgeJSON         = report.EdgeJSON
	eventJSON        = report.EventJSON
	cellJSON         = report.CellJSON
	runtimeErrorJSON = report.RuntimeErrorJSON
	cyclesJSON       = report.CyclesJSON
	cyclesNJSON      = report.CyclesNJSON
	cycleTypeJSON    = report.CycleTypeJSON
	checkError       = report.ErrorJSON
)

// errorsToJSON lists input errors with their positions (0 when unknown).
func errorsToJSON(file string, ie *inputError) []checkError {
	if len(ie.list) == 0 {
		return []checkError{{File: file, Msg: ie.err.Error()}}
	}
	var out []checkError
	for i, e := range ie.list {
		if i == pgas.MaxErrors {
			// The cap of the text list (pgas.ErrorList.Error).
			out = append(out, checkError{File: file, Msg: "too many errors"})
			break
		}
		out = append(out, checkError{File: e.Pos.File, Line: e.Pos.Line, Col: e.Pos.Col, Msg: e.Msg})
	}
	return out
}
