package command

import "context"

// configInterrupted is the error of a run stopped by SIGINT or SIGTERM while
// it evaluated the configuration (config.Options.Context stops the
// evaluation at the next expression). The diagnostic printed before it says
// where; nothing was read from the service, locked or changed. It is
// context.Canceled, so apply ends as when interrupted at its question
// (afterInterrupt).
type configInterrupted struct{}

func (configInterrupted) Error() string {
	return "Interrupted while reading the configuration: nothing was changed."
}

func (configInterrupted) Unwrap() error { return context.Canceled }

// interruptedReading is configInterrupted if ctx was done while the
// configuration was read with errors: then the errors are the interrupt's.
func interruptedReading(ctx context.Context, hasErrors bool) error {
	if hasErrors && ctx.Err() != nil {
		return configInterrupted{}
	}
	return nil
}
