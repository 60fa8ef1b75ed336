package command

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/signal"
	"strconv"
	"time"

	"github.com/neonform/neonform/emulator"
	"github.com/neonform/neonform/internal/apiurl"
	"github.com/neonform/neonform/internal/command/views"
)

// emulatorOptions are the inputs of neonform emulator.
type emulatorOptions struct {
	Addr     string
	DataFile string
	APIKey   string
	OpDelay  time.Duration
	Latency  time.Duration
	Faults   string
	// Checks is -availability-checks: the chance of an availability check.
	Checks    float64
	RateLimit int // a minute, per account; 0 = off
	Burst     int // a second, per account and route
	FakeClock bool
	Quiet     bool
	// AllowRemote lets -addr be an address other machines may reach.
	AllowRemote bool
	// Postgres backs the computes with real Postgres, through a proxy on PostgresAddr.
	Postgres     bool
	PostgresAddr string
	Stdout       io.Writer
	Stderr       io.Writer
	// Load and Save build the emulator, loading the data file, and save its
	// world when it stops (nil: emulator.New and Close). Tests give ones that
	// wait, to send a signal during either.
	Load func(emulator.Options) (*emulator.Emulator, error)
	Save func(*emulator.Emulator) error
}

// runEmulator serves until ctx ends (Ctrl-C), then writes the data file. It takes its
// address before it loads the world: an emulator that cannot listen leaves the data
// file as it found it. A stop signal ends every phase: loading (a large world file),
// serving, and saving, where it is the second one, the first having asked for the
// save (docs/security.md).
func runEmulator(ctx context.Context, o emulatorOptions) error {
	opts, err := o.emulatorOptions()
	if err != nil {
		return err
	}
	ln, addr, err := o.listen()
	if err != nil {
		return err
	}
	var pg *emulatorPostgres
	if o.Postgres {
		if pg, err = startEmulatorPostgres(o.PostgresAddr, o.AllowRemote, o.DataFile, o.Stderr); err != nil {
			ln.Close()
			return err
		}
	}
	if pg != nil {
		opts.Postgres = pg.proxy
		defer pg.stop(o.Stderr)
	}
	stops := make(chan os.Signal, 2)
	signal.Notify(stops, stopSignals...)
	defer signal.Stop(stops)

	emu, err := o.loadWorld(ctx, stops, opts)
	if err != nil {
		ln.Close()
		return err
	}
	base := "http://" + printableHost(addr) + "/api/v2"
	intro := &views.EmulatorIntro{Base: base, DataFile: o.DataFile, OpDelay: o.OpDelay}
	if o.APIKey == "" { // only a generated key: one given with -api-key is already known
		intro.Key = emu.APIKey()
	}
	views.WriteEmulatorIntro(o.Stdout, intro)
	if pg != nil {
		pg.serve(emu)
		views.WriteEmulatorPostgres(o.Stdout, pg.proxy.Addr(), pg.keptIn(o.DataFile))
	}
	return o.serve(ctx, ln, stops, emu)
}

// listen takes the emulator's address: a loopback one, unless -allow-remote
// (then with a warning).
func (o emulatorOptions) listen() (net.Listener, *net.TCPAddr, error) {
	ln, err := net.Listen("tcp", o.Addr)
	if err != nil {
		return nil, nil, fmt.Errorf("cannot listen on %s: %w; choose another port with -addr, or -addr 127.0.0.1:0 for a free one", o.Addr, err)
	}
	addr := ln.Addr().(*net.TCPAddr)
	if !addr.IP.IsLoopback() {
		if !o.AllowRemote {
			ln.Close()
			return nil, nil, fmt.Errorf("-addr %s listens on %s, which is not loopback; %s", o.Addr, addr.IP, remoteAdvice)
		}
		views.WriteEmulatorRemote(o.Stderr, addr.String())
	}
	return ln, addr, nil
}

// serve serves the emulator's API on ln until ctx ends or a stop signal
// comes, then saves the world; a second signal stops it without waiting for
// the save.
func (o emulatorOptions) serve(ctx context.Context, ln net.Listener, stops <-chan os.Signal, emu *emulator.Emulator) error {
	srv := &http.Server{Handler: emu.Handler(), ReadHeaderTimeout: 10 * time.Second}
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ln) }()
	var err error
	signals := 0
	select {
	case err = <-served:
	case <-ctx.Done():
	case <-stops:
		signals++
	}
	saved := make(chan error, 1)
	go func(err error) { // Serve's error, if it ended by itself
		if err == nil {
			shutdown, cancel := context.WithTimeout(context.Background(), 5*time.Second)
			err = srv.Shutdown(shutdown)
			cancel()
		}
		if errors.Is(err, http.ErrServerClosed) {
			err = nil
		}
		if cerr := o.save(emu); cerr != nil && err == nil {
			err = cerr
		}
		saved <- err
	}(err)
	for {
		select {
		case err = <-saved:
			if err == nil {
				views.WriteEmulatorStopped(o.Stderr, o.DataFile)
			}
			return err
		case sig := <-stops:
			// The first signal (seen here when ctx saw it first) asked for this save.
			if signals++; signals < 2 {
				continue
			}
			msg := fmt.Sprintf("Received %s again: the emulator stopped without waiting for the world to be saved.", sig)
			if o.DataFile != "" {
				msg += " " + o.DataFile + " holds the world as of its last complete write."
			}
			return &exitError{code: 1, msg: msg}
		}
	}
}

// loadWorld builds the emulator, loading the data file, unless a stop signal
// comes first (a world file may be large): the emulator then stops, and the
// data file stays as it was.
func (o emulatorOptions) loadWorld(ctx context.Context, stops <-chan os.Signal, opts emulator.Options) (*emulator.Emulator, error) {
	type loaded struct {
		emu *emulator.Emulator
		err error
	}
	done := make(chan loaded, 1)
	go func() {
		emu, err := o.load(opts)
		done <- loaded{emu, err}
	}()
	stopped := ""
	select {
	case l := <-done:
		return l.emu, l.err
	case <-ctx.Done():
		stopped = "Interrupted"
	case sig := <-stops:
		stopped = "Received " + sig.String()
	}
	return nil, &exitError{code: 1, msg: stopped + " while the emulator was loading its world: it stopped without serving."}
}

func (o emulatorOptions) load(opts emulator.Options) (*emulator.Emulator, error) {
	if o.Load != nil {
		return o.Load(opts)
	}
	return emulator.New(opts)
}

func (o emulatorOptions) save(e *emulator.Emulator) error {
	if o.Save != nil {
		return o.Save(e)
	}
	return e.Close()
}

// emulatorOptions checks the flags and turns them into the emulator's options.
func (o emulatorOptions) emulatorOptions() (emulator.Options, error) {
	faults, err := emulator.ParseFaults(o.Faults)
	if err != nil {
		return emulator.Options{}, fmt.Errorf("-faults: %w", err)
	}
	if err := emulator.CheckAvailabilityRate(o.Checks); err != nil {
		return emulator.Options{}, fmt.Errorf("-availability-checks: %w", err)
	}
	if o.OpDelay < 0 || o.Latency < 0 {
		return emulator.Options{}, errors.New("-op-delay and -latency cannot be negative; use 0 for none")
	}
	if o.RateLimit < 0 {
		return emulator.Options{}, fmt.Errorf("-rate-limit %d: give requests a minute (the service allows 700), or 0 to turn the limit off", o.RateLimit)
	}
	if o.Burst < 1 {
		return emulator.Options{}, fmt.Errorf("-burst %d: give how many requests an account may send to one route in a second, 1 or more (the service allows 40)", o.Burst)
	}
	host, _, err := net.SplitHostPort(o.Addr)
	if err != nil {
		return emulator.Options{}, fmt.Errorf("-addr %q is not HOST:PORT, e.g. 127.0.0.1:5454 (or port 0 for a free one)", o.Addr)
	}
	if !o.AllowRemote && !apiurl.Loopback(host) {
		where := host
		if where == "" {
			where = "every interface"
		}
		return emulator.Options{}, fmt.Errorf("-addr %s would listen on %s, which other machines may reach; %s", o.Addr, where, remoteAdvice)
	}
	opts := emulator.Options{APIKey: o.APIKey, DataFile: o.DataFile, OpDelay: o.OpDelay, Latency: o.Latency,
		Faults: faults, AvailabilityChecks: o.Checks, RatePerMinute: o.RateLimit, Burst: o.Burst}
	if o.RateLimit == 0 {
		opts.RatePerMinute = -1
	}
	if o.FakeClock {
		opts.Clock = emulator.NewFakeClock(time.Now().Truncate(time.Second))
	}
	if !o.Quiet {
		opts.Log = o.Stderr
	}
	return opts, nil
}

// remoteAdvice ends the refusal of an address beyond loopback (docs/emulator.md).
const remoteAdvice = "the API key would cross the network in clear text (plain http). Use 127.0.0.1 (the default) or [::1], or add -allow-remote if other machines are meant to reach it"

// printableHost is the address to print: an unspecified IP (listening on all
// interfaces) is reached through loopback.
func printableHost(addr *net.TCPAddr) string {
	ip := addr.IP
	if ip.IsUnspecified() {
		ip = net.IPv4(127, 0, 0, 1)
	}
	return net.JoinHostPort(ip.String(), strconv.Itoa(addr.Port))
}
