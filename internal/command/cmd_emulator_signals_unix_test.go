//go:build unix

package command

import (
	"context"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/neonform/neonform/emulator"
)

// emulatorPhase runs neonform emulator in this process with its loading or
// its saving held until the test lets it go, and sends this process stop
// signals while it is held. The test listens for them too, so that an
// emulator that does not would not take the test binary down with it.
type emulatorPhase struct {
	entered  chan struct{} // closed when the held phase starts
	release  chan struct{} // closed by the test's end: the phase goes on
	finished chan struct{} // closed when the held phase has ended
	serving  chan struct{} // closed when the emulator prints its intro
	done     chan error    // what runEmulator returned
}

// firstWrite closes a channel on its first write.
type firstWrite struct {
	ch   chan struct{}
	once sync.Once
}

func (w *firstWrite) Write(b []byte) (int, error) {
	w.once.Do(func() { close(w.ch) })
	return len(b), nil
}

func holdEmulator(t *testing.T, holdLoad bool, data string) *emulatorPhase {
	t.Helper()
	p := &emulatorPhase{entered: make(chan struct{}), release: make(chan struct{}), finished: make(chan struct{}),
		serving: make(chan struct{}), done: make(chan error, 1)}
	caught := make(chan os.Signal, 4)
	signal.Notify(caught, stopSignals...)
	t.Cleanup(func() {
		close(p.release)
		<-p.finished // before the data file's directory goes
		signal.Stop(caught)
	})
	opts := emulatorOptions{Addr: "127.0.0.1:0", DataFile: data, OpDelay: time.Second,
		RateLimit: 700, Burst: 40, Quiet: true, Stdout: &firstWrite{ch: p.serving}, Stderr: io.Discard}
	hold := func() { close(p.entered); <-p.release }
	if holdLoad {
		opts.Load = func(o emulator.Options) (*emulator.Emulator, error) {
			defer close(p.finished)
			hold()
			return emulator.New(o)
		}
	} else {
		opts.Save = func(e *emulator.Emulator) error {
			defer close(p.finished)
			hold()
			return e.Close()
		}
	}
	go func() {
		p.done <- runEmulator(context.Background(), opts)
	}()
	return p
}

func (p *emulatorPhase) signal(t *testing.T) {
	t.Helper()
	if err := syscall.Kill(os.Getpid(), syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
}

// ended is what runEmulator returned, while its phase is still held.
func (p *emulatorPhase) ended(t *testing.T) error {
	t.Helper()
	select {
	case err := <-p.done:
		return err
	case <-time.After(20 * time.Second):
		t.Fatal("the emulator did not stop on SIGTERM")
		return nil
	}
}

// SIGTERM while the world loads stops the emulator: a world file that takes
// long to read does not keep it running.
func TestEmulatorStopsOnASignalWhileLoading(t *testing.T) {
	p := holdEmulator(t, true, filepath.Join(t.TempDir(), "world.json"))
	<-p.entered
	p.signal(t)
	err := p.ended(t)
	if err == nil || err.Error() != "Received terminated while the emulator was loading its world: it stopped without serving." {
		t.Errorf("runEmulator = %v", err)
	}
}

// The first SIGTERM asks for the save; a second one, while it runs, stops
// the emulator without waiting for it.
func TestEmulatorStopsOnASecondSignalWhileSaving(t *testing.T) {
	data := filepath.Join(t.TempDir(), "world.json")
	p := holdEmulator(t, false, data)
	<-p.serving
	p.signal(t)
	<-p.entered
	p.signal(t)
	err := p.ended(t)
	if err == nil || !strings.HasPrefix(err.Error(), "Received terminated again: the emulator stopped without waiting for the world to be saved. "+data+" holds") {
		t.Errorf("runEmulator = %v", err)
	}
}
