package report

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/pgasrob/pgasrob/cycles"
)

// The page without a browser: self-contained (no URL to fetch, no
// external script), a lane per PE and an element per event.
func TestHTMLPage(t *testing.T) {
	p, o := decided(t, "shmem/flag-put.c", 2)
	src, _ := os.ReadFile("../../examples/shmem/flag-put.c")
	var b bytes.Buffer
	if err := WriteHTML(&b, File{Path: "flag-put.c", Prog: p, Src: src, Outcomes: []Outcome{o}}); err != nil {
		t.Fatal(err)
	}
	page := b.String()
	for _, bad := range []string{"http://", "https://", "<script src", "<link", "@import", "url(http"} {
		if strings.Contains(strings.ReplaceAll(page, `"http://www.w3.org/2000/svg"`, ""), bad) {
			t.Errorf("the page refers outside itself: %q", bad)
		}
	}
	if got := strings.Count(page, `class="lane head"`); got != 2 {
		t.Errorf("%d lanes, want 2 (PE 0 and PE 1)", got)
	}
	if got, want := strings.Count(page, `<a class="event`), len(o.Res.Witness.Computation); got != want {
		t.Errorf("%d events on the page, want %d", got, want)
	}
	if !strings.Contains(page, `id="L22"`) || !strings.Contains(page, `href="#L22"`) {
		t.Errorf("the put of line 22 is not linked to its source line")
	}
}

// browser installs (or finds) headless Chromium with the repository's
// script, or skips the test with the script's reason.
func browser(t *testing.T) string {
	t.Helper()
	if testing.Short() {
		t.Skip("-short: the browser test installs and starts Chromium")
	}
	if why := os.Getenv("PGASROB_CHROMIUM_SKIP"); why != "" {
		t.Skipf("no headless Chromium: %s", why)
	}
	out, err := exec.Command("bash", "../../scripts/chromium.sh").Output()
	if err != nil {
		reason := err.Error()
		if ee, ok := err.(*exec.ExitError); ok {
			reason = strings.TrimSpace(string(ee.Stderr))
		}
		t.Skipf("no headless Chromium: %s", reason)
	}
	return strings.TrimSpace(string(out))
}

func chromium(t *testing.T, bin string, args ...string) []byte {
	t.Helper()
	dir := t.TempDir() // a profile of its own: runs do not share state
	all := append([]string{"--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--user-data-dir=" + dir,
		"--virtual-time-budget=3000"}, args...)
	out, err := exec.Command(bin, all...).Output()
	if err != nil {
		t.Fatalf("%s %v: %v", bin, args, err)
	}
	return out
}

// The page of a litmus witness in a real browser: after its script ran,
// the DOM has a lane per PE, every event, and one drawn path per step of
// the happens-before cycle, from and to the events the witness names. A
// screenshot is kept for a person to look at (its path is logged).
func TestHTMLInChromium(t *testing.T) {
	bin := browser(t)
	p, o := decided(t, "shmem/flag-put.c", 2)
	src, _ := os.ReadFile("../../examples/shmem/flag-put.c")
	dir := t.TempDir()
	page := filepath.Join(dir, "witness.html")
	var b bytes.Buffer
	if err := WriteHTML(&b, File{Path: "flag-put.c", Prog: p, Src: src, Outcomes: []Outcome{o}}); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(page, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	dom := string(chromium(t, bin, "--dump-dom", "file://"+page))
	w := o.Res.Witness
	if got := len(regexp.MustCompile(`class="lane head"`).FindAllString(dom, -1)); got != 2 {
		t.Errorf("%d lanes in the DOM, want 2", got)
	}
	if got := len(regexp.MustCompile(`<a class="event`).FindAllString(dom, -1)); got != len(w.Computation) {
		t.Errorf("%d events in the DOM, want %d", got, len(w.Computation))
	}
	drawn := regexp.MustCompile(`<path d="M[^"]*" class="edge rel-[a-z]+" data-from="(\d+)" data-to="(\d+)"`).FindAllStringSubmatch(dom, -1)
	if len(drawn) != len(w.HB) {
		t.Fatalf("%d cycle edges drawn, want %d (did the script run?)", len(drawn), len(w.HB))
	}
	for i, e := range w.HB {
		if want := []string{fmt.Sprint(e.From), fmt.Sprint(e.To)}; drawn[i][1] != want[0] || drawn[i][2] != want[1] {
			t.Errorf("edge %d drawn from #%s to #%s, want #%d to #%d", i, drawn[i][1], drawn[i][2], e.From, e.To)
		}
	}
	if regexp.MustCompile(`<path d="M[^"]*NaN`).MatchString(dom) {
		t.Errorf("an edge has no coordinates (NaN): the layout was not read")
	}
	// The step-through at step 3: events after it fade, it is current,
	// and the steps of the cycle that reach later events fade too.
	dom = string(chromium(t, bin, "--dump-dom", "file://"+page+"#step=3"))
	for i := range w.Computation {
		m := regexp.MustCompile(`<a class="([^"]*)" id="e` + fmt.Sprint(i) + `"`).FindStringSubmatch(dom)
		if m == nil {
			t.Fatalf("event %d missing after a step", i)
		}
		if future := strings.Contains(m[1], "future"); future != (i > 3) {
			t.Errorf("step 3: event %d has classes %q", i, m[1])
		}
		if current := strings.Contains(m[1], "current"); current != (i == 3) {
			t.Errorf("step 3: event %d has classes %q", i, m[1])
		}
	}
	shot := filepath.Join(os.TempDir(), "pgasrob-html-witness.png")
	chromium(t, bin, "--window-size=1400,900", "--screenshot="+shot, "file://"+page)
	if st, err := os.Stat(shot); err != nil || st.Size() < 10000 {
		t.Errorf("no screenshot at %s: %v", shot, err)
	}
	t.Logf("screenshot: %s", shot)
}

// A 300-event computation (a run-time error reached after 299 events)
// is laid out: every event in the DOM, the failing line marked, and a
// screenshot of the page to judge its readability.
func TestHTMLLongInChromium(t *testing.T) {
	bin := browser(t)
	p, o := decided(t, "../cycles/report/testdata/long-path.pgas", 1)
	if o.Res.Verdict != cycles.RunError || len(o.Res.RunError.Path) < 290 {
		t.Fatalf("long-path.pgas: want a run-time error after about 300 events, got %v", o.Res.Verdict)
	}
	src, _ := os.ReadFile("testdata/long-path.pgas")
	page := filepath.Join(t.TempDir(), "long.html")
	var b bytes.Buffer
	if err := WriteHTML(&b, File{Path: "long-path.pgas", Prog: p, Src: src, Outcomes: []Outcome{o}}); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(page, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	dom := string(chromium(t, bin, "--dump-dom", "file://"+page))
	if got := strings.Count(dom, `<a class="event`); got != len(o.Res.RunError.Path) {
		t.Errorf("%d events in the DOM, want %d", got, len(o.Res.RunError.Path))
	}
	if !strings.Contains(dom, `class="line used error" id="L8"`) {
		t.Errorf("the failing line 8 is not marked")
	}
	shot := filepath.Join(os.TempDir(), "pgasrob-html-long.png")
	chromium(t, bin, "--window-size=1400,900", "--screenshot="+shot, "file://"+page)
	t.Logf("screenshot: %s", shot)
}
