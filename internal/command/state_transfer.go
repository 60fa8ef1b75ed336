package command

import (
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/neonform/neonform/internal/bounded"
	"github.com/neonform/neonform/internal/command/views"
	"github.com/neonform/neonform/state"
)

// state pull and state push carry a state from one backend to another
// (docs/state.md, "Moving the state"): pull prints it as the document a
// local state file holds, push stores such a document in place of the
// configured backend's, with its lineage and serial.

func runStatePull(ctx context.Context, o stateOptions) error {
	b, err := openStateOf(ctx, o)
	if err != nil {
		return err
	}
	defer closeBackend(b)
	st, err := b.Read(ctx)
	if err != nil {
		return err
	}
	if st.Serial == 0 {
		// A state is written at serial 1 first: at 0 there is none, only the
		// empty one a read makes up, whose lineage nothing else knows.
		return fmt.Errorf("%s holds no state yet (nothing was ever written to it), so there is nothing to pull; "+
			"check that the configuration in %s names the state you mean", b.Describe(), displayPath(o.Dir))
	}
	data, err := state.Encode(st)
	if err != nil {
		return err
	}
	_, err = o.Stdout.Write(data)
	return err
}

func runStatePush(ctx context.Context, o stateOptions) error {
	file := o.Args[0]
	data, err := readPushed(file, o.Stdin)
	if err != nil {
		return err
	}
	source := "state file " + file
	if file == "-" {
		source = "the state on standard input"
	}
	pushedState, err := state.Decode(ctx, data, source)
	if err != nil {
		return err
	}
	b, err := openStateOf(ctx, o)
	if err != nil {
		return err
	}
	defer closeBackend(b)
	pusher, ok := b.(state.Pusher)
	if u, isUnlocked := b.(unlocked); isUnlocked { // -lock=false
		pusher, ok = u.Backend.(state.Pusher)
	}
	if !ok {
		return fmt.Errorf("%s cannot be replaced by neonform", b.Describe())
	}
	unlock, err := lockState(ctx, b, "state push", o.LockTimeout, o.Stderr)
	if err != nil {
		return err
	}
	defer unlock()
	res, err := pusher.Push(ctx, pushedState, o.Force)
	var refused *state.PushRefusedError
	if errors.As(err, &refused) {
		return fmt.Errorf("%w. %s", err, pushAdvice(source, configArgsOf(o.planInputs)))
	}
	if err != nil {
		return err
	}
	views.WriteStatePush(o.Stdout, &views.StatePush{Source: source, Where: b.Describe(),
		Lineage: pushedState.Lineage, Serial: pushedState.Serial, Computes: len(pushedState.Computes), Result: res},
		configArgsOf(o.planInputs).context())
	return nil
}

// readPushed reads state push's FILE ("-": standard input), within the
// limit of a state file.
func readPushed(file string, stdin io.Reader) ([]byte, error) {
	if file != "-" {
		data, err := bounded.Read(file, state.MaxFileSize)
		if err != nil {
			return nil, fmt.Errorf("reading the state to push: %w", err)
		}
		return data, nil
	}
	data, err := io.ReadAll(io.LimitReader(stdin, state.MaxFileSize+1))
	switch {
	case err != nil:
		return nil, fmt.Errorf("reading the state to push from standard input: %w", err)
	case len(data) > state.MaxFileSize:
		return nil, fmt.Errorf("the state on standard input is larger than a state file may be (%s)", bounded.MiB(state.MaxFileSize))
	}
	return data, nil
}

// pushAdvice is what to do about a refused push: make sure of the states,
// or -force, saying what it costs.
func pushAdvice(source string, a configArgs) string {
	return fmt.Sprintf("Compare the two first: `%s` prints the state there is now, and %s is the one you pushed. "+
		"If %s is the one to keep, add -force: the computes only the state there now records are forgotten (their endpoints keep running, unmanaged), "+
		"and plans saved before are refused by apply", a.command("state", "pull"), source, source)
}
