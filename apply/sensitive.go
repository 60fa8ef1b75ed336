package apply

import (
	"github.com/neonform/neonform/diff"
)

// hiddenError is a step's error with the texts the step set from sensitive
// variables replaced by diff.SensitiveValue where the service's message
// quotes them (docs/configuration.md, Variables). errors.Is and As see the error as it
// was.
type hiddenError struct {
	err  error
	text string
}

func (e *hiddenError) Error() string { return e.text }
func (e *hiddenError) Unwrap() error { return e.err }

// hideSensitive is err with the sensitive texts of s hidden; err itself when
// it quotes none.
func hideSensitive(err error, s *diff.Step) error {
	if err == nil {
		return nil
	}
	text := diff.HideTexts(err.Error(), s.SensitiveTexts())
	if text == err.Error() {
		return err
	}
	return &hiddenError{err: err, text: text}
}
