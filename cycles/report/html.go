package report

import (
	"io"
)

// WriteHTML writes the witness page of f (html.go).
func WriteHTML(w io.Writer, f File) error {
	return nil
}
