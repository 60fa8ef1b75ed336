package command

import (
	"fmt"
)

// checkFormat refuses a -format value that no view prints.
func checkFormat(format string) error {
	switch format {
	case "human", "json", "markdown":
		return nil
	}
	return fmt.Errorf("-format %q: use human, json or markdown", format)
}
