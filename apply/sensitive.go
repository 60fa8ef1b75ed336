package apply

import (
	"strings"

	"github.com/neonform/neonform/diff"
)

// hiddenError is a step's error with the texts the step set from sensitive
// variables replaced by diff.SensitiveValue where the service's message
// quotes them (README.md, Variables). errors.Is and As see the error as it
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
	text := hideTexts(err.Error(), s.SensitiveTexts())
	if text == err.Error() {
		return err
	}
	return &hiddenError{err: err, text: text}
}

// hideTexts is text with each of secrets (longest first) replaced by
// diff.SensitiveValue.
func hideTexts(text string, secrets []string) string {
	for _, secret := range secrets {
		text = strings.ReplaceAll(text, secret, diff.SensitiveValue)
	}
	return text
}
