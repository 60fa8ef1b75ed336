package state

import (
	"context"
	"flag"
	"fmt"
	"math/rand/v2"
	"slices"
	"strconv"
	"sync"
	"testing"
	"time"
)

var lockWalkSeed = flag.Int64("lock-seed", 0, "TestPostgresProjectLocksRandomWalk: replay this seed")

// lockModel is what the walk knows of who holds what: a project run's
// projects, or the whole state.
type lockModel struct {
	mu       sync.Mutex
	projects map[string]int // project -> the walker holding it
	whole    int            // the walker holding the whole state, -1 none
	sharers  int            // walkers holding projects
	writes   map[string]int // project -> writes done
}

// take records walker w's lock, failing when another holds any of it.
func (m *lockModel) take(w int, projects []string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.whole >= 0 {
		return fmt.Errorf("walker %d got %v while walker %d holds the whole state", w, projects, m.whole)
	}
	if projects == nil {
		if m.sharers > 0 || len(m.projects) > 0 {
			return fmt.Errorf("walker %d got the whole state while projects are held: %v", w, m.projects)
		}
		m.whole = w
		return nil
	}
	for _, p := range projects {
		if other, held := m.projects[p]; held {
			return fmt.Errorf("walker %d got project %s, which walker %d holds", w, p, other)
		}
	}
	for _, p := range projects {
		m.projects[p] = w
	}
	m.sharers++
	return nil
}

func (m *lockModel) release(projects []string) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if projects == nil {
		m.whole = -1
		return
	}
	for _, p := range projects {
		delete(m.projects, p)
		m.writes[p]++
	}
	m.sharers--
}

// Several runs ask for random sets of projects, in random orders, and now
// and then for the whole state, each waiting for what it needs, and write
// their projects' entries: none waits forever (a deadlock would end the
// walk with a lock not got in time), no two hold one project or one the
// whole state while another holds anything, and every write lands.
func TestPostgresProjectLocksRandomWalk(t *testing.T) {
	seed := time.Now().UnixNano()
	if *lockWalkSeed != 0 {
		seed = *lockWalkSeed
	}
	t.Logf("seed %d (replay: go test ./state -run TestPostgresProjectLocksRandomWalk -lock-seed %d)", seed, seed)
	ctx := context.Background()
	first, dsn, name := newTestPostgres(t)
	pool := []string{"pa", "pb", "pc", "pd", "pe"}
	const walkers, rounds = 4, 8
	m := &lockModel{projects: map[string]int{}, whole: -1, writes: map[string]int{}}
	var wg sync.WaitGroup
	errs := make(chan error, walkers)
	for w := range walkers {
		b := first
		if w > 0 {
			b = openPostgres(t, dsn, name)
		}
		rng := rand.New(rand.NewPCG(uint64(seed), uint64(w)))
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range rounds {
				if err := walkStep(ctx, b, w, rng, pool, m); err != nil {
					errs <- fmt.Errorf("seed %d: %w", seed, err)
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	st, err := first.Read(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range pool {
		addr, _ := entryOf(p, "")
		want := strconv.Itoa(m.writes[p])
		if c := st.Computes[addr]; m.writes[p] > 0 && (c == nil || c.Applied.Name != want) {
			t.Errorf("seed %d: project %s was written %s times, the state holds %+v", seed, p, want, c)
		}
	}
}

// walkStep is one run of the walk: a lock, a read and a write of each
// project it holds (its count of writes), and the release.
func walkStep(ctx context.Context, b *Postgres, w int, rng *rand.Rand, pool []string, m *lockModel) error {
	var projects []string // nil: the whole state
	if rng.IntN(6) > 0 {
		projects = slices.Clone(pool)
		rng.Shuffle(len(projects), func(i, j int) { projects[i], projects[j] = projects[j], projects[i] })
		projects = projects[:1+rng.IntN(3)]
	}
	var unlock func() error
	var err error
	if projects == nil {
		unlock, err = LockWaiting(ctx, b, fmt.Sprint("walker ", w), 2*time.Minute, nil)
	} else {
		unlock, err = LockProjectsWaiting(ctx, b, fmt.Sprint("walker ", w), projects, 2*time.Minute, nil)
	}
	if err != nil {
		return fmt.Errorf("walker %d asking for %v: %w", w, projects, err)
	}
	defer unlock()
	sorted := slices.Sorted(slices.Values(projects))
	if err := m.take(w, sorted); err != nil {
		return err
	}
	if projects != nil {
		st, err := b.Read(ctx)
		if err != nil {
			return err
		}
		m.mu.Lock()
		for _, p := range sorted {
			setEntry(st, p, strconv.Itoa(m.writes[p]+1))
		}
		m.mu.Unlock()
		if err := b.Write(ctx, st); err != nil {
			return fmt.Errorf("walker %d writing %v: %w", w, sorted, err)
		}
	}
	time.Sleep(time.Duration(rng.IntN(3)) * time.Millisecond)
	m.release(sorted)
	return nil
}
