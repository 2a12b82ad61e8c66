package pool

import (
	"context"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// TestHandedOutInOrder: items are handed out in list order (the k-th
// handed out is item k), whatever the number of workers, and each is
// searched exactly once.
func TestHandedOutInOrder(t *testing.T) {
	for _, w := range []int{1, 2, 5} {
		var mu sync.Mutex
		seen := map[int]int{}
		p := &Pool{Workers: w}
		p.Run(context.Background(), 40, func(it Item) bool {
			mu.Lock()
			defer mu.Unlock()
			seen[it.Index]++
			if it.Taken != it.Index+1 || it.Running >= w {
				t.Errorf("workers %d: item %d handed out %d-th, beside %d running", w, it.Index, it.Taken, it.Running)
			}
			return false
		})
		for i := range 40 {
			if seen[i] != 1 {
				t.Fatalf("workers %d: item %d searched %d times", w, i, seen[i])
			}
		}
	}
}

// TestLaterOnlyCancelled: item 3 wins while items 1 (earlier) and 5
// (later) are running and item 6 is still to come: 5 is cancelled, 1
// runs to its end and 6 is handed out as skipped. Then 1 wins too, and
// becomes the first win: 3 is beaten.
func TestLaterOnlyCancelled(t *testing.T) {
	p := &Pool{Workers: 4}
	started5 := make(chan struct{})
	var mu sync.Mutex
	cut := map[int]bool{}
	skipped := map[int]bool{}
	won := func() {
		for !p.Beaten(4) {
			runtime.Gosched()
		}
	}
	p.Run(context.Background(), 7, func(it Item) bool {
		if it.Skip {
			mu.Lock()
			skipped[it.Index] = true
			mu.Unlock()
			return false
		}
		switch it.Index {
		case 3:
			<-started5
			return true
		case 4:
			won() // keeps its worker until 3 has won: 6 comes after
		case 1, 5:
			if it.Index == 5 {
				close(started5)
			} else {
				won()
			}
			select {
			case <-it.Ctx.Done():
				mu.Lock()
				cut[it.Index] = true
				mu.Unlock()
			case <-time.After(100 * time.Millisecond):
			}
			return it.Index == 1
		}
		return false
	})
	if cut[1] || !cut[5] {
		t.Errorf("cancelled: %v (want 5 only)", cut)
	}
	if !skipped[6] || len(skipped) != 1 {
		t.Errorf("skipped: %v (want 6, handed out after the win)", skipped)
	}
	if !p.Beaten(3) || p.Beaten(1) {
		t.Errorf("1 won after 3: 3 beaten %v, 1 beaten %v", p.Beaten(3), p.Beaten(1))
	}
}

// TestFirstWinIndependentOfFinish: whichever order the winners finish in,
// the first in list order is the one no other beats.
func TestFirstWinIndependentOfFinish(t *testing.T) {
	for round := range 20 {
		p := &Pool{Workers: 3}
		p.Run(context.Background(), 12, func(it Item) bool {
			if it.Skip {
				return false
			}
			time.Sleep(time.Duration((it.Index*7+round)%5) * time.Millisecond)
			return it.Index%4 == 2 && it.Ctx.Err() == nil
		})
		if p.Beaten(2) {
			t.Fatalf("round %d: item 2 beaten", round)
		}
		for _, i := range []int{6, 10} {
			if !p.Beaten(i) {
				t.Fatalf("round %d: item %d not beaten", round, i)
			}
		}
	}
}

// TestJoinLate: with Join, a run that ends before the delay searches on
// the calling goroutine alone; a longer one is joined by the others,
// and every item is still searched once.
func TestJoinLate(t *testing.T) {
	var running, most atomic.Int32
	search := func(d time.Duration) func(Item) bool {
		return func(Item) bool {
			n := running.Add(1)
			for m := most.Load(); n > m && !most.CompareAndSwap(m, n); m = most.Load() {
			}
			time.Sleep(d)
			running.Add(-1)
			return false
		}
	}
	p := &Pool{Workers: 4, Join: time.Hour}
	p.Run(context.Background(), 10, search(0))
	if most.Load() != 1 {
		t.Errorf("a run shorter than Join ran %d searches at once", most.Load())
	}
	most.Store(0)
	var count atomic.Int32
	p = &Pool{Workers: 4, Join: 5 * time.Millisecond}
	s := search(3 * time.Millisecond)
	p.Run(context.Background(), 40, func(it Item) bool { count.Add(1); return s(it) })
	if most.Load() < 2 || count.Load() != 40 {
		t.Errorf("late joiners: at most %d at once, %d searched", most.Load(), count.Load())
	}
}

// TestFeedAnyWins: in a feed with AnyWins, a win cancels the searches
// before it too, and put refuses further items.
func TestFeedAnyWins(t *testing.T) {
	p := &Pool{Workers: 2, AnyWins: true}
	started := make(chan struct{})
	var cut0 atomic.Bool
	fed := 0
	Feed(context.Background(), p, func(put func(int) bool) {
		for v := 0; v < 100; v++ {
			if !put(v) {
				return
			}
			fed++
			if v == 0 {
				<-started
			}
		}
	}, func(it Item, v int) bool {
		if it.Index != v {
			t.Errorf("item %d carries %d", it.Index, v)
		}
		switch v {
		case 0:
			close(started)
			<-it.Ctx.Done()
			cut0.Store(true)
		case 1:
			return true
		default:
			<-it.Ctx.Done() // cancelled by the win, or beaten already (Skip)
		}
		return false
	})
	if !cut0.Load() || fed == 100 || !p.Beaten(0) {
		t.Errorf("item 0 cut %v, fed %d, beaten %v", cut0.Load(), fed, p.Beaten(0))
	}
}

// TestSlots: a slot lent out is not available until given back; Borrow
// takes only what is free.
func TestSlots(t *testing.T) {
	s := NewSlots(3)
	if !s.TryTake() {
		t.Fatal("no free slot")
	}
	if k := s.Borrow(5); k != 2 {
		t.Fatalf("borrowed %d of 2 free slots", k)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Millisecond)
	defer cancel()
	if s.Take(ctx) {
		t.Fatal("took a slot none of which is free")
	}
	s.Give(1)
	if !s.Take(context.Background()) || s.TryTake() {
		t.Fatal("the slot given back is not taken once")
	}
}
