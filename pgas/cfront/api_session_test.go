package cfront

import (
	"strings"
	"testing"
)

// A session is a hint that changes no completion or ordering (OpenSHMEM
// 1.6, Sessions): the program with shmem_ctx_session_start/stop around
// its puts translates to the same .pgas text, up to positions, as the
// program without them, so every verdict is the same.
func TestSessionIsNoOp(t *testing.T) {
	const prog = `#include <shmem.h>
long data, flag;
int main(void) {
  shmem_init();
  shmem_ctx_t ctx;
  shmem_ctx_session_config_t config;
  config.total_ops = 2;
  if (shmem_ctx_create(0, &ctx) != 0) return 1;
  if (shmem_my_pe() == 0) {
    START
    shmem_ctx_long_p(ctx, &data, 1, 1);
    shmem_ctx_long_p(ctx, &flag, 1, 1);
    STOP
  } else if (shmem_my_pe() == 1) {
    shmem_long_wait_until(&flag, SHMEM_CMP_EQ, 1);
    long d = data;
    (void)d;
  }
  shmem_finalize();
  return 0;
}
`
	with := strings.NewReplacer("START", "shmem_ctx_session_start(ctx, SHMEM_CTX_SESSION_BATCH, &config, SHMEM_CTX_SESSION_TOTAL_OPS);",
		"STOP", "shmem_ctx_session_stop(ctx);").Replace(prog)
	without := strings.NewReplacer("START", "", "STOP", "").Replace(prog)
	a, err := Translate("s.c", []byte(with), Options{N: 2})
	if err != nil {
		t.Fatal(err)
	}
	b, err := Translate("s.c", []byte(without), Options{N: 2})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(a.Source), "ctx") {
		t.Fatalf("the puts on ctx are missing:\n%s", a.Source)
	}
	if strip(a.Source) != strip(b.Source) {
		t.Errorf("a session changed the translation:\n%s\nwithout it:\n%s", a.Source, b.Source)
	}
}

// strip drops the position comments of a translation.
func strip(src []byte) string {
	var out []string
	for _, l := range strings.Split(string(src), "\n") {
		if i := strings.Index(l, "//"); i >= 0 {
			l = l[:i]
		}
		if l = strings.TrimSpace(l); l != "" {
			out = append(out, l)
		}
	}
	return strings.Join(out, "\n")
}

// SHMEM_CTX_INVALID is declared, and a comparison with it refused by
// name; so is a session configuration that is not &object or NULL.
func TestSessionRefusals(t *testing.T) {
	for _, c := range []struct{ globals, body, want string }{
		{"shmem_ctx_t ctx;", "shmem_ctx_create(0, &ctx);\n  if (ctx != SHMEM_CTX_INVALID) shmem_ctx_quiet(ctx);", "SHMEM_CTX_INVALID: context handles are not values"},
		{"shmem_ctx_t ctx; shmem_ctx_session_config_t cs[2];", "shmem_ctx_create(0, &ctx);\n  shmem_ctx_session_start(ctx, 0, cs + 1, 0);", "the configuration of shmem_ctx_session_start must be NULL or &config"},
		{"", "shmem_ctx_session_stop(1);", "a context must be SHMEM_CTX_DEFAULT"},
	} {
		_, err := Translate("r.c", []byte(wrap(c.globals, c.body)), Options{N: 2})
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: want %q, got %v", c.body, c.want, err)
		}
	}
}
